/*
 * enginepool.c - the engines of one analysis run (enginepool.h): the
 * options they all get, the first engine started to check them, the
 * cache's note of an earlier run, and an engine for each worker.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "enginepool.h"
#include "analyze.h"
#include "cache.h"
#include "enginefile.h"
#include "core/xalloc.h"

static void
say(usi_warn_fn fn, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
say(usi_warn_fn fn, void *ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(ctx, msg);
}

/* The option list's entry for name (case-insensitive), or -1. */
static long
find_option(char **list, size_t n, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncasecmp(list[i], name, len) && list[i][len] == '=')
			return (long)i;
	return -1;
}

/* Adds or replaces "name=value" in the list. */
static void
set_option(struct engine_pool *p, const char *name, size_t len,
    const char *value)
{
	long at = find_option(p->options, p->noptions, name, len);
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, name, len);
	strbuf_addf(&sb, "=%s", value);
	if (at >= 0) {
		free(p->options[at]);
		p->options[at] = strbuf_detach(&sb, NULL);
		return;
	}
	p->options = xreallocarray(p->options, p->noptions + 1,
	    sizeof(*p->options));
	p->options[p->noptions++] = strbuf_detach(&sb, NULL);
}

/* "Name=Value", the value after the first '=' (checked by the caller). */
static void
set_asked(struct engine_pool *p, const char *kv)
{
	set_option(p, kv, strcspn(kv, "="), strchr(kv, '=') + 1);
}

/* One of kifu's own defaults: only where the user set the option not. */
static void
set_default(struct engine_pool *p, const struct usi_option *o,
    const char *value)
{
	if (find_option(p->options, p->noptions, o->name, strlen(o->name)) < 0)
		set_option(p, o->name, strlen(o->name), value);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The options every engine gets (enginepool.h), decided from e's
 * declarations. `say_note`: the first engine's settling, which may tell
 * the user; a noted run's later one stays silent.
 */
static int
settle_options(struct engine_pool *p, struct usi_engine *e, int say_note,
    struct usi_error *err)
{
	const char *mpv = usi_multipv_option(e);
	const struct usi_option *o;
	size_t i;

	if (p->o.entry)
		for (i = 0; i < p->o.entry->noptions; i++)
			set_asked(p, p->o.entry->options[i]);
	for (i = 0; i < p->o.nasked; i++)
		set_asked(p, p->o.asked[i]);
	if ((o = usi_engine_option(e, "USI_AnalyseMode")) &&
	    o->type == USI_OPT_CHECK)
		set_default(p, o, "true");
	if ((o = usi_engine_option(e, "USI_OwnBook")) &&
	    o->type == USI_OPT_CHECK)
		set_default(p, o, "false");
	if (!strncmp(usi_engine_name(e), "gpsshogi", 8) &&
	    (o = usi_engine_option(e, "BookDepth")) && o->type == USI_OPT_SPIN &&
	    o->min <= 0)
		set_default(p, o, "0");
	if (p->o.multipv > 1 && !mpv) {
		err->status = USI_ERR_OPTION;
		snprintf(err->msg, sizeof(err->msg), "%s has no MultiPV option: "
		    "--multipv %d cannot be had from it", usi_engine_name(e),
		    p->o.multipv);
		return -1;
	}
	if (mpv) {
		char k[16];

		if (say_note && p->o.multipv == 1 && find_option(p->options,
		    p->noptions, mpv, strlen(mpv)) >= 0)
			say(p->o.note, p->o.warn_ctx, "%s is set by --option; "
			    "--multipv says 1", mpv);
		snprintf(k, sizeof(k), "%d", p->o.multipv);
		set_option(p, mpv, strlen(mpv), k);
	}
	qsort(p->options, p->noptions, sizeof(*p->options), cmp_str);
	return 0;
}

/* The name a run knows its engine by: its id name, else its program. */
static char *
name_of(const struct engine_pool *p, struct usi_engine *e)
{
	const char *n = usi_engine_name(e);

	if (!*n)
		n = p->o.argv[0];
	return xstrndup(n, strlen(n));
}

static void
make_setup(const struct engine_pool *p, const char *name, struct strbuf *out)
{
	analyze_setup(out, name, (const char *const *)p->options, p->noptions,
	    &p->o.limit, p->o.multipv);
}

/* Sends the option list to an engine, and isready. */
static int
configure(const struct engine_pool *p, struct usi_engine *e,
    struct usi_error *err)
{
	size_t i;

	for (i = 0; i < p->noptions; i++) {
		char *kv = xstrndup(p->options[i], strlen(p->options[i]));
		char *eq = strchr(kv, '=');
		int rc;

		*eq = '\0';
		rc = usi_set_option(e, kv, eq + 1, err);
		free(kv);
		if (rc < 0)
			return -1;
	}
	return usi_ready(e, err);
}

static int
start_engine(const struct engine_pool *p, usi_warn_fn warn, void *ctx,
    struct usi_engine **out, struct usi_error *err)
{
	struct usi_start_opts so;

	memset(&so, 0, sizeof(so));
	so.argv = p->o.argv;
	so.log_path = p->o.log_path;
	so.env = p->o.entry ? (const char *const *)p->o.entry->env : NULL;
	so.init_timeout_ms = p->o.init_timeout_ms;
	so.warn = warn;
	so.warn_ctx = ctx;
	so.on_spawn = p->o.on_spawn;
	so.on_reap = p->o.on_reap;
	so.spawn_ctx = p->o.spawn_ctx;
	return usi_start(&so, out, err);
}

void
enginepool_init(struct engine_pool *p, const struct enginepool_opts *o)
{
	memset(p, 0, sizeof(*p));
	p->o = *o;
	strbuf_init(&p->setup);
	strbuf_init(&p->key);
	pthread_mutex_init(&p->mu, NULL);
}

void
enginepool_release(struct engine_pool *p)
{
	size_t i;

	usi_close(p->first);
	for (i = 0; i < p->noptions; i++)
		free(p->options[i]);
	free(p->options);
	free(p->name);
	strbuf_release(&p->setup);
	strbuf_release(&p->key);
	pthread_mutex_destroy(&p->mu);
}

/*
 * The setup and the name from the cache's note: 1 when noted; 0 when
 * not (the key is kept, to note this run's).
 */
static int
take_note(struct engine_pool *p)
{
	const char **asked = NULL;
	struct strbuf name = STRBUF_INIT;
	size_t n = 0, i;
	int rc;

	if (p->o.entry)
		for (i = 0; i < p->o.entry->noptions; i++) {
			asked = xreallocarray(asked, n + 1, sizeof(*asked));
			asked[n++] = p->o.entry->options[i];
		}
	for (i = 0; i < p->o.nasked; i++) {
		asked = xreallocarray(asked, n + 1, sizeof(*asked));
		asked[n++] = p->o.asked[i];
	}
	rc = analyze_engine_key(&p->key, (const char *const *)p->o.argv,
	    p->o.entry ? (const char *const *)p->o.entry->env : NULL, asked, n,
	    &p->o.limit, p->o.multipv);
	free(asked);
	if (rc < 0) {
		strbuf_reset(&p->key);
		return 0;
	}
	strbuf_reset(&p->setup);
	if (!cache_engine_get(p->o.cache, p->key.buf, &p->setup, &name)) {
		strbuf_release(&name);
		return 0;
	}
	free(p->name);
	p->name = strbuf_detach(&name, NULL);
	p->noted = 1;
	return 1;
}

/* The first engine: started, configured, its limit tried. */
static int
first_engine(struct engine_pool *p, struct usi_error *err)
{
	size_t i;

	if (start_engine(p, p->o.warn, p->o.warn_ctx, &p->first, err) < 0)
		return -1;
	free(p->name);
	p->name = name_of(p, p->first);
	if (settle_options(p, p->first, 1, err) < 0 ||
	    configure(p, p->first, err) < 0 ||
	    usi_check_limit(p->first, &p->o.limit, err) < 0)
		return -1;
	/* A probe that ended the engine leaves it to be started again. */
	if (!usi_alive(p->first) && usi_restart(p->first, err) < 0)
		return -1;
	strbuf_reset(&p->setup);
	make_setup(p, p->name, &p->setup);
	/* The setup is a line a key: a break would make another key. */
	for (i = 0; i < p->noptions; i++)
		if (strchr(p->options[i], '\n')) {
			err->status = USI_ERR_OPTION;
			snprintf(err->msg, sizeof(err->msg), "an option holds a "
			    "line break");
			return -1;
		}
	p->settled = 1;
	return 0;
}

int
enginepool_prepare(struct engine_pool *p, struct usi_error *err)
{
	if (p->o.cache && take_note(p))
		return 0;
	if (first_engine(p, err) < 0)
		return -1;
	if (p->o.cache && p->key.len)
		cache_engine_put(p->o.cache, p->key.buf, p->setup.buf, p->name);
	return 0;
}

const char *
enginepool_setup(const struct engine_pool *p)
{
	return p->setup.buf ? p->setup.buf : "";
}

const char *
enginepool_name(const struct engine_pool *p)
{
	return p->name;
}

/*
 * In a noted run, the first engine started settles the options, and
 * must give the noted setup: an engine changed behind the same file (a
 * wrapper's) is caught here, its note dropped, and no position is
 * searched by it under the old setup.
 */
static int
settle_noted(struct engine_pool *p, struct usi_engine *e,
    struct usi_error *err)
{
	int rc = 0;

	if (!p->noted)
		return 0;
	pthread_mutex_lock(&p->mu);
	if (!p->settled && !p->note_wrong[0]) {
		struct strbuf setup = STRBUF_INIT;
		char *name = name_of(p, e);
		struct usi_error why;

		if (settle_options(p, e, 0, &why) < 0) {
			snprintf(p->note_wrong, sizeof(p->note_wrong), "%s",
			    why.msg);
		} else {
			make_setup(p, name, &setup);
			if (strcmp(setup.buf, p->setup.buf))
				snprintf(p->note_wrong, sizeof(p->note_wrong),
				    "%.200s is not the engine the cache noted "
				    "for this command (its name or options "
				    "changed): the note is dropped; run again",
				    name);
			else
				p->settled = 1;
		}
		if (p->note_wrong[0])
			cache_engine_forget(p->o.cache, p->key.buf);
		strbuf_release(&setup);
		free(name);
	}
	if (p->note_wrong[0]) {
		err->status = USI_ERR_START;
		snprintf(err->msg, sizeof(err->msg), "%s", p->note_wrong);
		rc = -1;
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

struct usi_engine *
enginepool_take(struct engine_pool *p, usi_warn_fn warn, void *warn_ctx,
    struct usi_error *err)
{
	struct usi_engine *e;

	pthread_mutex_lock(&p->mu);
	e = p->first;
	p->first = NULL;
	pthread_mutex_unlock(&p->mu);
	if (e) {
		usi_engine_set_warn(e, warn, warn_ctx);
		return e;
	}
	if (start_engine(p, warn, warn_ctx, &e, err) < 0 ||
	    settle_noted(p, e, err) < 0 || configure(p, e, err) < 0) {
		usi_close(e);
		return NULL;
	}
	return e;
}

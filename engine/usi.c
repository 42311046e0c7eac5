/*
 * usi.c - the USI client (usi.h): the engine's process, its lines, and
 * what they mean.
 *
 * The process is started with fork and execve, the program found in the
 * parent (so that "no such file" and "not executable" are said by kifu,
 * plainly) and a close-on-exec pipe telling the parent why an exec
 * failed. Between fork and exec the child calls only async-signal-safe
 * functions: kifu may have threads.
 */
#define _GNU_SOURCE	/* pipe2, closefrom, prctl */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "usi.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "core/sfen.h"
#include "core/usi.h"
#include "core/xalloc.h"

extern char **environ;

/* --- what known engines take ------------------------------------------- */

enum {
	GO_NODES = 1 << 0, GO_DEPTH = 1 << 1, GO_MOVETIME = 1 << 2,
	GO_BYOYOMI = 1 << 3,
	GO_CLOCK = 1 << 4,	/* btime wtime byoyomi */
	GO_INC = 1 << 5		/* binc winc (Fischer) */
};

/*
 * Engines whose behaviour was measured (engines.md 1.5, 1.6), by the
 * start of their `id name`. An engine not listed is assumed to take what
 * the USI draft lists, and a limit is tried once before it is used.
 */
struct usi_quirks {
	const char *name_prefix;
	unsigned go;		/* GO_*: the limits it takes */
	int known;		/* the table is sure: no probe */
	/* go movetime is sent as `go btime 0 wtime 0 byoyomi T`, whole
	   seconds (gpsusi divides every time by 1000). */
	int movetime_as_byoyomi;
	int stop_before_quit;	/* quit waits for a running search */
	int kingless_crash;	/* a go without the mover's king: SIGSEGV */
};

static const struct usi_quirks quirks_table[] = {
	/* binc aborts it (engines.md 1.3) */
	{ "gpsshogi", GO_BYOYOMI | GO_MOVETIME | GO_CLOCK, 1, 1, 1, 1 },
	{ "Fairy-Stockfish", GO_NODES | GO_DEPTH | GO_MOVETIME | GO_BYOYOMI |
	    GO_CLOCK | GO_INC, 1, 0, 0, 0 },
};

static const struct usi_quirks quirks_default = {
	"", GO_NODES | GO_DEPTH | GO_MOVETIME | GO_BYOYOMI | GO_CLOCK | GO_INC,
	0, 0, 1, 0
};

static const struct usi_quirks *
quirks_for(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(quirks_table) / sizeof(quirks_table[0]); i++)
		if (!strncmp(name, quirks_table[i].name_prefix,
		    strlen(quirks_table[i].name_prefix)))
			return &quirks_table[i];
	return &quirks_default;
}

/* --- the engine -------------------------------------------------------- */

struct sent_option {
	char *name, *value;	/* value NULL: a button */
};

struct usi_engine {
	/* how to start it */
	char **argv;		/* owned */
	char *path;		/* the program, resolved */
	char **envp;		/* owned: the environment it gets */
	char *log_path;
	long long init_timeout, stop_grace, quit_grace;
	int shared_osl_home, no_parent_death;
	usi_warn_fn warn;
	void *warn_ctx;
	void (*on_spawn)(void *, pid_t, const char *);
	void (*on_reap)(void *, pid_t);
	void *spawn_ctx;
	char *home;		/* private OSL_HOME, or NULL */
	/* the process */
	pid_t pid;		/* 0: not running */
	int in, out;		/* its stdin (ours to write), stdout; -1 */
	/* what it said */
	char *name, *author;
	struct usi_option *opts;
	size_t nopts, aopts;
	const struct usi_quirks *q;
	unsigned probed_ok;	/* GO_* tried and answered */
	struct sent_option *sent;
	size_t nsent, asent;
	int restarts;
	long long go_sent_us;	/* the last go written, usi_now_us */
	/* reading */
	char *buf;		/* USI_LINE_MAX + 1 bytes */
	size_t off, len;	/* unread bytes: buf[off..len) */
	int skipping;		/* inside an over-long line */
	long long dropped;	/* over-long lines dropped, not yet said */
	int eof;
};

static const char *const status_names[] = {
	"ok", "start", "timeout", "died", "protocol", "option", "unsupported",
	"system"
};

const char *
usi_status_name(enum usi_status s)
{
	return (unsigned)s < sizeof(status_names) / sizeof(status_names[0]) ?
	    status_names[s] : "unknown";
}

static int
fail(struct usi_error *err, enum usi_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct usi_error *err, enum usi_status st, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->status = st;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void
warn(const struct usi_engine *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
warn(const struct usi_engine *e, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!e->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	e->warn(e->warn_ctx, msg);
}

/* The engine's name for messages: its id name, else the program. */
static const char *
label(const struct usi_engine *e)
{
	if (e->name && *e->name)
		return e->name;
	return e->argv && e->argv[0] ? e->argv[0] : "engine";
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long
usi_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* --- splitting a command line ------------------------------------------ */

int
usi_split_command(const char *cmd, char ***argv, struct usi_error *err)
{
	char **v = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf w = STRBUF_INIT;
	const char *p = cmd;

	*argv = NULL;
	for (;;) {
		int in_word = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		strbuf_reset(&w);
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			in_word = 1;
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');

				if (!q)
					goto unclosed;
				strbuf_add(&w, p + 1, (size_t)(q - p - 1));
				p = q + 1;
			} else if (*p == '"') {
				for (p++; *p != '"'; p++) {
					if (!*p)
						goto unclosed;
					if (*p == '\\' && p[1] && strchr("\"\\$`",
					    p[1]))
						p++;
					else if (*p == '\\' && p[1] == '\n') {
						p++;
						continue;
					}
					strbuf_addc(&w, *p);
				}
				p++;
			} else if (*p == '\\') {
				if (!p[1]) {
					p++;
					continue;
				}
				if (p[1] != '\n')
					strbuf_addc(&w, p[1]);
				p += 2;
			} else {
				strbuf_addc(&w, *p++);
			}
		}
		if (in_word) {
			ALLOC_GROW(v, n + 2, alloc);
			v[n++] = xstrndup(w.buf ? w.buf : "", w.len);
			v[n] = NULL;
		}
	}
	strbuf_release(&w);
	if (!n) {
		free(v);
		return fail(err, USI_ERR_START, "the engine command is empty");
	}
	*argv = v;
	return (int)n;
unclosed:
	strbuf_release(&w);
	if (v) {
		v[n] = NULL;
		usi_argv_free(v);
	}
	return fail(err, USI_ERR_START, "the engine command '%s' has an "
	    "unclosed quote", cmd);
}

void
usi_argv_free(char **argv)
{
	size_t i;

	if (!argv)
		return;
	for (i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* --- option lines ------------------------------------------------------ */

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The next blank-separated word: [*w, *w + *n); returns past it. */
static const char *
next_word(const char *p, const char *end, const char **w, size_t *n)
{
	const char *s;

	p = skip_blanks(p, end);
	s = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	*w = s;
	*n = (size_t)(p - s);
	return p;
}

static int
word_is(const char *w, size_t n, const char *s)
{
	return n == strlen(s) && memcmp(w, s, n) == 0;
}

/* A decimal integer that is the whole of [w, w+n); 0 or -1. */
static int
read_ll(const char *w, size_t n, long long *v)
{
	long long x = 0;
	int neg = 0;
	size_t i = 0;

	if (n && (w[0] == '-' || w[0] == '+'))
		neg = w[i++] == '-';
	if (i == n)
		return -1;
	for (; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -1;
		if (x > (LLONG_MAX - 9) / 10)
			x = LLONG_MAX / 2;	/* saturate: absurd, not UB */
		else
			x = x * 10 + (w[i] - '0');
	}
	*v = neg ? -x : x;
	return 0;
}

/* The position of " <key> " as a whole word in [p, end), or NULL. */
static const char *
find_key(const char *p, const char *end, const char *key)
{
	size_t k = strlen(key);

	for (; p + k <= end; p++)
		if (memcmp(p, key, k) == 0 && (p[-1] == ' ' || p[-1] == '\t') &&
		    (p + k == end || p[k] == ' ' || p[k] == '\t'))
			return p;
	return NULL;
}

/*
 * Makes s valid UTF-8 without control characters, in place: any other
 * byte becomes '?'. What an engine calls itself goes into records and
 * JSON.
 */
static void
sanitize(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 :
		    (*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 ? 4 : 0;
		int k, ok = n > 0;

		for (k = 1; ok && k < n; k++)
			ok = (p[k] & 0xc0) == 0x80;
		if (ok && n == 2 && *p < 0xc2)
			ok = 0;	/* overlong */
		if (ok && n == 3 && ((*p == 0xe0 && p[1] < 0xa0) ||
		    (*p == 0xed && p[1] >= 0xa0)))
			ok = 0;	/* overlong, or a surrogate */
		if (ok && n == 4 && ((*p == 0xf0 && p[1] < 0x90) ||
		    *p > 0xf4 || (*p == 0xf4 && p[1] >= 0x90)))
			ok = 0;
		if (!ok || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

static char *
trimmed_dup(const char *s, const char *e)
{
	s = skip_blanks(s, e);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

int
usi_parse_option(const char *line, size_t len, struct usi_option *o,
    const char **why)
{
	const char *end = line + len, *p, *t, *w;
	size_t n;

	memset(o, 0, sizeof(*o));
	p = next_word(line, end, &w, &n);
	if (!word_is(w, n, "option"))
		return *why = "not an option line", -1;
	p = next_word(p, end, &w, &n);
	if (!word_is(w, n, "name"))
		return *why = "no name", -1;
	/* The name is everything up to " type ": it may hold spaces. */
	if (!(t = find_key(p, end, "type")))
		return *why = "no type", -1;
	o->name = trimmed_dup(p, t);
	if (!*o->name) {
		usi_option_release(o);
		return *why = "an empty name", -1;
	}
	p = next_word(t + 4, end, &w, &n);
	if (word_is(w, n, "check"))
		o->type = USI_OPT_CHECK;
	else if (word_is(w, n, "spin"))
		o->type = USI_OPT_SPIN;
	else if (word_is(w, n, "combo"))
		o->type = USI_OPT_COMBO;
	else if (word_is(w, n, "button"))
		o->type = USI_OPT_BUTTON;
	else if (word_is(w, n, "string"))
		o->type = USI_OPT_STRING;
	else if (word_is(w, n, "filename"))
		o->type = USI_OPT_FILENAME;
	else {
		usi_option_release(o);
		return *why = "an unknown type", -1;
	}
	o->min = LLONG_MIN;
	o->max = LLONG_MAX;
	while (p < end) {
		const char *key, *next;
		size_t kn;

		p = next_word(p, end, &key, &kn);
		if (!kn)
			break;
		if (word_is(key, kn, "default") && (o->type == USI_OPT_STRING ||
		    o->type == USI_OPT_FILENAME)) {
			/* A string's default runs to the end of the line. */
			free(o->def);
			o->def = trimmed_dup(p, end);
			p = end;
			continue;
		}
		/* A value runs to the next keyword: combo values may hold
		   spaces. */
		next = p;
		for (;;) {
			const char *a = next_word(next, end, &w, &n);

			if (!n || word_is(w, n, "default") ||
			    word_is(w, n, "min") || word_is(w, n, "max") ||
			    word_is(w, n, "var"))
				break;
			next = a;
		}
		if (word_is(key, kn, "default")) {
			free(o->def);
			o->def = trimmed_dup(p, next);
		} else if (word_is(key, kn, "min") || word_is(key, kn, "max")) {
			long long v;
			char *s = trimmed_dup(p, next);

			if (read_ll(s, strlen(s), &v) < 0) {
				free(s);
				usi_option_release(o);
				*why = "a min or max that is no number";
				return -1;
			}
			free(s);
			if (key[1] == 'i')
				o->min = v;
			else
				o->max = v;
		} else if (word_is(key, kn, "var")) {
			o->vars = xreallocarray(o->vars, o->nvars + 1,
			    sizeof(*o->vars));
			o->vars[o->nvars++] = trimmed_dup(p, next);
		}
		/* Any other word is ignored, as the protocol asks. */
		p = next;
	}
	if (o->type == USI_OPT_STRING && o->def && !strcmp(o->def, "<empty>")) {
		free(o->def);
		o->def = xstrndup("", 0);
	}
	return 0;
}

void
usi_option_release(struct usi_option *o)
{
	size_t i;

	free(o->name);
	free(o->def);
	for (i = 0; i < o->nvars; i++)
		free(o->vars[i]);
	free(o->vars);
	memset(o, 0, sizeof(*o));
}

/* --- info lines -------------------------------------------------------- */

static const char *
read_score(const char *p, const char *end, struct usi_info *in)
{
	const char *w;
	size_t n;

	p = next_word(p, end, &w, &n);
	if (word_is(w, n, "cp")) {
		p = next_word(p, end, &w, &n);
		in->score.kind = USI_SCORE_CP;
		if (read_ll(w, n, &in->score.cp) < 0)
			return in->bad = 1, p;
	} else if (word_is(w, n, "mate")) {
		p = next_word(p, end, &w, &n);
		in->score.kind = USI_SCORE_MATE;
		if (word_is(w, n, "+") || word_is(w, n, "-")) {
			in->score.sign = w[0] == '+' ? 1 : -1;
			in->score.mate_known = 0;
		} else {
			long long v;

			if (read_ll(w, n, &v) < 0)
				return in->bad = 1, p;
			if (v > 100000)
				v = 100000;
			if (v < -100000)
				v = -100000;
			if (v == 0) {
				/* Decided from the position (usi.h); a sign
				   written says who the engine meant. */
				in->score.sign = w[0] == '-' ? -1 :
				    w[0] == '+' ? 1 : 0;
				in->score.plies = 0;
				in->score.mate_known = 0;
			} else {
				in->score.sign = v > 0 ? 1 : -1;
				in->score.plies = (int)(v > 0 ? v : -v);
				in->score.mate_known = 1;
			}
		}
	} else {
		return in->bad = 1, p;
	}
	in->has_score = 1;
	in->score.bound = USI_BOUND_EXACT;
	/* A bound follows the score it qualifies. */
	{
		const char *q = next_word(p, end, &w, &n);

		if (word_is(w, n, "lowerbound")) {
			in->score.bound = USI_BOUND_LOWER;
			p = q;
		} else if (word_is(w, n, "upperbound")) {
			in->score.bound = USI_BOUND_UPPER;
			p = q;
		}
	}
	return p;
}

/*
 * A count of an info line (depth, seldepth, multipv, hashfull, time,
 * nodes, nps), its value after it: stored, or the field marked bad (and
 * left unknown). Returns 0 when w is no such field.
 */
static int
count_field(struct usi_info *in, const char *w, size_t n, const char **p,
    const char *end)
{
	static const char *const names[] = {
		"depth", "seldepth", "multipv", "hashfull", "time", "nodes", "nps"
	};
	const char *v;
	size_t vn, k;
	long long x;
	int ok;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (word_is(w, n, names[k]))
			break;
	if (k == sizeof(names) / sizeof(names[0]))
		return 0;
	*p = next_word(*p, end, &v, &vn);
	ok = read_ll(v, vn, &x) == 0 && x >= 0 && (k > 3 || x <= INT_MAX);
	if (!ok) {
		in->bad = 1;
		x = k == 2 ? 0 : -1;
	}
	switch (k) {
	case 0: in->depth = (int)x; break;
	case 1: in->seldepth = (int)x; break;
	case 2: in->multipv = (int)x; break;
	case 3: in->hashfull = (int)x; break;
	case 4: in->time_ms = x; break;
	case 5: in->nodes = x; break;
	default: in->nps = x; break;
	}
	return 1;
}

int
usi_parse_info(const char *line, size_t len, struct usi_info *in)
{
	const char *end = line + len, *p, *w;
	size_t n;

	memset(in, 0, sizeof(*in));
	in->depth = in->seldepth = in->hashfull = -1;
	in->nodes = in->time_ms = in->nps = -1;
	p = next_word(line, end, &w, &n);
	if (!word_is(w, n, "info"))
		return -1;
	while (p < end) {
		p = next_word(p, end, &w, &n);
		if (!n)
			break;
		if (word_is(w, n, "pv")) {
			p = skip_blanks(p, end);
			in->pv = p;
			in->pv_len = (size_t)(end - p);
			break;
		}
		if (word_is(w, n, "string") || word_is(w, n, "refutation") ||
		    word_is(w, n, "currline"))
			break;	/* the rest of the line is theirs */
		if (word_is(w, n, "score")) {
			p = read_score(p, end, in);
			continue;
		}
		if (count_field(in, w, n, &p, end))
			continue;
		if (word_is(w, n, "currmove") ||
		    word_is(w, n, "currmovenumber") ||
		    word_is(w, n, "tbhits") || word_is(w, n, "cpuload")) {
			p = next_word(p, end, &w, &n);
			continue;
		}
		/* Unknown: ignored, as the protocol asks. */
	}
	return 0;
}

/* --- results ----------------------------------------------------------- */

void
usi_result_init(struct usi_result *r)
{
	memset(r, 0, sizeof(*r));
	usi_result_reset(r);
}

void
usi_result_reset(struct usi_result *r)
{
	r->best_kind = USI_BEST_NONE;
	r->best = r->ponder = MOVE_NONE;
	r->nlines = 0;
	r->nodes = r->time_ms = -1;
	r->depth = r->seldepth = -1;
	r->elapsed_ms = 0;
}

void
usi_result_release(struct usi_result *r)
{
	free(r->lines);
	memset(r, 0, sizeof(*r));
}

void
usi_result_copy(struct usi_result *dst, const struct usi_result *src)
{
	struct usi_line *lines = dst->lines;
	int alines = dst->alines;

	if (alines < src->nlines) {
		lines = xreallocarray(lines, (size_t)src->nlines,
		    sizeof(*lines));
		alines = src->nlines;
	}
	*dst = *src;
	dst->lines = lines;
	dst->alines = alines;
	if (src->nlines)
		memcpy(lines, src->lines, (size_t)src->nlines * sizeof(*lines));
}

static struct usi_line *
result_add_line(struct usi_result *r)
{
	if (r->nlines == r->alines) {
		r->alines = r->alines ? r->alines * 2 : 1;
		r->lines = xreallocarray(r->lines, (size_t)r->alines,
		    sizeof(*r->lines));
	}
	return &r->lines[r->nlines++];
}

static void
add_score(struct strbuf *out, const struct usi_score *s)
{
	if (s->kind == USI_SCORE_CP) {
		strbuf_addf(out, " score cp %lld", s->cp);
	} else if (s->kind == USI_SCORE_MATE) {
		if (s->mate_known)
			strbuf_addf(out, " score mate %d", s->sign * s->plies);
		else
			strbuf_addf(out, " score mate %c", s->sign < 0 ? '-' :
			    '+');
	} else {
		return;
	}
	if (s->bound == USI_BOUND_LOWER)
		strbuf_adds(out, " lowerbound");
	else if (s->bound == USI_BOUND_UPPER)
		strbuf_adds(out, " upperbound");
}

static void
add_move(struct strbuf *out, move m)
{
	char buf[USI_MOVE_MAX];

	usi_format_move(m, buf);
	strbuf_addc(out, ' ');
	strbuf_adds(out, buf);
}

void
usi_result_format(const struct usi_result *r, struct strbuf *out)
{
	int i, k;

	for (i = 0; i < r->nlines; i++) {
		const struct usi_line *l = &r->lines[i];

		strbuf_addf(out, "info multipv %d", l->multipv);
		if (l->depth >= 0)
			strbuf_addf(out, " depth %d", l->depth);
		if (l->seldepth >= 0)
			strbuf_addf(out, " seldepth %d", l->seldepth);
		add_score(out, &l->score);
		if (l->nodes >= 0)
			strbuf_addf(out, " nodes %lld", l->nodes);
		if (l->nps >= 0)
			strbuf_addf(out, " nps %lld", l->nps);
		if (l->time_ms >= 0)
			strbuf_addf(out, " time %lld", l->time_ms);
		if (l->hashfull >= 0)
			strbuf_addf(out, " hashfull %d", l->hashfull);
		if (l->npv) {
			strbuf_adds(out, " pv");
			for (k = 0; k < l->npv; k++)
				add_move(out, l->pv[k]);
		}
		strbuf_addc(out, '\n');
	}
	/* The totals, when no line carries them. */
	strbuf_adds(out, "info");
	if (r->depth >= 0)
		strbuf_addf(out, " depth %d", r->depth);
	if (r->seldepth >= 0)
		strbuf_addf(out, " seldepth %d", r->seldepth);
	if (r->nodes >= 0)
		strbuf_addf(out, " nodes %lld", r->nodes);
	if (r->time_ms >= 0)
		strbuf_addf(out, " time %lld", r->time_ms);
	strbuf_addc(out, '\n');
	strbuf_adds(out, "bestmove");
	if (r->best_kind == USI_BEST_RESIGN)
		strbuf_adds(out, " resign");
	else if (r->best_kind == USI_BEST_WIN)
		strbuf_adds(out, " win");
	else if (r->best_kind == USI_BEST_MOVE) {
		add_move(out, r->best);
		if (r->ponder) {
			strbuf_adds(out, " ponder");
			add_move(out, r->ponder);
		}
	}
	strbuf_addc(out, '\n');
}

/*
 * What one search has said so far: per rank, the last line with a score
 * and the last exact one; for rank 1 a few more, since a PV may start
 * with another move than the bestmove (gpsusi's MultiPVWidth).
 */
#define HIST 8

struct seen_line {
	int used;
	struct usi_info in;	/* in.pv points into text */
	struct strbuf text;	/* the PV's text */
};

struct rank_seen {
	struct seen_line last, exact;
};

struct collect {
	int multipv;
	struct rank_seen *ranks;	/* multipv of them */
	struct seen_line hist[HIST];	/* rank 1, newest at (nhist-1)%HIST */
	int nhist;
	long long nodes, time_ms;
	int depth, seldepth;
	int bad;		/* info lines with a field not read */
};

static void
seen_init(struct seen_line *s)
{
	s->used = 0;
	strbuf_init(&s->text);
}

static void
collect_init(struct collect *c, int multipv)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->multipv = multipv < 1 ? 1 : multipv;
	c->ranks = xcalloc((size_t)c->multipv, sizeof(*c->ranks));
	for (i = 0; i < c->multipv; i++) {
		seen_init(&c->ranks[i].last);
		seen_init(&c->ranks[i].exact);
	}
	for (i = 0; i < HIST; i++)
		seen_init(&c->hist[i]);
	c->nodes = c->time_ms = -1;
	c->depth = c->seldepth = -1;
}

static void
collect_release(struct collect *c)
{
	int i;

	for (i = 0; i < c->multipv; i++) {
		strbuf_release(&c->ranks[i].last.text);
		strbuf_release(&c->ranks[i].exact.text);
	}
	for (i = 0; i < HIST; i++)
		strbuf_release(&c->hist[i].text);
	free(c->ranks);
}

static void
seen_set(struct seen_line *s, const struct usi_info *in)
{
	s->used = 1;
	s->in = *in;
	strbuf_reset(&s->text);
	strbuf_add(&s->text, in->pv ? in->pv : "", in->pv ? in->pv_len : 0);
	s->in.pv = s->text.buf;
}

static void
collect_info(struct collect *c, const char *line, size_t len)
{
	struct usi_info in;
	int rank;

	if (usi_parse_info(line, len, &in) < 0)
		return;
	if (in.bad)
		c->bad++;
	if (in.nodes >= 0)
		c->nodes = in.nodes;
	if (in.time_ms >= 0)
		c->time_ms = in.time_ms;
	if (in.depth >= 0)
		c->depth = in.depth;
	if (in.seldepth >= 0)
		c->seldepth = in.seldepth;
	if (!in.has_score)
		return;
	rank = in.multipv > 0 ? in.multipv : 1;
	if (rank > c->multipv)
		return;
	seen_set(&c->ranks[rank - 1].last, &in);
	if (in.score.bound == USI_BOUND_EXACT)
		seen_set(&c->ranks[rank - 1].exact, &in);
	if (rank == 1)
		seen_set(&c->hist[c->nhist++ % HIST], &in);
}

/* Whether a PV's text starts with the move `first` ("7g7f"). */
static int
pv_starts(const struct seen_line *s, const char *first)
{
	const char *w;
	size_t n;

	next_word(s->in.pv, s->in.pv + s->text.len, &w, &n);
	return n && word_is(w, n, first);
}

/*
 * The line to report for rank 1 (engines.md 1.5.3, 1.6.5): the newest
 * exact line whose PV starts with the bestmove, else the newest such
 * line, else the newest exact line, else the newest.
 */
static const struct seen_line *
pick_first(const struct collect *c, const char *best)
{
	int pass, i;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < HIST && i < c->nhist; i++) {
			const struct seen_line *s =
			    &c->hist[(c->nhist - 1 - i) % HIST];

			if (best && pv_starts(s, best) && (pass == 1 ||
			    s->in.score.bound == USI_BOUND_EXACT))
				return s;
		}
	if (c->ranks[0].exact.used)
		return &c->ranks[0].exact;
	return c->ranks[0].last.used ? &c->ranks[0].last : NULL;
}

/* Mate 0 is decided from the position: no legal move, mated now. */
static void
settle_score(struct usi_score *s, const struct position *pos)
{
	if (s->kind != USI_SCORE_MATE || s->mate_known || s->sign)
		return;
	if (movegen_count(pos) == 0) {
		s->sign = -1;
		s->plies = 0;
		s->mate_known = 1;
	} else {
		s->sign = 1;
	}
}

/*
 * Reads a move from the engine as the rules see it in pos. Returns 0 and
 * *m, or -1 if it is no move or an illegal one (why in *rule).
 */
static int
judge_move(const struct position *pos, const char *w, size_t n, move *m,
    const char **why)
{
	struct move_claim cl;
	enum rule_id rule;

	if (n >= USI_MOVE_MAX || usi_parse_move(pos->v, w, n, &cl) < 0)
		return *why = "not a USI move", -1;
	if ((rule = rules_check_move(pos, &cl, m)) != RULE_OK)
		return *why = rule_description(rule), -1;
	return 0;
}

static void
fill_line(struct usi_line *l, const struct seen_line *s, int rank,
    const struct position *pos, usi_warn_fn wf, void *wctx)
{
	struct position p = *pos;
	const char *q = s->in.pv, *end = s->in.pv + s->text.len, *w;
	size_t n;

	memset(l, 0, sizeof(*l));
	l->multipv = rank;
	l->score = s->in.score;
	settle_score(&l->score, pos);
	l->depth = s->in.depth;
	l->seldepth = s->in.seldepth;
	l->nodes = s->in.nodes;
	l->time_ms = s->in.time_ms;
	l->nps = s->in.nps;
	l->hashfull = s->in.hashfull;
	for (;;) {
		const char *why;
		struct undo u;
		move m;

		q = next_word(q, end, &w, &n);
		if (!n)
			break;
		/*
		 * gpsusi ends a lost position's PV with "resign", and writes
		 * its search's null move as "pass" (in PVs where the other
		 * side has no good move): the line ends there, no error, as
		 * no record can hold a pass.
		 */
		if (word_is(w, n, "resign") || word_is(w, n, "win") ||
		    word_is(w, n, "pass"))
			break;
		if (l->npv == USI_PV_MAX)
			break;
		if (judge_move(&p, w, n, &m, &why) < 0) {
			if (wf) {
				char msg[256];

				snprintf(msg, sizeof(msg), "PV %d cut at its "
				    "move %d, '%.*s': %s", rank, l->npv + 1,
				    (int)(n > 16 ? 16 : n), w, why);
				wf(wctx, msg);
			}
			l->pv_cut = 1;
			break;
		}
		l->pv[l->npv++] = m;
		position_do_move(&p, m, &u);
	}
}

/*
 * Turns what a search said, and its bestmove line, into r. Returns 0,
 * or -1 (USI_ERR_PROTOCOL) for an empty or illegal bestmove.
 */
static int
finish_result(struct collect *c, const char *line, size_t len,
    const struct position *pos, struct usi_result *r, usi_warn_fn wf,
    void *wctx, const char *who, struct usi_error *err)
{
	const char *end = line + len, *p, *w, *why;
	char best[USI_MOVE_MAX] = "";
	size_t n;
	int i;

	usi_result_reset(r);
	p = next_word(line, end, &w, &n);	/* "bestmove" */
	p = next_word(p, end, &w, &n);
	if (!n)
		return fail(err, USI_ERR_PROTOCOL, "%s sent an empty bestmove",
		    who);
	if (word_is(w, n, "resign")) {
		r->best_kind = USI_BEST_RESIGN;
	} else if (word_is(w, n, "win")) {
		r->best_kind = USI_BEST_WIN;
	} else {
		if (judge_move(pos, w, n, &r->best, &why) < 0)
			return fail(err, USI_ERR_PROTOCOL, "%s sent an illegal "
			    "bestmove '%.*s': %s", who, (int)(n > 32 ? 32 : n),
			    w, why);
		r->best_kind = USI_BEST_MOVE;
		memcpy(best, w, n);
		best[n] = '\0';
		p = next_word(p, end, &w, &n);
		if (word_is(w, n, "ponder")) {
			struct position after = *pos;
			struct undo u;
			move m;

			next_word(p, end, &w, &n);
			position_do_move(&after, r->best, &u);
			if (n && judge_move(&after, w, n, &m, &why) == 0)
				r->ponder = m;
			else if (n && wf) {
				char msg[160];

				snprintf(msg, sizeof(msg), "ponder move '%.*s' "
				    "ignored: %s", (int)(n > 16 ? 16 : n), w,
				    why);
				wf(wctx, msg);
			}
		}
	}
	r->nodes = c->nodes;
	r->time_ms = c->time_ms;
	r->depth = c->depth;
	r->seldepth = c->seldepth;
	for (i = 0; i < c->multipv; i++) {
		const struct seen_line *s = i == 0 ? pick_first(c, *best ? best :
		    NULL) : c->ranks[i].exact.used ? &c->ranks[i].exact :
		    c->ranks[i].last.used ? &c->ranks[i].last : NULL;

		if (!s)
			break;
		fill_line(result_add_line(r), s, i + 1, pos, wf, wctx);
	}
	return 0;
}

int
usi_result_parse(const char *text, const struct position *pos, int multipv,
    struct usi_result *r, usi_warn_fn wf, void *wctx, struct usi_error *err)
{
	struct collect c;
	const char *p = text;
	int rc = fail(err, USI_ERR_PROTOCOL, "no bestmove line");

	collect_init(&c, multipv);
	while (*p) {
		const char *e = strchr(p, '\n'), *w;
		size_t len, n;

		if (!e)
			e = p + strlen(p);
		len = (size_t)(e - p);
		next_word(p, e, &w, &n);
		if (word_is(w, n, "bestmove")) {
			rc = finish_result(&c, p, len, pos, r, wf, wctx,
			    "the cache", err);
			break;
		}
		collect_info(&c, p, len);
		p = *e ? e + 1 : e;
	}
	collect_release(&c);
	return rc;
}

/* --- the process ------------------------------------------------------- */

/* Whether path is a file this process may execute; errno says why not. */
static int
executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return 0;
	}
	if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
		errno = EACCES;
		return 0;
	}
	return 1;
}

/* Debian's engines live in /usr/games, which root's PATH lacks. */
char *
usi_program(const char *argv0, struct usi_error *err)
{
	const char *path = getenv("PATH"), *p;
	struct strbuf sb = STRBUF_INIT;
	int seen_eacces = 0;

	if (!*argv0)
		return fail(err, USI_ERR_START, "the engine command is empty"),
		    NULL;
	if (strchr(argv0, '/')) {
		if (executable(argv0))
			return xstrndup(argv0, strlen(argv0));
		return fail(err, USI_ERR_START, "cannot run the engine '%s': "
		    "%s", argv0, errno == ENOENT ? "no such file" :
		    errno == EACCES ? "not executable" : strerror(errno)), NULL;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	strbuf_adds(&sb, path);
	strbuf_adds(&sb, ":/usr/games:/usr/local/games");
	for (p = sb.buf; ; ) {
		const char *c = strchr(p, ':');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		struct strbuf f = STRBUF_INIT;

		strbuf_add(&f, n ? p : ".", n ? n : 1);
		strbuf_addc(&f, '/');
		strbuf_adds(&f, argv0);
		if (executable(f.buf)) {
			strbuf_release(&sb);
			return strbuf_detach(&f, NULL);
		}
		if (errno == EACCES)
			seen_eacces = 1;
		strbuf_release(&f);
		if (!c)
			break;
		p = c + 1;
	}
	strbuf_release(&sb);
	return fail(err, USI_ERR_START, "cannot run the engine '%s': %s",
	    argv0, seen_eacces ? "not executable" :
	    "no such file in PATH (nor in /usr/games)"), NULL;
}

static int
env_name_is(const char *entry, const char *name_eq)
{
	const char *eq = strchr(name_eq, '=');
	size_t n = eq ? (size_t)(eq - name_eq) : strlen(name_eq);

	return !strncmp(entry, name_eq, n) && entry[n] == '=';
}

/* environ with the extra entries, replacing any of the same name. */
static char **
build_env(const char *const *extra, const char *home)
{
	size_t n = 0, k = 0, i, j;
	char **v;

	while (environ && environ[n])
		n++;
	while (extra && extra[k])
		k++;
	v = xcalloc(n + k + 2, sizeof(*v));
	for (i = 0, j = 0; i < n; i++) {
		size_t x;
		int replaced = home && env_name_is(environ[i], "OSL_HOME=");

		for (x = 0; x < k && !replaced; x++)
			replaced = env_name_is(environ[i], extra[x]);
		if (!replaced)
			v[j++] = xstrndup(environ[i], strlen(environ[i]));
	}
	for (i = 0; i < k; i++)
		v[j++] = xstrndup(extra[i], strlen(extra[i]));
	if (home) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "OSL_HOME=%s", home);
		v[j++] = strbuf_detach(&sb, NULL);
	}
	v[j] = NULL;
	return v;
}

static int
is_gpsusi(const char *path)
{
	const char *base = strrchr(path, '/');

	return !strcmp(base ? base + 1 : path, "gpsusi");
}

/*
 * gpsusi's private OSL_HOME (engines.md 1.6.6): a temporary directory
 * whose `data` links to the installed data, where its gpsusi.conf goes.
 */
static char *
make_osl_home(struct usi_error *err)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT, link = STRBUF_INIT;
	char *dir;

	strbuf_addf(&sb, "%s/kifu-gpsusi.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(sb.buf)) {
		fail(err, USI_ERR_SYSTEM, "cannot make a directory for "
		    "gpsusi's OSL_HOME in %s: %s", tmp && *tmp ? tmp : "/tmp",
		    strerror(errno));
		strbuf_release(&sb);
		return NULL;
	}
	dir = strbuf_detach(&sb, NULL);
	strbuf_addf(&link, "%s/data", dir);
	if (symlink("/usr/share/gpsshogi-data/data", link.buf) < 0) {
		fail(err, USI_ERR_SYSTEM, "cannot link %s: %s", link.buf,
		    strerror(errno));
		rmdir(dir);
		free(dir);
		dir = NULL;
	}
	strbuf_release(&link);
	return dir;
}

/* Removes the private OSL_HOME and what gpsusi wrote into it. */
static void
remove_osl_home(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d))) {
			struct strbuf sb = STRBUF_INIT;

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			strbuf_addf(&sb, "%s/%s", dir, de->d_name);
			unlink(sb.buf);
			strbuf_release(&sb);
		}
		closedir(d);
	}
	rmdir(dir);
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Child side: make fd `want` a copy of `have` (which is above 9). */
static int
child_dup(int have, int want)
{
	return dup2(have, want) == want ? 0 : -1;
}

static void __attribute__((noreturn))
child(struct usi_engine *e, int in_r, int out_w, int log_fd, int err_w,
    pid_t parent)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
	    SIGCHLD };
	sigset_t all;
	int code, i;

	setpgid(0, 0);
#ifdef __linux__
	if (!e->no_parent_death) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The parent may have gone before the call. */
		if (getppid() != parent)
			_exit(127);
	}
#else
	(void)parent;
#endif
	for (i = 0; i < (int)(sizeof(sigs) / sizeof(sigs[0])); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* Move the pipes above the standard descriptors, then onto them. */
	in_r = fcntl(in_r, F_DUPFD, 10);
	out_w = fcntl(out_w, F_DUPFD, 10);
	log_fd = fcntl(log_fd, F_DUPFD, 10);
	err_w = fcntl(err_w, F_DUPFD_CLOEXEC, 10);
	if (in_r < 0 || out_w < 0 || log_fd < 0 || err_w < 0 ||
	    child_dup(in_r, 0) || child_dup(out_w, 1) ||
	    child_dup(log_fd, 2) || child_dup(err_w, 3) ||
	    fcntl(3, F_SETFD, FD_CLOEXEC) < 0) {
		code = errno;
		if (err_w >= 0)
			(void)!write(err_w, &code, sizeof(code));
		_exit(127);
	}
	closefrom(4);
	execve(e->path, e->argv, e->envp);
	code = errno;
	(void)!write(3, &code, sizeof(code));
	_exit(127);
}

/* Describes how a process ended, from its wait status. */
static void
describe_exit(int status, char *buf, size_t n)
{
	if (WIFEXITED(status))
		snprintf(buf, n, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, n, "was killed by signal %d (%s)",
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, n, "ended");
}

/*
 * Waits up to ms for the process to exit, without reaping it (a zombie
 * keeps its pid, so the group cannot be a stranger's when it is
 * signalled next). Returns 1 if it exited.
 */
static int
wait_exit(pid_t pid, long long ms)
{
	long long deadline = now_ms() + ms;
	long step = 1;

	for (;;) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG |
		    WNOWAIT) < 0)
			return errno == ECHILD;	/* reaped by someone else */
		if (si.si_pid == pid)
			return 1;
		if (now_ms() >= deadline)
			return 0;
		sleep_ms(step);
		if (step < 20)
			step *= 2;
	}
}

/*
 * Ends the process group: the leader already exited, or gets SIGTERM and
 * then SIGKILL; whatever else is left of the group gets SIGKILL; then
 * the leader is reaped. status gets how it ended.
 */
static void
end_process(struct usi_engine *e, long long grace, char *status, size_t n)
{
	int st = 0;

	if (!e->pid)
		return;
	close_fd(&e->in);
	close_fd(&e->out);
	if (!wait_exit(e->pid, grace)) {
		kill(-e->pid, SIGTERM);
		if (!wait_exit(e->pid, 1000)) {
			kill(-e->pid, SIGKILL);
			wait_exit(e->pid, 5000);
		}
	}
	kill(-e->pid, SIGKILL);		/* anything else of the group */
	while (waitpid(e->pid, &st, 0) < 0 && errno == EINTR)
		;
	if (status)
		describe_exit(st, status, n);
	if (e->on_reap)
		e->on_reap(e->spawn_ctx, e->pid);
	e->pid = 0;
	e->off = e->len = 0;
	e->skipping = 0;
	e->eof = 0;
}

static int
spawn(struct usi_engine *e, struct usi_error *err)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, ep[2] = { -1, -1 };
	int log_fd = -1, code, rc = -1;
	pid_t parent = getpid(), pid;
	ssize_t k;

	if (e->log_path)
		log_fd = open(e->log_path, O_WRONLY | O_CREAT | O_APPEND |
		    O_CLOEXEC, 0666);
	else
		log_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (log_fd < 0)
		return fail(err, USI_ERR_START, "cannot open the engine log "
		    "'%s': %s", e->log_path ? e->log_path : "/dev/null",
		    strerror(errno));
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
	    pipe2(ep, O_CLOEXEC) < 0) {
		fail(err, USI_ERR_SYSTEM, "cannot make a pipe: %s",
		    strerror(errno));
		goto out;
	}
	if ((pid = fork()) < 0) {
		fail(err, USI_ERR_SYSTEM, "cannot fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		child(e, in[0], out[1], log_fd, ep[1], parent);
	/* Both sides set the group, so that it exists whoever runs first. */
	setpgid(pid, pid);
	e->pid = pid;
	if (e->on_spawn)
		e->on_spawn(e->spawn_ctx, pid, e->home);
	close_fd(&ep[1]);
	while ((k = read(ep[0], &code, sizeof(code))) < 0 && errno == EINTR)
		;
	e->in = in[1];
	e->out = out[0];
	in[1] = out[0] = -1;
	if (k == (ssize_t)sizeof(code)) {
		end_process(e, 0, NULL, 0);
		fail(err, USI_ERR_START, "cannot run the engine '%s': %s",
		    e->path, strerror(code));
		goto out;
	}
	/* Writes never block: a hung engine cannot hang kifu. */
	fcntl(e->in, F_SETFL, fcntl(e->in, F_GETFL) | O_NONBLOCK);
	rc = 0;
out:
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&ep[0]);
	close_fd(&ep[1]);
	close(log_fd);
	return rc;
}

/* --- talking ----------------------------------------------------------- */

/*
 * Writes all of s to the engine by the deadline. A dead engine's pipe
 * raises SIGPIPE: it is blocked in this thread for the write and, if the
 * write raised it, taken back, so that the caller sees EPIPE and no
 * handler of the program runs.
 */
static int
send_text(struct usi_engine *e, const char *s, size_t n, long long deadline,
    struct usi_error *err)
{
	sigset_t pipe_set, old, pending;
	int was_pending, rc = 0;

	if (!e->pid || e->in < 0)
		return fail(err, USI_ERR_DIED, "%s is not running", label(e));
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	while (n) {
		ssize_t k = write(e->in, s, n);

		if (k > 0) {
			s += k;
			n -= (size_t)k;
			continue;
		}
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pf = { e->in, POLLOUT, 0 };
			long long left = deadline - now_ms();

			if (left <= 0) {
				rc = fail(err, USI_ERR_TIMEOUT, "%s does not "
				    "read its input", label(e));
				break;
			}
			poll(&pf, 1, left > INT_MAX ? INT_MAX : (int)left);
			continue;
		}
		if (k < 0 && errno == EPIPE) {
			if (!was_pending) {
				struct timespec zero = { 0, 0 };

				sigtimedwait(&pipe_set, NULL, &zero);
			}
			rc = fail(err, USI_ERR_DIED, "%s closed its input",
			    label(e));
		} else {
			rc = fail(err, USI_ERR_SYSTEM, "cannot write to %s: %s",
			    label(e), strerror(errno));
		}
		break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int
send_line(struct usi_engine *e, const char *line, struct usi_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	strbuf_adds(&sb, line);
	strbuf_addc(&sb, '\n');
	rc = send_text(e, sb.buf, sb.len, now_ms() + e->init_timeout, err);
	strbuf_release(&sb);
	return rc;
}

enum read_rc { RD_LINE, RD_TIMEOUT, RD_EOF, RD_ERROR };

/* Says how many over-long lines were dropped since it last said. */
static void
report_dropped(struct usi_engine *e)
{
	if (e->dropped)
		warn(e, "%s: %lld line%s longer than %d bytes dropped",
		    label(e), e->dropped, e->dropped == 1 ? "" : "s",
		    USI_LINE_MAX);
	e->dropped = 0;
}

/*
 * Reads what the engine has written, waiting up to ms (0: only what is
 * there). Returns 1 when bytes came, 0 when none did, -1 at the end of
 * its output (e->eof set).
 */
static int
fill(struct usi_engine *e, long long ms)
{
	struct pollfd pf;
	ssize_t k;
	int pr;

	if (e->off) {
		memmove(e->buf, e->buf + e->off, e->len - e->off);
		e->len -= e->off;
		e->off = 0;
	}
	if (e->len == USI_LINE_MAX) {
		/* Over-long: dropped, and what follows up to its end. */
		e->len = 0;
		if (!e->skipping)
			e->dropped++;
		e->skipping = 1;
	}
	if (e->eof || e->out < 0)
		return -1;
	pf.fd = e->out;
	pf.events = POLLIN;
	pf.revents = 0;
	pr = poll(&pf, 1, ms > INT_MAX ? INT_MAX : (int)ms);
	if (pr < 0)
		return errno == EINTR ? 0 : (e->eof = 1, -1);
	if (pr == 0)
		return 0;
	k = read(e->out, e->buf + e->len, USI_LINE_MAX - e->len);
	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (k <= 0) {
		e->eof = 1;
		return -1;
	}
	e->len += (size_t)k;
	return 1;
}

/*
 * The next line: one already read, else one that comes by the deadline;
 * CR and surrounding blanks removed, into [*line, *line + *len) (valid
 * until the next call). A line is returned whenever one is there, even
 * past the deadline: callers that loop check the time themselves, so
 * that an engine flooding its output cannot keep them.
 */
static enum read_rc
read_line(struct usi_engine *e, long long deadline, const char **line,
    size_t *len)
{
	for (;;) {
		char *nl = e->len > e->off ? memchr(e->buf + e->off, '\n',
		    e->len - e->off) : NULL;
		long long left;
		int rc;

		if (nl) {
			char *s = e->buf + e->off;
			size_t n = (size_t)(nl - s);

			e->off += n + 1;
			if (e->skipping) {
				e->skipping = 0;
				continue;
			}
			while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' ||
			    s[n - 1] == '\t'))
				n--;
			while (n && (*s == ' ' || *s == '\t' || *s == '\r')) {
				s++;
				n--;
			}
			s[n] = '\0';
			*line = s;
			*len = n;
			return RD_LINE;
		}
		if (e->eof) {
			/* A last line without its newline still counts. */
			if (e->len > e->off && !e->skipping) {
				char *s = e->buf + e->off;

				*len = e->len - e->off;
				s[*len] = '\0';
				e->off = e->len;
				*line = s;
				return RD_LINE;
			}
			return RD_EOF;
		}
		left = deadline - now_ms();
		if (left < 0)
			return RD_TIMEOUT;
		rc = fill(e, left);
		if (rc < 0 && !e->eof)
			return RD_ERROR;
	}
}

static int
first_word_is(const char *line, size_t len, const char *w)
{
	size_t n = strlen(w);

	return len >= n && !memcmp(line, w, n) && (len == n ||
	    line[n] == ' ' || line[n] == '\t');
}

/* The engine stopped answering or died: ended, and the error said. */
static int
lost(struct usi_engine *e, enum read_rc rc, const char *waiting,
    long long ms, struct usi_error *err)
{
	char how[128] = "";

	if (rc == RD_TIMEOUT) {
		end_process(e, 0, NULL, 0);
		return fail(err, USI_ERR_TIMEOUT, "%s did not answer %s within "
		    "%lld ms; ended", label(e), waiting, ms);
	}
	/* A closed output: give it a moment to exit, to say how. */
	end_process(e, 200, how, sizeof(how));
	if (rc == RD_ERROR)
		return fail(err, USI_ERR_SYSTEM, "cannot read from %s", label(e));
	return fail(err, USI_ERR_DIED, "%s closed its output while kifu waited "
	    "for %s (it %s)", label(e), waiting, how);
}

static void
free_options(struct usi_engine *e)
{
	size_t i;

	for (i = 0; i < e->nopts; i++)
		usi_option_release(&e->opts[i]);
	e->nopts = 0;
}

/* usi, then id and option lines up to usiok. */
static int
handshake(struct usi_engine *e, struct usi_error *err)
{
	long long deadline = now_ms() + e->init_timeout;

	free(e->name);
	free(e->author);
	e->name = xstrndup("", 0);
	e->author = xstrndup("", 0);
	free_options(e);
	if (send_line(e, "usi", err) < 0)
		return lost(e, RD_EOF, "usi (usiok)", 0, err);
	for (;;) {
		const char *line, *why;
		size_t len;
		enum read_rc rc = read_line(e, deadline, &line, &len);

		if (rc == RD_LINE && now_ms() > deadline)
			rc = RD_TIMEOUT;	/* a flood of lines */
		if (rc != RD_LINE) {
			report_dropped(e);
			return lost(e, rc, "usi (usiok)", e->init_timeout, err);
		}
		if (first_word_is(line, len, "usiok"))
			break;
		if (first_word_is(line, len, "id")) {
			const char *end = line + len, *w, *p;
			size_t n;
			char **slot;

			p = next_word(line + 2, end, &w, &n);
			slot = word_is(w, n, "name") ? &e->name :
			    word_is(w, n, "author") ? &e->author : NULL;
			if (slot) {
				free(*slot);
				*slot = trimmed_dup(p, end);
				sanitize(*slot);
			}
		} else if (first_word_is(line, len, "option")) {
			struct usi_option o;

			if (usi_parse_option(line, len, &o, &why) < 0) {
				warn(e, "%s: option line ignored (%s): %.80s",
				    label(e), why, line);
				continue;
			}
			ALLOC_GROW(e->opts, e->nopts + 1, e->aopts);
			e->opts[e->nopts++] = o;
		}
		/* Anything else before usiok is a banner: ignored. */
	}
	report_dropped(e);
	e->q = quirks_for(e->name);
	return 0;
}

static struct usi_engine *
engine_new(const struct usi_start_opts *o)
{
	struct usi_engine *e = xcalloc(1, sizeof(*e));

	e->in = e->out = -1;
	e->log_path = o->log_path ? xstrndup(o->log_path, strlen(o->log_path)) :
	    NULL;
	e->init_timeout = o->init_timeout_ms > 0 ? o->init_timeout_ms : 30000;
	e->stop_grace = o->stop_grace_ms > 0 ? o->stop_grace_ms : 3000;
	e->quit_grace = o->quit_grace_ms > 0 ? o->quit_grace_ms : 3000;
	e->shared_osl_home = o->shared_osl_home;
	e->no_parent_death = o->no_parent_death;
	e->warn = o->warn;
	e->warn_ctx = o->warn_ctx;
	e->on_spawn = o->on_spawn;
	e->on_reap = o->on_reap;
	e->spawn_ctx = o->spawn_ctx;
	e->buf = xmalloc(USI_LINE_MAX + 1);
	e->q = &quirks_default;
	return e;
}

static void
engine_free(struct usi_engine *e)
{
	size_t i;

	usi_argv_free(e->argv);
	usi_argv_free(e->envp);
	free(e->path);
	free(e->log_path);
	if (e->home) {
		remove_osl_home(e->home);
		free(e->home);
	}
	free(e->name);
	free(e->author);
	free_options(e);
	free(e->opts);
	for (i = 0; i < e->nsent; i++) {
		free(e->sent[i].name);
		free(e->sent[i].value);
	}
	free(e->sent);
	free(e->buf);
	free(e);
}

int
usi_start(const struct usi_start_opts *o, struct usi_engine **out,
    struct usi_error *err)
{
	struct usi_engine *e = engine_new(o);
	size_t i, n = 0;

	*out = NULL;
	if (o->argv) {
		while (o->argv[n])
			n++;
		if (!n) {
			engine_free(e);
			return fail(err, USI_ERR_START, "the engine command is "
			    "empty");
		}
		e->argv = xcalloc(n + 1, sizeof(*e->argv));
		for (i = 0; i < n; i++)
			e->argv[i] = xstrndup(o->argv[i], strlen(o->argv[i]));
	} else if (usi_split_command(o->command ? o->command : "", &e->argv,
	    err) < 0) {
		engine_free(e);
		return -1;
	}
	if (!(e->path = usi_program(e->argv[0], err))) {
		engine_free(e);
		return -1;
	}
	if (is_gpsusi(e->path) && !e->shared_osl_home && !getenv("OSL_HOME")) {
		int given = 0;

		for (i = 0; o->env && o->env[i]; i++)
			given |= env_name_is(o->env[i], "OSL_HOME=");
		if (!given && !(e->home = make_osl_home(err))) {
			engine_free(e);
			return -1;
		}
	}
	e->envp = build_env(o->env, e->home);
	if (spawn(e, err) < 0 || handshake(e, err) < 0) {
		end_process(e, 0, NULL, 0);
		engine_free(e);
		return -1;
	}
	*out = e;
	return 0;
}

const char *
usi_engine_name(const struct usi_engine *e)
{
	return e->name ? e->name : "";
}

const char *
usi_engine_author(const struct usi_engine *e)
{
	return e->author ? e->author : "";
}

const struct usi_option *
usi_engine_options(const struct usi_engine *e, size_t *n)
{
	*n = e->nopts;
	return e->opts;
}

const struct usi_option *
usi_engine_option(const struct usi_engine *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nopts; i++)
		if (!strcasecmp(e->opts[i].name, name))
			return &e->opts[i];
	return NULL;
}

pid_t
usi_engine_pid(const struct usi_engine *e)
{
	return e->pid;
}

int
usi_engine_restarts(const struct usi_engine *e)
{
	return e->restarts;
}

int
usi_alive(const struct usi_engine *e)
{
	return e->pid != 0;
}

void
usi_engine_set_warn(struct usi_engine *e, usi_warn_fn fn, void *ctx)
{
	e->warn = fn;
	e->warn_ctx = ctx;
}

/* --- options ----------------------------------------------------------- */

static int
check_value(const struct usi_engine *e, const struct usi_option *o,
    const char *value, struct usi_error *err)
{
	long long v;
	size_t i;

	switch (o->type) {
	case USI_OPT_BUTTON:
		if (value && *value)
			return fail(err, USI_ERR_OPTION, "%s: option '%s' is a "
			    "button and takes no value", label(e), o->name);
		return 0;
	case USI_OPT_CHECK:
		if (!value || (strcmp(value, "true") && strcmp(value, "false")))
			return fail(err, USI_ERR_OPTION, "%s: option '%s' "
			    "takes true or false, not '%s'", label(e), o->name,
			    value ? value : "");
		return 0;
	case USI_OPT_SPIN:
		if (!value || read_ll(value, strlen(value), &v) < 0)
			return fail(err, USI_ERR_OPTION, "%s: option '%s' "
			    "takes a whole number, not '%s'", label(e), o->name,
			    value ? value : "");
		if (v < o->min || v > o->max)
			return fail(err, USI_ERR_OPTION, "%s: option '%s' "
			    "takes %lld to %lld, not %s", label(e), o->name,
			    o->min, o->max, value);
		return 0;
	case USI_OPT_COMBO:
		for (i = 0; value && i < o->nvars; i++)
			if (!strcmp(o->vars[i], value))
				return 0;
		{
			struct strbuf sb = STRBUF_INIT;

			for (i = 0; i < o->nvars && sb.len < 200; i++)
				strbuf_addf(&sb, "%s%s", i ? ", " : "",
				    o->vars[i]);
			fail(err, USI_ERR_OPTION, "%s: option '%s' takes one "
			    "of %s%s, not '%s'", label(e), o->name, sb.buf ?
			    sb.buf : "", i < o->nvars ? ", ..." : "",
			    value ? value : "");
			strbuf_release(&sb);
			return -1;
		}
	case USI_OPT_STRING:
	case USI_OPT_FILENAME:
		return 0;
	}
	return 0;
}

static void
remember(struct usi_engine *e, const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < e->nsent; i++)
		if (!strcmp(e->sent[i].name, name))
			break;
	if (i == e->nsent) {
		ALLOC_GROW(e->sent, e->nsent + 1, e->asent);
		e->sent[e->nsent].name = xstrndup(name, strlen(name));
		e->sent[e->nsent++].value = NULL;
	}
	free(e->sent[i].value);
	e->sent[i].value = value ? xstrndup(value, strlen(value)) : NULL;
}

static int
send_option(struct usi_engine *e, const char *name, const char *value,
    struct usi_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	strbuf_addf(&sb, "setoption name %s", name);
	if (value && *value)
		strbuf_addf(&sb, " value %s", value);
	rc = send_line(e, sb.buf, err);
	strbuf_release(&sb);
	return rc;
}

int
usi_set_option(struct usi_engine *e, const char *name, const char *value,
    struct usi_error *err)
{
	const struct usi_option *o = usi_engine_option(e, name);

	if (strpbrk(name, "\r\n") || (value && strpbrk(value, "\r\n")))
		return fail(err, USI_ERR_OPTION, "%s: an option may not hold a "
		    "line break", label(e));
	if (!o) {
		struct usi_option u;

		if (strcasecmp(name, "USI_Hash") && strcasecmp(name,
		    "USI_Ponder"))
			return fail(err, USI_ERR_OPTION, "%s has no option "
			    "'%s' (it declares %zu; kifu sends none it did not "
			    "declare)", label(e), name, e->nopts);
		memset(&u, 0, sizeof(u));
		u.name = (char *)(strcasecmp(name, "USI_Hash") ? "USI_Ponder" :
		    "USI_Hash");
		u.type = u.name[4] == 'H' ? USI_OPT_SPIN : USI_OPT_CHECK;
		u.min = 1;
		u.max = LLONG_MAX;
		if (check_value(e, &u, value, err) < 0)
			return -1;
		name = u.name;
	} else {
		if (check_value(e, o, value, err) < 0)
			return -1;
		name = o->name;	/* as the engine spells it */
	}
	if (send_option(e, name, value, err) < 0)
		return -1;
	remember(e, name, value);
	return 0;
}

const char *
usi_multipv_option(const struct usi_engine *e)
{
	const struct usi_option *o = usi_engine_option(e, "USI_MultiPV");

	if (!o)
		o = usi_engine_option(e, "MultiPV");
	return o && o->type == USI_OPT_SPIN ? o->name : NULL;
}

int
usi_plays_variant(const struct usi_engine *e, const char *variant)
{
	const struct usi_option *o = usi_engine_option(e, "UCI_Variant");
	size_t i;

	if (!o || o->type != USI_OPT_COMBO)
		return 0;
	for (i = 0; i < o->nvars; i++)
		if (!strcmp(o->vars[i], variant))
			return 1;
	return 0;
}

/* Reads lines up to one that starts with `word`, by the deadline. */
static int
wait_for(struct usi_engine *e, const char *word, const char *waiting,
    long long ms, struct usi_error *err)
{
	long long deadline = now_ms() + ms;

	for (;;) {
		const char *line;
		size_t len;
		enum read_rc rc = read_line(e, deadline, &line, &len);

		if (rc == RD_LINE && now_ms() > deadline)
			rc = RD_TIMEOUT;	/* a flood of lines */
		if (rc != RD_LINE) {
			report_dropped(e);
			return lost(e, rc, waiting, ms, err);
		}
		if (first_word_is(line, len, word)) {
			report_dropped(e);
			return 0;
		}
	}
}

int
usi_ready(struct usi_engine *e, struct usi_error *err)
{
	if (send_line(e, "isready", err) < 0)
		return -1;
	return wait_for(e, "readyok", "isready (readyok)", e->init_timeout,
	    err);
}

int
usi_new_game(struct usi_engine *e, struct usi_error *err)
{
	return send_line(e, "usinewgame", err);
}

int
usi_restart(struct usi_engine *e, struct usi_error *err)
{
	size_t i;

	end_process(e, 0, NULL, 0);
	e->restarts++;
	if (spawn(e, err) < 0 || handshake(e, err) < 0)
		goto fail;
	for (i = 0; i < e->nsent; i++)
		if (send_option(e, e->sent[i].name, e->sent[i].value, err) < 0)
			goto fail;
	if (usi_ready(e, err) < 0)
		goto fail;
	return 0;
fail:
	end_process(e, 0, NULL, 0);
	return -1;
}

/* --- searching --------------------------------------------------------- */

const char *
usi_limit_name(enum usi_limit_kind k)
{
	return k == USI_LIMIT_NODES ? "nodes" : k == USI_LIMIT_DEPTH ? "depth" :
	    k == USI_LIMIT_CLOCK ? "clock" : "movetime";
}

static int
has_inc(const struct usi_limit *l)
{
	return l->kind == USI_LIMIT_CLOCK && (l->binc || l->winc);
}

static unsigned
go_bit(const struct usi_limit *l)
{
	switch (l->kind) {
	case USI_LIMIT_NODES: return GO_NODES;
	case USI_LIMIT_DEPTH: return GO_DEPTH;
	case USI_LIMIT_CLOCK: return has_inc(l) ? GO_CLOCK | GO_INC : GO_CLOCK;
	default: return GO_MOVETIME;
	}
}

/* What the limit is called in messages: "go nodes", "go binc". */
static const char *
go_word(const struct usi_limit *l)
{
	return has_inc(l) ? "binc" : l->kind == USI_LIMIT_CLOCK ? "btime" :
	    usi_limit_name(l->kind);
}

/* The go line for a limit (the quirks chose how). */
static void
add_go(const struct usi_engine *e, const struct usi_limit *l,
    struct strbuf *sb)
{
	if (l->kind == USI_LIMIT_CLOCK) {
		strbuf_addf(sb, "go btime %lld wtime %lld", l->btime, l->wtime);
		if (has_inc(l))
			strbuf_addf(sb, " binc %lld winc %lld\n", l->binc,
			    l->winc);
		else
			strbuf_addf(sb, " byoyomi %lld\n", l->byoyomi);
	} else if (l->kind == USI_LIMIT_MOVETIME && e->q->movetime_as_byoyomi)
		strbuf_addf(sb, "go btime 0 wtime 0 byoyomi %lld\n", l->value);
	else
		strbuf_addf(sb, "go %s %lld\n", usi_limit_name(l->kind),
		    l->value);
}

static void
add_position(struct strbuf *sb, const struct position *start,
    const move *moves, int n)
{
	char sfen[SFEN_MAX];
	int i;

	sfen_write(start, sfen);
	strbuf_addf(sb, "position sfen %s", sfen);
	if (n) {
		strbuf_adds(sb, " moves");
		for (i = 0; i < n; i++)
			add_move(sb, moves[i]);
	}
	strbuf_addc(sb, '\n');
}

/*
 * Before a new search: lines an engine sent after its last bestmove (a
 * second bestmove, a late info) are read and dropped, so that they
 * cannot pass for the new search's.
 */
static void
drain(struct usi_engine *e)
{
	const char *line;
	size_t len;
	int rounds;

	/* Bounded: an engine that never stops writing is the search's
	   problem, met by its deadline. */
	for (rounds = 0; rounds < 16 && fill(e, 0) > 0; rounds++)
		while (read_line(e, 0, &line, &len) == RD_LINE)
			if (first_word_is(line, len, "bestmove"))
				warn(e, "%s sent a bestmove nobody asked for: "
				    "%.60s", label(e), line);
}

/* Ends a search that ran past its time: stop, then end the process. */
static int
overran(struct usi_engine *e, long long ms, struct usi_error *err)
{
	long long deadline;

	if (send_text(e, "stop\n", 5, now_ms() + e->stop_grace, err) == 0) {
		deadline = now_ms() + e->stop_grace;
		for (;;) {
			const char *line;
			size_t len;
			enum read_rc rc = read_line(e, deadline, &line, &len);

			if (rc != RD_LINE || now_ms() > deadline)
				break;
			if (first_word_is(line, len, "bestmove"))
				return fail(err, USI_ERR_TIMEOUT, "%s ran past "
				    "%lld ms; stopped (the position is left "
				    "unanalysed)", label(e), ms);
		}
	}
	end_process(e, 0, NULL, 0);
	return fail(err, USI_ERR_TIMEOUT, "%s ran past %lld ms and did not "
	    "answer stop within %lld ms; ended (the position is left "
	    "unanalysed)", label(e), ms, e->stop_grace);
}

int
usi_search(struct usi_engine *e, const struct usi_search *s,
    struct usi_result *r, struct usi_error *err)
{
	struct strbuf cmd = STRBUF_INIT;
	struct collect c;
	long long start, deadline;
	int rc = -1;

	if (!e->pid)
		return fail(err, USI_ERR_DIED, "%s is not running", label(e));
	if ((e->q->go & go_bit(&s->limit)) != go_bit(&s->limit))
		return fail(err, USI_ERR_UNSUPPORTED, "%s does not take go %s",
		    label(e), go_word(&s->limit));
	if (e->q->kingless_crash && s->pos->king[s->pos->side] == SQ_NONE)
		return fail(err, USI_ERR_UNSUPPORTED, "%s cannot search a "
		    "position where the side to move has no king (it crashes)",
		    label(e));
	if (movegen_count(s->pos) == 0)
		return fail(err, USI_ERR_UNSUPPORTED, "the side to move has no "
		    "legal move: nothing to search");
	drain(e);
	if (e->eof)
		return lost(e, RD_EOF, "a new search", 0, err);
	if (s->new_game)
		strbuf_adds(&cmd, "usinewgame\n");
	add_position(&cmd, s->start, s->moves, s->nmoves);
	add_go(e, &s->limit, &cmd);
	collect_init(&c, s->multipv);
	start = now_ms();
	deadline = s->timeout_ms > 0 ? start + s->timeout_ms : LLONG_MAX / 4;
	if (send_text(e, cmd.buf, cmd.len, deadline, err) < 0) {
		if (err->status == USI_ERR_DIED)
			lost(e, RD_EOF, "bestmove", 0, err);
		goto out;
	}
	/* The engine's time runs from here: the go is in its pipe. */
	e->go_sent_us = usi_now_us();
	start = e->go_sent_us / 1000;
	if (s->timeout_ms > 0)
		deadline = start + s->timeout_ms;
	for (;;) {
		const char *line;
		size_t len;
		enum read_rc rd = read_line(e, deadline, &line, &len);

		if (rd == RD_LINE && now_ms() > deadline &&
		    !first_word_is(line, len, "bestmove"))
			rd = RD_TIMEOUT;	/* a flood of lines */
		if (rd == RD_TIMEOUT) {
			report_dropped(e);
			overran(e, s->timeout_ms, err);
			goto out;
		}
		if (rd != RD_LINE) {
			report_dropped(e);
			lost(e, rd, "bestmove", 0, err);
			goto out;
		}
		if (first_word_is(line, len, "info")) {
			collect_info(&c, line, len);
			continue;
		}
		if (!first_word_is(line, len, "bestmove"))
			continue;
		report_dropped(e);
		if (c.bad)
			warn(e, "%s: %d info line%s with a field kifu could "
			    "not read", label(e), c.bad, c.bad == 1 ? "" : "s");
		{
			long long read_us = usi_now_us();

			rc = finish_result(&c, line, len, s->pos, r, e->warn,
			    e->warn_ctx, label(e), err);
			r->elapsed_us = read_us - e->go_sent_us;
			r->elapsed_ms = r->elapsed_us / 1000;
		}
		break;
	}
out:
	collect_release(&c);
	strbuf_release(&cmd);
	return rc;
}

long long
usi_engine_go_sent_us(const struct usi_engine *e)
{
	return e->go_sent_us;
}

int
usi_game_over(struct usi_engine *e, const char *result, struct usi_error *err)
{
	char line[32];

	if (!e->pid)
		return fail(err, USI_ERR_DIED, "%s is not running", label(e));
	snprintf(line, sizeof(line), "gameover %s", result);
	return send_line(e, line, err);
}

int
usi_check_limit(struct usi_engine *e, const struct usi_limit *limit,
    struct usi_error *err)
{
	struct usi_result r;
	struct usi_search s;
	struct position start;
	unsigned bit = go_bit(limit);
	int rc;

	if ((e->q->go & bit) != bit)
		return fail(err, USI_ERR_UNSUPPORTED, "%s does not take go %s "
		    "(a search limit of --%s)", label(e), go_word(limit),
		    limit->kind == USI_LIMIT_CLOCK ? "tc" :
		    usi_limit_name(limit->kind));
	if (limit->kind == USI_LIMIT_MOVETIME && e->q->movetime_as_byoyomi &&
	    limit->value < 1000)
		return fail(err, USI_ERR_UNSUPPORTED, "%s counts time in whole "
		    "seconds: --movetime must be at least 1000, not %lld",
		    label(e), limit->value);
	if (e->q->known || (e->probed_ok & bit) == bit)
		return 0;
	/* Not in the table: try it once, with the smallest value. */
	memset(&s, 0, sizeof(s));
	position_set_start(&start, variant_standard());
	s.start = s.pos = &start;
	s.limit.kind = limit->kind;
	s.limit.value = limit->kind == USI_LIMIT_MOVETIME ? 10 : 1;
	if (limit->kind == USI_LIMIT_CLOCK) {
		/* 10 ms to think, as the limit gives it */
		if (has_inc(limit))
			s.limit.binc = s.limit.winc = 10;
		else
			s.limit.byoyomi = 10;
	}
	s.multipv = 1;
	s.timeout_ms = e->init_timeout;
	usi_result_init(&r);
	rc = usi_search(e, &s, &r, err);
	usi_result_release(&r);
	if (rc < 0 && (err->status == USI_ERR_DIED ||
	    err->status == USI_ERR_TIMEOUT))
		return fail(err, USI_ERR_UNSUPPORTED, "%s does not take go %s "
		    "(tried on the initial position, it %s)", label(e),
		    usi_limit_name(limit->kind), err->status == USI_ERR_DIED ?
		    "exited" : "did not answer");
	if (rc == 0)
		e->probed_ok |= bit;
	return rc;
}

void
usi_close(struct usi_engine *e)
{
	if (!e)
		return;
	if (e->pid) {
		/* gpsusi's quit waits for a search: stop first, always. */
		if (e->q->stop_before_quit)
			send_text(e, "stop\n", 5, now_ms() + 500, NULL);
		send_text(e, "quit\n", 5, now_ms() + 500, NULL);
		end_process(e, e->quit_grace, NULL, 0);
	}
	engine_free(e);
}

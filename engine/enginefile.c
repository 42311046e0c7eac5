/*
 * enginefile.c - the engines file, a subset of TOML (enginefile.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "enginefile.h"
#include "usi.h"
#include "api/input.h"
#include "core/xalloc.h"

/* Engines files are a few lines; a larger one is not one. */
#define ENGINEFILE_MAX (1 << 20)

struct parser {
	const char *p, *end, *line_start;
	const char *name;
	unsigned line;
	char *err;
	size_t errn;
	struct engine_file *f;
	struct engine_entry *cur;	/* the table's engine; NULL before any */
	int part;			/* 0 the engine, 1 options, 2 env */
	int seen_command, seen_log, seen_timeout;
};

static int
error(struct parser *ps, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
error(struct parser *ps, const char *at, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errn, "%s:%u:%u: %s", ps->name, ps->line,
	    (unsigned)(at - ps->line_start) + 1, what);
	return -1;
}

static void
skip_blanks(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

/* After a value or a header: blanks, a comment, then the line's end. */
static int
line_end(struct parser *ps)
{
	skip_blanks(ps);
	if (ps->p < ps->end && *ps->p == '#')
		while (ps->p < ps->end && *ps->p != '\n')
			ps->p++;
	if (ps->p < ps->end && *ps->p == '\r')
		ps->p++;
	if (ps->p < ps->end && *ps->p != '\n')
		return error(ps, ps->p, "unexpected text after the value");
	return 0;
}

static void
add_utf8(struct strbuf *sb, unsigned long cp)
{
	if (cp < 0x80) {
		strbuf_addc(sb, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addc(sb, (char)(0xc0 | (cp >> 6)));
		strbuf_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addc(sb, (char)(0xe0 | (cp >> 12)));
		strbuf_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addc(sb, (char)(0xf0 | (cp >> 18)));
		strbuf_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

/* A quoted string at p ('"' or '\''), into sb. */
static int
string(struct parser *ps, struct strbuf *sb)
{
	char q = *ps->p;
	const char *open = ps->p++;

	if (ps->end - ps->p >= 2 && ps->p[0] == q && ps->p[1] == q)
		return error(ps, open, "multi-line strings are not supported");
	while (ps->p < ps->end && *ps->p != q) {
		char c = *ps->p;

		if (c == '\n' || c == '\r')
			return error(ps, open, "the string is not closed on "
			    "its line");
		if ((unsigned char)c < 0x20 && c != '\t')
			return error(ps, ps->p, "a control character in a "
			    "string");
		if (c == '\\' && q == '"') {
			const char *at = ps->p++;

			if (ps->p >= ps->end)
				break;
			switch (*ps->p) {
			case '"': strbuf_addc(sb, '"'); break;
			case '\\': strbuf_addc(sb, '\\'); break;
			case 'n': strbuf_addc(sb, '\n'); break;
			case 't': strbuf_addc(sb, '\t'); break;
			case 'r': strbuf_addc(sb, '\r'); break;
			case 'b': strbuf_addc(sb, '\b'); break;
			case 'f': strbuf_addc(sb, '\f'); break;
			case 'u':
			case 'U': {
				int k, digits = *ps->p == 'u' ? 4 : 8;
				unsigned long cp = 0;

				for (k = 1; k <= digits; k++) {
					char h = ps->p + k < ps->end ?
					    ps->p[k] : 0;
					int v = h >= '0' && h <= '9' ? h - '0' :
					    h >= 'a' && h <= 'f' ? h - 'a' + 10 :
					    h >= 'A' && h <= 'F' ? h - 'A' + 10 :
					    -1;

					if (v < 0)
						return error(ps, at, "a \\%c "
						    "escape needs %d hex "
						    "digits", digits == 4 ?
						    'u' : 'U', digits);
					cp = cp * 16 + (unsigned long)v;
				}
				if (cp > 0x10ffff || (cp >= 0xd800 &&
				    cp <= 0xdfff) || cp == 0)
					return error(ps, at, "\\%c%0*lX is no "
					    "character allowed here",
					    digits == 4 ? 'u' : 'U', digits,
					    cp);
				add_utf8(sb, cp);
				ps->p += digits;
				break;
			}
			default:
				return error(ps, at, "unknown escape '\\%c'",
				    *ps->p);
			}
			ps->p++;
			continue;
		}
		strbuf_addc(sb, c);
		ps->p++;
	}
	if (ps->p >= ps->end)
		return error(ps, open, "the string is not closed");
	ps->p++;
	return 0;
}

static int
is_bare(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* A key at p: bare or quoted, into sb. */
static int
key(struct parser *ps, struct strbuf *sb)
{
	if (ps->p < ps->end && (*ps->p == '"' || *ps->p == '\''))
		return string(ps, sb);
	if (ps->p >= ps->end || !is_bare(*ps->p))
		return error(ps, ps->p, "a key is expected");
	while (ps->p < ps->end && is_bare(*ps->p))
		strbuf_addc(sb, *ps->p++);
	return 0;
}

/* A value, as the text an option gets (integers and booleans as written). */
static int
value(struct parser *ps, struct strbuf *sb, int *is_int, long long *iv)
{
	const char *s = ps->p;

	*is_int = 0;
	if (ps->p >= ps->end || *ps->p == '\n' || *ps->p == '#')
		return error(ps, ps->p, "a value is expected");
	if (*ps->p == '"' || *ps->p == '\'')
		return string(ps, sb);
	if (*ps->p == '[' || *ps->p == '{')
		return error(ps, ps->p, "arrays and inline tables are not "
		    "supported: write a [name.options] table");
	while (ps->p < ps->end && is_bare(*ps->p))
		ps->p++;
	if (ps->p - s == 4 && !memcmp(s, "true", 4)) {
		strbuf_adds(sb, "true");
		return 0;
	}
	if (ps->p - s == 5 && !memcmp(s, "false", 5)) {
		strbuf_adds(sb, "false");
		return 0;
	}
	{
		const char *q = s;
		long long v = 0;
		int neg = 0, digits = 0;

		if (q < ps->p && (*q == '-' || *q == '+'))
			neg = *q++ == '-';
		for (; q < ps->p; q++) {
			if (*q == '_' && digits && q + 1 < ps->p &&
			    q[1] >= '0' && q[1] <= '9')
				continue;
			if (*q < '0' || *q > '9')
				break;
			if (v > (LLONG_MAX - 9) / 10)
				return error(ps, s, "the number is too large");
			v = v * 10 + (*q - '0');
			digits++;
		}
		if (!digits || q != ps->p || (ps->p < ps->end && *ps->p == '.'))
			return error(ps, s, "a string, an integer, true or "
			    "false is expected");
		if (digits > 1 && s[neg || *s == '+' ? 1 : 0] == '0')
			return error(ps, s, "an integer may not start with 0");
		*is_int = 1;
		*iv = neg ? -v : v;
		strbuf_addf(sb, "%lld", *iv);
	}
	return 0;
}

/* "[name]", "[name.options]", "[name.env]". */
static int
header(struct parser *ps)
{
	struct strbuf name = STRBUF_INIT, part = STRBUF_INIT;
	const char *at = ps->p++;
	struct engine_entry *e;
	int rc = -1;

	skip_blanks(ps);
	if (ps->p < ps->end && *ps->p == '[') {
		error(ps, at, "arrays of tables are not supported");
		goto out;
	}
	if (key(ps, &name) < 0)
		goto out;
	skip_blanks(ps);
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		skip_blanks(ps);
		if (key(ps, &part) < 0)
			goto out;
		skip_blanks(ps);
	}
	if (ps->p >= ps->end || *ps->p != ']') {
		error(ps, ps->p, "']' is expected");
		goto out;
	}
	ps->p++;
	if (!name.len) {
		error(ps, at, "an engine needs a name");
		goto out;
	}
	if (part.len && strcmp(part.buf, "options") && strcmp(part.buf, "env")) {
		error(ps, at, "unknown table '%s.%s' (an engine has .options "
		    "and .env)", name.buf, part.buf);
		goto out;
	}
	e = (struct engine_entry *)enginefile_find(ps->f, name.buf);
	if (!part.len) {
		if (e) {
			error(ps, at, "engine '%s' is defined twice (first on "
			    "line %u)", name.buf, e->line);
			goto out;
		}
		ALLOC_GROW(ps->f->v, ps->f->n + 1, ps->f->alloc);
		e = &ps->f->v[ps->f->n++];
		memset(e, 0, sizeof(*e));
		e->name = strbuf_detach(&name, NULL);
		e->line = ps->line;
		e->env = xcalloc(1, sizeof(*e->env));
		ps->seen_command = ps->seen_log = ps->seen_timeout = 0;
	} else if (!e) {
		error(ps, at, "[%s.%s] comes before [%s]", name.buf, part.buf,
		    name.buf);
		goto out;
	} else if (e != ps->cur) {
		error(ps, at, "[%s.%s] must follow [%s] and its keys", name.buf,
		    part.buf, name.buf);
		goto out;
	}
	ps->cur = e;
	ps->part = !part.len ? 0 : !strcmp(part.buf, "options") ? 1 : 2;
	rc = line_end(ps);
out:
	strbuf_release(&name);
	strbuf_release(&part);
	return rc;
}

static int
has_key(char **list, size_t n, const char *k, size_t klen)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncmp(list[i], k, klen) && list[i][klen] == '=')
			return 1;
	return 0;
}

static int
pair(struct parser *ps)
{
	struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
	const char *at = ps->p;
	struct engine_entry *e = ps->cur;
	long long iv = 0;
	int is_int, rc = -1;

	if (key(ps, &k) < 0)
		goto out;
	skip_blanks(ps);
	if (ps->p < ps->end && *ps->p == '.') {
		error(ps, ps->p, "dotted keys are not supported");
		goto out;
	}
	if (ps->p >= ps->end || *ps->p != '=') {
		error(ps, ps->p, "'=' is expected");
		goto out;
	}
	ps->p++;
	skip_blanks(ps);
	if (value(ps, &v, &is_int, &iv) < 0 || line_end(ps) < 0)
		goto out;
	if (!e) {
		error(ps, at, "a key before any [engine] table");
		goto out;
	}
	if (ps->part == 1 || ps->part == 2) {
		char ***list = ps->part == 1 ? &e->options : &e->env;
		size_t *n = ps->part == 1 ? &e->noptions : &e->nenv;
		struct strbuf item = STRBUF_INIT;

		if (!k.len || strchr(k.buf, '=') || (ps->part == 2 &&
		    strpbrk(k.buf, " \t"))) {
			error(ps, at, "'%s' cannot be a name here", k.buf);
			goto out;
		}
		if (has_key(*list, *n, k.buf, k.len)) {
			error(ps, at, "'%s' is given twice", k.buf);
			goto out;
		}
		strbuf_addf(&item, "%s=%s", k.buf, v.buf ? v.buf : "");
		*list = xreallocarray(*list, *n + 2, sizeof(**list));
		(*list)[(*n)++] = strbuf_detach(&item, NULL);
		(*list)[*n] = NULL;
		rc = 0;
		goto out;
	}
	if (!strcmp(k.buf, "command")) {
		if (ps->seen_command++) {
			error(ps, at, "'command' is given twice");
			goto out;
		}
		if (is_int || !v.len) {
			error(ps, at, "'command' takes the command line as a "
			    "string");
			goto out;
		}
		e->command = strbuf_detach(&v, NULL);
	} else if (!strcmp(k.buf, "log")) {
		if (ps->seen_log++ || is_int) {
			error(ps, at, "'log' takes one file name");
			goto out;
		}
		e->log = strbuf_detach(&v, NULL);
	} else if (!strcmp(k.buf, "timeout-init")) {
		if (ps->seen_timeout++ || !is_int || iv <= 0) {
			error(ps, at, "'timeout-init' takes milliseconds, once");
			goto out;
		}
		e->timeout_init = iv;
	} else {
		error(ps, at, "unknown key '%s' (an engine has command, log, "
		    "timeout-init, and [%s.options], [%s.env])", k.buf, e->name,
		    e->name);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&k);
	strbuf_release(&v);
	return rc;
}

void
enginefile_init(struct engine_file *f)
{
	memset(f, 0, sizeof(*f));
}

static void
free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
enginefile_release(struct engine_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		struct engine_entry *e = &f->v[i];

		free(e->name);
		free(e->command);
		free(e->log);
		free_list(e->options, e->noptions);
		free_list(e->env, e->nenv);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

int
enginefile_parse(struct engine_file *f, const char *text, size_t len,
    const char *name, char *err, size_t n)
{
	struct parser ps;
	size_t i;

	memset(&ps, 0, sizeof(ps));
	ps.p = ps.line_start = text;
	ps.end = text + len;
	ps.name = name;
	ps.line = 1;
	ps.err = err;
	ps.errn = n;
	ps.f = f;
	if (memchr(text, '\0', len))
		return error(&ps, text, "a NUL byte: this is no text file");
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		ps.p += 3;	/* a byte-order mark */
	while (ps.p < ps.end) {
		skip_blanks(&ps);
		if (ps.p < ps.end && *ps.p == '[') {
			if (header(&ps) < 0)
				return -1;
		} else if (ps.p < ps.end && *ps.p != '\n' && *ps.p != '#' &&
		    *ps.p != '\r') {
			if (pair(&ps) < 0)
				return -1;
		} else if (line_end(&ps) < 0) {
			return -1;
		}
		if (ps.p < ps.end && *ps.p == '\n') {
			ps.p++;
			ps.line++;
			ps.line_start = ps.p;
		}
	}
	for (i = 0; i < f->n; i++)
		if (!f->v[i].command) {
			snprintf(err, n, "%s:%u:1: engine '%s' has no command",
			    name, f->v[i].line, f->v[i].name);
			return -1;
		}
	return 0;
}

int
enginefile_read(struct engine_file *f, const char *path, char *err, size_t n)
{
	struct strbuf data = STRBUF_INIT;
	int rc;

	if (input_read(path, &data) < 0) {
		if (errno == ENOENT) {
			strbuf_release(&data);
			return 1;
		}
		snprintf(err, n, "cannot read '%s': %s", path, strerror(errno));
		strbuf_release(&data);
		return -1;
	}
	if (data.len > ENGINEFILE_MAX) {
		snprintf(err, n, "'%s' is larger than an engines file can be "
		    "(%d bytes)", path, ENGINEFILE_MAX);
		strbuf_release(&data);
		return -1;
	}
	rc = enginefile_parse(f, data.buf ? data.buf : "", data.len, path, err,
	    n);
	strbuf_release(&data);
	return rc;
}

int
enginefile_default_path(struct strbuf *out)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/') {
		strbuf_addf(out, "%s/kifu/engines.toml", xdg);
		return 0;
	}
	if (home && *home) {
		strbuf_addf(out, "%s/.config/kifu/engines.toml", home);
		return 0;
	}
	return -1;
}

int
enginefile_load(struct engine_file *f, const char *path, char *err, size_t n)
{
	struct strbuf def = STRBUF_INIT;
	int rc = 1;

	if (path) {
		rc = enginefile_read(f, path, err, n);
		if (rc == 1)
			snprintf(err, n, "cannot read '%s': no such file", path);
		return rc ? -1 : 0;
	}
	if (enginefile_default_path(&def) == 0)
		rc = enginefile_read(f, def.buf, err, n);
	strbuf_release(&def);
	return rc < 0 ? -1 : 0;
}

const struct engine_entry *
enginefile_find(const struct engine_file *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

/* A later setting of an option replaces the earlier, in its place. */
static void
use_option(struct engine_use *u, const char *kv)
{
	size_t n = strcspn(kv, "="), i;

	for (i = 0; i < u->noptions; i++)
		if (!strncasecmp(u->options[i], kv, n) &&
		    u->options[i][n] == '=') {
			free(u->options[i]);
			u->options[i] = xstrndup(kv, strlen(kv));
			return;
		}
	u->options = xreallocarray(u->options, u->noptions + 1,
	    sizeof(*u->options));
	u->options[u->noptions++] = xstrndup(kv, strlen(kv));
}

int
enginefile_use(const struct engine_file *f, const char *name,
    const char *const *user, size_t nuser, struct engine_use *u, char *err,
    size_t n)
{
	struct usi_error ue;
	size_t k;

	memset(u, 0, sizeof(*u));
	u->entry = enginefile_find(f, name);
	if (usi_split_command(u->entry ? u->entry->command : name, &u->argv,
	    &ue) < 0) {
		snprintf(err, n, "%s", ue.msg);
		return -1;
	}
	if (u->entry)
		for (k = 0; k < u->entry->noptions; k++)
			use_option(u, u->entry->options[k]);
	for (k = 0; k < nuser; k++)
		use_option(u, user[k]);
	for (k = 0; k < u->noptions; k++)
		if (strchr(u->options[k], '\n')) {
			/* a setoption line would end there */
			snprintf(err, n, "an option holds a line break");
			return -1;
		}
	return 0;
}

void
engine_use_release(struct engine_use *u)
{
	size_t k;

	for (k = 0; k < u->noptions; k++)
		free(u->options[k]);
	free(u->options);
	usi_argv_free(u->argv);
	memset(u, 0, sizeof(*u));
}

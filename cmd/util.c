/*
 * util.c - messages, option helpers and position arguments for cmd/.
 */
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cmd.h"
#include "api/input.h"
#include "core/encode.h"
#include "core/parse.h"
#include "core/sfen.h"
#include "core/strbuf.h"
#include "stats/jsonl.h"

static void
report(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024];
	char *p;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* Text may echo user input: never let it drive the terminal. */
	for (p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	fflush(stdout);
	fprintf(stderr, "kifu: %s%s\n", prefix, buf);
}

int
cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	return EXIT_TROUBLE;
}

void
cmd_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("note: ", fmt, ap);
	va_end(ap);
}

void
cmd_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

int
cmd_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;
	const char *nl = strchr(usage, '\n');

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	fprintf(stderr, "%.*s\n", nl ? (int)(nl - usage) : (int)strlen(usage),
	    usage);
	return EXIT_TROUBLE;
}

int
cmd_help(const char *usage)
{
	fputs(usage, stdout);
	return EXIT_OK;
}

int
cmd_variant(const char *name, const struct variant **v, const char *usage)
{
	if (!(*v = variant_by_name(name)))
		return cmd_usage_error(usage, "unknown variant '%s' (known: "
		    "standard, minishogi)", name);
	return 0;
}

int
cmd_position(struct position *pos, const char *sfen, const char *variant,
    int allow_impossible)
{
	const struct variant *v = NULL, *shape;
	struct sfen_error e;
	enum sfen_status st;

	if (variant && !(v = variant_by_name(variant)))
		return cmd_error("unknown variant '%s' (known: standard, "
		    "minishogi)", variant);
	if (!sfen || strcmp(sfen, "startpos") == 0) {
		position_set_start(pos, v ? v : variant_standard());
		return 0;
	}
	/* The board's shape says the game; --variant may only agree. */
	shape = sfen_board_variant(sfen, strlen(sfen));
	if (v && shape && v != shape)
		return cmd_error("--variant %s, but SFEN '%s' has a board of "
		    "%d ranks: a %s position (leave --variant out)", variant,
		    sfen, shape->ranks, shape->name);
	if (!v)
		v = shape ? shape : variant_standard();
	st = sfen_read(pos, v, sfen, &e);
	if (st == SFEN_SYNTAX)
		return cmd_error("invalid SFEN '%s' at column %zu: %s [%s]",
		    sfen, e.offset + 1, e.message, e.id);
	if (st == SFEN_IMPOSSIBLE) {
		if (!allow_impossible)
			return cmd_error("impossible position '%s': %s [%s]",
			    sfen, e.message, e.id);
		cmd_warning("impossible position: %s [%s]", e.message, e.id);
	}
	return 0;
}

int
cmd_parse_int(const char *s, int max)
{
	return parse_count(s, max);
}

int
cmd_opt_error(int rc, const struct strbuf *why, const char *usage)
{
	if (rc == OPT_USAGE)
		return cmd_usage_error(usage, "%s", why->buf);
	return cmd_error("%s", why->buf);
}

int
cmd_errors(const struct strbuf *why)
{
	const char *p = why->buf, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		cmd_error("%.*s", nl ? (int)(nl - p) : (int)strlen(p), p);
		p = nl ? nl + 1 : p + strlen(p);
	}
	return EXIT_TROUBLE;
}

void
cmd_add_diags(struct strbuf *out, const char *file, const struct diag_list *d,
    enum diag_severity min)
{
	diag_list_lines(out, file, d, min);
}

void
cmd_print_diags(const char *file, const struct diag_list *d)
{
	struct strbuf sb = STRBUF_INIT;

	cmd_add_diags(&sb, file, d, DIAG_NOTE);
	fflush(stdout);
	if (sb.len)
		fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

const char *
cmd_terminal_encoding(void)
{
	const char *enc;

	/* Only the character type: numbers keep printing with a '.'. */
	if (!setlocale(LC_CTYPE, ""))
		return "UTF-8";
	enc = encode_name(nl_langinfo(CODESET));
	/*
	 * The C locale says ASCII, which holds no kanji at all; terminals
	 * left in it are UTF-8 nearly always.
	 */
	return enc ? enc : "UTF-8";
}

void
cmd_add_clean(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addc(sb, (unsigned char)*s < 0x20 || *s == 0x7f ?
		    '?' : *s);
}

int
cmd_read_jsonl(const char *path, jsonl_fn fn, void *ctx)
{
	const char *name = input_display_name(path);
	struct diag_list d;
	int rc;

	diag_list_init(&d);
	rc = jsonl_read(path, fn, ctx, &d);
	if (rc < 0)
		cmd_error("cannot read '%s': %s", name, strerror(errno));
	else
		cmd_print_diags(name, &d);
	diag_list_release(&d);
	return rc ? EXIT_TROUBLE : 0;
}

int
cmd_parse_count(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v == 0)
		return -1;
	*out = v;
	return 0;
}

int
cmd_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 1e9)
		return -1;
	*out = v;
	return 0;
}

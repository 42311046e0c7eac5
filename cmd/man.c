/*
 * man.c - `kifu help --man [<command>]`: a command's manual page in
 * mdoc, made from the very text --help prints, so that the two never
 * drift. `make man` writes kifu(1) and kifu-<command>(1) with it.
 *
 * A usage text (the usage strings of cmd/) is read as:
 *   - the synopsis: "usage: ..." and "   or: ..." lines up to the first
 *     blank line, continued on indented lines;
 *   - blocks separated by blank lines: prose, or a list of options
 *     ("    -j, --jobs <n>    description", continued on lines
 *     indented further), which a line "Heading:" may open; lines of
 *     prose indented by four spaces are shown as they are;
 *   - a block starting "Exit status" is the EXIT STATUS section.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "core/strbuf.h"

/* The date the pages carry: that of the release they come with. */
#define MAN_DATE "December 1, 2026"

/*
 * Text for roff lines: a leading '.' or '\'' quoted, '\' escaped, and a
 * new line for each sentence, as mdoc wants (". " before a capital).
 */
static void
add_text(struct strbuf *out, const char *s, size_t n)
{
	size_t i;
	int start = 1;

	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	for (i = 0; i < n; i++) {
		if (start && (s[i] == '.' || s[i] == '\''))
			strbuf_adds(out, "\\&");
		start = 0;
		if (s[i] == '\\') {
			strbuf_adds(out, "\\e");
		} else if ((s[i] == '.' || s[i] == ':' || s[i] == '?') &&
		    i + 2 < n && s[i + 1] == ' ' &&
		    (isupper((unsigned char)s[i + 2]) || s[i + 2] == '\'') &&
		    i > 0 && s[i - 1] != '.' && s[i - 1] != ' ') {
			strbuf_addc(out, s[i]);
			strbuf_addc(out, '\n');
			i++;
			start = 1;
		} else {
			strbuf_addc(out, s[i]);
		}
	}
}

/* One word of a synopsis or an option's spec as mdoc macros. */
static void
add_one(struct strbuf *out, const char *w, size_t n)
{
	if (n >= 2 && w[0] == '<' && w[n - 1] == '>') {
		strbuf_adds(out, " Ar ");
		strbuf_add(out, w + 1, n - 2);
	} else if (n >= 2 && w[0] == '-' && (isalpha((unsigned char)w[1]) ||
	    w[1] == '-')) {
		/* "Fl -jobs" reads "--jobs". */
		strbuf_adds(out, " Fl ");
		strbuf_add(out, w + 1, n - 1);
	} else if (n == 3 && !memcmp(w, "...", 3)) {
		strbuf_adds(out, " No ...");
	} else if (n) {
		strbuf_adds(out, " Cm ");
		strbuf_add(out, w, n);
	}
}

/* "<key>=<value>": the two sides, the "=" between without blanks. */
static void
add_assignment(struct strbuf *out, const char *w, size_t n)
{
	const char *eq = n > 1 ? memchr(w + 1, '=', n - 1) : NULL;

	if (!eq) {
		add_one(out, w, n);
		return;
	}
	add_one(out, w, (size_t)(eq - w));
	strbuf_adds(out, " Ns = Ns");
	add_one(out, eq + 1, n - (size_t)(eq - w) - 1);
}

/* "--svg|--png", "24|27|none": alternatives, "|" between them. */
static void
add_word(struct strbuf *out, const char *w, size_t n)
{
	const char *bar;

	while ((bar = memchr(w, '|', n))) {
		add_assignment(out, w, (size_t)(bar - w));
		strbuf_adds(out, " |");
		n -= (size_t)(bar - w) + 1;
		w = bar + 1;
	}
	add_assignment(out, w, n);
}

/*
 * Words, "[...]" groups (Oo/Oc) and "<arg>..." of a synopsis or option
 * spec, each word a macro and its argument; a trailing "..." after a word
 * is its own macro. A lone "|" between words stays one.
 */
static void
add_spec(struct strbuf *out, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t k;

		if (s[i] == ' ') {
			i++;
			continue;
		}
		if (s[i] == ',') {
			strbuf_adds(out, " ,");
			i++;
			continue;
		}
		if (s[i] == '[') {
			strbuf_adds(out, " Oo");
			i++;
			continue;
		}
		if (s[i] == ']') {
			strbuf_adds(out, " Oc");
			i++;
			continue;
		}
		for (k = i; k < n && s[k] != ' ' && s[k] != '[' &&
		    s[k] != ']' && s[k] != ','; k++)
			;
		if (k - i > 3 && !memcmp(s + k - 3, "...", 3)) {
			add_word(out, s + i, k - i - 3);
			strbuf_adds(out, " No ...");
		} else {
			add_word(out, s + i, k - i);
		}
		i = k;
	}
}

struct line {
	const char *p;
	size_t n;
};

static size_t
indent_of(const struct line *l)
{
	size_t i = 0;

	while (i < l->n && l->p[i] == ' ')
		i++;
	return i;
}

static int
is_blank(const struct line *l)
{
	return indent_of(l) == l->n;
}

/* "    -j, --jobs <n>   text": an option line. */
static int
is_option(const struct line *l)
{
	size_t i = indent_of(l);

	return i >= 2 && i <= 6 && i + 1 < l->n && l->p[i] == '-';
}

/* "Rules (the set is printed with every result):" */
static int
is_heading(const struct line *l)
{
	return l->n > 1 && l->p[0] != ' ' && l->p[l->n - 1] == ':';
}

/* A word of an option's spec: "-j,", "--jobs", "<n>", "24|27|none". */
static int
is_spec_word(const char *w, size_t n)
{
	return n && (w[0] == '-' || w[0] == '<' || w[0] == '[' ||
	    memchr(w, '|', n) != NULL);
}

/*
 * Where the description of an option line starts: after the spec and a
 * run of at least two blanks, or else at its first word that is no word
 * of a spec; n when the line is the spec alone.
 */
static size_t
description_at(const struct line *l)
{
	size_t i = indent_of(l), k;

	for (k = i; k + 1 < l->n; k++)
		if (l->p[k] == ' ' && l->p[k + 1] == ' ') {
			while (k < l->n && l->p[k] == ' ')
				k++;
			return k;
		}
	while (i < l->n) {
		size_t e = i;

		while (e < l->n && l->p[e] != ' ')
			e++;
		if (!is_spec_word(l->p + i, e - i))
			return i;
		while (e < l->n && l->p[e] == ' ')
			e++;
		i = e;
	}
	return l->n;
}

/* A line of macros from a spec: ".Oo Fl j ..." (no macro in front). */
static void
add_macros(struct strbuf *out, const char *s, size_t n)
{
	struct strbuf line = STRBUF_INIT;

	add_spec(&line, s, n);
	if (line.len) {
		/* A leading "|" is no macro: say it as text. */
		strbuf_adds(out, line.buf[1] == '|' ? ".No \\&" : ".");
		strbuf_adds(out, line.buf + 1);
		strbuf_addc(out, '\n');
	}
	strbuf_release(&line);
}

static void
synopsis(struct strbuf *out, const char *name, const struct line *v,
    size_t n)
{
	size_t i;

	strbuf_adds(out, ".Sh SYNOPSIS\n");
	for (i = 0; i < n; i++) {
		const char *s = v[i].p;
		size_t len = v[i].n, k = indent_of(&v[i]);
		char cmd[64];
		size_t cl;

		/* "usage: kifu check ..." or "   or: kifu check ...". */
		if (!strncmp(s + k, "usage:", 6))
			k += 6;
		else if (!strncmp(s + k, "or:", 3))
			k += 3;
		else {
			/* A continued line: more of the same synopsis. */
			add_macros(out, s + k, len - k);
			continue;
		}
		if (i)
			strbuf_adds(out, ".Pp\n");
		while (k < len && s[k] == ' ')
			k++;
		snprintf(cmd, sizeof(cmd), "kifu %s", name);
		cl = strlen(cmd);
		if (len - k >= cl && !strncmp(s + k, cmd, cl))
			k += cl;
		strbuf_addf(out, ".Nm kifu %s\n", name);
		if (k < len)
			add_macros(out, s + k, len - k);
	}
}

/*
 * A block of options as a tag list: an option line opens an item, the
 * lines after it continue its description.
 */
static void
options(struct strbuf *out, const struct line *v, size_t n)
{
	size_t i;

	strbuf_adds(out, ".Bl -tag -width Ds\n");
	for (i = 0; i < n; i++) {
		const struct line *l = &v[i];
		size_t at = indent_of(l), d;

		if (!is_option(l) && is_heading(l)) {
			/* "Output:" between options: a subsection of its own. */
			strbuf_adds(out, ".El\n.Ss ");
			add_text(out, l->p, l->n - 1);
			strbuf_adds(out, "\n.Bl -tag -width Ds\n");
			continue;
		}
		if (!is_option(l)) {
			add_text(out, l->p, l->n);
			strbuf_addc(out, '\n');
			continue;
		}
		d = description_at(l);
		strbuf_adds(out, ".It");
		add_spec(out, l->p + at, (d < l->n ? d : l->n) - at);
		strbuf_addc(out, '\n');
		if (d < l->n) {
			add_text(out, l->p + d, l->n - d);
			strbuf_addc(out, '\n');
		}
	}
	strbuf_adds(out, ".El\n");
}

/* Prose; lines indented by four or more are shown as written. */
static void
prose(struct strbuf *out, const struct line *v, size_t n)
{
	size_t i;
	int literal = 0;

	for (i = 0; i < n; i++) {
		int ind = indent_of(&v[i]) >= 4;

		if (ind != literal) {
			strbuf_adds(out, ind ? ".Bd -literal -offset indent\n" :
			    ".Ed\n");
			literal = ind;
		}
		if (literal) {
			size_t k = indent_of(&v[i]);

			/* Keep the text, not the indentation. */
			if (v[i].p[k] == '.' || v[i].p[k] == '\'')
				strbuf_adds(out, "\\&");
			for (; k < v[i].n; k++) {
				if (v[i].p[k] == '\\')
					strbuf_adds(out, "\\e");
				else
					strbuf_addc(out, v[i].p[k]);
			}
		} else {
			add_text(out, v[i].p, v[i].n);
		}
		strbuf_addc(out, '\n');
	}
	if (literal)
		strbuf_adds(out, ".Ed\n");
}

/* Splits text into lines (pointers into it). Returns the count. */
static size_t
split(const char *text, struct line *v, size_t max)
{
	size_t n = 0;

	while (*text && n < max) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		v[n].p = text;
		v[n].n = len;
		n++;
		text += len + (nl ? 1 : 0);
	}
	return n;
}

#define MAX_LINES 400

void
cmd_man_page(struct strbuf *out, const char *name, const char *summary,
    const char *usage)
{
	struct line v[MAX_LINES];
	size_t n = split(usage, v, MAX_LINES), i = 0, start;
	char upper[64];
	int in_options = 0, described = 0;
	struct strbuf exit_status = STRBUF_INIT;

	for (start = 0; name[start] && start < sizeof(upper) - 1; start++)
		upper[start] = (char)toupper((unsigned char)name[start]);
	upper[start] = '\0';
	strbuf_addf(out, ".Dd %s\n.Dt KIFU-%s 1\n.Os\n", MAN_DATE, upper);
	strbuf_adds(out, ".Sh NAME\n.Nm kifu-");
	strbuf_adds(out, name);
	strbuf_adds(out, "\n.Nd ");
	add_text(out, summary, strlen(summary));
	strbuf_addc(out, '\n');
	for (start = i; i < n && !is_blank(&v[i]); i++)
		;
	synopsis(out, name, v + start, i - start);
	while (i < n) {
		size_t k, opts = 0;

		while (i < n && is_blank(&v[i]))
			i++;
		if (i == n)
			break;
		for (start = i; i < n && !is_blank(&v[i]); i++)
			opts += is_option(&v[i]);
		/* Said where a manual says it: after the options. */
		if (!strncmp(v[start].p, "Exit status", 11)) {
			prose(&exit_status, v + start, i - start);
			continue;
		}
		if (!opts) {
			if (!described++)
				strbuf_adds(out, ".Sh DESCRIPTION\n");
			else
				strbuf_adds(out, ".Pp\n");
			prose(out, v + start, i - start);
			continue;
		}
		if (!in_options++)
			strbuf_adds(out, ".Sh OPTIONS\n");
		/* Headings and prose before the options of the block. */
		for (k = start; k < i && !is_option(&v[k]); k++) {
			if (is_heading(&v[k])) {
				strbuf_adds(out, ".Ss ");
				add_text(out, v[k].p, v[k].n - 1);
				strbuf_addc(out, '\n');
			} else if (k == start && strchr(v[k].p, ':') &&
			    (size_t)(strchr(v[k].p, ':') - v[k].p) < 24 &&
			    v[k].p[0] != ' ') {
				/* "Inputs: files, ...": a heading, then prose. */
				size_t h = (size_t)(strchr(v[k].p, ':') - v[k].p);

				strbuf_adds(out, ".Ss ");
				add_text(out, v[k].p, h);
				strbuf_adds(out, "\n");
				add_text(out, v[k].p + h + 1, v[k].n - h - 1);
				strbuf_addc(out, '\n');
			} else {
				add_text(out, v[k].p, v[k].n);
				strbuf_addc(out, '\n');
			}
		}
		options(out, v + k, i - k);
	}
	if (exit_status.len) {
		strbuf_adds(out, ".Sh EXIT STATUS\n");
		strbuf_add(out, exit_status.buf, exit_status.len);
	}
	strbuf_release(&exit_status);
	strbuf_adds(out, ".Sh SEE ALSO\n.Xr kifu 1\n");
}

void
cmd_man_main(struct strbuf *out, const struct command *cmds, size_t n)
{
	size_t i;

	strbuf_addf(out, ".Dd %s\n.Dt KIFU 1\n.Os\n", MAN_DATE);
	strbuf_adds(out,
	    ".Sh NAME\n.Nm kifu\n.Nd read, check, convert and export shogi "
	    "game records\n"
	    ".Sh SYNOPSIS\n.Nm\n.Op Fl \\-version\n.Op Fl \\-help\n"
	    ".Ar command\n.Op Ar args ...\n"
	    ".Sh DESCRIPTION\n"
	    ".Nm\nreads shogi game records in KIF, KI2, CSA, USI/SFEN and JKF,\n"
	    "in the encodings and dialects the programs of the field write,\n"
	    "replays every move through a complete rules core, judges each\n"
	    "record's result under the rules of the venue it was played at,\n"
	    "and converts records between formats, checks whole archives in\n"
	    "parallel, and turns them into training data, databases, books and\n"
	    "pictures.\n"
	    ".Pp\nEach command has a page of its own, and prints the same text\n"
	    "with\n.Fl \\-help :\n"
	    ".Bl -tag -width Ds\n");
	for (i = 0; i < n; i++) {
		if (!cmds[i].summary)
			continue;
		strbuf_addf(out, ".It Cm %s\n", cmds[i].name);
		add_text(out, cmds[i].summary, strlen(cmds[i].summary));
		strbuf_addf(out, ";\nsee\n.Xr kifu-%s 1 .\n", cmds[i].name);
	}
	strbuf_adds(out, ".El\n"
	    ".Sh EXIT STATUS\n"
	    "0 ok; 1 findings (an illegal move, a disputed result, an\n"
	    "unreadable record, nothing found); 2 trouble (a usage error, an\n"
	    "input that cannot be read, a write failure).\n"
	    ".Sh SEE ALSO\n");
	for (i = 0; i < n; i++) {
		if (!cmds[i].summary)
			continue;
		strbuf_addf(out, ".Xr kifu-%s 1%s\n", cmds[i].name,
		    i + 1 < n ? " ," : "");
	}
}

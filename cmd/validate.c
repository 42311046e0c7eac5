/*
 * validate.c - `kifu validate`: parse and replay every record of every
 * file; report each illegal or unreadable record.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "formats.h"
#include "input.h"
#include "core/adjudicate.h"
#include "core/replay.h"
#include "core/rules.h"
#include "core/sfen.h"
#include "core/xalloc.h"

const char cmd_validate_usage[] =
    "usage: kifu validate [--from <format>] [--json] [-v] <file>...\n"
    "\n"
    "Parses and replays every record of every file ('-' is standard input)\n"
    "through the rules. Each illegal or unreadable record is reported as\n"
    "FILE:LINE:COL: error: MESSAGE [ID] on stdout; warnings go to stderr.\n"
    "Exit status: 0 every record valid, 1 a record is invalid, 2 trouble\n"
    "(usage, unreadable file, write error).\n"
    "\n"
    "    --from <format>   read as this format instead of detecting it\n"
    "                      (csa, usi, sfen)\n"
    "    --json            one JSON object per record on stdout, nothing else\n"
    "    -v, --verbose     also print a line for each valid record\n";

struct validate {
	const struct format *from;
	int json;
	int verbose;
	int status;		/* worst exit status so far */
	struct strbuf out;	/* one record's output, written at once */
	struct record r;	/* reused for every record: keeps its arrays */
	struct diag_list d;
};

static void
worst(struct validate *v, int status)
{
	if (status > v->status)
		v->status = status;
}

/* Copies s with control characters shown as '?' (input may be hostile). */
static void
add_clean(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addc(sb, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

static void
human_diag(struct validate *v, const char *file, const struct diag *g,
    FILE *to)
{
	static const char *const sev[] = { "note", "warning", "error" };

	strbuf_reset(&v->out);
	add_clean(&v->out, file);
	if (g->loc.line)
		strbuf_addf(&v->out, ":%u:%u", g->loc.line, g->loc.col);
	strbuf_addf(&v->out, ": %s: ", sev[g->severity]);
	add_clean(&v->out, g->message);
	strbuf_addf(&v->out, " [%s]\n", g->id);
	fputs(v->out.buf, to);
}

static void
json_str(struct strbuf *sb, const char *key, const char *s)
{
	strbuf_addf(sb, "\"%s\": \"", key);
	strbuf_add_json_string(sb, s, strlen(s));
	strbuf_adds(sb, "\"");
}

static void
json_diag(struct strbuf *sb, const struct diag *g)
{
	strbuf_addf(sb, "{\"line\": %u, \"col\": %u, \"byte\": %u, "
	    "\"ply\": %d, ", g->loc.line, g->loc.col, g->loc.byte, g->ply);
	json_str(sb, "rule", g->id);
	strbuf_adds(sb, ", ");
	json_str(sb, "message", g->message);
	strbuf_adds(sb, "}");
}

struct outcome {
	const char *file;
	int index;
	const char *format;
	const char *encoding;
	const struct record *r;		/* NULL when nothing could be read */
	const struct replay *rp;
	const struct diag_list *d;
};

static int
is_parse_error(const char *id)
{
	int i;

	for (i = 0; i < DIAG_ID_NB; i++)
		if (strcmp(id, diag_id_name(i)) == 0)
			return i != DIAG_WRONG_SIDE && i != DIAG_AMBIGUOUS;
	return 0;
}

static void
json_record(struct validate *v, const struct outcome *o)
{
	struct strbuf *sb = &v->out;
	const struct diag *err = diag_first_error(o->d);
	size_t i;
	int nw = 0;

	strbuf_reset(sb);
	strbuf_adds(sb, "{");
	json_str(sb, "file", o->file);
	strbuf_addf(sb, ", \"index\": %d, ", o->index);
	json_str(sb, "format", o->format ? o->format : "");
	strbuf_adds(sb, ", ");
	json_str(sb, "encoding", o->encoding ? o->encoding : "");
	strbuf_adds(sb, ", ");
	json_str(sb, "status", !err ? "ok" : is_parse_error(err->id) ||
	    !o->r ? "error" : "illegal");
	if (o->r && o->rp) {
		struct game_result res, rec;
		char sfen[SFEN_MAX];
		const char *raw;
		int has;

		sfen_write(&o->rp->final, sfen);
		strbuf_addf(sb, ", \"moves\": %d, ", o->rp->moves);
		json_str(sb, "final_sfen", sfen);
		adjudicate_basic(o->r, o->rp, &res);
		strbuf_adds(sb, ", \"result\": {");
		json_str(sb, "winner", winner_name(res.winner));
		strbuf_adds(sb, ", ");
		json_str(sb, "reason", reason_name(res.reason));
		strbuf_addf(sb, ", \"ply\": %d}", res.ply);
		has = adjudicate_recorded(o->r, o->rp, &rec, &raw);
		strbuf_adds(sb, ", \"recorded\": {");
		json_str(sb, "terminal", raw);
		if (has) {
			strbuf_adds(sb, ", ");
			json_str(sb, "winner", winner_name(rec.winner));
			strbuf_adds(sb, ", ");
			json_str(sb, "reason", reason_name(rec.reason));
		}
		strbuf_adds(sb, "}");
	}
	if (err) {
		strbuf_adds(sb, ", \"error\": ");
		json_diag(sb, err);
	}
	for (i = 0; i < o->d->n; i++) {
		if (o->d->v[i].severity != DIAG_WARNING)
			continue;
		strbuf_adds(sb, nw++ ? ", " : ", \"warnings\": [");
		json_diag(sb, &o->d->v[i]);
	}
	if (nw)
		strbuf_adds(sb, "]");
	strbuf_adds(sb, "}\n");
	fputs(sb->buf, stdout);
}

static void
report(struct validate *v, const struct outcome *o)
{
	size_t i;

	if (o->d->errors)
		worst(v, EXIT_FINDINGS);
	if (v->json) {
		json_record(v, o);
		return;
	}
	for (i = 0; i < o->d->n; i++) {
		const struct diag *g = &o->d->v[i];

		if (g->severity == DIAG_ERROR)
			human_diag(v, o->file, g, stdout);
		else if (g->severity == DIAG_WARNING || v->verbose)
			human_diag(v, o->file, g, stderr);
	}
	if (v->verbose && !o->d->errors && o->r && o->rp) {
		struct game_result res;

		adjudicate_basic(o->r, o->rp, &res);
		printf("%s: record %d: ok, %d moves, %s", o->file, o->index + 1,
		    o->rp->moves, reason_name(res.reason));
		if (res.winner != WINNER_NONE)
			printf(", %s wins", winner_name(res.winner));
		putchar('\n');
	}
}

static void
validate_text(struct validate *v, const char *file, const struct text *t,
    const struct format *f)
{
	struct record *r = &v->r;
	struct diag_list *d = &v->d;
	struct reader rd;
	int index = 0;

	reader_init(&rd, t, variant_standard());
	for (;;) {
		struct outcome o = { file, index, f->name, t->encoding, r, NULL,
		    d };
		struct replay rp;
		enum read_status st;

		diag_list_clear(d);
		record_reset(r, variant_standard());
		st = f->read(&rd, r, d);
		if (st == READ_EOF)
			break;
		if (st == READ_OK) {
			replay_record(r, &rp, d);
			o.rp = &rp;
		} else if (!d->errors) {
			diag_add(d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX), NULL,
			    0, "record %d cannot be read", index + 1);
		}
		report(v, &o);
		index++;
		if (st == READ_FATAL)
			break;
	}
	if (index == 0) {
		struct outcome o = { file, 0, f->name, t->encoding, NULL, NULL,
		    d };

		diag_list_clear(d);
		diag_add(d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), NULL, 0,
		    "no record in the file");
		report(v, &o);
	}
}

static void
validate_file(struct validate *v, const char *path)
{
	const char *file = input_display_name(path);
	struct strbuf data = STRBUF_INIT;
	struct diag_list d = DIAG_LIST_INIT;
	struct text t;
	const struct format *f;

	text_init(&t);
	if (input_read(path, &data) < 0) {
		cmd_error("cannot read '%s': %s", file, strerror(errno));
		worst(v, EXIT_TROUBLE);
		goto out;
	}
	if (text_decode_strbuf(&t, &data, &d) < 0) {
		struct outcome o = { file, 0, v->from ? v->from->name : NULL,
		    NULL, NULL, NULL, &d };

		report(v, &o);
		goto out;
	}
	f = v->from ? v->from : formats_detect(&t, path);
	if (!f) {
		struct outcome o = { file, 0, NULL, t.encoding, NULL, NULL, &d };

		diag_add(&d, DIAG_ERROR, diag_id_name(DIAG_UNKNOWN_FORMAT), NULL,
		    0, "not a record kifu can read (%s)", formats_names());
		report(v, &o);
		goto out;
	}
	validate_text(v, file, &t, f);
out:
	diag_list_release(&d);
	text_release(&t);
	strbuf_release(&data);
}

int
cmd_validate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct validate v;
	int opt, i;

	memset(&v, 0, sizeof(v));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!(v.from = formats_by_name(optarg)) || !v.from->read)
				return cmd_usage_error(cmd_validate_usage,
				    "unknown format '%s' (known: %s)", optarg,
				    formats_names());
			break;
		case 'j': v.json = 1; break;
		case 'v': v.verbose = 1; break;
		case 'h': return cmd_help(cmd_validate_usage);
		default:
			return cmd_usage_error(cmd_validate_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return cmd_usage_error(cmd_validate_usage, "no file given");
	strbuf_init(&v.out);
	record_init(&v.r, variant_standard());
	diag_list_init(&v.d);
	for (i = optind; i < argc; i++)
		validate_file(&v, argv[i]);
	strbuf_release(&v.out);
	record_release(&v.r);
	diag_list_release(&v.d);
	return v.status;
}

/*
 * tag.c - `kifu tag`: the openings and castles of every record (the
 * naming: tags/tagger.h; the headers written: tags/write.h), walked as
 * `kifu check` walks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "ruleopts.h"
#include "tagopts.h"
#include "walkopts.h"
#include "api/judge.h"
#include "api/output.h"
#include "core/xalloc.h"
#include "tags/write.h"

const char cmd_tag_usage[] =
    "usage: kifu tag [--json] [--compare] [<options>] <path>...\n"
    "   or: kifu tag --write -o <dir> [--replace] [<options>] <path>...\n"
    "   or: kifu tag --write --in-place [--no-backup] [--replace] "
    "[<options>] <path>...\n"
    "   or: kifu tag --print-definitions [--definitions <file>]\n"
    "\n"
    "Names the openings (戦法) and castles (囲い) of every record under the\n"
    "paths, each side's with the ply it first reached it, and the game's:\n"
    "its matchup (相居飛車, 対抗型, 相振り飛車) and the 戦型 professional\n"
    "records write. One line a record:\n"
    "    FILE[#INDEX]: GAME (MATCHUP); black STYLE: OPENING@PLY ... |\n"
    "        CASTLE@PLY ...; white STYLE: ...\n"
    "('-' for none). Games from the standard start and from handicap\n"
    "starts are named (the upper player only by what its pieces can\n"
    "make, and a handicap game gets no 戦型); games from other positions\n"
    "and minishogi are not.\n"
    "\n"
    "The names kifu's own definitions give (--print-definitions shows\n"
    "each definition; doc/openings.md says what each asks for):\n"
    "    styles:   居飛車 振り飛車\n"
    "    openings: 相掛かり 横歩取り ひねり飛車 角換わり 矢倉 雁木\n"
    "              右四間飛車 袖飛車 棒銀 早繰り銀 腰掛け銀 中飛車\n"
    "              四間飛車 三間飛車 向かい飛車 ゴキゲン中飛車 早石田\n"
    "              石田流 角交換振り飛車\n"
    "    castles:  居玉 中住まい カニ囲い 舟囲い elmo囲い 金矢倉 銀矢倉\n"
    "              総矢倉 菱矢倉 菊水矢倉 雁木囲い 居飛車穴熊 左美濃\n"
    "              片美濃囲い 美濃囲い 高美濃囲い 銀冠 木村美濃\n"
    "              振り飛車穴熊 金無双\n"
    "    games:    ひねり飛車 横歩取り 相振飛車 四間飛車 三間飛車 中飛車\n"
    "              向飛車 角換わり 相掛かり 相矢倉 矢倉 雁木 袖飛車 力戦\n"
    "    families: 矢倉 美濃 穴熊 雁木 向飛車 中飛車 三間飛車 (find and\n"
    "              stats take them as names)\n"
    "\n"
    "Output:\n"
    "    --json               one JSON object per record: the names, the\n"
    "                         sides, the plies and the definition that\n"
    "                         matched each\n"
    "    --compare            also say where the record's own headers (戦型,\n"
    "                         先手の戦型 or 先手の戦法, 先手の囲い, ...) name\n"
    "                         it otherwise\n"
    "    -s, --no-messages    no warning for a record that cannot be read\n"
    "Writing:\n"
    "    --write              add the names to each record as headers: KIF\n"
    "                         and KI2 lines 戦型：, 先手の戦型：, 先手の囲い：,\n"
    "                         後手の戦型：, 後手の囲い： (下手, 上手 in a\n"
    "                         handicap game); CSA comment lines of the same\n"
    "                         text; every other byte kept. A header the\n"
    "                         record has already is kept\n"
    "    -o, --output <dir>   with --write: write every file into <dir>,\n"
    "                         under its path (an archive's members under\n"
    "                         the archive's path)\n"
    "    --in-place           with --write: replace each file that gets a\n"
    "                         header (through a temporary file and a\n"
    "                         rename), keeping FILE.bak\n"
    "    --no-backup          with --in-place: keep no FILE.bak\n"
    "    --replace            with --write: kifu's names replace the\n"
    "                         record's own name headers\n"
    "    --force              replace files that exist in <dir> (and .bak)\n"
    "Definitions:\n"
    TAG_DEFS_HELP
    "    --print-definitions  print the definitions (kifu's own and the\n"
    "                         file's) and exit\n"
    READ_HELP
    "    --limit <name>=<n>   a reading limit (kifu help validate)\n"
    "\n"
    WALK_HELP
    "\n"
    "Exit status: 0 every record named (or shown to have no names), 1 a\n"
    "record could not be read, 2 trouble (usage, an input that cannot be\n"
    "read, a file that cannot be written).\n";

enum {
	OPT_COMPARE = 0x200, OPT_WRITE, OPT_IN_PLACE, OPT_NO_BACKUP,
	OPT_REPLACE, OPT_FORCE, OPT_PRINT_DEFS
};

struct tag_cmd {
	struct judge_opts jo;
	struct limits lim;
	const struct tagdefs *d;
	int json, compare, quiet, write, in_place, no_backup, replace, force;
	const char *outdir;
	/* main thread: the merged batches */
	long long records, named, unnamed, unreadable, files, written,
	    added, kept, replaced, not_written;
	int status;
};

struct tag_batch {
	struct pipe_batch b;	/* the text; failed: an input could not
				   be read, or a file written */
	long long records, named, unnamed, unreadable, files, written,
	    added, kept, replaced, not_written;
};

struct tag_worker {
	struct judge j;
	struct tagger *tg;
	struct tag_headers h;
	struct tag_edits e;
	struct strbuf raw;	/* the input's bytes, with --write */
	struct strbuf pending;	/* its lines, until its records are counted */
	struct strbuf line, bytes;
	size_t *off;		/* where each record's lines start */
	int *moves;		/* each record's moves, to check a write */
	size_t nrec, arec;
};

/* --- the pipeline's callbacks ----------------------------------------- */

/* Empties the counts after emit(); the pipeline empties the text. */
static void
batch_reset(void *ctx, void *batch)
{
	struct tag_batch *b = batch;

	(void)ctx;
	b->records = b->named = b->unnamed = b->unreadable = b->files = 0;
	b->written = b->added = b->kept = b->replaced = b->not_written = 0;
}

static void *
worker_new(void *ctx)
{
	struct tag_cmd *c = ctx;
	struct tag_worker *w = xcalloc(1, sizeof(*w));

	judge_init(&w->j, &c->jo);
	w->tg = tagger_new(c->d);
	tag_headers_init(&w->h);
	tag_edits_init(&w->e);
	strbuf_init(&w->raw);
	strbuf_init(&w->pending);
	strbuf_init(&w->line);
	strbuf_init(&w->bytes);
	return w;
}

static void
worker_free(void *ctx, void *worker)
{
	struct tag_worker *w = worker;

	(void)ctx;
	judge_release(&w->j);
	tagger_free(w->tg);
	tag_headers_release(&w->h);
	tag_edits_release(&w->e);
	strbuf_release(&w->raw);
	strbuf_release(&w->pending);
	strbuf_release(&w->line);
	strbuf_release(&w->bytes);
	free(w->off);
	free(w->moves);
	free(w);
}

/* One record named: its line (or JSON object) into the pending text. */
static void
record_out(struct tag_cmd *c, struct tag_worker *w, const char *file,
    const struct tag_result *res)
{
	struct strbuf *sb = &w->pending;
	int index = (int)w->nrec;

	ALLOC_GROW(w->off, w->nrec + 1, w->arec);
	w->moves = xreallocarray(w->moves, w->arec, sizeof(*w->moves));
	w->off[w->nrec] = sb->len;
	w->moves[w->nrec] = record_main_moves(&w->j.r);
	w->nrec++;
	if (c->compare)
		tag_headers_read(&w->h, &w->j.r);
	if (c->json) {
		strbuf_adds(sb, "{\"file\": ");
		strbuf_add_json_quoted(sb, file);
		strbuf_addf(sb, ", \"index\": %d", index);
		tags_json(c->d, res, sb);
		if (c->compare) {
			strbuf_adds(sb, ", \"differences\": ");
			tags_compare(c->d, res, &w->h, "", 1, sb);
		}
		strbuf_adds(sb, "}\n");
		return;
	}
	/* The file and index go in front once the records are counted. */
	strbuf_adds(sb, ": ");
	strbuf_reset(&w->line);
	tags_text(c->d, res, &w->line);
	strbuf_add_printable(sb, w->line.buf);
	strbuf_addc(sb, '\n');
	if (c->compare)
		tags_compare(c->d, res, &w->h, "    ", 0, sb);
}

/* The pending lines, "FILE[#INDEX]" in front when there are several. */
static void
flush_records(struct tag_cmd *c, struct tag_worker *w, struct tag_batch *b,
    const char *file)
{
	size_t i;

	for (i = 0; i < w->nrec; i++) {
		size_t end = i + 1 < w->nrec ? w->off[i + 1] : w->pending.len;

		if (!c->json) {
			strbuf_add_printable(&b->b.out, file);
			if (w->nrec > 1)
				strbuf_addf(&b->b.out, "#%zu", i);
		}
		strbuf_add(&b->b.out, w->pending.buf + w->off[i],
		    end - w->off[i]);
	}
	strbuf_reset(&w->pending);
}

static void
not_written(struct tag_cmd *c, struct tag_batch *b, const char *file,
    const char *why, int trouble)
{
	b->not_written++;
	if (trouble)
		b->b.failed = 1;
	if (c->quiet && !trouble)
		return;
	strbuf_adds(&b->b.err, trouble ? "kifu: error: " : "kifu: note: ");
	strbuf_add_printable(&b->b.err, file);
	strbuf_adds(&b->b.err, ": not written: ");
	strbuf_add_printable(&b->b.err, why);
	strbuf_addc(&b->b.err, '\n');
}

static void
note(struct tag_cmd *c, struct tag_batch *b, const char *file,
    const char *why)
{
	if (c->quiet)
		return;
	strbuf_adds(&b->b.err, "kifu: note: ");
	strbuf_add_printable(&b->b.err, file);
	strbuf_adds(&b->b.err, ": copied without headers: ");
	strbuf_add_printable(&b->b.err, why);
	strbuf_addc(&b->b.err, '\n');
}

/*
 * Where -o writes an input: its name under the directory, an archive's
 * "a.zip//x.kif" as "a.zip/x.kif"; NULL for a name that would leave the
 * directory ("..") or has no name (standard input).
 */
static char *
out_path(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = name;

	if (!strcmp(name, "<stdin>") || !strcmp(name, "-"))
		return NULL;
	strbuf_adds(&sb, dir);
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (!n)
			break;
		if ((n == 2 && !memcmp(p, "..", 2))) {
			strbuf_release(&sb);
			return NULL;
		}
		if (!(n == 1 && *p == '.')) {
			strbuf_addc(&sb, '/');
			strbuf_add(&sb, p, n);
		}
		p += n;
	}
	return strbuf_detach(&sb, NULL);
}

/* mkdir -p of the directories path is in. */
static int
make_parents(char *path)
{
	char *s;

	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return 0;
}

/* Returns 0 when the file was written. */
static int
write_out(struct tag_cmd *c, struct tag_batch *b, const char *file,
    const struct strbuf *bytes)
{
	char *path = out_path(c->outdir, file);
	int rc = -1;

	if (!path) {
		not_written(c, b, file, "it has no name to be written under",
		    1);
		return -1;
	}
	if (make_parents(path) < 0 ||
	    output_write_file(path, bytes->buf, bytes->len, c->force, -1) < 0) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, errno == EEXIST ? "'%s' exists (use --force)" :
		    "cannot write '%s': %s", path, strerror(errno));
		not_written(c, b, file, why.buf, 1);
		strbuf_release(&why);
	} else {
		b->written++;
		rc = 0;
	}
	free(path);
	return rc;
}

/* Returns 0 when the file was written. */
static int
write_in_place(struct tag_cmd *c, struct tag_batch *b, const char *file,
    const struct strbuf *orig, const struct strbuf *bytes)
{
	struct strbuf bak = STRBUF_INIT, why = STRBUF_INIT;
	struct stat st;
	int mode = -1, rc = -1;

	if (strstr(file, "//") || !strcmp(file, "<stdin>")) {
		not_written(c, b, file, strstr(file, "//") ? "a member of an "
		    "archive is not written in place (use -o DIR)" :
		    "standard input is not written in place (use -o DIR)", 1);
		return -1;
	}
	if (stat(file, &st) == 0)
		mode = (int)(st.st_mode & 07777);
	strbuf_addf(&bak, "%s.bak", file);
	if (!c->no_backup && output_backup(file, bak.buf, orig->buf, orig->len,
	    c->force, mode) < 0) {
		strbuf_addf(&why, errno == EEXIST ? "'%s' exists (use --force "
		    "or --no-backup)" : "cannot keep '%s': %s", bak.buf,
		    strerror(errno));
		not_written(c, b, file, why.buf, 1);
	} else if (output_write_file(file, bytes->buf, bytes->len, 1,
	    mode) < 0) {
		strbuf_addf(&why, "cannot write it: %s; left as it was",
		    strerror(errno));
		not_written(c, b, file, why.buf, 1);
	} else {
		b->written++;
		rc = 0;
	}
	strbuf_release(&bak);
	strbuf_release(&why);
	return rc;
}

/* --write: the file with its records' headers, checked, then written. */
static void
write_file(struct tag_cmd *c, struct tag_worker *w, struct tag_batch *b,
    const char *file, const struct format *f)
{
	struct diag_list dl = DIAG_LIST_INIT;
	const char *enc;

	if (!w->e.n && c->in_place)
		return;
	strbuf_reset(&w->bytes);
	enc = tag_write_encoding(&w->j.t, f->name, file);
	if (tag_edits_apply(&w->e, w->raw.buf, w->raw.len, enc, &w->bytes,
	    &dl) < 0 || (w->e.n && tag_edits_check(w->bytes.buf, w->bytes.len,
	    f, w->j.r.v, c->jo.limits, w->moves, w->nrec, &dl) < 0)) {
		not_written(c, b, file, dl.n ? dl.v[0].message : "?", 1);
		diag_list_release(&dl);
		return;
	}
	diag_list_release(&dl);
	if (c->in_place ? write_in_place(c, b, file, &w->raw, &w->bytes) :
	    write_out(c, b, file, &w->bytes))
		return;
	b->added += w->e.added;
	b->kept += w->e.kept;
	b->replaced += w->e.replaced;
}

static int
input(void *ctx, void *worker, void *batch, const struct pipe_input *in)
{
	struct tag_cmd *c = ctx;
	struct tag_worker *w = worker;
	struct tag_batch *b = batch;
	struct judge_input ji;
	enum read_status st;
	int bad = 0, can_write;

	if (in->error) {
		pipe_batch_unreadable(&b->b, in);
		return 1;
	}
	if (c->write) {
		strbuf_reset(&w->raw);
		strbuf_add(&w->raw, in->data->buf, in->data->len);
	}
	switch (judge_open(&w->j, &ji, in->name, in->data, in->flags)) {
	case JUDGE_SKIPPED:
		return 0;
	case JUDGE_UNREADABLE:
		b->records++;
		b->unreadable++;
		if (!c->quiet)
			diag_warning_line(&b->b.err, in->name,
			    diag_first_error(&w->j.d), "not named");
		return 1;
	case JUDGE_READY:
		break;
	}
	b->files++;
	w->nrec = 0;
	tag_edits_clear(&w->e);
	can_write = c->write && tag_write_format(ji.f->name);
	while ((st = judge_next(&w->j, &ji, 0)) != READ_EOF) {
		const struct tag_result *res;

		b->records++;
		if (st != READ_OK) {
			bad = 1;
			b->unreadable++;
			if (!c->quiet)
				diag_warning_line(&b->b.err, in->name,
				    diag_first_error(&w->j.d),
				    "record not named");
			if (st == READ_FATAL)
				break;
			continue;
		}
		res = tagger_record(w->tg, &w->j.r, &w->j.d);
		if (res->named)
			b->named++;
		else
			b->unnamed++;
		record_out(c, w, in->name, res);
		if (can_write)
			tag_edits_add(&w->e, c->d, &w->j.r, &w->j.t,
			    ji.f->name, res, c->replace);
	}
	if (ji.index == 0 && !c->quiet) {
		diag_list_clear(&w->j.d);
		diag_add(&w->j.d, DIAG_ERROR, diag_id_name(DIAG_EMPTY), NULL,
		    0, "no record in the file");
		diag_warning_line(&b->b.err, in->name, diag_first_error(&w->j.d),
		    "not named");
	}
	flush_records(c, w, b, in->name);
	if (!c->write || (!w->nrec && !bad))
		return bad;
	if (bad || !can_write) {
		const char *why = bad ? "a record of it cannot be read" :
		    "its format has no place for these headers (KIF, KI2 "
		    "and CSA have; JKF and USI do not)";

		/* Into a directory: the file as it was, with a note. */
		if (c->in_place) {
			not_written(c, b, in->name, why, 0);
		} else {
			note(c, b, in->name, why);
			(void)write_out(c, b, in->name, &w->raw);
		}
	} else {
		write_file(c, w, b, in->name, ji.f);
	}
	return bad;
}

static int
emit(void *ctx, void *batch)
{
	struct tag_cmd *c = ctx;
	struct tag_batch *b = batch;

	c->records += b->records;
	c->named += b->named;
	c->unnamed += b->unnamed;
	c->unreadable += b->unreadable;
	c->files += b->files;
	c->written += b->written;
	c->added += b->added;
	c->kept += b->kept;
	c->replaced += b->replaced;
	c->not_written += b->not_written;
	if (b->b.failed && c->status < EXIT_TROUBLE)
		c->status = EXIT_TROUBLE;
	if (b->unreadable && c->status < EXIT_FINDINGS)
		c->status = EXIT_FINDINGS;
	return 0;
}

static long long
done(void *ctx)
{
	return ((struct tag_cmd *)ctx)->records;
}

static const struct pipeline_ops tag_ops = {
	.batch_size = sizeof(struct tag_batch),
	.batch_reset = batch_reset,
	.worker_new = worker_new,
	.worker_free = worker_free,
	.input = input,
	.emit = emit,
	.done = done,
};

static int
print_definitions(const struct tagdefs *d)
{
	struct strbuf sb = STRBUF_INIT;

	tagdefs_write(d, 1, &sb);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	return 0;
}

int
cmd_tag(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "compare", no_argument, NULL, OPT_COMPARE },
		{ "no-messages", no_argument, NULL, 's' },
		{ "write", no_argument, NULL, OPT_WRITE },
		{ "output", required_argument, NULL, 'o' },
		{ "in-place", no_argument, NULL, OPT_IN_PLACE },
		{ "no-backup", no_argument, NULL, OPT_NO_BACKUP },
		{ "replace", no_argument, NULL, OPT_REPLACE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "print-definitions", no_argument, NULL, OPT_PRINT_DEFS },
		{ "help", no_argument, NULL, 'h' },
		TAG_DEFS_LONGOPT,
		READ_LONGOPTS,
		LIMIT_LONGOPT,
		WALK_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct walkopts wo;
	struct tag_cmd c;
	const char *defs_file = NULL;
	int opt, rc, print_defs = 0;

	memset(&c, 0, sizeof(c));
	c.lim = limits_default;
	walkopts_init(&wo, "records");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:zso:", longopts, NULL)) !=
	    -1) {
		switch (opt) {
		case 'J': c.json = 1; break;
		case OPT_COMPARE: c.compare = 1; break;
		case 's': c.quiet = 1; break;
		case OPT_WRITE: c.write = 1; break;
		case 'o': c.outdir = optarg; break;
		case OPT_IN_PLACE: c.in_place = 1; break;
		case OPT_NO_BACKUP: c.no_backup = 1; break;
		case OPT_REPLACE: c.replace = 1; break;
		case OPT_FORCE: c.force = 1; break;
		case OPT_PRINT_DEFS: print_defs = 1; break;
		case OPT_TAG_DEFINITIONS: defs_file = optarg; break;
		case OPT_LIMIT:
			if (limitopt_take(&c.lim, optarg, cmd_tag_usage))
				return EXIT_TROUBLE;
			break;
		case 'h': return cmd_help(cmd_tag_usage);
		default:
			if ((rc = readopts_take(&c.jo, opt, optarg,
			    cmd_tag_usage)) != 0 ||
			    (rc = walkopts_take(&wo, opt, optarg,
			    cmd_tag_usage)) != 0) {
				if (rc != 1)
					return rc;
				break;
			}
			return cmd_usage_error(cmd_tag_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (print_defs) {
		if (argc > optind)
			return cmd_usage_error(cmd_tag_usage,
			    "--print-definitions takes no path");
		if (!(c.d = tagopts_load(defs_file)))
			return EXIT_TROUBLE;
		rc = print_definitions(c.d);
		tagopts_free(c.d);
		return rc;
	}
	if (c.write && !!c.outdir == !!c.in_place)
		return cmd_usage_error(cmd_tag_usage, "--write writes into a "
		    "directory (-o DIR) or in place (--in-place): one of them");
	if (!c.write && (c.outdir || c.in_place || c.replace || c.no_backup))
		return cmd_usage_error(cmd_tag_usage, "-o, --in-place, "
		    "--replace and --no-backup go with --write");
	if (c.no_backup && !c.in_place)
		return cmd_usage_error(cmd_tag_usage, "--no-backup goes with "
		    "--in-place");
	if (walkopts_finish(&wo, argc - optind, cmd_tag_usage))
		return EXIT_TROUBLE;
	if (!(c.d = tagopts_load(defs_file)))
		return EXIT_TROUBLE;
	c.jo.limits = &c.lim;
	if (walkopts_run(&wo, &tag_ops, &c, argv + optind, argc - optind,
	    NULL, NULL))
		c.status = EXIT_TROUBLE;
	fflush(stdout);
	fprintf(stderr, "kifu tag: %lld records: %lld named, %lld with no "
	    "names, %lld unreadable", c.records,
	    c.named, c.unnamed, c.unreadable);
	if (c.write)
		fprintf(stderr, "; %lld files written (%lld header lines "
		    "added, %lld replaced, %lld kept), %lld not", c.written,
		    c.added, c.replaced, c.kept, c.not_written);
	fputc('\n', stderr);
	tagopts_free(c.d);
	return c.status;
}

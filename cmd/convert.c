/*
 * convert.c - `kifu convert`: records from any format to any format.
 *
 * Every record is replayed before it is written: writers only see moves
 * the rules accepted. What the target cannot hold is reported by the
 * writer as a warning; --strict turns any such loss into a failure.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "ruleopts.h"
#include "api/formats.h"
#include "api/input.h"
#include "api/keeprules.h"
#include "api/output.h"
#include "core/encode.h"
#include "core/replay.h"

const char cmd_convert_usage[] =
    "usage: kifu convert -t <format> [-o <out>] [<options>] <file>...\n"
    "   or: kifu convert -t <format> --in-place [--no-backup] [<options>] "
    "<file>\n"
    "\n"
    "Reads every record of each file ('-' is standard input), replays it\n"
    "through the rules and writes it in the target format: to stdout, to\n"
    "<out>, or, with several inputs, into the directory <out> under the\n"
    "input's name with the target's extension. Files are written whole or\n"
    "not at all (a temporary file, then a rename), and an existing file is\n"
    "never replaced without --force. A record keeps the rule set its text\n"
    "points at (kifu help validate, --rules auto): where the target\n"
    "cannot hold that evidence (a server's T lines in KIF), a rules header\n"
    "states the set.\n"
    "\n"
    "    -t, --to <format>      kif, kifu, ki2, ki2u, csa, jkf, usi, sfen\n"
    "                           (one position) or bod (one position as a\n"
    "                           KIF board diagram)\n"
    "    -o, --output <out>     a file, a directory, or '-' for stdout\n"
    "    --from <format>        read as this format instead of detecting it\n"
    "    --variant <name>       standard (default) or minishogi: the game a\n"
    "                           record is of when its text does not say\n"
    "    --ply <n>              sfen, bod: the position after n moves of the\n"
    "                           main line (0: the start; default: after its\n"
    "                           last legal move)\n"
    "    --csa-version <2|3>    CSA V2.2 (default) or V3.0\n"
    "    --encoding <enc>       UTF-8, CP932 or EUC-JP (default: the\n"
    "                           format's: CP932 for kif, ki2 and bod)\n"
    "    --replace-unencodable  write a character the encoding cannot hold\n"
    "                           as U+3013 (a warning each) instead of failing\n"
    "    --in-place             replace <file> by its conversion; the target\n"
    "                           must be the format of the file's extension\n"
    "    --no-backup            with --in-place, keep no <file>.bak\n"
    "    --force                replace existing output files (and .bak)\n"
    "    --allow-illegal        write an illegal record up to its first\n"
    "                           illegal move instead of refusing it\n"
    "    --strict               fail when anything would be lost\n"
    "    --no-rules-header      do not state the rule set in a header\n"
    "                           (kifu-rules; CSA $KIFU_RULES) where the\n"
    "                           target cannot hold what chose it: a\n"
    "                           warning instead\n"
    "    --limit <name>=<n>     raise or lower a reading limit (0: none):\n"
    "                           line, record, moves, depth, headers (the\n"
    "                           defaults: kifu help validate)\n"
    "\n"
    "Exit status: 0 converted, 1 a record was illegal, unreadable or\n"
    "(with --strict) lossy, 2 trouble (usage, I/O).\n";

struct convert {
	const struct format *to, *from;
	const struct variant *variant;	/* --variant; standard by default */
	struct write_opts wo;
	const char *output;
	int out_is_dir;
	int ply;		/* --ply, or -1 */
	int force, allow_illegal, strict, replace, in_place, no_backup;
	int no_rules_header;
	int status;
	struct limits lim;	/* --limit */
	struct record r;
	struct diag_list d;
};

static void
worst(struct convert *c, int status)
{
	if (status > c->status)
		c->status = status;
}

/* The output path for one input when -o names a directory. */
static void
path_in_dir(struct strbuf *sb, const char *dir, const char *input,
    const struct format *to)
{
	const char *base = strrchr(input, '/'), *dot;

	base = base ? base + 1 : input;
	if (!strcmp(input, "-"))
		base = "stdin";
	dot = strrchr(base, '.');
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%.*s%s", dir, dot && dot != base ?
	    (int)(dot - base) : (int)strlen(base), base, to->extensions[0]);
}

/*
 * Converts every record of one text into out. Returns 0, or the exit
 * status that stops this input from being written.
 */
static int
convert_text(struct convert *c, const char *file, const struct text *t,
    const struct format *f, struct strbuf *out)
{
	struct keeprules kr;
	struct reader rd;
	int index = 0, status = 0;

	reader_init(&rd, t, c->variant);
	rd.lim = &c->lim;
	kr.from = f->name;
	kr.t = t;
	kr.lim = &c->lim;
	kr.no_header = c->no_rules_header;
	for (;;) {
		struct replay rp;
		enum read_status st;
		size_t warnings;

		diag_list_clear(&c->d);
		record_reset(&c->r, c->variant);
		st = f->read(&rd, &c->r, &c->d);
		if (st == READ_EOF)
			break;
		if (st != READ_OK) {
			if (!c->d.errors)
				diag_add(&c->d, DIAG_ERROR,
				    diag_id_name(DIAG_SYNTAX), NULL, 0,
				    "record %d cannot be read", index + 1);
			cmd_print_diags(file, &c->d);
			return EXIT_FINDINGS;
		}
		replay_record(&c->r, &rp, &c->d);
		if (c->d.errors) {
			if (!c->allow_illegal) {
				cmd_print_diags(file, &c->d);
				return EXIT_FINDINGS;
			}
			diag_add(&c->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT),
			    NULL, 0, "record %d written up to its first illegal "
			    "move (%d moves)", index + 1, rp.moves);
			/* Errors became warnings: the user accepted the loss. */
			{
				size_t i;

				for (i = 0; i < c->d.n; i++)
					if (c->d.v[i].severity == DIAG_ERROR)
						c->d.v[i].severity = DIAG_WARNING;
				c->d.errors = 0;
			}
		}
		if (index > 0) {
			if (!c->to->separator) {
				diag_add(&c->d, DIAG_ERROR,
				    diag_id_name(DIAG_LIMIT), NULL, 0,
				    "%s holds one record a file; record %d "
				    "and later not written", c->to->name,
				    index + 1);
				cmd_print_diags(file, &c->d);
				return EXIT_FINDINGS;
			}
			strbuf_adds(out, c->to->separator);
		}
		warnings = c->d.warnings;
		kr.index = index;
		if ((c->ply >= 0 ? c->to->write_at(&c->r, c->ply, &c->wo, out,
		    &c->d) : keeprules_write(&kr, &c->r, c->to, &c->wo, out,
		    &c->d)) < 0 || c->d.errors) {
			if (!c->d.errors)
				diag_add(&c->d, DIAG_ERROR,
				    diag_id_name(DIAG_LIMIT), NULL, 0,
				    "%s cannot hold record %d", c->to->name,
				    index + 1);
			cmd_print_diags(file, &c->d);
			return EXIT_FINDINGS;
		}
		cmd_print_diags(file, &c->d);
		if (c->strict && c->d.warnings > warnings)
			status = EXIT_FINDINGS;
		else if (c->strict && c->d.warnings)
			status = EXIT_FINDINGS;
		index++;
		if (st == READ_FATAL)
			break;
	}
	if (index == 0) {
		fprintf(stderr, "%s: error: no record in the file [empty]\n",
		    file);
		return EXIT_FINDINGS;
	}
	if (status)
		fprintf(stderr, "%s: error: not written: --strict and something "
		    "would be lost\n", file);
	return status;
}

struct misses {
	const char *file, *encoding;
	size_t n;
};

static void
report_miss(void *ctx, const struct span *at, const char *cp)
{
	struct misses *m = ctx;

	m->n++;
	fflush(stdout);
	fprintf(stderr, "%s: warning: output line %u column %u: '%s' cannot "
	    "be written in %s; replaced with '%s' [encoding]\n", m->file,
	    at->line, at->col, cp, m->encoding, ENCODE_SUBSTITUTE);
}

/*
 * Encodes the converted text. A character the encoding cannot hold is an
 * error naming it, or with --replace-unencodable a warning, which
 * --strict makes a loss like any other. Returns 0 or an exit status.
 */
static int
encode(struct convert *c, const char *file, const struct strbuf *text,
    struct strbuf *enc)
{
	struct misses m;
	struct span bad;
	char cp[8];
	int rc;

	m.file = file;
	m.encoding = c->wo.encoding;
	m.n = 0;
	rc = encode_text(text->buf, text->len, c->wo.encoding,
	    c->replace ? report_miss : NULL, &m, enc, &bad, cp);
	if (rc == -2)
		return cmd_error("cannot convert to %s: %s", c->wo.encoding,
		    strerror(errno));
	if (rc < 0) {
		fprintf(stderr, "%s: error: output line %u column %u: '%s' "
		    "cannot be written in %s%s [encoding]\n", file, bad.line,
		    bad.col, cp, c->wo.encoding, c->replace ? "" :
		    " (see --replace-unencodable)");
		return EXIT_FINDINGS;
	}
	if (m.n && c->strict) {
		fprintf(stderr, "%s: error: not written: --strict and %zu "
		    "character%s replaced\n", file, m.n, m.n == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	return 0;
}

/*
 * --in-place: the converted text replaces the file, atomically, after the
 * original is kept as FILE.bak (unless --no-backup). The new file keeps
 * the old one's permissions. Returns 0 or an exit status.
 */
int
cmd_replace_file(const char *path, const char *orig, size_t orig_n,
    const char *data, size_t n, int no_backup, int force)
{
	switch (output_replace(path, orig, orig_n, data, n, no_backup, force)) {
	case OUTPUT_REPLACED:
		return 0;
	case OUTPUT_BACKUP_EXISTS:
		return cmd_error("'%s.bak' exists; not replaced (use --force, or "
		    "--no-backup); '%s' left as it was", path, path);
	case OUTPUT_BACKUP_FAILED:
		return cmd_error("cannot back up '%s' as '%s.bak': %s; '%s' left "
		    "as it was", path, path, strerror(errno), path);
	case OUTPUT_WRITE_FAILED:
		break;
	}
	return cmd_error("cannot write '%s': %s; left as it was", path,
	    strerror(errno));
}

static int
write_in_place(struct convert *c, const char *path,
    const struct strbuf *orig, const struct strbuf *enc)
{
	return cmd_replace_file(path, orig->buf, orig->len, enc->buf, enc->len,
	    c->no_backup, c->force);
}

static void
convert_file(struct convert *c, const char *path)
{
	const char *file = input_display_name(path);
	struct strbuf data = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf enc = STRBUF_INIT, dest = STRBUF_INIT;
	struct text t;
	const struct format *f;
	int rc;

	text_init(&t);
	t.max_line = c->lim.line;
	diag_list_clear(&c->d);
	if (input_read(path, &data) < 0) {
		cmd_error("cannot read '%s': %s", file, strerror(errno));
		worst(c, EXIT_TROUBLE);
		goto out;
	}
	if (text_decode_strbuf(&t, &data, &c->d) < 0) {
		cmd_print_diags(file, &c->d);
		worst(c, EXIT_FINDINGS);
		goto out;
	}
	if (!(f = c->from ? c->from : formats_detect(&t, path, NULL))) {
		fprintf(stderr, "%s: error: not a record kifu can read (%s) "
		    "[unknown-format]\n", file, formats_names());
		worst(c, EXIT_FINDINGS);
		goto out;
	}
	if ((rc = convert_text(c, file, &t, f, &out)) != 0) {
		worst(c, rc);
		goto out;
	}
	if ((rc = encode(c, file, &out, &enc)) != 0) {
		worst(c, rc);
		goto out;
	}
	if (c->in_place) {
		worst(c, write_in_place(c, path, &data, &enc));
		goto out;
	}
	if (!c->output || !strcmp(c->output, "-")) {
		if (output_write_stdout(enc.buf, enc.len) < 0) {
			cmd_error("write error on standard output: %s",
			    strerror(errno));
			worst(c, EXIT_TROUBLE);
		}
		goto out;
	}
	if (c->out_is_dir)
		path_in_dir(&dest, c->output, path, c->to);
	else
		strbuf_adds(&dest, c->output);
	if (output_write_file(dest.buf, enc.buf, enc.len, c->force, -1) < 0) {
		if (errno == EEXIST)
			cmd_error("'%s' exists; not replaced (use --force)",
			    dest.buf);
		else
			cmd_error("cannot write '%s': %s", dest.buf,
			    strerror(errno));
		worst(c, EXIT_TROUBLE);
	}
out:
	text_release(&t);
	strbuf_release(&data);
	strbuf_release(&out);
	strbuf_release(&enc);
	strbuf_release(&dest);
}

int
cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "from", required_argument, NULL, 'F' },
		{ "csa-version", required_argument, NULL, 'C' },
		{ "encoding", required_argument, NULL, 'E' },
		{ "force", no_argument, NULL, 'f' },
		{ "allow-illegal", no_argument, NULL, 'I' },
		{ "strict", no_argument, NULL, 'S' },
		{ "ply", required_argument, NULL, 'P' },
		{ "replace-unencodable", no_argument, NULL, 'R' },
		{ "in-place", no_argument, NULL, 'i' },
		{ "no-backup", no_argument, NULL, 'B' },
		{ "variant", required_argument, NULL, 'V' },
		{ "no-rules-header", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		LIMIT_LONGOPT,
		{ NULL, 0, NULL, 0 }
	};
	struct convert c;
	struct stat st;
	int opt, i;

	memset(&c, 0, sizeof(c));
	c.lim = limits_default;
	c.wo.csa_version = 2;
	c.ply = -1;
	c.variant = variant_standard();
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "ht:o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (!(c.to = formats_by_name(optarg)) || !c.to->write)
				return cmd_usage_error(cmd_convert_usage,
				    "cannot write format '%s' (known: %s)",
				    optarg, formats_names());
			break;
		case 'F':
			if (!(c.from = formats_by_name(optarg)) || !c.from->read)
				return cmd_usage_error(cmd_convert_usage,
				    "cannot read format '%s' (known: %s)",
				    optarg, formats_names());
			break;
		case 'o': c.output = optarg; break;
		case 'C':
			c.wo.csa_version = cmd_parse_int(optarg, 3);
			if (c.wo.csa_version != 2 && c.wo.csa_version != 3)
				return cmd_usage_error(cmd_convert_usage,
				    "--csa-version takes 2 or 3, not '%s'",
				    optarg);
			break;
		case 'E':
			if (!(c.wo.encoding = encode_name(optarg)))
				return cmd_usage_error(cmd_convert_usage,
				    "unknown encoding '%s' (UTF-8, CP932, "
				    "EUC-JP)", optarg);
			break;
		case 'f': c.force = 1; break;
		case 'I': c.allow_illegal = 1; break;
		case 'S': c.strict = 1; break;
		case 'P':
			if ((c.ply = cmd_parse_int(optarg, INT_MAX)) < 0)
				return cmd_usage_error(cmd_convert_usage,
				    "--ply takes a number of moves, not '%s'",
				    optarg);
			break;
		case 'R': c.replace = 1; break;
		case 'i': c.in_place = 1; break;
		case 'B': c.no_backup = 1; break;
		case 'N': c.no_rules_header = 1; break;
		case 'V':
			if (cmd_variant(optarg, &c.variant, cmd_convert_usage))
				return EXIT_TROUBLE;
			break;
		case 'h': return cmd_help(cmd_convert_usage);
		case OPT_LIMIT:
			if (limitopt_take(&c.lim, optarg, cmd_convert_usage))
				return EXIT_TROUBLE;
			break;
		default:
			return cmd_usage_error(cmd_convert_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!c.to)
		return cmd_usage_error(cmd_convert_usage,
		    "no target format (-t)");
	if (optind == argc)
		return cmd_usage_error(cmd_convert_usage, "no file given");
	if (c.ply >= 0 && !c.to->write_at)
		return cmd_usage_error(cmd_convert_usage, "--ply picks the "
		    "position sfen and bod write; %s writes whole records",
		    c.to->name);
	if (c.no_backup && !c.in_place)
		return cmd_usage_error(cmd_convert_usage,
		    "--no-backup goes with --in-place");
	if (c.in_place) {
		const char *f = argv[optind];

		if (c.output)
			return cmd_usage_error(cmd_convert_usage,
			    "--in-place writes over the input; no -o");
		if (argc - optind > 1 || !strcmp(f, "-"))
			return cmd_usage_error(cmd_convert_usage,
			    "--in-place takes exactly one file, not '-'");
		/* Normalising keeps the name, so the name must fit. */
		if (!formats_owns_ext(c.to, f))
			return cmd_usage_error(cmd_convert_usage,
			    "--in-place keeps the name '%s', which is not a "
			    "%s file's; convert with -o instead", f,
			    c.to->name);
	}
	if (!c.wo.encoding) {
		c.wo.encoding = c.to->default_encoding;
		/*
		 * Shift_JIS on a UTF-8 terminal is mojibake: a person reads
		 * it in the terminal's encoding. Files and pipes keep the
		 * format's, which other programs expect.
		 */
		if (!c.in_place && (!c.output || !strcmp(c.output, "-")) &&
		    isatty(STDOUT_FILENO)) {
			const char *term = cmd_terminal_encoding();

			if (strcmp(term, c.wo.encoding) != 0)
				cmd_note("writing %s to the terminal, not %s, "
				    "the encoding of %s files (a file or a pipe "
				    "gets %s; --encoding chooses)", term,
				    c.wo.encoding, c.to->name, c.wo.encoding);
			c.wo.encoding = term;
		}
	}
	if (c.output && strcmp(c.output, "-") != 0 &&
	    stat(c.output, &st) == 0 && S_ISDIR(st.st_mode))
		c.out_is_dir = 1;
	if (argc - optind > 1 && c.output && strcmp(c.output, "-") != 0 &&
	    !c.out_is_dir)
		return cmd_usage_error(cmd_convert_usage, "with several "
		    "inputs, -o must name an existing directory");
	record_init(&c.r, variant_standard());
	diag_list_init(&c.d);
	for (i = optind; i < argc; i++)
		convert_file(&c, argv[i]);
	record_release(&c.r);
	diag_list_release(&c.d);
	return c.status;
}

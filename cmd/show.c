/*
 * show.c - `kifu show`: a position of a record as a picture: a board in
 * the terminal, an SVG or PNG diagram, or the whole game as an animated
 * GIF; or the game's evaluations as a graph (picture/graph.c): a
 * sparkline in the terminal, an SVG or PNG picture.
 *
 * Drawing (picture/diagram.c, picture/svg.c: text), rendering
 * (picture/render.c: librsvg) and encoding (picture/gif.c: giflib) are apart; the
 * libraries are loaded only by the pictures that need them.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "api/formats.h"
#include "api/input.h"
#include "api/output.h"
#include "core/replay.h"
#include "core/xalloc.h"
#include "picture/diagram.h"
#include "picture/graph.h"
#include "picture/picture.h"

const char cmd_show_usage[] =
    "usage: kifu show [--ply <n> | --last] [--moves] [--ascii]\n"
    "                 [--color auto|always|never] <file>\n"
    "   or: kifu show --svg|--png [--ply <n>] [--flip | --no-flip]\n"
    "                 [--size <px>] [-o <out>] <file>\n"
    "   or: kifu show --gif [--delay <ms> | --real-time <x>] [--ply <n>]\n"
    "                 [--flip | --no-flip] [--size <px>] [-o <out>] <file>\n"
    "   or: kifu show --graph [--svg|--png] [--ply <n>] [--color <when>]\n"
    "                 [--size <px>] [-o <out>] <file>\n"
    "\n"
    "Shows a position of the first record of <file> ('-' is standard\n"
    "input): after the main line's last legal move, or after --ply moves.\n"
    "In the terminal: the board in kanji as a KIF diagram draws it (White's\n"
    "pieces marked v), the hands, the last move and the side to move, the\n"
    "last move's square in colour on a colour terminal; the text reads back\n"
    "as KIF (with --ascii, as CSA). Pictures: an SVG or PNG diagram, or the\n"
    "game as an animated GIF, a frame per move.\n"
    "\n"
    "With --graph, the record's evaluations over the moves of its main\n"
    "line (to --ply), Black's view: kifu analyze's comments, or any\n"
    "evaluation comment kifu reads (another engine's analysis first, else\n"
    "the players' own: Floodgate, ShogiGUI, ShogiHome). In the terminal,\n"
    "one line: a block a move (▁ -3000 to █ +3000; a mean a block when\n"
    "there are more than 64 positions; a blank where a move has none), the last\n"
    "evaluation, and the moves flagged 疑問手, 悪手, 大悪手 (kifu analyze's\n"
    "judgements, or the same thresholds, 100, 300, 800, on the drop of\n"
    "another engine's analysis; the players' evaluations flag nothing), in\n"
    "colour on a colour terminal. With --svg or --png, the graph as a\n"
    "picture: scores clipped at +-3000, mates (詰) at the edge, gaps where\n"
    "moves have no evaluation, the flagged moves marked by class.\n"
    "\n"
    "    --ply <n>          the position after n moves (0: the start)\n"
    "    --last             after the last legal move (the default)\n"
    "    --moves            also list the main line's moves, as KIF writes\n"
    "                       them (times, comments)\n"
    "    --ascii            CSA letters (+FU, -OU) instead of kanji\n"
    "    --color <when>     auto (a terminal, unless NO_COLOR is set),\n"
    "                       always or never\n"
    "    --svg, --png       a diagram as SVG, or as PNG (drawn by librsvg)\n"
    "    --graph            the evaluations as a graph (a sparkline, or with\n"
    "                       --svg or --png a picture)\n"
    "    --gif              the game as an animated GIF (giflib), from the\n"
    "                       start to the end (or to --ply)\n"
    "    --delay <ms>       each GIF frame's time (default 1000)\n"
    "    --real-time <x>    a frame lasts the time the record gives the\n"
    "                       next move, times x (0.1: ten times as fast)\n"
    "    --flip             the board as White sees it (the default for a\n"
    "                       record saved so: KIF's 盤面回転 line)\n"
    "    --no-flip          the board as Black sees it, whatever the\n"
    "                       record says\n"
    "    --size <px>        the picture's width (default 480, a graph 640;\n"
    "                       120-4000)\n"
    "    -o, --output <out> write to a file (atomically; '-' is stdout,\n"
    "                       never a terminal for PNG and GIF)\n"
    "    --force            replace an existing file\n"
    "    --from <format>    read as this format instead of detecting it\n"
    "\n"
    "Exit status: 0 shown, 1 the record is unreadable or illegal (an\n"
    "illegal record is shown up to its first illegal move) or, with\n"
    "--graph, has no evaluation, 2 trouble.\n";

enum mode { MODE_TEXT, MODE_SVG, MODE_PNG, MODE_GIF };

enum {
	OPT_PLY = 0x100, OPT_LAST, OPT_MOVES, OPT_ASCII, OPT_COLOR, OPT_SVG,
	OPT_PNG, OPT_GIF, OPT_DELAY, OPT_REAL_TIME, OPT_FLIP, OPT_NO_FLIP,
	OPT_SIZE, OPT_FORCE, OPT_FROM, OPT_GRAPH
};

struct show {
	enum mode mode;
	int ply;		/* --ply, or -1: the last */
	int moves, ascii, force, graph;
	int flip;		/* --flip 1, --no-flip 0; -1: as the record says */
	int colour;		/* -1 auto, 0 never, 1 always */
	int size;
	int64_t delay_ms;
	double real_time;	/* 0: off */
	const char *output;
	const struct format *from;
	struct record r;
	struct diag_list d;
	int status;
};

static int
to_stdout(const struct show *s)
{
	return !s->output || strcmp(s->output, "-") == 0;
}

/*
 * Reads the first record of the file and replays it. Returns 0 (the
 * record may be illegal: s->status says so), or an exit status.
 */
static int
read_record(struct show *s, const char *path)
{
	const char *file = input_display_name(path);
	struct strbuf data = STRBUF_INIT;
	const struct format *f;
	struct reader rd;
	struct replay rp;
	struct text t;
	enum read_status st;
	int rc = 0;

	text_init(&t);
	if (input_read(path, &data) < 0) {
		rc = cmd_error("cannot read '%s': %s", file, strerror(errno));
		goto out;
	}
	if (text_decode_strbuf(&t, &data, &s->d) < 0) {
		cmd_print_diags(file, &s->d);
		rc = EXIT_FINDINGS;
		goto out;
	}
	if (!(f = s->from ? s->from : formats_detect(&t, path, NULL))) {
		fprintf(stderr, "%s: error: not a record kifu can read (%s) "
		    "[unknown-format]\n", file, formats_names());
		rc = EXIT_FINDINGS;
		goto out;
	}
	reader_init(&rd, &t, variant_standard());
	st = f->read(&rd, &s->r, &s->d);
	if (st == READ_EOF) {
		fprintf(stderr, "%s: error: no record in the file [empty]\n",
		    file);
		rc = EXIT_FINDINGS;
		goto out;
	}
	if (st != READ_OK) {
		if (!s->d.errors)
			diag_add(&s->d, DIAG_ERROR, diag_id_name(DIAG_SYNTAX),
			    NULL, 0, "the record cannot be read");
		cmd_print_diags(file, &s->d);
		rc = EXIT_FINDINGS;
		goto out;
	}
	replay_record(&s->r, &rp, &s->d);
	if (s->d.errors) {
		diag_add(&s->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "shown up to its first illegal move (%d moves)", rp.moves);
		s->status = EXIT_FINDINGS;
	}
	cmd_print_diags(file, &s->d);
out:
	text_release(&t);
	strbuf_release(&data);
	return rc;
}

static int
colour_wanted(const struct show *s)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (s->colour >= 0)
		return s->colour;
	return to_stdout(s) && isatty(STDOUT_FILENO) && !(no && *no) &&
	    !(term && strcmp(term, "dumb") == 0);
}

static int
show_text(struct show *s, const struct diagram *dg, int played,
    struct strbuf *out)
{
	struct text_style ts;

	ts.ascii = s->ascii;
	ts.colour = colour_wanted(s);
	diagram_text(dg, &ts, out);
	if (s->moves)
		picture_moves_text(&s->r, played, ts.colour, out, &s->d);
	return 0;
}

/* The board as White sees it: --flip, or a record saved so (盤面回転). */
static int
flipped(const struct show *s)
{
	return s->flip >= 0 ? s->flip : s->r.flipped;
}

static void
style_of(const struct show *s, struct svg_style *ss)
{
	ss->width = s->size;
	ss->flip = flipped(s);
}

static void
svg_of(const struct show *s, const struct diagram *dg, struct strbuf *svg)
{
	struct svg_style ss;

	style_of(s, &ss);
	diagram_svg(dg, &ss, svg);
}

/* The SVG picture, w x h, as a PNG file into out. */
static int
png_of(const struct strbuf *svg, int w, int h, struct strbuf *out)
{
	struct strbuf why = STRBUF_INIT;
	int rc = 0;

	if (picture_svg_png(svg, w, h, out, &why) < 0)
		rc = cmd_error("cannot draw the PNG: %s", why.buf);
	strbuf_release(&why);
	return rc;
}

static int
show_png(struct show *s, const struct diagram *dg, struct strbuf *out)
{
	struct strbuf svg = STRBUF_INIT;
	int rc;

	svg_of(s, dg, &svg);
	rc = png_of(&svg, s->size, diagram_svg_height(dg->pos.v, s->size),
	    out);
	strbuf_release(&svg);
	return rc;
}

/* The evaluations of the first `played` moves as a graph. */
static int
show_graph(struct show *s, const char *path, int played, struct strbuf *out)
{
	struct strbuf svg = STRBUF_INIT;
	struct graph_opts go;
	struct graph g;
	int rc = 0;

	graph_init(&g);
	graph_opts_init(&go);
	graph_read(&g, &s->r, played, &go);
	if (!g.points) {
		fprintf(stderr, "%s: error: no evaluation in the comments of "
		    "the main line's %d move%s (kifu analyze writes them) "
		    "[no-evaluation]\n", input_display_name(path), played,
		    played == 1 ? "" : "s");
		rc = EXIT_FINDINGS;
	} else if (s->mode == MODE_TEXT) {
		graph_sparkline(&g, GRAPH_COLUMNS, colour_wanted(s), out);
		strbuf_addc(out, '\n');
	} else if (s->mode == MODE_SVG) {
		graph_svg(&g, s->size, out);
	} else {
		graph_svg(&g, s->size, &svg);
		rc = png_of(&svg, s->size, graph_svg_height(s->size), out);
	}
	graph_release(&g);
	strbuf_release(&svg);
	return rc;
}

static int
show_gif(struct show *s, int frames, struct strbuf *out)
{
	struct strbuf why = STRBUF_INIT;
	struct gif_timing t;
	struct svg_style ss;
	int rc = 0;

	style_of(s, &ss);
	t.delay_ms = s->delay_ms;
	t.real_time = s->real_time;
	if (picture_gif(&s->r, frames, &ss, &t, out, &why) < 0)
		rc = cmd_error("cannot make the GIF: %s", why.buf);
	strbuf_release(&why);
	return rc;
}

static int
write_out(const struct show *s, const struct strbuf *out)
{
	if (to_stdout(s)) {
		if (output_write_stdout(out->buf, out->len) < 0)
			return cmd_error("write error on standard output: %s",
			    strerror(errno));
		return 0;
	}
	if (output_write_file(s->output, out->buf, out->len, s->force,
	    -1) < 0) {
		if (errno == EEXIST)
			return cmd_error("'%s' exists; not replaced (use "
			    "--force)", s->output);
		return cmd_error("cannot write '%s': %s", s->output,
		    strerror(errno));
	}
	return 0;
}

static int
show_file(struct show *s, const char *path)
{
	struct strbuf out = STRBUF_INIT;
	struct diagram dg;
	int played, rc;

	if ((rc = read_record(s, path)) != 0)
		return rc;
	played = diagram_at(&dg, &s->r, s->ply);
	if (s->ply >= 0 && played < s->ply) {
		fprintf(stderr, "%s: error: no position after move %d: the "
		    "main line has %d legal move%s [limit]\n",
		    input_display_name(path), s->ply, played,
		    played == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	if (s->graph)
		rc = show_graph(s, path, played, &out);
	else switch (s->mode) {
	case MODE_TEXT: rc = show_text(s, &dg, played, &out); break;
	case MODE_SVG: svg_of(s, &dg, &out); break;
	case MODE_PNG: rc = show_png(s, &dg, &out); break;
	case MODE_GIF: rc = show_gif(s, played, &out); break;
	}
	if (!rc)
		rc = write_out(s, &out);
	strbuf_release(&out);
	return rc ? rc : s->status;
}

static int
set_mode(struct show *s, enum mode m, const char *opt)
{
	if (s->mode != MODE_TEXT && s->mode != m)
		return cmd_usage_error(cmd_show_usage, "%s: one of --svg, "
		    "--png and --gif at a time", opt);
	s->mode = m;
	return 0;
}

static int
parse_delay(struct show *s, const char *arg)
{
	int ms = cmd_parse_int(arg, 655350);

	if (ms < 0)
		return cmd_usage_error(cmd_show_usage, "--delay takes "
		    "milliseconds (0-655350), not '%s'", arg);
	s->delay_ms = ms;
	return 0;
}

static int
parse_real_time(struct show *s, const char *arg)
{
	char *end;

	errno = 0;
	s->real_time = strtod(arg, &end);
	if (!*arg || *end || errno || !(s->real_time > 0) ||
	    s->real_time > 1000)
		return cmd_usage_error(cmd_show_usage, "--real-time takes a "
		    "factor above 0 (up to 1000), not '%s'", arg);
	return 0;
}

/* Options that only make sense for some outputs. */
static int
check_options(const struct show *s, int delay_set)
{
	int picture = s->mode != MODE_TEXT;

	if (s->graph && s->mode == MODE_GIF)
		return cmd_usage_error(cmd_show_usage, "--graph draws with "
		    "--svg or --png, not --gif");
	if (s->graph && (s->moves || s->ascii || s->flip >= 0))
		return cmd_usage_error(cmd_show_usage, "--moves, --ascii, "
		    "--flip and --no-flip are for the board, not --graph");
	if (picture && (s->moves || s->ascii || s->colour >= 0))
		return cmd_usage_error(cmd_show_usage, "--moves, --ascii and "
		    "--color are for the terminal board, not pictures");
	if (!picture && (s->flip >= 0 || s->size))
		return cmd_usage_error(cmd_show_usage, "--flip, --no-flip and "
		    "--size are for pictures (--svg, --png, --gif)");
	if (s->mode != MODE_GIF && (delay_set || s->real_time > 0))
		return cmd_usage_error(cmd_show_usage, "--delay and "
		    "--real-time are for --gif");
	if ((s->mode == MODE_PNG || s->mode == MODE_GIF) && to_stdout(s) &&
	    isatty(STDOUT_FILENO))
		return cmd_usage_error(cmd_show_usage, "a %s is no text for "
		    "a terminal: give -o FILE, or redirect standard output",
		    s->mode == MODE_PNG ? "PNG" : "GIF");
	return 0;
}

int
cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ply", required_argument, NULL, OPT_PLY },
		{ "last", no_argument, NULL, OPT_LAST },
		{ "moves", no_argument, NULL, OPT_MOVES },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "colour", required_argument, NULL, OPT_COLOR },
		{ "svg", no_argument, NULL, OPT_SVG },
		{ "png", no_argument, NULL, OPT_PNG },
		{ "gif", no_argument, NULL, OPT_GIF },
		{ "graph", no_argument, NULL, OPT_GRAPH },
		{ "delay", required_argument, NULL, OPT_DELAY },
		{ "real-time", required_argument, NULL, OPT_REAL_TIME },
		{ "flip", no_argument, NULL, OPT_FLIP },
		{ "no-flip", no_argument, NULL, OPT_NO_FLIP },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct show s;
	int opt, rc, delay_set = 0, last = 0;

	memset(&s, 0, sizeof(s));
	s.ply = -1;
	s.flip = -1;
	s.colour = -1;
	s.delay_ms = 1000;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		rc = 0;
		switch (opt) {
		case OPT_PLY:
			if ((s.ply = cmd_parse_int(optarg, INT_MAX)) < 0)
				return cmd_usage_error(cmd_show_usage, "--ply "
				    "takes a number of moves, not '%s'", optarg);
			break;
		case OPT_LAST: last = 1; break;
		case OPT_MOVES: s.moves = 1; break;
		case OPT_ASCII: s.ascii = 1; break;
		case OPT_COLOR:
			if (!strcmp(optarg, "auto"))
				s.colour = -1;
			else if (!strcmp(optarg, "always"))
				s.colour = 1;
			else if (!strcmp(optarg, "never"))
				s.colour = 0;
			else
				return cmd_usage_error(cmd_show_usage, "--color "
				    "takes auto, always or never, not '%s'",
				    optarg);
			break;
		case OPT_SVG: rc = set_mode(&s, MODE_SVG, "--svg"); break;
		case OPT_PNG: rc = set_mode(&s, MODE_PNG, "--png"); break;
		case OPT_GIF: rc = set_mode(&s, MODE_GIF, "--gif"); break;
		case OPT_GRAPH: s.graph = 1; break;
		case OPT_DELAY:
			rc = parse_delay(&s, optarg);
			delay_set = 1;
			break;
		case OPT_REAL_TIME: rc = parse_real_time(&s, optarg); break;
		case OPT_FLIP: s.flip = 1; break;
		case OPT_NO_FLIP: s.flip = 0; break;
		case OPT_SIZE:
			if ((s.size = cmd_parse_int(optarg, 4000)) < 120)
				return cmd_usage_error(cmd_show_usage, "--size "
				    "takes a width of 120 to 4000 pixels, not "
				    "'%s'", optarg);
			break;
		case 'o': s.output = optarg; break;
		case OPT_FORCE: s.force = 1; break;
		case OPT_FROM:
			if (!(s.from = formats_by_name(optarg)) || !s.from->read)
				return cmd_usage_error(cmd_show_usage, "cannot "
				    "read format '%s' (known: %s)", optarg,
				    formats_names());
			break;
		case 'h': return cmd_help(cmd_show_usage);
		default:
			return cmd_usage_error(cmd_show_usage,
			    optopt ? "option '%s' needs a value" :
			    "unknown option '%s'", argv[optind - 1]);
		}
		if (rc)
			return rc;
	}
	if (last && s.ply >= 0)
		return cmd_usage_error(cmd_show_usage, "--ply or --last, not "
		    "both");
	if (optind == argc)
		return cmd_usage_error(cmd_show_usage, "no file given");
	if (argc - optind > 1)
		return cmd_usage_error(cmd_show_usage, "one file at a time");
	if ((rc = check_options(&s, delay_set)) != 0)
		return rc;
	if (!s.size)
		s.size = s.graph ? 640 : 480;
	record_init(&s.r, variant_standard());
	diag_list_init(&s.d);
	rc = show_file(&s, argv[optind]);
	record_release(&s.r);
	diag_list_release(&s.d);
	return rc;
}

/*
 * match.c - `kifu match`: games between USI engines with kifu as the
 * referee. The options, then the library: engine/tourney.h plays the
 * games (scheduled by engine/schedule.h, each refereed by
 * engine/match.h) and hands them back in game order; this file writes
 * each as a record and a results line (engine/results.h) and prints the
 * statistics (stats/matchtally.h). --report reads results files back
 * (engine/results.h). SIGINT is this file's: its flag stops the match.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "enginelive.h"
#include "api/formats.h"
#include "api/input.h"
#include "api/output.h"
#include "core/clock.h"
#include "core/encode.h"
#include "core/xalloc.h"
#include "engine/enginefile.h"
#include "engine/match.h"
#include "engine/openings.h"
#include "engine/results.h"
#include "engine/schedule.h"
#include "engine/tourney.h"
#include "stats/matchtally.h"

const char cmd_match_usage[] =
    "usage: kifu match --engine <engine> [--option <name>=<value>]...\n"
    "                  --engine <engine> [--option <name>=<value>]...\n"
    "                  [<options>]\n"
    "   or: kifu match --report <results.jsonl>...\n"
    "\n"
    "Plays games between USI engines with kifu as the referee: every move\n"
    "is judged by the rules (an illegal move, a false declaration, a move\n"
    "past the time, an engine that dies or hangs all lose), each game is\n"
    "written as a record that kifu validate judges the same way, and the\n"
    "match's statistics (W/D/L, Elo with its 95% interval, LOS, the\n"
    "pentanomial pairs, the SPRT) are printed as it goes and at the end.\n"
    "See doc/match.md.\n"
    "\n"
    "Engines (two, or more with --tournament):\n"
    "    --engine <engine>    a name from the engines file, or the engine's\n"
    "                         command line (split as a shell would)\n"
    "    --option <name>=<value>\n"
    "                         a setoption for the engine named last (repeat\n"
    "                         it), checked against what the engine declares\n"
    "    --engines <file>     the engines file (default:\n"
    "                         $XDG_CONFIG_HOME/kifu/engines.toml, else\n"
    "                         ~/.config/kifu/engines.toml)\n"
    "    --engine-log <file>  append the engines' stderr here (default: it\n"
    "                         is dropped)\n"
    "    --timeout-init <ms>  the longest wait for usiok and readyok\n"
    "                         (default 30000)\n"
    "    --tournament gauntlet|round-robin\n"
    "                         with more than two engines: the first against\n"
    "                         each other (gauntlet, the default), or every\n"
    "                         pair\n"
    "\n"
    "Games:\n"
    "    --games <n>          games per pairing (default 2; rounded up to\n"
    "                         whole pairs with --repeat)\n"
    "    --rounds <n>         pairs of games per pairing: --games 2n\n"
    "    --concurrency <c>    games played at once (default 1)\n"
    "    --affinity           pin each game's engines to a CPU of its own\n"
    "    --tc <tc>            the time control (default byoyomi=1):\n"
    "                         nodes=N, depth=N, movetime=S (a search limit\n"
    "                         a move), M+byoyomi=Y, byoyomi=Y, M+I\n"
    "                         (Fischer), M (sudden death); seconds,\n"
    "                         fractions allowed\n"
    "    --timemargin <ms>    a move may take this much longer than its\n"
    "                         time before it loses (default 0)\n"
    "    --timeout-move <ms>  under nodes, depth and movetime: a move that\n"
    "                         takes longer (past the movetime) loses as a\n"
    "                         hang (default 60000)\n"
    "    --rules <set>        the referee's rules: csa (default), jsa,\n"
    "                         wars, minishogi, with ,key=value settings\n"
    "    --max-moves <m>      the move limit, a draw (default: the rule\n"
    "                         set's; 0 none)\n"
    "    --variant <name>     standard (default) or minishogi\n"
    "\n"
    "Openings:\n"
    "    --openings <file>    SFEN/USI lines ('startpos moves ...', 'sfen\n"
    "                         ... moves ...', 'position' before them or not),\n"
    "                         records of any format kifu reads, or a DB2016\n"
    "                         book (kifu book's), walked at random by its\n"
    "                         counts (--seed)\n"
    "    --opening-plies <p>  the first p moves of each (default: all of a\n"
    "                         line, 16 of a record or a book)\n"
    "    --repeat             each opening played twice, the colours\n"
    "                         swapped (the default)\n"
    "    --no-repeat          each opening once, colours alternating\n"
    "    --random             the openings in a random order\n"
    "    --seed <s>           that order's seed (default 1)\n"
    "\n"
    "Adjudication (off unless asked, and recorded as such):\n"
    "    --resign <cp>,<moves>\n"
    "                         a side resigns when its engine scored itself\n"
    "                         at -cp or worse and the other engine agreed,\n"
    "                         on each of their last <moves> moves\n"
    "    --draw <cp>,<moves>[,<ply>]\n"
    "                         drawn when both engines scored within +-cp\n"
    "                         on each of their last <moves> moves, from\n"
    "                         move <ply> on\n"
    "\n"
    "Statistics:\n"
    "    --sprt elo0=<e0>,elo1=<e1>[,alpha=<a>,beta=<b>,model=<m>]\n"
    "                         stop when the GSPRT accepts H0 or H1 (model\n"
    "                         normalized, the default, or logistic; alpha\n"
    "                         and beta 0.05 by default)\n"
    "    --report <file>...   read results files and print their statistics\n"
    "                         (shards of one match merge)\n"
    "    -q, --quiet          no progress line on a terminal\n"
    "\n"
    "Output:\n"
    "    -o, --output <dir>   write each game as a record here (made when\n"
    "                         missing): game-0001.csa, ...\n"
    "    -t, --to <format>    the records' format (default csa, V3.0)\n"
    "    --results <file>     one JSON line a game (made, or appended to)\n"
    "    --event <text>       the records' event (default 'kifu match')\n"
    "    --force              replace existing records\n"
    "\n"
    "SIGINT stops the match: games in progress are abandoned and not\n"
    "counted, the engines are ended, the records and results written so\n"
    "far are complete. Exit status: 0 the match was played, 1 a game's\n"
    "record disagrees with the referee (a bug of kifu), 2 trouble (usage,\n"
    "an engine that cannot be started or refuses an option or the time\n"
    "control, an opening that is illegal, I/O), 130 interrupted.\n";

/* --- options -------------------------------------------------------------- */

#define ENGINES_MAX TOURNEY_ENGINES_MAX
#define THREADS_MAX 64

struct engine_spec {
	const char *arg;		/* --engine as given */
	const char **user_opts;		/* --option for it */
	size_t nuser;
	struct engine_use use;		/* resolved */
};

struct match_cmd {
	struct engine_spec eng[ENGINES_MAX];
	struct tourney_engine te[ENGINES_MAX];
	int neng;
	const char *engines_path, *engine_log;
	long long timeout_init;
	/* what the options say of the schedule and the tourney, as is */
	struct schedule_opts so;
	struct tourney_opts topts;
	int quiet;
	struct match_rules mr;
	int max_moves;			/* -1: the rule set's */
	const char *openings_path;
	int opening_plies;		/* -1: the default */
	int random;
	unsigned long long seed;
	struct sprt sprt;		/* topts.sprt points here when given */
	const char *out_dir, *results_path;
	const struct format *to;
	int force;
	struct engine_file ef;
	struct openings ops;
	size_t *order;			/* openings in play order */
	struct schedule sched;
	struct tourney *tourney;
	/* output */
	FILE *results;
	int width;			/* of the game number in file names */
	int status;
	int tty;
	int disagreements;
	struct strbuf path, line;
	struct match_overhead ov;	/* the bench's samples */
};

static volatile sig_atomic_t interrupted;

/* --- engines ---------------------------------------------------------------- */

static void
engine_warn(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_warning("%s", msg);
}

/* Each --engine as the tourney starts it; the command line beats the file. */
static int
resolve_engines(struct match_cmd *c)
{
	char msg[1024];
	int i;

	if (enginefile_load(&c->ef, c->engines_path, msg, sizeof(msg)) < 0)
		return cmd_error("%s", msg);
	for (i = 0; i < c->neng; i++) {
		struct engine_spec *es = &c->eng[i];
		const struct engine_use *u = &es->use;
		struct tourney_engine *te = &c->te[i];

		if (enginefile_use(&c->ef, es->arg, es->user_opts, es->nuser,
		    &es->use, msg, sizeof(msg)) < 0)
			return cmd_error("%s", msg);
		te->arg = es->arg;
		te->start.argv = u->argv;
		te->start.log_path = c->engine_log ? c->engine_log : u->entry ?
		    u->entry->log : NULL;
		te->start.env = u->entry ? (const char *const *)u->entry->env :
		    NULL;
		te->start.init_timeout_ms = c->timeout_init ? c->timeout_init :
		    u->entry ? u->entry->timeout_init : 0;
		te->start.on_spawn = enginelive_spawn;
		te->start.on_reap = enginelive_reap;
		te->options = (const char *const *)u->options;
		te->noptions = u->noptions;
	}
	return 0;
}

static int
read_openings(struct match_cmd *c)
{
	char err[1024];

	openings_init(&c->ops);
	if (openings_load(&c->ops, c->openings_path, c->mr.v, c->opening_plies,
	    schedule_openings_needed(c->so.games, c->so.repeat), c->seed,
	    err, sizeof(err)) < 0)
		return cmd_error("%s", err);
	c->order = xcalloc(c->ops.n, sizeof(*c->order));
	openings_order(c->order, c->ops.n, c->random, c->seed);
	return 0;
}

/* --- output --------------------------------------------------------------- */

static int
write_record(struct match_cmd *c, size_t index, const struct match_game *g,
    struct strbuf *path)
{
	struct write_opts wo;
	struct diag_list d;
	struct strbuf plain = STRBUF_INIT, enc = STRBUF_INIT;
	const char *encoding = c->to->default_encoding ?
	    c->to->default_encoding : "UTF-8";
	struct span at;
	char cp[8];
	int rc = 0;

	strbuf_reset(path);
	strbuf_addf(path, "%s/game-%0*zu%s", c->out_dir, c->width, index + 1,
	    c->to->extensions[0]);
	memset(&wo, 0, sizeof(wo));
	wo.csa_version = 3;
	wo.encoding = encoding;
	diag_list_init(&d);
	if (c->to->write(&g->rec, &wo, &plain, &d) < 0 || d.errors) {
		cmd_print_diags(path->buf, &d);
		rc = -1;
	} else if (encode_text(plain.buf ? plain.buf : "", plain.len,
	    encoding, NULL, NULL, &enc, &at, cp) < 0) {
		cmd_error("%s: '%s' cannot be written in %s", path->buf, cp,
		    encoding);
		rc = -1;
	} else if (output_write_file(path->buf, enc.buf ? enc.buf : "",
	    enc.len, c->force, -1) < 0) {
		cmd_error("cannot write '%s': %s", path->buf, errno == EEXIST ?
		    "it exists (--force replaces it)" : strerror(errno));
		rc = -1;
	}
	diag_list_release(&d);
	strbuf_release(&plain);
	strbuf_release(&enc);
	return rc;
}

/* The first pairing's count, on a terminal. */
static void
progress(struct match_cmd *c)
{
	const struct match_tally *t = &tourney_tallies(c->tourney)->v[0];
	struct elo_estimate e;

	if (!c->tty || c->quiet)
		return;
	match_tally_elo(t, &e);
	fprintf(stderr, "\r\033[K%lld/%zu games  +%lld =%lld -%lld",
	    match_tally_games(t), c->sched.n, t->w, t->d, t->l);
	if (e.n && e.finite)
		fprintf(stderr, "  Elo %+.1f +- %.1f", e.elo, e.elo95);
	if (c->topts.sprt)
		fprintf(stderr, "  LLR %.2f", match_tally_llr(t, c->topts.sprt));
	fflush(stderr);
}

/* A game finished, in game order: its record, its line, the progress. */
static void
on_game(void *ctx, const struct tourney_game *tg)
{
	struct match_cmd *c = ctx;
	const struct match_game *g = tg->g;
	size_t idx = tg->index;

	if (c->out_dir && write_record(c, idx, g, &c->path) < 0)
		c->status = EXIT_TROUBLE;
	if (!g->agrees) {
		cmd_error("game %zu: the record's own verdict (%s) is not the "
		    "referee's (%s %s): a bug of kifu, please report it",
		    idx + 1, g->rules_verdict, match_winner_name(g),
		    match_end_name(g->end));
		c->disagreements++;
	}
	if (c->results) {
		results_line(&c->line, idx, tg->s, g,
		    tourney_engine_name(c->tourney, tg->s->black),
		    tourney_engine_name(c->tourney, tg->s->white),
		    &c->ops.v[tg->s->opening], &c->mr,
		    c->out_dir ? c->path.buf : NULL);
		if (fwrite(c->line.buf, 1, c->line.len, c->results) !=
		    c->line.len || fflush(c->results) != 0) {
			cmd_error("cannot write '%s': %s", c->results_path,
			    strerror(errno));
			c->status = EXIT_TROUBLE;
		}
	}
	progress(c);
}

static void
print_tallies(const struct match_tallies *ts, const char *const *names,
    const struct sprt *sprt, const long long *ends)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ts->n; i++)
		match_tally_text(&ts->v[i], names[ts->v[i].a],
		    names[ts->v[i].b], sprt, &out);
	if (ends)
		results_ends_text(ends, &out);
	fwrite(out.buf ? out.buf : "", 1, out.len, stdout);
	strbuf_release(&out);
}

static void
print_overhead(struct match_cmd *c)
{
	const char *env = getenv("KIFU_MATCH_OVERHEAD");
	FILE *f;
	size_t i;

	if (!env || !*env || !(f = fopen(env, "w")))
		return;
	for (i = 0; i < c->ov.n; i++)
		fprintf(f, "%lld\n", c->ov.us[i]);
	fclose(f);
}

/* --- --report ----------------------------------------------------------- */

static int
run_report(char **files, int n, const struct sprt *sprt)
{
	struct results_report r;
	int i, rc = 0;

	results_report_init(&r);
	for (i = 0; i < n; i++) {
		r.source = i;
		if (cmd_read_jsonl(files[i], results_report_line, &r))
			rc = EXIT_TROUBLE;
	}
	print_tallies(&r.t, (const char *const *)r.names, sprt, r.games ?
	    r.ends : NULL);
	if (!r.games)
		printf("no games\n");
	results_report_release(&r);
	return rc;
}

/* --- the match ---------------------------------------------------------- */

static int
run(struct match_cmd *c)
{
	const char *names[ENGINES_MAX];
	char err[1024];
	long long played = 0;
	double start;
	int i, rc;

	c->so.nengines = c->neng;
	c->so.order = c->order;
	c->so.nopenings = c->ops.n;
	schedule_make(&c->sched, &c->so);
	c->topts.engines = c->te;
	c->topts.nengines = c->neng;
	c->topts.mr = &c->mr;
	c->topts.ops = &c->ops;
	c->topts.sched = &c->sched;
	c->topts.stop = &interrupted;
	c->topts.warn = engine_warn;
	c->topts.game = on_game;
	c->topts.game_ctx = c;
	if (getenv("KIFU_MATCH_OVERHEAD"))
		c->topts.overhead = &c->ov;
	c->tourney = tourney_new(&c->topts);
	if (tourney_start_engines(c->tourney, err, sizeof(err)) < 0)
		return cmd_error("%s", err);
	if (c->out_dir && mkdir(c->out_dir, 0777) < 0 && errno != EEXIST)
		return cmd_error("cannot make '%s': %s", c->out_dir,
		    strerror(errno));
	if (c->results_path && !(c->results = fopen(c->results_path, "a")))
		return cmd_error("cannot open '%s': %s", c->results_path,
		    strerror(errno));
	for (c->width = 4; c->width < 12; c->width++) {
		size_t lim = 1;

		for (i = 0; i < c->width; i++)
			lim *= 10;
		if (c->sched.n < lim)
			break;
	}
	c->tty = isatty(2);
	start = clock_now();
	enginelive_signals(1, &interrupted);
	rc = tourney_run(c->tourney, err, sizeof(err));
	enginelive_signals(0, NULL);
	if (c->tty && !c->quiet)
		fputs("\r\033[K", stderr);
	if (c->results && fclose(c->results) != 0) {
		cmd_error("cannot write '%s': %s", c->results_path,
		    strerror(errno));
		c->status = EXIT_TROUBLE;
	}
	c->results = NULL;
	for (i = 0; i < c->neng; i++)
		names[i] = tourney_engine_name(c->tourney, i);
	print_tallies(tourney_tallies(c->tourney), names, c->topts.sprt,
	    tourney_ends(c->tourney));
	for (i = 0; i < END_NB; i++)
		played += tourney_ends(c->tourney)[i];
	printf("%lld game%s in %.1f s\n", played, played == 1 ? "" : "s",
	    clock_now() - start);
	fflush(stdout);
	print_overhead(c);
	if (rc < 0)
		return cmd_error("the match stopped: %s", err);
	if (interrupted) {
		cmd_note("interrupted: games in progress were abandoned");
		return 130;
	}
	if (c->disagreements)
		return EXIT_FINDINGS;
	return c->status;
}

enum {
	OPT_ENGINE = 256, OPT_OPTION, OPT_ENGINES, OPT_ENGINE_LOG,
	OPT_TIMEOUT_INIT, OPT_TOURNAMENT, OPT_GAMES, OPT_ROUNDS,
	OPT_CONCURRENCY, OPT_AFFINITY, OPT_TC, OPT_TIMEMARGIN,
	OPT_TIMEOUT_MOVE, OPT_RULES, OPT_MAX_MOVES, OPT_VARIANT,
	OPT_OPENINGS, OPT_OPENING_PLIES, OPT_REPEAT, OPT_NO_REPEAT,
	OPT_RANDOM, OPT_SEED, OPT_RESIGN, OPT_DRAW, OPT_SPRT, OPT_REPORT,
	OPT_RESULTS, OPT_EVENT, OPT_FORCE
};

static void
release(struct match_cmd *c)
{
	int i;

	for (i = 0; i < c->neng; i++) {
		engine_use_release(&c->eng[i].use);
		free(c->eng[i].user_opts);
	}
	/* the tourney first: it borrows the schedule and the openings */
	tourney_free(c->tourney);
	schedule_release(&c->sched);
	free(c->order);
	free(c->ov.us);
	strbuf_release(&c->path);
	strbuf_release(&c->line);
	openings_release(&c->ops);
	enginefile_release(&c->ef);
}

static int
parse_ms(const char *s, long long *out)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < 0)
		return -1;
	*out = v;
	return 0;
}

int
cmd_match(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "option", required_argument, NULL, OPT_OPTION },
		{ "engines", required_argument, NULL, OPT_ENGINES },
		{ "engine-log", required_argument, NULL, OPT_ENGINE_LOG },
		{ "timeout-init", required_argument, NULL, OPT_TIMEOUT_INIT },
		{ "tournament", required_argument, NULL, OPT_TOURNAMENT },
		{ "games", required_argument, NULL, OPT_GAMES },
		{ "rounds", required_argument, NULL, OPT_ROUNDS },
		{ "concurrency", required_argument, NULL, OPT_CONCURRENCY },
		{ "affinity", no_argument, NULL, OPT_AFFINITY },
		{ "tc", required_argument, NULL, OPT_TC },
		{ "timemargin", required_argument, NULL, OPT_TIMEMARGIN },
		{ "timeout-move", required_argument, NULL, OPT_TIMEOUT_MOVE },
		{ "rules", required_argument, NULL, OPT_RULES },
		{ "max-moves", required_argument, NULL, OPT_MAX_MOVES },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "openings", required_argument, NULL, OPT_OPENINGS },
		{ "opening-plies", required_argument, NULL, OPT_OPENING_PLIES },
		{ "repeat", no_argument, NULL, OPT_REPEAT },
		{ "no-repeat", no_argument, NULL, OPT_NO_REPEAT },
		{ "random", no_argument, NULL, OPT_RANDOM },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "resign", required_argument, NULL, OPT_RESIGN },
		{ "draw", required_argument, NULL, OPT_DRAW },
		{ "sprt", required_argument, NULL, OPT_SPRT },
		{ "report", no_argument, NULL, OPT_REPORT },
		{ "results", required_argument, NULL, OPT_RESULTS },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "output", required_argument, NULL, 'o' },
		{ "to", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct match_cmd c;
	const char *rules = "csa";
	char err[512];
	int opt, report = 0, rc, tournament_given = 0, rules_given = 0;
	long long games = 2;

	memset(&c, 0, sizeof(c));
	strbuf_init(&c.path);
	strbuf_init(&c.line);
	interrupted = 0;
	c.topts.concurrency = 1;
	c.so.repeat = 1;
	c.seed = 1;
	c.max_moves = -1;
	c.opening_plies = -1;
	c.mr.v = variant_standard();
	c.mr.hang_ms = 60000;
	c.mr.event = "kifu match";
	c.to = formats_by_name("csa");
	match_tc_parse("byoyomi=1", &c.mr.tc, err, sizeof(err));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "ho:t:q", longopts, NULL)) !=
	    -1) {
		struct engine_spec *es;

		switch (opt) {
		case OPT_ENGINE:
			if (c.neng == ENGINES_MAX)
				return cmd_usage_error(cmd_match_usage,
				    "at most %d engines", ENGINES_MAX);
			c.eng[c.neng++].arg = optarg;
			break;
		case OPT_OPTION:
			if (!c.neng)
				return cmd_usage_error(cmd_match_usage,
				    "--option belongs to an --engine: give the "
				    "engine first");
			if (!strchr(optarg, '=') || optarg[0] == '=')
				return cmd_usage_error(cmd_match_usage,
				    "--option takes <name>=<value>, not '%s'",
				    optarg);
			es = &c.eng[c.neng - 1];
			es->user_opts = xreallocarray(es->user_opts,
			    es->nuser + 1, sizeof(*es->user_opts));
			es->user_opts[es->nuser++] = optarg;
			break;
		case OPT_ENGINES: c.engines_path = optarg; break;
		case OPT_ENGINE_LOG: c.engine_log = optarg; break;
		case OPT_TIMEOUT_INIT:
			if (parse_ms(optarg, &c.timeout_init) < 0 ||
			    !c.timeout_init)
				return cmd_usage_error(cmd_match_usage,
				    "--timeout-init takes milliseconds");
			break;
		case OPT_TOURNAMENT:
			tournament_given = 1;
			if (!strcmp(optarg, "gauntlet"))
				c.so.round_robin = 0;
			else if (!strcmp(optarg, "round-robin"))
				c.so.round_robin = 1;
			else
				return cmd_usage_error(cmd_match_usage,
				    "--tournament is gauntlet or round-robin");
			break;
		case OPT_GAMES:
		case OPT_ROUNDS:
			if (parse_ms(optarg, &games) < 0 || games < 1 ||
			    games > 100000000)
				return cmd_usage_error(cmd_match_usage,
				    "--%s takes a count above 0", opt ==
				    OPT_GAMES ? "games" : "rounds");
			if (opt == OPT_ROUNDS)
				games *= 2;
			break;
		case OPT_CONCURRENCY:
			if ((c.topts.concurrency = cmd_parse_int(optarg,
			    THREADS_MAX)) < 1)
				return cmd_usage_error(cmd_match_usage,
				    "--concurrency takes 1 to %d", THREADS_MAX);
			break;
		case OPT_AFFINITY: c.topts.affinity = 1; break;
		case OPT_TC:
			if (match_tc_parse(optarg, &c.mr.tc, err,
			    sizeof(err)) < 0)
				return cmd_usage_error(cmd_match_usage, "%s",
				    err);
			break;
		case OPT_TIMEMARGIN:
			if (parse_ms(optarg, &c.mr.timemargin_ms) < 0)
				return cmd_usage_error(cmd_match_usage,
				    "--timemargin takes milliseconds");
			break;
		case OPT_TIMEOUT_MOVE:
			if (parse_ms(optarg, &c.mr.hang_ms) < 0 ||
			    !c.mr.hang_ms)
				return cmd_usage_error(cmd_match_usage,
				    "--timeout-move takes milliseconds");
			break;
		case OPT_RULES: rules = optarg, rules_given = 1; break;
		case OPT_MAX_MOVES:
			if ((c.max_moves = cmd_parse_int(optarg, 100000)) < 0)
				return cmd_usage_error(cmd_match_usage,
				    "--max-moves takes a count (0: none)");
			break;
		case OPT_VARIANT:
			if (cmd_variant(optarg, &c.mr.v, cmd_match_usage))
				return EXIT_TROUBLE;
			break;
		case OPT_OPENINGS: c.openings_path = optarg; break;
		case OPT_OPENING_PLIES:
			if ((c.opening_plies = cmd_parse_int(optarg,
			    100000)) < 0)
				return cmd_usage_error(cmd_match_usage,
				    "--opening-plies takes a count");
			break;
		case OPT_REPEAT: c.so.repeat = 1; break;
		case OPT_NO_REPEAT: c.so.repeat = 0; break;
		case OPT_RANDOM: c.random = 1; break;
		case OPT_SEED:
			{
				long long v;

				if (parse_ms(optarg, &v) < 0)
					return cmd_usage_error(cmd_match_usage,
					    "--seed takes a number");
				c.seed = (unsigned long long)v;
			}
			break;
		case OPT_RESIGN:
			if (match_resign_parse(optarg, &c.mr) < 0)
				return cmd_usage_error(cmd_match_usage,
				    "--resign takes <cp>,<moves>, as 1000,3");
			break;
		case OPT_DRAW:
			if (match_draw_parse(optarg, &c.mr) < 0)
				return cmd_usage_error(cmd_match_usage,
				    "--draw takes <cp>,<moves>[,<ply>], as "
				    "10,8,80");
			break;
		case OPT_SPRT:
			if (sprt_parse(optarg, &c.sprt, err, sizeof(err)) < 0)
				return cmd_usage_error(cmd_match_usage,
				    "--sprt: %s", err);
			c.topts.sprt = &c.sprt;
			break;
		case OPT_REPORT: report = 1; break;
		case OPT_RESULTS: c.results_path = optarg; break;
		case OPT_EVENT: c.mr.event = optarg; break;
		case 'o': c.out_dir = optarg; break;
		case 't':
			if (!(c.to = formats_by_name(optarg)) || !c.to->write ||
			    c.to->write_at)
				return cmd_usage_error(cmd_match_usage,
				    "'%s' is no format of whole records (known: "
				    "%s)", optarg, formats_names());
			break;
		case 'q': c.quiet = 1; break;
		case OPT_FORCE: c.force = 1; break;
		case 'h': return cmd_help(cmd_match_usage);
		default:
			return cmd_usage_error(cmd_match_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (report) {
		if (c.neng)
			return cmd_usage_error(cmd_match_usage, "--report reads "
			    "results; it plays no games (no --engine)");
		if (optind == argc)
			return cmd_usage_error(cmd_match_usage, "--report needs "
			    "a results file");
		return run_report(argv + optind, argc - optind, c.topts.sprt);
	}
	if (optind < argc)
		return cmd_usage_error(cmd_match_usage, "unexpected argument "
		    "'%s'", argv[optind]);
	if (c.neng < 2)
		return cmd_usage_error(cmd_match_usage, "a match needs two "
		    "engines (--engine twice)");
	if (tournament_given && c.neng == 2)
		cmd_note("two engines: --tournament changes nothing");
	{
		const struct ruleset *base;
		size_t k = strcspn(rules, ",");
		char name[32];

		snprintf(name, sizeof(name), "%.*s", (int)(k < 31 ? k : 31),
		    rules);
		if (!(base = ruleset_by_name(name)))
			return cmd_usage_error(cmd_match_usage, "unknown rule "
			    "set '%s' (known: %s)", name, ruleset_names());
		if (ruleset_parse(rules, strlen(rules), &c.mr.rs) < 0)
			return cmd_usage_error(cmd_match_usage, "--rules: bad "
			    "setting in '%s'", rules);
		/* minishogi's own rules unless others were asked */
		if (c.mr.v == variant_minishogi() && !rules_given)
			ruleset_parse("minishogi", 9, &c.mr.rs);
		if (c.max_moves >= 0) {
			char v[16];

			snprintf(v, sizeof(v), "%d", c.max_moves);
			ruleset_set(&c.mr.rs, "max-moves", v);
		}
	}
	c.so.games = games;
	if (c.out_dir && c.to->write_at)
		return cmd_usage_error(cmd_match_usage, "-t: a format of whole "
		    "records");
	if ((rc = resolve_engines(&c)) != 0 || (rc = read_openings(&c)) != 0) {
		release(&c);
		return rc;
	}
	rc = run(&c);
	release(&c);
	return rc;
}

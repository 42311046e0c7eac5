/*
 * match.c - `kifu match`: games between USI engines with kifu as the
 * referee (engine/match.h), their records and results, and the
 * statistics of the match (stats/elo.h), with SPRT stopping.
 *
 * Games are numbered in the order they are scheduled (opening by
 * opening, each pairing, the colours swapped for the second game of a
 * pair); C worker threads play them, each with engine processes of its
 * own, and the main thread writes the records, the results and the
 * statistics in game order as games finish.
 */
#define _GNU_SOURCE	/* sched_setaffinity, CPU_SET */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
#include "engine/usi.h"
#include "stats/elo.h"

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

#define ENGINES_MAX 16
#define THREADS_MAX 64

struct engine_spec {
	const char *arg;		/* --engine as given */
	const char **user_opts;		/* --option for it */
	size_t nuser;
	const struct engine_entry *entry;
	char **argv;
	char **options;			/* "Name=Value", in order */
	size_t noptions;
	char *name;			/* shown: id name, made unique */
};

struct game_slot {
	int state;			/* 0 waiting, 1 playing, 2 done */
	struct match_game g;
	int black, white;		/* engine indexes */
	size_t opening;
	int round, pair;		/* pair: 1-based, across the match */
	int taken;			/* emitted */
};

struct match_cmd {
	struct engine_spec eng[ENGINES_MAX];
	int neng;
	const char *engines_path, *engine_log;
	long long timeout_init;
	int round_robin;
	long long games_per_pairing;
	int concurrency, affinity, quiet;
	struct match_rules mr;
	int max_moves;			/* -1: the rule set's */
	const char *openings_path;
	int opening_plies;		/* -1: the default */
	int repeat, random;
	unsigned long long seed;
	int has_sprt;
	struct sprt sprt;
	const char *out_dir, *results_path;
	const struct format *to;
	int force;
	struct engine_file ef;
	/* each engine as check_engines started it, for the first worker */
	struct usi_engine *first[ENGINES_MAX];
	struct openings ops;
	size_t *order;			/* openings in play order */
	/* the schedule */
	int (*pairings)[2];
	int npairings;
	struct game_slot *slots;
	size_t nslots, next, emitted;
	pthread_mutex_t mu;
	pthread_cond_t done_cv;
	int running;			/* workers still playing */
	int stopping;			/* no new games (SPRT, error) */
	char fatal[1024];		/* why the match could not go on */
	/* output */
	FILE *results;
	int width;			/* of the game number in file names */
	int status;
	int tty;
	double start;
	/* statistics, pairing by pairing */
	struct tally *tallies;
	long long ends[END_NB];
	int disagreements;
	/* the bench's samples */
	struct match_overhead ov;
	int want_overhead;
};

static volatile sig_atomic_t interrupted;

/* W/D/L from the first engine of a pairing's view, and the pairs. */
struct tally {
	int a, b;			/* engine indexes */
	long long w, d, l;
	long long color[COLOR_NB][3];	/* a as that colour: w, d, l */
	long long pairs[PAIR_NB];
	/* a pair's first game, waiting for its partner: a's half points */
	struct pending { long long key; int half; } *pend;
	size_t npend, apend;
	int sprt_done;
	enum sprt_verdict verdict;
	double verdict_llr;
	long long verdict_games;
};

static int
parse_pair(const char *s, int *a, int *b, int *c, int three)
{
	char *end;
	long x, y, z = 0;

	x = strtol(s, &end, 10);
	if (end == s || *end != ',' || x < 0 || x > 1000000)
		return -1;
	s = end + 1;
	y = strtol(s, &end, 10);
	if (end == s || y <= 0 || y > 100000)
		return -1;
	if (*end == ',' && three) {
		s = end + 1;
		z = strtol(s, &end, 10);
		if (end == s || z < 0 || z > 100000)
			return -1;
	}
	if (*end)
		return -1;
	*a = (int)x;
	*b = (int)y;
	if (c)
		*c = (int)z;
	return 0;
}

/* --- engines ---------------------------------------------------------------- */

static void
add_option(struct engine_spec *es, const char *kv)
{
	size_t n = strcspn(kv, "="), i;

	for (i = 0; i < es->noptions; i++)
		if (!strncasecmp(es->options[i], kv, n) &&
		    es->options[i][n] == '=') {
			free(es->options[i]);
			es->options[i] = xstrndup(kv, strlen(kv));
			return;
		}
	es->options = xreallocarray(es->options, es->noptions + 1,
	    sizeof(*es->options));
	es->options[es->noptions++] = xstrndup(kv, strlen(kv));
}

static int
resolve_engines(struct match_cmd *c)
{
	struct usi_error err;
	char msg[1024];
	int i;
	size_t k;

	if (enginefile_load(&c->ef, c->engines_path, msg, sizeof(msg)) < 0)
		return cmd_error("%s", msg);
	for (i = 0; i < c->neng; i++) {
		struct engine_spec *es = &c->eng[i];

		es->entry = enginefile_find(&c->ef, es->arg);
		if (usi_split_command(es->entry ? es->entry->command : es->arg,
		    &es->argv, &err) < 0)
			return cmd_error("%s", err.msg);
		if (es->entry)
			for (k = 0; k < es->entry->noptions; k++)
				add_option(es, es->entry->options[k]);
		for (k = 0; k < es->nuser; k++)
			add_option(es, es->user_opts[k]);
		for (k = 0; k < es->noptions; k++)
			if (strchr(es->options[k], '\n'))
				return cmd_error("an option holds a line "
				    "break");
	}
	return 0;
}

struct warn_ctx {
	struct match_cmd *c;
};

static void
engine_warn(void *ctx, const char *msg)
{
	(void)ctx;
	cmd_warning("%s", msg);
}

/* The usi limit the time control is, for usi_check_limit. */
static void
tc_limit(const struct match_tc *tc, struct usi_limit *l)
{
	memset(l, 0, sizeof(*l));
	switch (tc->kind) {
	case TC_NODES: l->kind = USI_LIMIT_NODES; l->value = tc->nodes; break;
	case TC_DEPTH: l->kind = USI_LIMIT_DEPTH; l->value = tc->depth; break;
	case TC_MOVETIME:
		l->kind = USI_LIMIT_MOVETIME;
		l->value = tc->movetime_ms;
		break;
	case TC_CLOCK:
		l->kind = USI_LIMIT_CLOCK;
		l->byoyomi = tc->byoyomi_ms;
		l->binc = l->winc = tc->inc_ms;
		break;
	}
}

/* Starts engine i: handshake, variant, options, isready, the limit. */
static int
start_engine(struct match_cmd *c, int i, struct usi_engine **out,
    struct usi_error *err)
{
	struct engine_spec *es = &c->eng[i];
	struct usi_start_opts so;
	struct usi_limit lim;
	size_t k;

	memset(&so, 0, sizeof(so));
	so.argv = es->argv;
	so.log_path = c->engine_log ? c->engine_log : es->entry ?
	    es->entry->log : NULL;
	so.env = es->entry ? (const char *const *)es->entry->env : NULL;
	so.init_timeout_ms = c->timeout_init ? c->timeout_init : es->entry ?
	    es->entry->timeout_init : 0;
	so.warn = engine_warn;
	so.on_spawn = enginelive_spawn;
	so.on_reap = enginelive_reap;
	*out = NULL;
	if (usi_start(&so, out, err) < 0)
		return -1;
	if (c->mr.v != variant_standard()) {
		if (!usi_plays_variant(*out, c->mr.v->name)) {
			snprintf(err->msg, sizeof(err->msg), "%s does not play "
			    "%s (it declares no UCI_Variant of that name)",
			    usi_engine_name(*out), c->mr.v->name);
			err->status = USI_ERR_UNSUPPORTED;
			return -1;
		}
		if (usi_set_option(*out, "UCI_Variant", c->mr.v->name, err) < 0)
			return -1;
	}
	for (k = 0; k < es->noptions; k++) {
		char *kv = xstrndup(es->options[k], strlen(es->options[k]));
		char *eq = strchr(kv, '=');
		int rc;

		*eq = '\0';
		rc = usi_set_option(*out, kv, eq + 1, err);
		free(kv);
		if (rc < 0)
			return -1;
	}
	if (usi_ready(*out, err) < 0)
		return -1;
	tc_limit(&c->mr.tc, &lim);
	if (usi_check_limit(*out, &lim, err) < 0)
		return -1;
	if (!usi_alive(*out) && usi_restart(*out, err) < 0)
		return -1;
	return 0;
}

/* --- the schedule ----------------------------------------------------------- */

static void
schedule(struct match_cmd *c)
{
	long long per = c->games_per_pairing, g;
	size_t nops = c->ops.n, i = 0;
	int p, pair = 0;

	if (c->repeat && per % 2)
		per++;
	c->nslots = (size_t)per * (size_t)c->npairings;
	c->slots = xcalloc(c->nslots ? c->nslots : 1, sizeof(*c->slots));
	/* Opening by opening; within one, every pairing, its pair of games. */
	for (g = 0; i < c->nslots; g += c->repeat ? 2 : 1) {
		size_t op = c->order[(size_t)(g / (c->repeat ? 2 : 1)) % nops];

		for (p = 0; p < c->npairings && i < c->nslots; p++) {
			int a = c->pairings[p][0], b = c->pairings[p][1];
			int k, n = c->repeat ? 2 : 1;

			pair++;
			for (k = 0; k < n && i < c->nslots; k++, i++) {
				struct game_slot *s = &c->slots[i];
				int swap = c->repeat ? k : (int)(g & 1);

				s->black = swap ? b : a;
				s->white = swap ? a : b;
				s->opening = op;
				s->round = (int)(g / (c->repeat ? 2 : 1)) + 1;
				s->pair = c->repeat ? pair : 0;
			}
		}
	}
}

/* --- the workers ------------------------------------------------------------ */

struct worker {
	struct match_cmd *c;
	int id;
	struct usi_engine *e[ENGINES_MAX];
	pthread_t t;
};

static void
pin(struct match_cmd *c, int id)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (!c->affinity || ncpu < 1)
		return;
	CPU_ZERO(&set);
	CPU_SET((int)(id % ncpu), &set);
	/* The thread, and the engines it starts from now on, inherit it. */
	sched_setaffinity(0, sizeof(set), &set);
}

/* The engine of this worker, started (again) when it is not running. */
static int
worker_engine(struct worker *w, int i, char *why, size_t n)
{
	struct usi_error err;

	if (!w->e[i]) {
		pthread_mutex_lock(&w->c->mu);
		w->e[i] = w->c->first[i];
		w->c->first[i] = NULL;
		pthread_mutex_unlock(&w->c->mu);
	}
	if (w->e[i] && usi_alive(w->e[i]))
		return 0;
	if (w->e[i]) {
		if (usi_restart(w->e[i], &err) == 0)
			return 0;
		snprintf(why, n, "%s could not be started again: %s",
		    w->c->eng[i].name, err.msg);
		return -1;
	}
	if (start_engine(w->c, i, &w->e[i], &err) < 0) {
		snprintf(why, n, "%s could not be started: %s",
		    w->c->eng[i].arg, err.msg);
		usi_close(w->e[i]);
		w->e[i] = NULL;
		return -1;
	}
	return 0;
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct match_cmd *c = w->c;
	struct match_overhead ov;
	int i;

	memset(&ov, 0, sizeof(ov));
	pin(c, w->id);
	for (;;) {
		struct game_slot *s;
		struct match_side sides[COLOR_NB];
		char why[1024];

		pthread_mutex_lock(&c->mu);
		/* Stopping (the SPRT decided), a pair begun is finished. */
		if (interrupted || c->next >= c->nslots || c->fatal[0] ||
		    (c->stopping && !(c->slots[c->next].pair && c->next > 0 &&
		    c->slots[c->next - 1].pair == c->slots[c->next].pair))) {
			pthread_mutex_unlock(&c->mu);
			break;
		}
		s = &c->slots[c->next++];
		s->state = 1;
		pthread_mutex_unlock(&c->mu);
		if (worker_engine(w, s->black, why, sizeof(why)) < 0 ||
		    worker_engine(w, s->white, why, sizeof(why)) < 0) {
			pthread_mutex_lock(&c->mu);
			if (!c->fatal[0])
				snprintf(c->fatal, sizeof(c->fatal), "%s", why);
			c->stopping = 1;
			s->state = 2;
			s->g.end = END_ABANDONED;
			pthread_cond_broadcast(&c->done_cv);
			pthread_mutex_unlock(&c->mu);
			break;
		}
		sides[BLACK].e = w->e[s->black];
		sides[BLACK].name = c->eng[s->black].name;
		sides[WHITE].e = w->e[s->white];
		sides[WHITE].name = c->eng[s->white].name;
		usi_engine_set_warn(sides[BLACK].e, engine_warn, NULL);
		usi_engine_set_warn(sides[WHITE].e, engine_warn, NULL);
		match_play(sides, &c->ops.v[s->opening], &c->mr, &s->g,
		    &interrupted, c->want_overhead ? &ov : NULL);
		pthread_mutex_lock(&c->mu);
		if (interrupted)
			s->g.end = END_ABANDONED;
		s->state = 2;
		pthread_cond_broadcast(&c->done_cv);
		pthread_mutex_unlock(&c->mu);
	}
	for (i = 0; i < c->neng; i++)
		usi_close(w->e[i]);
	pthread_mutex_lock(&c->mu);
	c->running--;
	if (ov.n) {
		size_t k;

		for (k = 0; k < ov.n; k++) {
			if (c->ov.n == c->ov.alloc) {
				c->ov.alloc = c->ov.alloc ? 2 * c->ov.alloc :
				    1024;
				c->ov.us = xreallocarray(c->ov.us, c->ov.alloc,
				    sizeof(*c->ov.us));
			}
			c->ov.us[c->ov.n++] = ov.us[k];
		}
	}
	free(ov.us);
	pthread_cond_broadcast(&c->done_cv);
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* --- statistics --------------------------------------------------------------- */

static struct tally *
tally_for(struct tally *t, int n, int a, int b, int *flip)
{
	int i;

	for (i = 0; i < n; i++) {
		if (t[i].a == a && t[i].b == b) {
			*flip = 0;
			return &t[i];
		}
		if (t[i].a == b && t[i].b == a) {
			*flip = 1;
			return &t[i];
		}
	}
	return NULL;
}

/* Counts one game: a's half points (0, 1, 2); pair_key < 0: no pair. */
static void
tally_add(struct tally *t, int a_black, int half, long long pair_key)
{
	size_t i;

	if (half == 2)
		t->w++;
	else if (half == 1)
		t->d++;
	else
		t->l++;
	t->color[a_black ? BLACK : WHITE][half == 2 ? 0 : half == 1 ? 1 :
	    2]++;
	if (pair_key < 0)
		return;
	for (i = 0; i < t->npend; i++)
		if (t->pend[i].key == pair_key) {
			t->pairs[elo_pair_class(t->pend[i].half, half)]++;
			t->pend[i] = t->pend[--t->npend];
			return;
		}
	if (t->npend == t->apend) {
		t->apend = t->apend ? 2 * t->apend : 16;
		t->pend = xreallocarray(t->pend, t->apend, sizeof(*t->pend));
	}
	t->pend[t->npend].key = pair_key;
	t->pend[t->npend++].half = half;
}

static long long
npairs(const struct tally *t)
{
	long long n = 0;
	int i;

	for (i = 0; i < PAIR_NB; i++)
		n += t->pairs[i];
	return n;
}

static double
llr_of(const struct sprt *s, const struct tally *t)
{
	return npairs(t) ? sprt_llr_pentanomial(s, t->pairs) :
	    sprt_llr_trinomial(s, t->w, t->d, t->l);
}

static void
print_tally(FILE *f, const struct tally *t, const char *na, const char *nb,
    const struct sprt *sprt)
{
	struct elo_estimate e;
	long long n = t->w + t->d + t->l, np = npairs(t);
	int pent = np > 0;

	if (pent)
		elo_pentanomial(t->pairs, &e);
	else
		elo_trinomial(t->w, t->d, t->l, &e);
	fprintf(f, "%s vs %s: %lld game%s, +%lld =%lld -%lld, score %.1f%%\n",
	    na, nb, n, n == 1 ? "" : "s", t->w, t->d, t->l, n ? 100.0 *
	    ((double)t->w + (double)t->d / 2) / (double)n : 0.0);
	fprintf(f, "  %s as Black +%lld =%lld -%lld, as White +%lld =%lld "
	    "-%lld\n", na, t->color[BLACK][0], t->color[BLACK][1],
	    t->color[BLACK][2], t->color[WHITE][0], t->color[WHITE][1],
	    t->color[WHITE][2]);
	if (!n)
		return;
	/* +0.0, never -0.0 */
	if (e.finite && !isfinite(e.elo95))
		fprintf(f, "  Elo %+.1f +- inf, nElo %+.1f +- %.1f (95%%, "
		    "%s), LOS %.1f%%, draws %.1f%%\n", e.elo + 0.0,
		    e.nelo + 0.0, e.nelo95, pent ? "pentanomial" :
		    "trinomial", 100 * e.los, 100.0 * (double)t->d /
		    (double)n);
	else if (e.finite)
		fprintf(f, "  Elo %+.1f +- %.1f, nElo %+.1f +- %.1f (95%%, "
		    "%s), LOS %.1f%%, draws %.1f%%\n", e.elo + 0.0,
		    e.elo95, e.nelo + 0.0, e.nelo95, pent ? "pentanomial" :
		    "trinomial", 100 * e.los, 100.0 * (double)t->d /
		    (double)n);
	else
		fprintf(f, "  Elo %s (one side scored every point), LOS %.1f%%, "
		    "draws %.1f%%\n", e.elo > 0 ? "+inf" : "-inf",
		    100 * e.los, 100.0 * (double)t->d / (double)n);
	if (pent)
		fprintf(f, "  pairs of %lld: LL %lld, LD %lld, DD+WL %lld, WD "
		    "%lld, WW %lld\n", np, t->pairs[PAIR_LL], t->pairs[PAIR_LD],
		    t->pairs[PAIR_DD_WL], t->pairs[PAIR_WD], t->pairs[PAIR_WW]);
	if (sprt) {
		double lo, hi, llr = llr_of(sprt, t);
		enum sprt_verdict v = t->sprt_done ? t->verdict :
		    sprt_verdict(sprt, llr);

		sprt_bounds(sprt, &lo, &hi);
		fprintf(f, "  SPRT elo0 %g, elo1 %g, alpha %g, beta %g (%s): "
		    "LLR %.3f [%.3f, %.3f]: %s\n", sprt->elo0, sprt->elo1,
		    sprt->alpha, sprt->beta, sprt->model == SPRT_NORMALIZED ?
		    "normalized" : "logistic", llr, lo, hi,
		    v == SPRT_H1 ? "H1 accepted" : v == SPRT_H0 ?
		    "H0 accepted" : "continue");
		if (t->sprt_done)
			fprintf(f, "  (the match stopped on it after %lld "
			    "games, LLR %.3f)\n", t->verdict_games,
			    t->verdict_llr);
	}
}

static void
print_ends(FILE *f, const long long *ends)
{
	int i, any = 0;

	fputs("Endings:", f);
	for (i = 0; i < END_NB; i++)
		if (ends[i]) {
			fprintf(f, "%s %s %lld", any ? "," : "",
			    match_end_name((enum match_end)i), ends[i]);
			any = 1;
		}
	fputs(any ? "\n" : " none\n", f);
}

/* --- output --------------------------------------------------------------- */

static void
json_str(struct strbuf *sb, const char *s)
{
	json_t *j = json_string(s);
	char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	strbuf_adds(sb, t ? t : "\"\"");
	free(t);
	json_decref(j);
}

static int
write_record(struct match_cmd *c, size_t index, struct game_slot *s,
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
	if (c->to->write(&s->g.rec, &wo, &plain, &d) < 0 || d.errors) {
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

static void
result_line(struct match_cmd *c, size_t index, struct game_slot *s,
    const char *record, struct strbuf *sb)
{
	const struct match_game *g = &s->g;
	char buf[4096];

	strbuf_reset(sb);
	strbuf_addf(sb, "{\"game\":%zu,\"round\":%d", index + 1, s->round);
	if (s->pair)
		strbuf_addf(sb, ",\"pair\":%d", s->pair);
	strbuf_adds(sb, ",\"black\":");
	json_str(sb, c->eng[s->black].name);
	strbuf_adds(sb, ",\"white\":");
	json_str(sb, c->eng[s->white].name);
	strbuf_addf(sb, ",\"black_engine\":%d,\"white_engine\":%d", s->black,
	    s->white);
	strbuf_adds(sb, ",\"opening\":");
	json_str(sb, c->ops.v[s->opening].where);
	opening_usi(&c->ops.v[s->opening], buf, sizeof(buf));
	strbuf_adds(sb, ",\"opening_position\":");
	json_str(sb, buf);
	strbuf_addf(sb, ",\"result\":\"%s\",\"reason\":\"%s\"",
	    match_winner_name(g), match_end_name(g->end));
	strbuf_adds(sb, ",\"how\":");
	json_str(sb, g->how);
	strbuf_addf(sb, ",\"plies\":%d,\"opening_plies\":%d", g->plies,
	    g->opening_plies);
	strbuf_addf(sb, ",\"time_black_ms\":%lld,\"time_white_ms\":%lld",
	    g->used_ms[BLACK], g->used_ms[WHITE]);
	match_tc_describe(&c->mr.tc, buf, sizeof(buf));
	strbuf_adds(sb, ",\"tc\":");
	json_str(sb, buf);
	ruleset_describe(&c->mr.rs, buf, sizeof(buf));
	strbuf_adds(sb, ",\"rules\":");
	json_str(sb, buf);
	if (record) {
		strbuf_adds(sb, ",\"record\":");
		json_str(sb, record);
	}
	strbuf_adds(sb, "}\n");
}

/* A's half points in a game of the slot: 2 win, 1 draw, 0 loss. */
static int
half_points(const struct match_game *g, int a_black)
{
	if (g->result.winner == WINNER_NONE)
		return 1;
	return (g->result.winner == WINNER_BLACK) == a_black ? 2 : 0;
}

static void
progress(struct match_cmd *c)
{
	const struct tally *t = &c->tallies[0];
	struct elo_estimate e;

	if (!c->tty || c->quiet)
		return;
	if (npairs(t))
		elo_pentanomial(t->pairs, &e);
	else
		elo_trinomial(t->w, t->d, t->l, &e);
	fprintf(stderr, "\r\033[K%lld/%zu games  +%lld =%lld -%lld",
	    t->w + t->d + t->l, c->nslots, t->w, t->d, t->l);
	if (e.n && e.finite)
		fprintf(stderr, "  Elo %+.1f +- %.1f", e.elo, e.elo95);
	if (c->has_sprt)
		fprintf(stderr, "  LLR %.2f", llr_of(&c->sprt, t));
	fflush(stderr);
}

/* Writes out the finished games that are next in order (main thread). */
static void
emit(struct match_cmd *c)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;

	while (c->emitted < c->nslots) {
		struct game_slot *s = &c->slots[c->emitted];
		size_t idx = c->emitted;
		struct tally *t;
		int flip = 0, a_black;

		if (s->state == 0 && (c->stopping || interrupted) &&
		    c->running == 0) {
			c->emitted++;	/* never played */
			continue;
		}
		if (s->state != 2)
			break;
		c->emitted++;
		if (s->g.end == END_ABANDONED)
			continue;
		pthread_mutex_unlock(&c->mu);
		if (c->out_dir && write_record(c, idx, s, &path) < 0)
			c->status = EXIT_TROUBLE;
		if (!s->g.agrees) {
			cmd_error("game %zu: the record's own verdict (%s) is "
			    "not the referee's (%s %s): a bug of kifu, please "
			    "report it", idx + 1, s->g.rules_verdict,
			    match_winner_name(&s->g), match_end_name(s->g.end));
			c->disagreements++;
		}
		if (c->results) {
			result_line(c, idx, s, c->out_dir ? path.buf : NULL,
			    &line);
			if (fwrite(line.buf, 1, line.len, c->results) !=
			    line.len || fflush(c->results) != 0) {
				cmd_error("cannot write '%s': %s",
				    c->results_path, strerror(errno));
				c->status = EXIT_TROUBLE;
			}
		}
		pthread_mutex_lock(&c->mu);
		c->ends[s->g.end]++;
		t = tally_for(c->tallies, c->npairings, s->black, s->white,
		    &flip);
		a_black = !flip;
		tally_add(t, a_black, half_points(&s->g, a_black), s->pair ?
		    s->pair : -1);
		if (c->has_sprt && !t->sprt_done) {
			double llr = llr_of(&c->sprt, t);
			enum sprt_verdict v = sprt_verdict(&c->sprt, llr);

			if (v != SPRT_CONTINUE && (!s->pair || !t->npend)) {
				t->sprt_done = 1;
				t->verdict = v;
				t->verdict_llr = llr;
				t->verdict_games = t->w + t->d + t->l;
				if (c->npairings == 1)
					c->stopping = 1;
			}
		}
		match_game_release(&s->g);
		match_game_init(&s->g, c->mr.v);
		progress(c);
	}
	strbuf_release(&path);
	strbuf_release(&line);
}

/* --- --report ----------------------------------------------------------- */

struct report {
	char *names[ENGINES_MAX];
	int nnames;
	struct tally t[ENGINES_MAX * ENGINES_MAX];
	int nt;
	long long ends[END_NB];
	int file;
	long long games;
};

static int
report_name(struct report *r, const char *name)
{
	int i;

	for (i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], name))
			return i;
	if (r->nnames == ENGINES_MAX)
		return -1;
	r->names[r->nnames] = xstrndup(name, strlen(name));
	return r->nnames++;
}

static int
report_line(void *ctx, json_t *o, char *why, size_t n)
{
	struct report *r = ctx;
	json_t *b = json_object_get(o, "black"), *w = json_object_get(o,
	    "white"), *res = json_object_get(o, "result"), *reason =
	    json_object_get(o, "reason"), *pair = json_object_get(o, "pair");
	int ib, iw, flip = 0, a_black, half, e;
	struct tally *t;

	if (!json_is_string(b) || !json_is_string(w) || !json_is_string(res)) {
		snprintf(why, n, "a game needs \"black\", \"white\" and "
		    "\"result\" strings");
		return -1;
	}
	if (!strcmp(json_string_value(res), "none"))
		return 0;
	ib = report_name(r, json_string_value(b));
	iw = report_name(r, json_string_value(w));
	if (ib < 0 || iw < 0) {
		snprintf(why, n, "more than %d engines", ENGINES_MAX);
		return -1;
	}
	if (!strcmp(json_string_value(res), "black"))
		half = 2;
	else if (!strcmp(json_string_value(res), "white"))
		half = 0;
	else if (!strcmp(json_string_value(res), "draw"))
		half = 1;
	else {
		snprintf(why, n, "\"result\" is black, white, draw or none");
		return -1;
	}
	if (!(t = tally_for(r->t, r->nt, ib, iw, &flip))) {
		t = &r->t[r->nt++];
		memset(t, 0, sizeof(*t));
		t->a = ib;
		t->b = iw;
		flip = 0;
	}
	a_black = !flip;
	if (!a_black)
		half = 2 - half;
	tally_add(t, a_black, half, json_is_integer(pair) ?
	    (long long)r->file << 40 | json_integer_value(pair) : -1);
	if (json_is_string(reason) && (e = match_end_by_name(
	    json_string_value(reason))) >= 0)
		r->ends[e]++;
	r->games++;
	return 0;
}

static int
run_report(char **files, int n, const struct sprt *sprt)
{
	struct report r;
	int i, rc = 0;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < n; i++) {
		r.file = i;
		if (cmd_read_jsonl(files[i], report_line, &r))
			rc = EXIT_TROUBLE;
	}
	for (i = 0; i < r.nt; i++) {
		print_tally(stdout, &r.t[i], r.names[r.t[i].a],
		    r.names[r.t[i].b], sprt);
		free(r.t[i].pend);
	}
	if (r.games)
		print_ends(stdout, r.ends);
	else
		printf("no games\n");
	for (i = 0; i < r.nnames; i++)
		free(r.names[i]);
	return rc;
}

/* --- the match ---------------------------------------------------------- */

static int
check_engines(struct match_cmd *c)
{
	struct usi_error err;
	int i, j;

	/* Each engine once, before any game: options, variant, limit. */
	for (i = 0; i < c->neng; i++) {
		struct usi_engine *e;
		const char *id;

		if (start_engine(c, i, &e, &err) < 0) {
			usi_close(e);
			return cmd_error("%s: %s", c->eng[i].arg, err.msg);
		}
		id = usi_engine_name(e);
		if (!*id)
			id = c->eng[i].argv[0];
		c->eng[i].name = xstrndup(id, strlen(id));
		c->first[i] = e;	/* the first worker's */
	}
	/* Names tell the engines apart in records and results. */
	for (i = 1; i < c->neng; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(c->eng[i].name, c->eng[j].name)) {
				struct strbuf sb = STRBUF_INIT;

				strbuf_addf(&sb, "%s #%d", c->eng[i].name,
				    i + 1);
				free(c->eng[i].name);
				c->eng[i].name = strbuf_detach(&sb, NULL);
				j = -1;
			}
	return 0;
}

static int
read_openings(struct match_cmd *c)
{
	struct strbuf data = STRBUF_INIT;
	char err[1024];
	int rc = 0;

	openings_init(&c->ops);
	if (!c->openings_path) {
		openings_add_start(&c->ops, c->mr.v);
	} else if (input_read(c->openings_path, &data) < 0) {
		rc = cmd_error("cannot read '%s': %s",
		    input_display_name(c->openings_path), strerror(errno));
	} else if (openings_is_book(data.buf ? data.buf : "", data.len)) {
		long long per = c->games_per_pairing;
		size_t need = (size_t)(c->repeat ? (per + 1) / 2 : per);

		if (openings_read_book(&c->ops,
		    input_display_name(c->openings_path), data.buf, data.len,
		    c->mr.v, c->opening_plies, need, c->seed, err,
		    sizeof(err)) < 0)
			rc = cmd_error("%s", err);
	} else if (openings_read(&c->ops, input_display_name(c->openings_path),
	    data.buf ? data.buf : "", data.len, c->mr.v, c->opening_plies,
	    err, sizeof(err)) < 0) {
		rc = cmd_error("%s", err);
	} else if (!c->ops.n) {
		rc = cmd_error("%s: no opening in the file",
		    input_display_name(c->openings_path));
	}
	strbuf_release(&data);
	if (rc)
		return rc;
	c->order = xcalloc(c->ops.n, sizeof(*c->order));
	if (c->random) {
		openings_shuffle(c->order, c->ops.n, c->seed);
	} else {
		size_t i;

		for (i = 0; i < c->ops.n; i++)
			c->order[i] = i;
	}
	return 0;
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

static int
run(struct match_cmd *c)
{
	struct worker *w;
	int i, nw;

	if (check_engines(c))
		return EXIT_TROUBLE;
	if (c->out_dir && mkdir(c->out_dir, 0777) < 0 && errno != EEXIST)
		return cmd_error("cannot make '%s': %s", c->out_dir,
		    strerror(errno));
	if (c->results_path && !(c->results = fopen(c->results_path, "a")))
		return cmd_error("cannot open '%s': %s", c->results_path,
		    strerror(errno));
	schedule(c);
	for (c->width = 4; c->width < 12; c->width++) {
		size_t lim = 1;

		for (i = 0; i < c->width; i++)
			lim *= 10;
		if (c->nslots < lim)
			break;
	}
	c->tallies = xcalloc((size_t)c->npairings, sizeof(*c->tallies));
	for (i = 0; i < c->npairings; i++) {
		c->tallies[i].a = c->pairings[i][0];
		c->tallies[i].b = c->pairings[i][1];
	}
	c->tty = isatty(2);
	c->start = clock_now();
	nw = c->concurrency < (int)c->nslots ? c->concurrency : (int)c->nslots;
	w = xcalloc((size_t)(nw ? nw : 1), sizeof(*w));
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->done_cv, NULL);
	enginelive_signals(1, &interrupted);
	c->running = nw;
	for (i = 0; i < nw; i++) {
		w[i].c = c;
		w[i].id = i;
		if (pthread_create(&w[i].t, NULL, worker_main, &w[i]) != 0) {
			cmd_error("cannot start a thread");
			c->running--;
			w[i].c = NULL;
		}
	}
	pthread_mutex_lock(&c->mu);
	for (;;) {
		emit(c);
		if (c->running == 0 && (c->emitted >= c->nslots || c->stopping ||
		    interrupted)) {
			emit(c);
			break;
		}
		pthread_cond_wait(&c->done_cv, &c->mu);
	}
	pthread_mutex_unlock(&c->mu);
	for (i = 0; i < nw; i++)
		if (w[i].c)
			pthread_join(w[i].t, NULL);
	enginelive_signals(0, NULL);
	free(w);
	if (c->tty && !c->quiet)
		fputs("\r\033[K", stderr);
	if (c->results && fclose(c->results) != 0) {
		cmd_error("cannot write '%s': %s", c->results_path,
		    strerror(errno));
		c->status = EXIT_TROUBLE;
	}
	for (i = 0; i < c->npairings; i++)
		print_tally(stdout, &c->tallies[i],
		    c->eng[c->tallies[i].a].name, c->eng[c->tallies[i].b].name,
		    c->has_sprt ? &c->sprt : NULL);
	print_ends(stdout, c->ends);
	{
		long long played = 0;

		for (i = 0; i < END_NB; i++)
			played += c->ends[i];
		printf("%lld game%s in %.1f s\n", played, played == 1 ? "" :
		    "s", clock_now() - c->start);
	}
	fflush(stdout);
	print_overhead(c);
	if (c->fatal[0])
		return cmd_error("the match stopped: %s", c->fatal);
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
	size_t k;

	for (i = 0; i < c->neng; i++) {
		struct engine_spec *es = &c->eng[i];

		for (k = 0; k < es->noptions; k++)
			free(es->options[k]);
		free(es->options);
		free(es->user_opts);
		usi_argv_free(es->argv);
		free(es->name);
	}
	for (k = 0; k < c->nslots; k++)
		match_game_release(&c->slots[k].g);
	free(c->slots);
	for (i = 0; c->tallies && i < c->npairings; i++)
		free(c->tallies[i].pend);
	free(c->tallies);
	free(c->pairings);
	free(c->order);
	free(c->ov.us);
	for (i = 0; i < c->neng; i++)
		usi_close(c->first[i]);
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
	int opt, report = 0, rc, i, j, tournament_given = 0, rules_given = 0;
	long long games = 2;

	memset(&c, 0, sizeof(c));
	interrupted = 0;
	c.concurrency = 1;
	c.repeat = 1;
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
				c.round_robin = 0;
			else if (!strcmp(optarg, "round-robin"))
				c.round_robin = 1;
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
			if ((c.concurrency = cmd_parse_int(optarg,
			    THREADS_MAX)) < 1)
				return cmd_usage_error(cmd_match_usage,
				    "--concurrency takes 1 to %d", THREADS_MAX);
			break;
		case OPT_AFFINITY: c.affinity = 1; break;
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
		case OPT_REPEAT: c.repeat = 1; break;
		case OPT_NO_REPEAT: c.repeat = 0; break;
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
			if (parse_pair(optarg, &c.mr.resign_cp,
			    &c.mr.resign_moves, NULL, 0) < 0 ||
			    !c.mr.resign_cp)
				return cmd_usage_error(cmd_match_usage,
				    "--resign takes <cp>,<moves>, as 1000,3");
			break;
		case OPT_DRAW:
			if (parse_pair(optarg, &c.mr.draw_cp, &c.mr.draw_moves,
			    &c.mr.draw_after, 1) < 0)
				return cmd_usage_error(cmd_match_usage,
				    "--draw takes <cp>,<moves>[,<ply>], as "
				    "10,8,80");
			break;
		case OPT_SPRT:
			if (sprt_parse(optarg, &c.sprt, err, sizeof(err)) < 0)
				return cmd_usage_error(cmd_match_usage,
				    "--sprt: %s", err);
			c.has_sprt = 1;
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
		return run_report(argv + optind, argc - optind, c.has_sprt ?
		    &c.sprt : NULL);
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
	c.games_per_pairing = games;
	/* the pairings */
	c.pairings = xcalloc((size_t)(c.neng * c.neng), sizeof(*c.pairings));
	for (i = 0; i < c.neng; i++)
		for (j = i + 1; j < c.neng; j++)
			if (c.round_robin || i == 0) {
				c.pairings[c.npairings][0] = i;
				c.pairings[c.npairings++][1] = j;
			}
	if (c.opening_plies < 0 && c.openings_path) {
		/* lines: all their moves; records: 16 (openings_read) */
	}
	if (c.out_dir && c.to->write_at)
		return cmd_usage_error(cmd_match_usage, "-t: a format of whole "
		    "records");
	if ((rc = resolve_engines(&c)) != 0 || (rc = read_openings(&c)) != 0) {
		release(&c);
		return rc;
	}
	c.want_overhead = getenv("KIFU_MATCH_OVERHEAD") != NULL;
	rc = run(&c);
	release(&c);
	return rc;
}

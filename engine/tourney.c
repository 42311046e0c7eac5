/*
 * tourney.c - an engine match played out (tourney.h).
 *
 * Games are numbered as the schedule lists them. Workers take the next
 * game under the lock and play it with engines of their own; the thread
 * of tourney_run waits, and hands back the finished games that are next
 * in order, so that records and results come out in game order whatever
 * the concurrency. A game is held (its record) from the moment a worker
 * takes it to the moment it is handed back: at most the games in play
 * and those finished ahead of a slower one.
 */
#define _GNU_SOURCE	/* sched_setaffinity, CPU_SET */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tourney.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

enum slot_state { SLOT_WAITING, SLOT_PLAYING, SLOT_DONE };

struct slot {
	enum slot_state state;
	struct match_game *g;		/* owned while taken */
};

struct tourney {
	struct tourney_opts o;
	volatile sig_atomic_t never;	/* the stop flag when none is given */
	char *names[TOURNEY_ENGINES_MAX];
	/* each engine as tourney_start_engines left it, for a worker */
	struct usi_engine *first[TOURNEY_ENGINES_MAX];
	struct slot *slots;
	size_t next, emitted;
	pthread_mutex_t mu;
	pthread_cond_t done_cv;
	int running;			/* workers still playing */
	int stopping;			/* no new games (SPRT, error) */
	char fatal[1024];		/* why the match could not go on */
	struct match_tallies tallies;
	long long ends[END_NB];
};

struct worker {
	struct tourney *t;
	int id;
	struct usi_engine *e[TOURNEY_ENGINES_MAX];
	pthread_t thread;
	int started;
};

struct tourney *
tourney_new(const struct tourney_opts *o)
{
	struct tourney *t = xcalloc(1, sizeof(*t));
	size_t i;

	t->o = *o;
	if (!t->o.stop)
		t->o.stop = &t->never;
	match_tallies_init(&t->tallies);
	/* every pairing in order, so that the tallies do not move */
	for (i = 0; i < (size_t)o->sched->npairings; i++)
		match_tallies_get(&t->tallies, o->sched->pairings[i][0],
		    o->sched->pairings[i][1]);
	t->slots = xcalloc(o->sched->n ? o->sched->n : 1, sizeof(*t->slots));
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->done_cv, NULL);
	return t;
}

void
tourney_free(struct tourney *t)
{
	size_t k;
	int i;

	if (!t)
		return;
	for (k = 0; k < t->o.sched->n; k++)
		if (t->slots[k].g) {
			match_game_release(t->slots[k].g);
			free(t->slots[k].g);
		}
	free(t->slots);
	for (i = 0; i < t->o.nengines; i++) {
		usi_close(t->first[i]);
		free(t->names[i]);
	}
	match_tallies_release(&t->tallies);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->done_cv);
	free(t);
}

const char *
tourney_engine_name(const struct tourney *t, int i)
{
	return t->names[i];
}

const struct match_tallies *
tourney_tallies(const struct tourney *t)
{
	return &t->tallies;
}

const long long *
tourney_ends(const struct tourney *t)
{
	return t->ends;
}

/* --- engines -------------------------------------------------------------- */

/* Starts engine i: handshake, variant, options, isready, the limit. */
static int
start_engine(const struct tourney *t, int i, struct usi_engine **out,
    struct usi_error *err)
{
	const struct tourney_engine *te = &t->o.engines[i];
	const struct match_rules *mr = t->o.mr;
	struct usi_start_opts so = te->start;
	struct usi_limit lim;
	size_t k;

	so.warn = t->o.warn;
	so.warn_ctx = t->o.warn_ctx;
	*out = NULL;
	if (usi_start(&so, out, err) < 0)
		return -1;
	if (mr->v != variant_standard()) {
		if (!usi_plays_variant(*out, mr->v->name)) {
			snprintf(err->msg, sizeof(err->msg), "%s does not play "
			    "%s (it declares no UCI_Variant of that name)",
			    usi_engine_name(*out), mr->v->name);
			err->status = USI_ERR_UNSUPPORTED;
			return -1;
		}
		if (usi_set_option(*out, "UCI_Variant", mr->v->name, err) < 0)
			return -1;
	}
	for (k = 0; k < te->noptions; k++) {
		const char *kv = te->options[k], *eq = strchr(kv, '=');
		char *name = xstrndup(kv, eq ? (size_t)(eq - kv) : strlen(kv));
		int rc = usi_set_option(*out, name, eq ? eq + 1 : "", err);

		free(name);
		if (rc < 0)
			return -1;
	}
	if (usi_ready(*out, err) < 0)
		return -1;
	match_tc_limit(&mr->tc, &lim);
	if (usi_check_limit(*out, &lim, err) < 0)
		return -1;
	/* the try of the limit may have ended it (it refused a go) */
	if (!usi_alive(*out) && usi_restart(*out, err) < 0)
		return -1;
	return 0;
}

int
tourney_start_engines(struct tourney *t, char *errbuf, size_t n)
{
	struct usi_error err;
	int i, j;

	for (i = 0; i < t->o.nengines; i++) {
		struct usi_engine *e;
		const char *id;

		if (start_engine(t, i, &e, &err) < 0) {
			usi_close(e);
			snprintf(errbuf, n, "%s: %s", t->o.engines[i].arg,
			    err.msg);
			return -1;
		}
		id = usi_engine_name(e);
		if (!*id)
			id = t->o.engines[i].start.argv[0];
		t->names[i] = xstrndup(id, strlen(id));
		t->first[i] = e;
	}
	/* Names tell the engines apart in records and results. */
	for (i = 1; i < t->o.nengines; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(t->names[i], t->names[j])) {
				struct strbuf sb = STRBUF_INIT;

				strbuf_addf(&sb, "%s #%d", t->names[i], i + 1);
				free(t->names[i]);
				t->names[i] = strbuf_detach(&sb, NULL);
				j = -1;
			}
	return 0;
}

/* --- the workers ------------------------------------------------------------ */

static void
pin(const struct tourney *t, int id)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (!t->o.affinity || ncpu < 1)
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
	struct tourney *t = w->t;
	struct usi_error err;

	if (!w->e[i]) {
		pthread_mutex_lock(&t->mu);
		w->e[i] = t->first[i];
		t->first[i] = NULL;
		pthread_mutex_unlock(&t->mu);
	}
	if (w->e[i] && usi_alive(w->e[i]))
		return 0;
	if (w->e[i]) {
		if (usi_restart(w->e[i], &err) == 0)
			return 0;
		snprintf(why, n, "%s could not be started again: %s",
		    t->names[i], err.msg);
		return -1;
	}
	if (start_engine(t, i, &w->e[i], &err) < 0) {
		snprintf(why, n, "%s could not be started: %s",
		    t->o.engines[i].arg, err.msg);
		usi_close(w->e[i]);
		w->e[i] = NULL;
		return -1;
	}
	return 0;
}

/* Whether game k may start (the lock held). */
static int
may_start(const struct tourney *t, size_t k)
{
	const struct schedule_game *g = t->o.sched->games;

	if (*t->o.stop || k >= t->o.sched->n || t->fatal[0])
		return 0;
	/* Stopping on the SPRT, a pair begun is finished. */
	return !t->stopping || (g[k].pair && k > 0 &&
	    g[k - 1].pair == g[k].pair);
}

static void
add_samples(struct match_overhead *to, const struct match_overhead *from)
{
	size_t k;

	for (k = 0; k < from->n; k++) {
		ALLOC_GROW(to->us, to->n + 1, to->alloc);
		to->us[to->n++] = from->us[k];
	}
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct tourney *t = w->t;
	struct match_overhead ov;
	int i;

	memset(&ov, 0, sizeof(ov));
	pin(t, w->id);
	for (;;) {
		const struct schedule_game *sg;
		struct slot *s;
		struct match_side sides[COLOR_NB];
		char why[1024];

		pthread_mutex_lock(&t->mu);
		if (!may_start(t, t->next)) {
			pthread_mutex_unlock(&t->mu);
			break;
		}
		sg = &t->o.sched->games[t->next];
		s = &t->slots[t->next++];
		s->state = SLOT_PLAYING;
		pthread_mutex_unlock(&t->mu);
		s->g = xcalloc(1, sizeof(*s->g));
		match_game_init(s->g, t->o.mr->v);
		if (worker_engine(w, sg->black, why, sizeof(why)) < 0 ||
		    worker_engine(w, sg->white, why, sizeof(why)) < 0) {
			pthread_mutex_lock(&t->mu);
			if (!t->fatal[0])
				snprintf(t->fatal, sizeof(t->fatal), "%s", why);
			t->stopping = 1;
			s->state = SLOT_DONE;
			s->g->end = END_ABANDONED;
			pthread_cond_broadcast(&t->done_cv);
			pthread_mutex_unlock(&t->mu);
			break;
		}
		sides[BLACK].e = w->e[sg->black];
		sides[BLACK].name = t->names[sg->black];
		sides[WHITE].e = w->e[sg->white];
		sides[WHITE].name = t->names[sg->white];
		usi_engine_set_warn(sides[BLACK].e, t->o.warn, t->o.warn_ctx);
		usi_engine_set_warn(sides[WHITE].e, t->o.warn, t->o.warn_ctx);
		match_play(sides, &t->o.ops->v[sg->opening], t->o.mr, s->g,
		    t->o.stop, t->o.overhead ? &ov : NULL);
		pthread_mutex_lock(&t->mu);
		if (*t->o.stop)
			s->g->end = END_ABANDONED;
		s->state = SLOT_DONE;
		pthread_cond_broadcast(&t->done_cv);
		pthread_mutex_unlock(&t->mu);
	}
	for (i = 0; i < t->o.nengines; i++)
		usi_close(w->e[i]);
	pthread_mutex_lock(&t->mu);
	t->running--;
	if (t->o.overhead)
		add_samples(t->o.overhead, &ov);
	free(ov.us);
	pthread_cond_broadcast(&t->done_cv);
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/* --- in order ------------------------------------------------------------------ */

/* Black's half points: 2 a win, 1 a draw, 0 a loss. */
static int
black_half(const struct match_game *g)
{
	if (g->result.winner == WINNER_NONE)
		return 1;
	return g->result.winner == WINNER_BLACK ? 2 : 0;
}

/* Counts a game (the lock held); its pairing's tally. */
static const struct match_tally *
count(struct tourney *t, const struct schedule_game *sg,
    const struct match_game *g)
{
	struct match_tally *mt;

	t->ends[g->end]++;
	mt = match_tallies_add(&t->tallies, sg->black, sg->white,
	    black_half(g), 0, sg->pair ? sg->pair : -1);
	if (t->o.sprt && match_tally_sprt(mt, t->o.sprt) &&
	    t->o.sched->npairings == 1)
		t->stopping = 1;
	return mt;
}

/*
 * Hands back the finished games that are next in order (the lock held,
 * and let go for each callback).
 */
static void
emit(struct tourney *t)
{
	while (t->emitted < t->o.sched->n) {
		struct slot *s = &t->slots[t->emitted];
		struct tourney_game tg;
		struct match_game *g;

		if (s->state == SLOT_WAITING && (t->stopping || *t->o.stop) &&
		    t->running == 0) {
			t->emitted++;	/* never played */
			continue;
		}
		if (s->state != SLOT_DONE)
			break;
		tg.index = t->emitted++;
		tg.s = &t->o.sched->games[tg.index];
		g = s->g;
		s->g = NULL;
		if (g->end != END_ABANDONED) {
			tg.g = g;
			tg.t = count(t, tg.s, g);
			pthread_mutex_unlock(&t->mu);
			if (t->o.game)
				t->o.game(t->o.game_ctx, &tg);
			pthread_mutex_lock(&t->mu);
		}
		match_game_release(g);
		free(g);
	}
}

int
tourney_run(struct tourney *t, char *err, size_t n)
{
	size_t games = t->o.sched->n;
	int i, nw = t->o.concurrency < (int)games ? t->o.concurrency :
	    (int)games;
	struct worker *w = xcalloc((size_t)(nw > 0 ? nw : 1), sizeof(*w));

	pthread_mutex_lock(&t->mu);
	for (i = 0; i < nw; i++) {
		w[i].t = t;
		w[i].id = i;
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]) == 0) {
			w[i].started = 1;
			t->running++;
		}
	}
	if (t->running < nw && t->o.warn) {
		char msg[128];

		snprintf(msg, sizeof(msg), "cannot start a thread: %d games "
		    "at once, not %d", t->running, nw);
		t->o.warn(t->o.warn_ctx, msg);
	}
	if (!t->running && games)
		snprintf(t->fatal, sizeof(t->fatal), "cannot start a thread");
	if (t->fatal[0])
		t->stopping = 1;
	for (;;) {
		emit(t);
		if (t->running == 0 && (t->emitted >= games || t->stopping ||
		    *t->o.stop)) {
			emit(t);
			break;
		}
		pthread_cond_wait(&t->done_cv, &t->mu);
	}
	pthread_mutex_unlock(&t->mu);
	for (i = 0; i < nw; i++)
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
	free(w);
	if (t->fatal[0]) {
		snprintf(err, n, "%s", t->fatal);
		return -1;
	}
	return 0;
}

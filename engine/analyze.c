/*
 * analyze.c - a record's positions through an engine (analyze.h): the
 * choice of positions, the cache, the searches, the judgement of every
 * move, and the JSON of it all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze.h"
#include "core/movegen.h"
#include "core/sfen.h"
#include "core/usi.h"
#include "core/xalloc.h"
#include "parsers/kakinoki.h"

static const char *const class_names[CLASS_NB] = {
	NULL, "inaccuracy", "mistake", "blunder"
};
static const char *const class_ja[CLASS_NB] = {
	NULL, "疑問手", "悪手", "大悪手"
};

const char *
analyze_class_name(enum analyze_class c)
{
	return (unsigned)c < CLASS_NB ? class_names[c] : NULL;
}

const char *
analyze_class_ja(enum analyze_class c)
{
	return (unsigned)c < CLASS_NB ? class_ja[c] : NULL;
}

void
analyze_opts_init(struct analyze_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->limit.kind = USI_LIMIT_MOVETIME;
	o->limit.value = 1000;
	o->multipv = 1;
	o->to_ply = -1;
	o->side = -1;
	o->comments = ANALYZE_SHOGIGUI | ANALYZE_SHOGIHOME;
	o->thresholds[0] = 100;
	o->thresholds[1] = 300;
	o->thresholds[2] = 800;
}

void
analyze_setup(struct strbuf *out, const char *engine,
    const char *const *options, size_t n, const struct usi_limit *limit,
    int multipv)
{
	size_t i;

	strbuf_addf(out, "engine=%s\noptions=", engine);
	for (i = 0; i < n; i++)
		strbuf_addf(out, "%s%s", i ? ";" : "", options[i]);
	strbuf_addf(out, "\nlimit=%s %lld\nmultipv=%d",
	    usi_limit_name(limit->kind), limit->value, multipv);
}

/* A field of the key: its name, its length and its bytes. */
static void
key_field(struct strbuf *out, const char *name, const char *v)
{
	strbuf_addf(out, "%s=%zu:%s\n", name, strlen(v), v);
}

int
analyze_engine_key(struct strbuf *out, const char *const *argv,
    const char *const *env, const char *const *options, size_t n,
    const struct usi_limit *limit, int multipv)
{
	struct usi_error err;
	struct stat st;
	char *program;
	size_t i;

	if (!argv || !argv[0] || !(program = usi_program(argv[0], &err)))
		return -1;
	if (stat(program, &st) < 0) {
		free(program);
		return -1;
	}
	key_field(out, "kifu", KIFU_VERSION);
	key_field(out, "program", program);
	strbuf_addf(out, "file=%llu %llu %lld %lld.%09ld %lld.%09ld\n",
	    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
	    (long long)st.st_size, (long long)st.st_mtim.tv_sec,
	    st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
	    st.st_ctim.tv_nsec);
	free(program);
	for (i = 0; argv[i]; i++)
		key_field(out, "arg", argv[i]);
	for (i = 0; env && env[i]; i++)
		key_field(out, "env", env[i]);
	for (i = 0; i < n; i++)
		key_field(out, "option", options[i]);
	strbuf_addf(out, "limit=%s %lld\nmultipv=%d\n",
	    usi_limit_name(limit->kind), limit->value, multipv);
	return 0;
}

long long
analyze_value(const struct usi_score *s)
{
	if (s->kind == USI_SCORE_CP)
		return s->cp > ANALYZE_CP_MAX ? ANALYZE_CP_MAX :
		    s->cp < -ANALYZE_CP_MAX ? -ANALYZE_CP_MAX : s->cp;
	if (s->kind == USI_SCORE_MATE) {
		int n = s->mate_known ? (s->plies < 999 ? s->plies : 999) : 999;

		return (long long)(s->sign < 0 ? -1 : 1) * (ANALYZE_MATE - n);
	}
	return 0;
}

/* --- records ----------------------------------------------------------- */

void
analyze_record_init(struct analyze_record *ar)
{
	memset(ar, 0, sizeof(*ar));
	analyze_record_reset(ar);
}

void
analyze_record_reset(struct analyze_record *ar)
{
	size_t i;
	int s, k;

	for (i = 0; i < ar->n; i++) {
		free(ar->v[i].error);
		ar->v[i].error = NULL;
		usi_result_reset(&ar->v[i].r);
	}
	ar->n = 0;
	memset(ar->sides, 0, sizeof(ar->sides));
	for (s = 0; s < 2; s++)
		for (k = 0; k < ANALYZE_WORST; k++)
			ar->sides[s].worst[k] = -1;
	ar->searched = ar->cached = ar->failed = 0;
	ar->engine_ms = 0;
}

void
analyze_record_release(struct analyze_record *ar)
{
	size_t i;

	analyze_record_reset(ar);
	for (i = 0; i < ar->alloc; i++)
		usi_result_release(&ar->v[i].r);
	free(ar->v);
	memset(ar, 0, sizeof(*ar));
}

static struct analyze_pos *
add_pos(struct analyze_record *ar)
{
	struct analyze_pos *p;

	if (ar->n == ar->alloc) {
		size_t old = ar->alloc;

		ALLOC_GROW(ar->v, ar->n + 1, ar->alloc);
		for (; old < ar->alloc; old++)
			usi_result_init(&ar->v[old].r);
	}
	p = &ar->v[ar->n++];
	p->node = 0;
	p->parent = -1;
	p->ply = 0;
	p->side = BLACK;
	p->status = AN_FAILED;
	p->error = NULL;
	usi_result_reset(&p->r);
	p->judged = 0;
	p->best = p->played = p->loss = 0;
	p->cls = CLASS_NONE;
	return p;
}

/* --- the analyzer ------------------------------------------------------ */

void
analyzer_init(struct analyzer *a, struct usi_engine *e,
    const struct analyze_opts *o)
{
	memset(a, 0, sizeof(*a));
	a->e = e;
	a->o = o;
	strbuf_init(&a->key);
	strbuf_init(&a->setup);
	strbuf_init(&a->value);
}

void
analyzer_release(struct analyzer *a)
{
	strbuf_release(&a->key);
	strbuf_release(&a->setup);
	strbuf_release(&a->value);
}

void
analyzer_defer(struct analyzer *a,
    struct usi_engine *(*start)(void *ctx, char *why, size_t n), void *ctx)
{
	a->start = start;
	a->start_ctx = ctx;
}

static int
apply_variant(struct analyzer *a, const struct variant *v,
    struct usi_error *err)
{
	const char *want = v == variant_minishogi() ? "minishogi" : "shogi";

	if (a->dead || !a->e) {
		err->status = USI_ERR_DIED;
		snprintf(err->msg, sizeof(err->msg), "%s", a->dead ?
		    a->dead_why : "no engine");
		return -1;
	}
	if (!usi_engine_option(a->e, "UCI_Variant")) {
		if (v == variant_standard())
			return 0;
		err->status = USI_ERR_UNSUPPORTED;
		snprintf(err->msg, sizeof(err->msg), "%s plays no %s (it has "
		    "no UCI_Variant option)", usi_engine_name(a->e), v->name);
		return -1;
	}
	if (a->variant && !strcmp(a->variant, want))
		return 0;
	if (!usi_plays_variant(a->e, want)) {
		err->status = USI_ERR_UNSUPPORTED;
		snprintf(err->msg, sizeof(err->msg), "%s does not list %s "
		    "among its UCI_Variant values", usi_engine_name(a->e),
		    want);
		return -1;
	}
	if (usi_set_option(a->e, "UCI_Variant", want, err) < 0)
		return -1;
	a->variant = want;
	return 0;
}

/* A deferred analyzer's engine, made now. 0, or -1 with a->dead set. */
static int
come(struct analyzer *a)
{
	if (a->e || a->dead)
		return a->dead ? -1 : 0;
	if (!a->start || !(a->e = a->start(a->start_ctx, a->dead_why,
	    sizeof(a->dead_why)))) {
		if (!a->start)
			snprintf(a->dead_why, sizeof(a->dead_why), "no engine");
		a->dead = 1;
		return -1;
	}
	return 0;
}

int
analyzer_set_variant(struct analyzer *a, const struct variant *v,
    struct usi_error *err)
{
	a->want = NULL;
	if (!a->e && !a->dead && a->start) {
		/* Standard shogi waits for a search to need the engine;
		   another variant is asked of it now, as records are. */
		if (v == variant_standard()) {
			a->want = v;
			return 0;
		}
		if (come(a) < 0) {
			err->status = USI_ERR_DIED;
			snprintf(err->msg, sizeof(err->msg), "%s", a->dead_why);
			return -1;
		}
	}
	return apply_variant(a, v, err);
}


static void
set_error(struct analyze_pos *p, const char *msg)
{
	free(p->error);
	p->error = xstrndup(msg, strlen(msg));
	p->status = AN_FAILED;
}

static void
warn(const struct analyzer *a, const char *msg)
{
	if (a->o->warn)
		a->o->warn(a->o->warn_ctx, msg);
}

/* Brings a dead engine back; on failure the analyzer gives up on it. */
static void
revive(struct analyzer *a)
{
	struct usi_error err;

	if (a->dead || usi_alive(a->e))
		return;
	if (usi_restart(a->e, &err) == 0) {
		char msg[300];

		snprintf(msg, sizeof(msg), "%.200s started again",
		    usi_engine_name(a->e));
		warn(a, msg);
		return;
	}
	a->dead = 1;
	snprintf(a->dead_why, sizeof(a->dead_why), "%.200s could not be "
	    "started again: %.280s", usi_engine_name(a->e), err.msg);
	warn(a, a->dead_why);
}

void
analyze_position(struct analyzer *a, const struct position *start,
    const move *moves, int n, const struct position *pos, int new_game,
    struct analyze_pos *p)
{
	const struct analyze_opts *o = a->o;
	char key[SFEN_MAX];
	struct usi_search s;
	struct usi_error err;

	p->side = pos->side;
	usi_result_reset(&p->r);
	if (movegen_count(pos) == 0) {
		/* Mated (or stalemated, a loss too): no engine needed. */
		struct usi_line *l;

		if (p->r.alines < 1) {
			p->r.lines = xreallocarray(p->r.lines, 1,
			    sizeof(*p->r.lines));
			p->r.alines = 1;
		}
		l = &p->r.lines[0];
		memset(l, 0, sizeof(*l));
		l->multipv = 1;
		l->score.kind = USI_SCORE_MATE;
		l->score.sign = -1;
		l->score.mate_known = 1;
		l->depth = l->seldepth = l->hashfull = -1;
		l->nodes = l->time_ms = l->nps = -1;
		p->r.nlines = 1;
		p->status = AN_NO_MOVE;
		return;
	}
	if (a->dead) {
		set_error(p, a->dead_why);
		return;
	}
	sfen_write_key(pos, key);
	if (o->cache && o->setup) {
		strbuf_reset(&a->value);
		if (o->cache->lookup(o->cache->ctx, key, o->setup, &a->value)) {
			if (usi_result_parse(a->value.buf, pos, o->multipv, &p->r,
			    o->warn, o->warn_ctx, &err) == 0) {
				p->status = AN_CACHED;
				return;
			}
			{
				char msg[1024];

				snprintf(msg, sizeof(msg), "a cached result "
				    "for %s is damaged (%.400s); searched again",
				    key, err.msg);
				warn(a, msg);
			}
		}
	}
	if (come(a) < 0) {
		set_error(p, a->dead_why);
		return;
	}
	/* The record's variant, put off until the engine came. */
	if (a->want) {
		if (apply_variant(a, a->want, &err) < 0) {
			set_error(p, err.msg);
			return;
		}
		a->want = NULL;
	}
	revive(a);
	if (a->dead) {
		set_error(p, a->dead_why);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.start = start;
	s.moves = moves;
	s.nmoves = n;
	s.pos = pos;
	s.limit = o->limit;
	s.multipv = o->multipv;
	s.timeout_ms = o->timeout_ms;
	s.new_game = new_game;
	if (usi_search(a->e, &s, &p->r, &err) < 0) {
		set_error(p, err.msg);
		usi_result_reset(&p->r);
		/* The next position gets an engine that runs. */
		revive(a);
		return;
	}
	p->status = AN_SEARCHED;
	if (o->cache && o->setup) {
		strbuf_reset(&a->value);
		usi_result_format(&p->r, &a->value);
		o->cache->store(o->cache->ctx, key, o->setup, a->value.buf);
	}
}

/* --- a record ---------------------------------------------------------- */

/* Whether node i is a position: the root, or a move replay resolved. */
static int
is_position(const struct record *r, int32_t i)
{
	const struct record_node *n = &r->nodes[i];

	return i == 0 || (n->special == SP_NONE && n->mv != MOVE_NONE);
}

static int
in_range(const struct analyze_opts *o, int ply)
{
	return ply >= o->from_ply && (o->to_ply < 0 || ply <= o->to_ply);
}

/* Which positions the options choose (analyze.h), one flag a node. */
static void
choose(const struct record *r, const struct analyze_opts *o, char *want)
{
	size_t i;

	memset(want, 0, r->nnodes);
	for (i = 0; i < r->nnodes; i++) {
		const struct record_node *n = &r->nodes[i];

		if (!is_position(r, (int32_t)i) || (n->depth && !o->variations))
			continue;
		if (o->side < 0) {
			want[i] = in_range(o, n->ply);
		} else if (i && in_range(o, n->ply) &&
		    (int)piece_color(move_piece(n->mv)) == o->side) {
			want[i] = 1;
			want[n->parent] = 1;
		}
	}
}

/* The walk of the tree: the moves from the start, the position. */
struct walk {
	const struct record *r;
	struct analyzer *a;
	struct analyze_record *ar;
	const char *want;
	int32_t *index;		/* node -> position index, -1 */
	move *moves;		/* the path */
	struct position pos;
	int first;		/* no position searched yet */
};

static void
visit(struct walk *w, int32_t i, int depth)
{
	const struct record *r = w->r;

	if (w->want[i]) {
		struct analyze_pos *p = add_pos(w->ar);
		int32_t parent = i ? r->nodes[i].parent : -1;
		/* A cleared hash makes node and depth searches repeatable. */
		int new_game = w->a->o->limit.kind != USI_LIMIT_MOVETIME ||
		    w->first;

		p->node = i;
		p->ply = r->nodes[i].ply;
		p->parent = parent >= 0 ? w->index[parent] : -1;
		w->index[i] = (int32_t)(w->ar->n - 1);
		analyze_position(w->a, &r->start, w->moves, depth, &w->pos,
		    new_game, p);
		if (p->status == AN_SEARCHED) {
			w->first = 0;
			w->ar->searched++;
			if (p->r.time_ms > 0)
				w->ar->engine_ms += p->r.time_ms;
		} else if (p->status == AN_CACHED) {
			w->ar->cached++;
		} else if (p->status == AN_FAILED) {
			w->ar->failed++;
		}
		if (w->a->o->progress)
			w->a->o->progress(w->a->o->progress_ctx);
	}
}

/* Depth first, the main line first (each node's first continuation). */
static void
walk_tree(struct walk *w)
{
	const struct record *r = w->r;
	struct undo *undo = xcalloc(r->nnodes + 1, sizeof(*undo));
	int32_t *stack = xcalloc(r->nnodes + 1, sizeof(*stack));
	int depth = 0;
	int32_t i = 0;

	/* stack[d]: the node at depth d of the path (stack[0] the root). */
	stack[0] = 0;
	visit(w, 0, 0);
	for (;;) {
		int32_t c = r->nodes[i].next;

		/* Down to the first child that is a position. */
		while (c >= 0 && (!is_position(r, c) ||
		    (r->nodes[c].depth && !w->a->o->variations)))
			c = r->nodes[c].alt;
		if (c >= 0) {
			w->moves[depth] = r->nodes[c].mv;
			position_do_move(&w->pos, r->nodes[c].mv, &undo[depth]);
			stack[++depth] = c;
			i = c;
			visit(w, c, depth);
			continue;
		}
		/* Up to the next alternative. */
		for (;;) {
			int32_t alt;

			if (depth == 0)
				goto done;
			position_undo_move(&w->pos, w->moves[depth - 1],
			    &undo[depth - 1]);
			alt = r->nodes[stack[depth]].alt;
			depth--;
			while (alt >= 0 && (!is_position(r, alt) ||
			    !w->a->o->variations))
				alt = r->nodes[alt].alt;
			if (alt >= 0) {
				w->moves[depth] = r->nodes[alt].mv;
				position_do_move(&w->pos, r->nodes[alt].mv,
				    &undo[depth]);
				stack[++depth] = alt;
				i = alt;
				visit(w, alt, depth);
				break;
			}
		}
	}
done:
	free(undo);
	free(stack);
}

static int
has_score(const struct analyze_pos *p)
{
	return (p->status == AN_SEARCHED || p->status == AN_CACHED ||
	    p->status == AN_NO_MOVE) && p->r.nlines > 0 &&
	    p->r.lines[0].score.kind != USI_SCORE_NONE;
}

static enum analyze_class
classify(const struct analyze_opts *o, long long loss)
{
	if (loss >= o->thresholds[2])
		return CLASS_BLUNDER;
	if (loss >= o->thresholds[1])
		return CLASS_MISTAKE;
	if (loss >= o->thresholds[0])
		return CLASS_INACCURACY;
	return CLASS_NONE;
}

/* The move into p judged from the position before it (analyze.h). */
static void
judge(const struct analyze_opts *o, const struct record *r,
    struct analyze_record *ar, struct analyze_pos *p)
{
	const struct analyze_pos *q = &ar->v[p->parent];
	move m = r->nodes[p->node].mv;
	int k;

	if (!has_score(q) || q->status == AN_NO_MOVE)
		return;
	if (o->side >= 0 && (int)q->side != o->side)
		return;
	p->best = analyze_value(&q->r.lines[0].score);
	if (q->r.best_kind == USI_BEST_MOVE && m == q->r.best) {
		p->played = p->best;
	} else {
		for (k = 0; k < q->r.nlines; k++)
			if (q->r.lines[k].npv && q->r.lines[k].pv[0] == m &&
			    q->r.lines[k].score.kind != USI_SCORE_NONE)
				break;
		if (k < q->r.nlines)
			p->played = analyze_value(&q->r.lines[k].score);
		else if (has_score(p))
			p->played = -analyze_value(&p->r.lines[0].score);
		else
			return;
	}
	p->loss = p->best - p->played;
	if (p->loss < 0 || (q->r.best_kind == USI_BEST_MOVE && m == q->r.best))
		p->loss = 0;
	p->cls = classify(o, p->loss);
	p->judged = 1;
}

static void
add_worst(struct analyze_record *ar, struct analyze_side *s, int idx)
{
	int k, j;

	if (ar->v[idx].loss <= 0)
		return;
	for (k = 0; k < ANALYZE_WORST; k++)
		if (s->worst[k] < 0 || ar->v[s->worst[k]].loss < ar->v[idx].loss)
			break;
	if (k == ANALYZE_WORST)
		return;
	for (j = ANALYZE_WORST - 1; j > k; j--)
		s->worst[j] = s->worst[j - 1];
	s->worst[k] = idx;
}

size_t
analyze_count(const struct record *r, const struct analyze_opts *o)
{
	char *want = xmalloc(r->nnodes ? r->nnodes : 1);
	size_t i, n = 0;

	choose(r, o, want);
	for (i = 0; i < r->nnodes; i++)
		n += want[i] != 0;
	free(want);
	return n;
}

int
analyze_record(struct analyzer *a, const struct record *r,
    struct analyze_record *ar)
{
	struct walk w;
	char *want = xmalloc(r->nnodes ? r->nnodes : 1);
	size_t i;
	int done = 0;

	analyze_record_reset(ar);
	choose(r, a->o, want);
	memset(&w, 0, sizeof(w));
	w.r = r;
	w.a = a;
	w.ar = ar;
	w.want = want;
	w.index = xmalloc((r->nnodes ? r->nnodes : 1) * sizeof(*w.index));
	for (i = 0; i < r->nnodes; i++)
		w.index[i] = -1;
	w.moves = xcalloc(r->nnodes + 1, sizeof(*w.moves));
	w.pos = r->start;
	w.first = 1;
	walk_tree(&w);
	for (i = 0; i < ar->n; i++) {
		struct analyze_pos *p = &ar->v[i];

		if (p->status != AN_FAILED)
			done++;
		if (p->parent < 0)
			continue;
		judge(a->o, r, ar, p);
		if (p->judged) {
			struct analyze_side *s =
			    &ar->sides[ar->v[p->parent].side];

			s->moves++;
			s->loss += p->loss;
			s->classes[p->cls]++;
			add_worst(ar, s, (int)i);
		}
	}
	free(want);
	free(w.index);
	free(w.moves);
	return done;
}

/* --- JSON -------------------------------------------------------------- */

static void
json_move(struct strbuf *out, move m)
{
	char buf[USI_MOVE_MAX];

	if (!m) {
		strbuf_adds(out, "null");
		return;
	}
	usi_format_move(m, buf);
	strbuf_addf(out, "\"%s\"", buf);
}

/* The score fields of a line, from the side to move's (mover's) view. */
static void
json_score(struct strbuf *out, const struct usi_score *s, enum color side)
{
	long long v = 0;
	int flip = side == WHITE ? -1 : 1;

	if (s->kind == USI_SCORE_NONE) {
		strbuf_adds(out, "\"score_kind\": null, \"score_black\": null, "
		    "\"score_mover\": null, \"mate\": null, \"bound\": null");
		return;
	}
	if (s->kind == USI_SCORE_CP)
		v = s->cp;
	else
		v = s->sign < 0 ? -ANALYZE_CP_MAX : ANALYZE_CP_MAX;
	strbuf_addf(out, "\"score_kind\": \"%s\", \"score_black\": %lld, "
	    "\"score_mover\": %lld, \"mate\": ",
	    s->kind == USI_SCORE_CP ? "cp" : "mate", v * flip, v);
	if (s->kind == USI_SCORE_MATE && s->mate_known)
		strbuf_addf(out, "%d", s->sign * s->plies);
	else
		strbuf_adds(out, "null");
	strbuf_addf(out, ", \"bound\": %s", s->bound == USI_BOUND_LOWER ?
	    "\"lower\"" : s->bound == USI_BOUND_UPPER ? "\"upper\"" : "null");
}

static void
json_ll(struct strbuf *out, const char *key, long long v)
{
	if (v < 0)
		strbuf_addf(out, ", \"%s\": null", key);
	else
		strbuf_addf(out, ", \"%s\": %lld", key, v);
}

static void
json_line(struct strbuf *out, const struct usi_line *l, enum color side)
{
	int k;

	strbuf_addf(out, "{\"rank\": %d, ", l->multipv);
	json_score(out, &l->score, side);
	json_ll(out, "depth", l->depth);
	json_ll(out, "seldepth", l->seldepth);
	json_ll(out, "nodes", l->nodes);
	json_ll(out, "time_ms", l->time_ms);
	strbuf_adds(out, ", \"pv\": [");
	for (k = 0; k < l->npv; k++) {
		if (k)
			strbuf_adds(out, ", ");
		json_move(out, l->pv[k]);
	}
	strbuf_adds(out, "]}");
}

static const char *
status_name(enum analyze_status s)
{
	return s == AN_SEARCHED ? "searched" : s == AN_CACHED ? "cached" :
	    s == AN_NO_MOVE ? "no-move" : "failed";
}

/*
 * The object of one position and the move played from it (MOVE_NONE:
 * none), with that move's judgement from `after` (NULL: not judged).
 */
static void
json_object(struct strbuf *out, const struct analyze_pos *p,
    const struct position *pos, move played,
    const struct analyze_pos *after, const char *engine)
{
	const struct usi_result *r = &p->r;
	const struct usi_line *l = r->nlines ? &r->lines[0] : NULL;
	char sfen[SFEN_MAX];
	int k;

	sfen_write(pos, sfen);
	strbuf_addf(out, "\"ply\": %d, \"sfen\": \"%s\", \"side\": \"%s\", "
	    "\"played\": ", p->ply, sfen, p->side == BLACK ? "black" : "white");
	json_move(out, played);
	strbuf_adds(out, ", \"best\": ");
	if (r->best_kind == USI_BEST_RESIGN)
		strbuf_adds(out, "\"resign\"");
	else if (r->best_kind == USI_BEST_WIN)
		strbuf_adds(out, "\"win\"");
	else
		json_move(out, r->best_kind == USI_BEST_MOVE ? r->best :
		    MOVE_NONE);
	strbuf_adds(out, ", \"ponder\": ");
	json_move(out, r->ponder);
	strbuf_adds(out, ", ");
	if (l) {
		json_score(out, &l->score, p->side);
	} else {
		struct usi_score none;

		memset(&none, 0, sizeof(none));
		json_score(out, &none, p->side);
	}
	json_ll(out, "depth", l && l->depth >= 0 ? l->depth : r->depth);
	json_ll(out, "seldepth", l && l->seldepth >= 0 ? l->seldepth :
	    r->seldepth);
	json_ll(out, "nodes", r->nodes >= 0 ? r->nodes : l ? l->nodes : -1);
	json_ll(out, "time_ms", r->time_ms >= 0 ? r->time_ms : l ?
	    l->time_ms : -1);
	strbuf_adds(out, ", \"pv\": [");
	for (k = 0; l && k < l->npv; k++) {
		if (k)
			strbuf_adds(out, ", ");
		json_move(out, l->pv[k]);
	}
	strbuf_adds(out, "], \"multipv\": [");
	for (k = 0; k < r->nlines; k++) {
		if (k)
			strbuf_adds(out, ", ");
		json_line(out, &r->lines[k], p->side);
	}
	strbuf_adds(out, "]");
	if (after && after->judged) {
		strbuf_addf(out, ", \"best_value\": %lld, \"played_value\": "
		    "%lld, \"loss\": %lld, \"class\": ", after->best,
		    after->played, after->loss);
		if (after->cls != CLASS_NONE)
			strbuf_addf(out, "\"%s\", \"class_ja\": \"%s\"",
			    analyze_class_name(after->cls),
			    analyze_class_ja(after->cls));
		else
			strbuf_adds(out, "null, \"class_ja\": null");
	} else {
		strbuf_adds(out, ", \"best_value\": null, \"played_value\": "
		    "null, \"loss\": null, \"class\": null, \"class_ja\": "
		    "null");
	}
	strbuf_addf(out, ", \"status\": \"%s\", \"error\": ",
	    status_name(p->status));
	if (p->error)
		strbuf_add_json_quoted(out, p->error);
	else
		strbuf_adds(out, "null");
	strbuf_adds(out, ", \"engine\": ");
	strbuf_add_json_quoted(out, engine ? engine : "");
	strbuf_adds(out, "}\n");
}

void
analyze_json_position(const struct analyze_pos *p, const struct position *pos,
    move played, const char *engine, struct strbuf *out)
{
	strbuf_adds(out, "{\"type\": \"position\", ");
	json_object(out, p, pos, played, NULL, engine);
}

void
analyze_node_position(const struct record *r, int32_t i, struct position *pos)
{
	int32_t path[64], *big = NULL, *p = path;
	int n = 0, k;

	for (k = i; k > 0; k = r->nodes[k].parent)
		n++;
	if (n > 64)
		p = big = xmalloc((size_t)n * sizeof(*big));
	for (k = n - 1; i > 0; i = r->nodes[i].parent)
		p[k--] = i;
	*pos = r->start;
	for (k = 0; k < n; k++) {
		struct undo u;

		position_do_move(pos, r->nodes[p[k]].mv, &u);
	}
	free(big);
}

void
analyze_json(const struct record *r, const struct analyze_record *ar,
    const char *file, int index, const char *engine, struct strbuf *out)
{
	int32_t *by_node = xmalloc((r->nnodes ? r->nnodes : 1) *
	    sizeof(*by_node));
	struct position pos;
	size_t i;

	for (i = 0; i < r->nnodes; i++)
		by_node[i] = -1;
	for (i = 0; i < ar->n; i++)
		by_node[ar->v[i].node] = (int32_t)i;
	for (i = 0; i < ar->n; i++) {
		const struct analyze_pos *p = &ar->v[i];
		int32_t c;
		int any = 0;

		analyze_node_position(r, p->node, &pos);
		/*
		 * One object for each move played from here: the line's own
		 * continuation, and each variation that was analysed.
		 */
		for (c = r->nodes[p->node].next; c >= 0; c = r->nodes[c].alt) {
			if (!is_position(r, c) || (by_node[c] < 0 &&
			    r->nodes[c].depth != r->nodes[p->node].depth))
				continue;
			strbuf_adds(out, "{\"type\": \"position\", \"file\": ");
			strbuf_add_json_quoted(out, file);
			strbuf_addf(out, ", \"record\": %d, ", index);
			json_object(out, p, &pos, r->nodes[c].mv,
			    by_node[c] >= 0 ? &ar->v[by_node[c]] : NULL, engine);
			any = 1;
		}
		if (!any) {
			strbuf_adds(out, "{\"type\": \"position\", \"file\": ");
			strbuf_add_json_quoted(out, file);
			strbuf_addf(out, ", \"record\": %d, ", index);
			json_object(out, p, &pos, MOVE_NONE, NULL, engine);
		}
	}
	free(by_node);
}

void
analyze_json_summary(const struct record *r, const struct analyze_record *ar,
    const char *file, int index, struct strbuf *out)
{
	int s, k;

	for (s = 0; s < 2; s++) {
		const struct analyze_side *sd = &ar->sides[s];

		strbuf_adds(out, "{\"type\": \"summary\", \"file\": ");
		strbuf_add_json_quoted(out, file);
		strbuf_addf(out, ", \"record\": %d, \"side\": \"%s\", "
		    "\"moves\": %d, \"average_loss\": ", index,
		    s == BLACK ? "black" : "white", sd->moves);
		if (sd->moves)
			strbuf_addf(out, "%.1f", (double)sd->loss / sd->moves);
		else
			strbuf_adds(out, "null");
		strbuf_addf(out, ", \"classes\": {\"inaccuracy\": %d, "
		    "\"mistake\": %d, \"blunder\": %d}, \"worst\": [",
		    sd->classes[CLASS_INACCURACY], sd->classes[CLASS_MISTAKE],
		    sd->classes[CLASS_BLUNDER]);
		for (k = 0; k < ANALYZE_WORST && sd->worst[k] >= 0; k++) {
			const struct analyze_pos *p = &ar->v[sd->worst[k]];
			const struct analyze_pos *q = &ar->v[p->parent];

			strbuf_addf(out, "%s{\"ply\": %d, \"move\": ", k ? ", " :
			    "", p->ply);
			json_move(out, r->nodes[p->node].mv);
			strbuf_adds(out, ", \"best\": ");
			json_move(out, q->r.best_kind == USI_BEST_MOVE ?
			    q->r.best : MOVE_NONE);
			strbuf_addf(out, ", \"loss\": %lld}", p->loss);
		}
		strbuf_adds(out, "]}\n");
	}
}

void
analyze_summary_rows(const struct record *r, const struct analyze_record *ar,
    const char *file, int index, struct strbuf *rows)
{
	int s, k;

	for (s = 0; s < 2; s++) {
		const struct analyze_side *sd = &ar->sides[s];

		strbuf_adds(rows, file);
		strbuf_addf(rows, "\t%d\t%s\t%d\t", index + 1, s == BLACK ?
		    "black" : "white", sd->moves);
		if (sd->moves)
			strbuf_addf(rows, "%.1f", (double)sd->loss / sd->moves);
		else
			strbuf_addc(rows, '-');
		strbuf_addf(rows, "\t%d\t%d\t%d\t",
		    sd->classes[CLASS_INACCURACY], sd->classes[CLASS_MISTAKE],
		    sd->classes[CLASS_BLUNDER]);
		for (k = 0; k < ANALYZE_WORST && sd->worst[k] >= 0; k++) {
			const struct analyze_pos *p = &ar->v[sd->worst[k]];
			const struct analyze_pos *q = &ar->v[p->parent];
			struct position before;

			analyze_node_position(r, q->node, &before);
			strbuf_addf(rows, "%s%d", k ? ", " : "", p->ply);
			strbuf_adds(rows, kakinoki_mark(before.side));
			kakinoki_write_ki2_move(rows, &before,
			    r->nodes[p->node].mv, kakinoki_is_same(r, p->node));
			strbuf_addf(rows, " %lld", p->loss);
		}
		strbuf_addc(rows, '\n');
	}
}

#define SUMMARY_COLS 8

/* s[0..n) padded to width columns of a terminal (CJK count two). */
static void
pad(struct strbuf *out, const char *s, size_t n, size_t width, int right)
{
	size_t w = kakinoki_width(s, n);

	if (right)
		for (; w < width; w++)
			strbuf_addc(out, ' ');
	strbuf_add(out, s, n);
	if (!right)
		for (; w < width; w++)
			strbuf_addc(out, ' ');
}

void
analyze_summary_table(const struct strbuf *rows, struct strbuf *out)
{
	static const char *const head[SUMMARY_COLS] = {
		"file", "record", "side", "moves", "avg loss", "疑問手", "悪手",
		"大悪手"
	};
	size_t width[SUMMARY_COLS], k;
	const char *p;

	for (k = 0; k < SUMMARY_COLS; k++)
		width[k] = kakinoki_width(head[k], strlen(head[k]));
	for (p = rows->buf; p && *p; ) {
		const char *e = strchr(p, '\n');

		for (k = 0; k < SUMMARY_COLS; k++) {
			size_t n = strcspn(p, "\t\n");
			size_t w = kakinoki_width(p, n);

			if (w > width[k])
				width[k] = w;
			p += n;
			if (*p == '\t')
				p++;
		}
		p = e + 1;
	}
	/* The numbers (moves on) are aligned right, the names left. */
	for (k = 0; k < SUMMARY_COLS; k++) {
		pad(out, head[k], strlen(head[k]), width[k], k >= 3);
		strbuf_adds(out, "  ");
	}
	strbuf_adds(out, "worst\n");
	for (p = rows->buf; p && *p; ) {
		const char *e = strchr(p, '\n');

		for (k = 0; k < SUMMARY_COLS; k++) {
			size_t n = strcspn(p, "\t\n");

			pad(out, p, n, width[k], k >= 3);
			strbuf_adds(out, "  ");
			p += n;
			if (*p == '\t')
				p++;
		}
		strbuf_add(out, p, (size_t)(e - p));
		strbuf_addc(out, '\n');
		p = e + 1;
	}
}

/*
 * solve.c - the solver's phases on top of the bounded search:
 *
 * 1. mate or no mate: one query bounded only by MATE_MAX_PLY;
 * 2. the exact length: a mate of L plies found, ask for L - 2 until
 *    none is proved (each answer proved either way);
 * 3. the line: at each attacker move a check whose mate has the exact
 *    length left, at each defender move a reply whose mate is that long
 *    (not futile), ties broken as doc/mate.md says;
 * 4. the line replayed through the core: legal, checks, mate at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/rules.h"
#include "core/sfen.h"
#include "core/xalloc.h"
#include "search.h"

/* --- results and lines ---------------------------------------------------- */

void
mate_line_push(struct mate_line *l, move m)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 32;
		l->m = xreallocarray(l->m, (size_t)l->alloc, sizeof(*l->m));
	}
	l->m[l->n++] = m;
}

void
mate_line_release(struct mate_line *l)
{
	free(l->m);
	memset(l, 0, sizeof(*l));
}

void
mate_line_copy(struct mate_line *dst, const struct mate_line *src)
{
	int i;

	dst->n = 0;
	for (i = 0; i < src->n; i++)
		mate_line_push(dst, src->m[i]);
}

void
mate_result_init(struct mate_result *r)
{
	memset(r, 0, sizeof(*r));
	r->status = MATE_UNKNOWN;
	r->found = -1;
}

void
mate_result_release(struct mate_result *r)
{
	mate_line_release(&r->line);
	mate_line_release(&r->found_line);
	mate_result_init(r);
}

const char *
mate_status_name(enum mate_status s)
{
	switch (s) {
	case MATE_MATE: return "mate";
	case MATE_NOMATE: return "nomate";
	default: return "unknown";
	}
}

const char *
mate_stop_name(enum mate_stop s)
{
	switch (s) {
	case MATE_STOP_NODES: return "nodes";
	case MATE_STOP_TIME: return "time";
	case MATE_STOP_MEMORY: return "memory";
	case MATE_STOP_DEPTH: return "depth";
	default: return "none";
	}
}

/* --- the position ------------------------------------------------------------ */

int
mate_prepare(struct position *pos, enum mate_rules rules,
    struct mate_error *err)
{
	enum color att = pos->side, def = color_flip(att);
	struct sfen_error se;
	int count[HAND_NB] = { 0 };
	square sq;
	int pt;

	if (pos->king[att] == SQ_NONE && pos->king[def] == SQ_NONE) {
		err->id = "no-kings";
		snprintf(err->message, sizeof(err->message),
		    "neither side has a king: there is nothing to mate");
		return -1;
	}
	if (pos->king[def] == SQ_NONE) {
		err->id = "no-defender-king";
		snprintf(err->message, sizeof(err->message),
		    "%s, the side not to move, has no king to mate",
		    def == BLACK ? "Black" : "White");
		return -1;
	}
	if (position_validate(pos, &se) != SFEN_OK &&
	    strcmp(se.id, "side-not-to-move-in-check") != 0) {
		err->id = "impossible";
		snprintf(err->message, sizeof(err->message),
		    "impossible position: %s [%s]", se.message, se.id);
		return -1;
	}
	{
		struct position q = *pos;

		q.side = def;
		if (position_in_check(&q)) {
			err->id = "defender-in-check";
			snprintf(err->message, sizeof(err->message),
			    "%s, the side not to move, is already in check: "
			    "the side to move could take its king",
			    def == BLACK ? "Black" : "White");
			return -1;
		}
	}
	if (rules != MATE_PROBLEM)
		return 0;
	/* The defender holds every piece of the set not placed elsewhere. */
	for (sq = 0; sq < SQ_NB; sq++)
		if (pos->board[sq] != PIECE_NONE) {
			enum piece_type t = pt_unpromoted(piece_type_of(
			    pos->board[sq]));

			if (t < HAND_NB)
				count[t]++;
		}
	for (pt = PT_PAWN; pt < HAND_NB; pt++) {
		int rest = pos->v->set_count[pt] - count[pt] - pos->hand[att][pt];

		if (rest > pos->hand[def][pt])
			position_hand_set(pos, def, (enum piece_type)pt, rest);
	}
	return 0;
}

/* --- the context ---------------------------------------------------------------- */

struct mate_ctx *
mate_ctx_new(size_t memory)
{
	struct mate_ctx *c;
	size_t kids, futile, paths, rest;

	if (memory < (1u << 20))
		return NULL;
	if (!(c = calloc(1, sizeof(*c))))
		return NULL;
	c->memory = memory;
	rest = memory - sizeof(*c);
	/* The children stack: deep enough for ミクロコスモス many times. */
	kids = rest / 16 / sizeof(struct kid);
	if (kids < 4096)
		kids = 4096;
	if (kids > (1u << 20))
		kids = 1u << 20;
	futile = rest / 64;
	paths = rest / 32;
	{
		size_t n = 1;

		while (n <= rest / 64 / sizeof(struct q0_slot) / 2)
			n <<= 1;
		c->q0 = calloc(n, sizeof(*c->q0));
		c->q0_mask = n - 1;
		rest -= n * sizeof(*c->q0);
	}
	rest -= kids * sizeof(struct kid);
	c->akids = kids;
	c->kids = calloc(kids, sizeof(*c->kids));
	{
		size_t n = 1;

		while (n <= futile / sizeof(struct futile_slot) / 2)
			n <<= 1;
		c->futile = calloc(n, sizeof(*c->futile));
		c->futile_mask = n - 1;
		rest -= n * sizeof(*c->futile);
	}
	if (!c->kids || !c->futile || !c->q0 || path_table_init(&c->paths, paths) ||
	    (rest -= (c->paths.mask + 1) * sizeof(struct path_entry),
	    tt_init(&c->tt, rest))) {
		mate_ctx_free(c);
		return NULL;
	}
	return c;
}

void
mate_ctx_free(struct mate_ctx *c)
{
	if (!c)
		return;
	tt_release(&c->tt);
	path_table_release(&c->paths);
	free(c->q0);
	free(c->futile);
	free(c->kids);
	free(c);
}

size_t
mate_ctx_bytes(const struct mate_ctx *c)
{
	return sizeof(*c) + c->akids * sizeof(struct kid) +
	    (c->futile_mask + 1) * sizeof(struct futile_slot) +
	    (c->q0_mask + 1) * sizeof(struct q0_slot) +
	    (c->paths.mask + 1) * sizeof(struct path_entry) + tt_bytes(&c->tt);
}

void
mate_begin(struct mate_ctx *c, const struct position *root,
    enum mate_rules rules, const struct mate_limits *lim)
{
	uint64_t salt;
	int count[HAND_NB] = { 0 }, pt, col;
	square sq;

	c->attacker = root->side;
	c->problem = rules == MATE_PROBLEM;
	/*
	 * The salt: attacker, measure, and the set's piece counts, which
	 * together with board and attacker's hand decide a position.
	 */
	for (sq = 0; sq < SQ_NB; sq++)
		if (root->board[sq] != PIECE_NONE)
			count[pt_unpromoted(piece_type_of(root->board[sq])) &
			    7]++;
	salt = mix64(0x6b696675u + (uint64_t)c->attacker * 2 +
	    (uint64_t)c->problem);
	for (pt = 0; pt < HAND_NB; pt++) {
		int n = count[pt];

		for (col = 0; col < COLOR_NB; col++)
			n += root->hand[col][pt];
		salt = mix64(salt ^ ((uint64_t)n << (pt * 5)));
	}
	salt = mix64(salt ^ (uint64_t)(uintptr_t)root->v);
	c->salt = salt;
	c->tt.gen++;
	c->nodes = 0;
	c->next_check = 4096;
	c->node_limit = lim ? lim->nodes : 0;
	c->time_limit = lim ? lim->seconds : 0;
	c->stop = 0;
	c->why = MATE_STOP_NONE;
	c->nkids = 0;
	c->ply = 0;
	c->barrier = 0;
	c->nest = 0;
	memset(c->repcount, 0, sizeof(c->repcount));
	/*
	 * The path table and its filter stay: path keys start from the
	 * root, so another problem's entries never match, and one of the
	 * same root on the same path holds still.
	 */
	clock_gettime(CLOCK_MONOTONIC, &c->start);
}

uint64_t
mate_nodes(const struct mate_ctx *c)
{
	return c->nodes;
}

double
mate_seconds(const struct mate_ctx *c)
{
	return search_elapsed(c);
}

enum mate_stop
mate_stopped(const struct mate_ctx *c)
{
	return c->stop ? c->why : MATE_STOP_NONE;
}

/* A query from pos as the root of a path. */
static int
query(struct mate_ctx *c, const struct position *pos, int plies,
    struct res *r)
{
	int ret;

	c->pos = *pos;
	c->ply = 0;
	c->barrier = 0;
	c->nkids = 0;
	c->path[0].pkey = position_key(pos);
	c->path[0].path = mix64(position_key(pos) ^ c->salt);
	c->repcount[c->path[0].pkey & 4095]++;
	if (plies > MATE_MAX_PLY - 1)
		plies = MATE_MAX_PLY - 1;
	ret = search_query(c, plies, r);
	c->repcount[c->path[0].pkey & 4095]--;
	return ret;
}

int
mate_within(struct mate_ctx *c, const struct position *pos, int plies,
    int *len)
{
	struct res r;
	int ret = query(c, pos, plies, &r);

	if (ret == 1 && len)
		*len = r.len;
	return ret;
}

int
mate_exact(struct mate_ctx *c, const struct position *pos, int plies,
    int *len)
{
	int best = 0, l = 0, ret = mate_within(c, pos, plies, &best);

	if (ret != 1)
		return ret;
	while (best >= 2) {
		ret = mate_within(c, pos, best - 2, &l);
		if (ret < 0)
			return -1;
		if (ret == 0)
			break;
		best = l;
	}
	*len = best;
	return 1;
}

int
mate_futile(struct mate_ctx *c, const struct position *pos, move m)
{
	return search_futile(c, pos, m, MATE_MAX_PLY - 2);
}

void
mate_record_exact(struct mate_ctx *c, const struct position *pos, int len)
{
	search_record_exact(c, pos, len);
}

int
mate_is_mated(struct mate_ctx *c, const struct position *pos)
{
	return search_mated_now(c, pos);
}

/* --- the line --------------------------------------------------------------------- */

static int
attacker_hand(const struct mate_ctx *c, const struct position *pos)
{
	int pt, n = 0;

	for (pt = PT_PAWN; pt < HAND_NB; pt++)
		n += pos->hand[c->attacker][pt];
	return n;
}

int
mate_line_hand_left(const struct mate_ctx *c, const struct position *pos,
    const struct mate_line *line)
{
	struct position q = *pos;
	struct undo u;
	int i;

	for (i = 0; i < line->n; i++)
		position_do_move(&q, line->m[i], &u);
	return attacker_hand(c, &q);
}

/*
 * The moves of pos whose mate has exactly `n - 1` plies left, in
 * generation order, into out: at an OR node the checks mating within
 * n - 1, at an AND node the replies (futile drops left out) that need
 * all n - 1. Returns how many, or -1 unknown.
 */
static int
candidates(struct mate_ctx *c, const struct position *pos, int n,
    move *out)
{
	int or = pos->side == c->attacker, i, k = 0;
	struct move_list ml;

	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		struct position q = *pos;
		struct undo u;
		int ret;

		if (or && !search_gives_check(pos, ml.m[i]))
			continue;
		position_do_move(&q, ml.m[i], &u);
		if (or) {
			ret = mate_within(c, &q, n - 1, NULL);
			if (ret < 0)
				return -1;
			if (ret == 1)
				out[k++] = ml.m[i];
			continue;
		}
		ret = mate_within(c, &q, n - 3, NULL);
		if (ret < 0)
			return -1;
		if (ret == 1)
			continue;
		if (c->problem && move_is_drop(ml.m[i])) {
			int f = search_futile(c, pos, ml.m[i], n);

			if (f < 0)
				return -1;
			if (f)
				continue;
		}
		out[k++] = ml.m[i];
	}
	return k;
}

/* Sub-lines the tie-breaks may build, for one line. */
#define TIE_BUDGET 64

/*
 * The line from pos of exact length n into line; *left is the
 * attacker's pieces in hand at its end. Among several moves the one
 * whose own line leaves the fewest pieces in hand is taken (the
 * defender's choice under problem rules, and the tidiest mate for the
 * attacker), while *budget lasts; then the first.
 */
static int
build_line(struct mate_ctx *c, const struct position *pos, int n,
    struct mate_line *line, int *left, int *budget)
{
	move cand[MAX_MOVES];
	struct position q;
	struct undo u;
	int k, i, best = -1, best_left = 1 << 30;
	struct mate_line sub = { 0, 0, NULL }, best_sub = { 0, 0, NULL };

	if (n <= 0) {
		*left = attacker_hand(c, pos);
		return 0;
	}
	k = candidates(c, pos, n, cand);
	if (k < 0)
		return -1;
	if (k == 0)
		return -1;	/* the table lied: never print such a line */
	for (i = 0; i < k; i++) {
		int l;

		if (i > 0 && *budget <= 0)
			break;
		if (i > 0)
			(*budget)--;
		q = *pos;
		position_do_move(&q, cand[i], &u);
		sub.n = 0;
		if (build_line(c, &q, n - 1, &sub, &l, budget) < 0) {
			mate_line_release(&sub);
			mate_line_release(&best_sub);
			return -1;
		}
		if (l < best_left) {
			struct mate_line t = best_sub;

			best_left = l;
			best = i;
			best_sub = sub;
			sub = t;
		}
		if (k == 1 || best_left == 0)
			break;
	}
	mate_line_push(line, cand[best]);
	for (i = 0; i < best_sub.n; i++)
		mate_line_push(line, best_sub.m[i]);
	*left = best_left;
	mate_line_release(&sub);
	mate_line_release(&best_sub);
	return 0;
}

int
mate_line_from(struct mate_ctx *c, const struct position *pos, int length,
    struct mate_line *line)
{
	int left, budget = TIE_BUDGET;

	line->n = 0;
	return build_line(c, pos, length, line, &left, &budget);
}

int
mate_line_replays(struct mate_ctx *c, const struct position *pos,
    const struct mate_line *line)
{
	struct position q = *pos;
	int i;

	for (i = 0; i < line->n; i++) {
		struct move_claim claim;
		struct undo u;
		move m;

		claim.drop = move_is_drop(line->m[i]);
		claim.from = claim.drop ? SQ_NONE : move_from(line->m[i]);
		claim.to = move_to(line->m[i]);
		claim.piece = claim.drop ? move_drop_type(line->m[i]) :
		    piece_type_of(move_piece(line->m[i]));
		claim.promote = move_is_promotion(line->m[i]);
		if (rules_check_move(&q, &claim, &m) != RULE_OK ||
		    m != line->m[i])
			return 0;
		position_do_move(&q, m, &u);
		/* The attacker checks on every move; the defender may too. */
		if (i % 2 == 0 && !position_in_check(&q))
			return 0;
	}
	if (line->n % 2 == 0 || !position_in_check(&q))
		return 0;
	if (rules_play_state(&q) == PLAY_CHECKMATE)
		return 1;
	/*
	 * Only drops the attacker takes with mate again: the solver's own
	 * test, every step of it through the core's move generator.
	 * core/tsume.c is not asked: it plays the recaptures for real and
	 * gives up past a fixed budget, which a long line of empty squares
	 * exceeds (doc/mate.md).
	 */
	return c->problem && search_mated_now(c, &q);
}

/* --- solving ------------------------------------------------------------------------ */

static void
finish(struct mate_ctx *c, struct mate_result *out)
{
	out->nodes = c->nodes;
	out->seconds = search_elapsed(c);
	if (out->status == MATE_UNKNOWN && out->stop == MATE_STOP_NONE)
		out->stop = c->stop ? c->why : MATE_STOP_DEPTH;
}

/*
 * A line for a mate found but not proved shortest: the proofs in the
 * table followed (the shortest check, the longest reply). Kept only if
 * it replays as a mate.
 */
static void
found_line(struct mate_ctx *c, const struct position *pos, int len,
    struct mate_line *line)
{
	struct position q = *pos;
	int n = len;

	line->n = 0;
	while (n > 0 && line->n < MATE_MAX_PLY) {
		struct move_list ml;
		move pick = MOVE_NONE;
		int or = q.side == c->attacker, i, pick_len = -1;
		struct undo u;

		movegen_legal(&q, &ml);
		for (i = 0; i < ml.n; i++) {
			struct tt_probe p;
			struct kid k;

			if (or && !search_gives_check(&q, ml.m[i]))
				continue;
			search_keys_after(c, &q, ml.m[i], &k);
			tt_lookup(&c->tt, k.key, k.hand, c->problem, &p);
			if (p.len == LEN_NONE || p.len > n - 1)
				continue;
			if (pick == MOVE_NONE || (or ? p.len < pick_len :
			    p.len > pick_len)) {
				pick = ml.m[i];
				pick_len = p.len;
			}
		}
		if (pick == MOVE_NONE)
			break;
		mate_line_push(line, pick);
		position_do_move(&q, pick, &u);
		n = pick_len;
	}
	if (!mate_line_replays(c, pos, line))
		line->n = 0;
}

void
mate_solve(struct mate_ctx *c, const struct position *pos,
    enum mate_rules rules, const struct mate_limits *lim,
    struct mate_result *out)
{
	struct res r;
	int ret, len, l = 0;

	mate_result_release(out);
	mate_begin(c, pos, rules, lim);
	ret = query(c, pos, MATE_MAX_PLY - 1, &r);
	if (ret < 0) {
		finish(c, out);
		return;
	}
	if (ret == 0) {
		if (r.dis == DIS_ABS) {
			out->status = MATE_NOMATE;
		} else {
			out->stop = MATE_STOP_DEPTH;
		}
		finish(c, out);
		return;
	}
	len = r.len;
	while (len >= 3) {
		ret = mate_within(c, pos, len - 2, &l);
		if (ret == 0)
			break;
		if (ret < 0) {
			out->found = len;
			found_line(c, pos, len, &out->found_line);
			finish(c, out);
			return;
		}
		len = l;
	}
	if (mate_line_from(c, pos, len, &out->line) < 0 ||
	    out->line.n != len || !mate_line_replays(c, pos, &out->line)) {
		out->line.n = 0;
		out->found = len;
		if (!c->stop)
			out->stop = MATE_STOP_DEPTH;
		finish(c, out);
		return;
	}
	out->status = MATE_MATE;
	out->length = len;
	finish(c, out);
}

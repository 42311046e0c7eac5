/*
 * search.c - depth-first proof-number search (df-pn) for mates by
 * checks, bounded in plies, as doc/mate.md describes:
 *
 * - OR nodes (attacker to move) try every check, AND nodes (defender to
 *   move) every legal reply; the core's move generator decides what is
 *   legal (uchifuzume, nifu, dead pieces).
 * - A query asks "mate within R plies?"; every proof carries its length
 *   and every disproof the depth it holds to, so that the table serves
 *   queries of any bound.
 * - A position repeated on the path is no mate (the attacker checks on
 *   every move, so a repetition is a perpetual check). Such a no-mate
 *   holds on that path only: it goes to the path table, keyed by the
 *   whole path, never to the position table (the GHI problem).
 * - Loops through the table are broken by the threshold controlling
 *   algorithm (TCA, Kishimoto 2010): below a child first reached from a
 *   shallower ply, thresholds grow until a new node is expanded.
 * - Double counting: the defender's drops on one square are one group,
 *   counted as their hardest member plus one for each other (weak
 *   proof numbers, Ueda et al. 2008), since interpositions of different
 *   pieces on one square mostly lead to the same positions.
 * - Under MATE_PROBLEM, futile interpositions are decided exactly
 *   (resolve_drop) and do not count in a mate's length.
 */
#include <string.h>

#include "core/movegen.h"
#include "core/zobrist.h"
#include "search.h"

static void mid(struct mate_ctx *c, struct res *r, uint32_t thpn,
    uint32_t thdn, int R, int inc);
static int q0(struct mate_ctx *c, const struct position *pos, int depth);

/* Whether the path-dependent filter may hold results for a position. */
static inline int
bb_test_bit(const uint64_t *filter, uint64_t pkey)
{
	return (filter[(pkey >> 6) & PD_FILTER_MASK] >> (pkey & 63)) & 1;
}

static inline uint32_t
sat_add(uint32_t a, uint32_t b)
{
	uint64_t s = (uint64_t)a + b;

	return s > PN_MAX ? PN_MAX : (uint32_t)s;
}

static inline uint32_t
min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline uint32_t
max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

double
search_elapsed(const struct mate_ctx *c)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - c->start.tv_sec) +
	    (double)(now.tv_nsec - c->start.tv_nsec) / 1e9;
}

static void
halt(struct mate_ctx *c, enum mate_stop why)
{
	if (!c->stop) {
		c->stop = 1;
		c->why = why;
	}
}

/* The node limit is exact; the clock is read every 4096 nodes. */
static void
count_node(struct mate_ctx *c)
{
	if (c->node_limit && ++c->nodes >= c->node_limit)
		halt(c, MATE_STOP_NODES);
	else if (!c->node_limit)
		c->nodes++;
	if (c->nodes < c->next_check)
		return;
	c->next_check = c->nodes + 4096;
	if (c->time_limit > 0 && search_elapsed(c) >= c->time_limit)
		halt(c, MATE_STOP_TIME);
}

/* --- checks ------------------------------------------------------------ */

int
search_gives_check(const struct position *pos, move m)
{
	enum color us = pos->side;
	square k = pos->king[color_flip(us)], to = move_to(m), from;
	enum piece_type pt = piece_type_of(move_piece_after(m));
	bitboard occ = pos->occ, sliders;

	if (k == SQ_NONE)
		return 0;
	if (move_is_drop(m))
		return bb_reaches(us, pt, to, k, occ);
	from = move_from(m);
	occ = (occ & ~bb_sq(from)) | bb_sq(to);
	if (bb_reaches(us, pt, to, k, occ))
		return 1;
	/* A slider of ours behind the square left, unless m stays on its line. */
	if (!bb_any(bb_line[k][from]) || bb_test(bb_line[k][from], to))
		return 0;
	sliders = position_sliders_to(pos, k, us) & bb_line[k][from] &
	    ~bb_sq(from);
	while (sliders)
		if (!bb_any(bb_between[k][bb_pop(&sliders)] & occ))
			return 1;
	return 0;
}

/*
 * What a check needs, worked out once per attacker node: the squares
 * from which each piece type would attack the defender's king, and the
 * attacker's pieces that stand between one of its sliders and that
 * king (moving off the line discovers a check).
 */
struct check_info {
	square k;
	bitboard sq[PT_NB];
	bitboard disc;
};

static void
check_info(const struct position *pos, struct check_info *ci)
{
	enum color us = pos->side, them = color_flip(us);
	square k = pos->king[them];
	bitboard sliders;
	int pt;

	ci->k = k;
	ci->disc = BB_EMPTY;
	if (k == SQ_NONE)
		return;
	/* A piece of ours attacks k from s when theirs on k would reach s. */
	for (pt = PT_PAWN; pt < PT_NB; pt++)
		ci->sq[pt] = pt == PT_KING ? BB_EMPTY :
		    bb_attacks(them, (enum piece_type)pt, k, pos->occ);
	sliders = position_sliders_to(pos, k, us);
	while (sliders) {
		bitboard b = bb_between[k][bb_pop(&sliders)] & pos->occ;

		if (b && !bb_more_than_one(b) && (b & pos->by_color[us]))
			ci->disc |= b;
	}
}

/*
 * With the occupancy before the move: a slider moving away from the
 * king along its line still has the old blocker between (the king was
 * not in check), and one moving towards it has nothing new between.
 */
static inline int
gives_check_fast(const struct check_info *ci, move m)
{
	square to = move_to(m), from;

	if (ci->k == SQ_NONE)
		return 0;
	if (bb_test(ci->sq[piece_type_of(move_piece_after(m))], to))
		return 1;
	if (move_is_drop(m))
		return 0;
	from = move_from(m);
	return bb_test(ci->disc, from) && !bb_test(bb_line[ci->k][from], to);
}

/* --- keys and the path --------------------------------------------------- */

static inline uint64_t
table_key(const struct mate_ctx *c, uint64_t board_key)
{
	uint64_t k = board_key ^ c->salt;

	return k ? k : 1;
}

/* The keys of the position after m, without making it. */
void
search_keys_after(const struct mate_ctx *c, const struct position *pos, move m,
    struct kid *k)
{
	enum color us = pos->side;
	uint64_t bk = pos->board_key ^ zobrist_side, hk = pos->hand_key;
	uint8_t hand[HAND_NB];
	square to = move_to(m);

	memcpy(hand, pos->hand[c->attacker], sizeof(hand));
	if (move_is_drop(m)) {
		enum piece_type pt = move_drop_type(m);

		bk ^= zobrist_board[piece_make(us, pt)][to];
		hk -= zobrist_hand[us][pt];
		if (us == c->attacker)
			hand[pt]--;
	} else {
		square from = move_from(m);
		piece p = pos->board[from];
		piece np = move_is_promotion(m) ? p | PT_PROMOTED : p;
		piece cap = pos->board[to];

		bk ^= zobrist_board[p][from] ^ zobrist_board[np][to];
		if (cap != PIECE_NONE) {
			enum piece_type ct = pt_unpromoted(piece_type_of(cap));

			bk ^= zobrist_board[cap][to];
			if (ct != PT_KING) {
				hk += zobrist_hand[us][ct];
				if (us == c->attacker)
					hand[ct]++;
			}
		}
	}
	k->key = table_key(c, bk);
	k->pkey = bk ^ hk;
	k->hand = hand_pack(hand);
}

static int
on_path(const struct mate_ctx *c, uint64_t pkey)
{
	int i;

	if (!c->repcount[pkey & 4095])
		return 0;
	for (i = c->barrier; i <= c->ply; i++)
		if (c->path[i].pkey == pkey)
			return 1;
	return 0;
}

static void
push_path(struct mate_ctx *c, uint64_t pkey, uint64_t path)
{
	c->ply++;
	c->path[c->ply].pkey = pkey;
	c->path[c->ply].path = path;
	c->repcount[pkey & 4095]++;
}

static void
pop_path(struct mate_ctx *c)
{
	c->repcount[c->path[c->ply].pkey & 4095]--;
	c->ply--;
}

/* --- what the tables say of a child ------------------------------------------ */

static void
set_proved(struct kid *k, uint16_t len, uint16_t glen)
{
	k->pn = 0;
	k->dn = PN_INF;
	k->len = len;
	k->glen = glen;
}

static void
set_disproved(struct kid *k, uint16_t dis, int pd)
{
	k->pn = PN_INF;
	k->dn = 0;
	k->dis = dis;
	if (pd)
		k->flags |= KID_PD;
	else
		k->flags &= ~KID_PD;
}

/* A child's numbers for a search of `bound` plies below it. */
static void
kid_lookup(struct mate_ctx *c, struct kid *k, int bound)
{
	struct tt_probe p;
	uint16_t d;

	k->flags &= ~(KID_NEW | KID_OLD | KID_PD);
	k->len = k->glen = LEN_NONE;
	k->dis = DIS_NONE;
	if (on_path(c, k->pkey)) {
		set_disproved(k, DIS_ABS, 1);
		return;
	}
	if (bb_test_bit(c->pd_filter, k->pkey)) {
		d = path_table_get(&c->paths, k->path);
		if (d != DIS_NONE && (d == DIS_ABS || d >= bound)) {
			set_disproved(k, d, 1);
			return;
		}
	}
	tt_lookup(&c->tt, k->key, k->hand, c->problem, &p);
	if (p.len != LEN_NONE && p.len <= bound) {
		set_proved(k, p.len, p.glen);
		return;
	}
	if (p.dis != DIS_NONE && (p.dis == DIS_ABS || p.dis >= bound)) {
		set_disproved(k, p.dis, 0);
		return;
	}
	if (!p.found) {
		k->flags |= KID_NEW;
		k->pn = k->dn = 1;
		return;
	}
	/* Numbers of another bound's search, or a final one too long. */
	k->pn = p.pn && p.pn < PN_INF ? p.pn : 1;
	k->dn = p.dn && p.dn < PN_INF ? p.dn : 1;
	if (p.ply < c->ply + 1)
		k->flags |= KID_OLD;
}

/* --- futile interpositions (MATE_PROBLEM) ---------------------------------------- */

/*
 * The attacker's moves in pos (after the defender's drop on sq) that
 * take the dropped piece legally and give check, into out.
 */
static int
recaptures(const struct mate_ctx *c, const struct position *pos, square sq,
    move out[16])
{
	const struct variant *v = pos->v;
	enum color us = c->attacker;
	bitboard from = position_attackers(pos, sq, us, pos->occ);
	int n = 0;

	while (from && n < 14) {
		square f = bb_pop(&from);
		piece p = pos->board[f];
		enum piece_type pt = piece_type_of(p);
		int promo;

		for (promo = 0; promo <= 1; promo++) {
			move m = move_make(f, sq, p, promo);
			struct position q;
			struct undo u;

			if (promo && (!pt_can_promote(pt) ||
			    !(bb_test(v->zone[us], f) || bb_test(v->zone[us], sq))))
				continue;
			if (!promo && bb_test(v->dead[us][pt], sq))
				continue;
			q = *pos;
			position_do_move(&q, m, &u);
			if (q.king[us] != SQ_NONE &&
			    position_attacked(&q, q.king[us], color_flip(us),
			    q.occ))
				continue;
			if (!position_in_check(&q))
				continue;
			out[n++] = m;
		}
	}
	return n;
}

/*
 * The position after the defender's drop d and the attacker's taking
 * it with x, with the piece given back to the defender: the checker
 * closer, both hands as they were (doc/mate.md, "futile").
 */
static void
qstar(const struct mate_ctx *c, const struct position *pos, move d, move x,
    struct position *out)
{
	enum color def = color_flip(c->attacker);
	enum piece_type pt = move_drop_type(d);
	struct undo u;

	*out = *pos;
	position_do_move(out, d, &u);
	position_do_move(out, x, &u);
	position_hand_set(out, c->attacker, pt, out->hand[c->attacker][pt] - 1);
	position_hand_set(out, def, pt, out->hand[def][pt] + 1);
}

/*
 * Whether the drop d (legal in pos, defender to move) is futile at
 * once: some legal recapture with check leaves, with the piece given
 * back, a position mated in the problem's sense (q0).
 */
static int
drop_futile0(struct mate_ctx *c, const struct position *pos, move d,
    int depth)
{
	struct position after, q;
	struct undo u;
	move x[16];
	int n, i;

	after = *pos;
	position_do_move(&after, d, &u);
	n = recaptures(c, &after, move_to(d), x);
	for (i = 0; i < n; i++) {
		qstar(c, pos, d, x[i], &q);
		if (q0(c, &q, depth + 1))
			return 1;
	}
	return 0;
}

/*
 * Whether the defender, to move in pos, is mated in the problem's sense
 * with no further move: no legal move at all, or (MATE_PROBLEM) only
 * drops, each futile at once. Each level moves the checker closer, and
 * answers are kept by position (a long line of empty squares would
 * otherwise be tried in every order).
 */
static int
q0(struct mate_ctx *c, const struct position *pos, int depth)
{
	struct move_list ml;
	uint64_t key;
	struct q0_slot *slot;
	bitboard done = BB_EMPTY;
	int i, per_square, v = 1;

	if (movegen_legal(pos, &ml) == 0)
		return 1;
	if (!c->problem || depth > 8)
		return 0;
	for (i = 0; i < ml.n; i++)
		if (!move_is_drop(ml.m[i]))
			return 0;
	/* The answer sits in the low bit of the stored key. */
	key = mix64(position_key(pos) ^ c->salt) & ~(uint64_t)1;
	slot = &c->q0[(key >> 1) & c->q0_mask];
	if ((slot->key & ~(uint64_t)1) == key && slot->key)
		return (int)(slot->key & 1);
	per_square = pos->king[c->attacker] == SQ_NONE;
	for (i = 0; i < ml.n && v; i++) {
		square sq = move_to(ml.m[i]);

		if (per_square && bb_test(done, sq))
			continue;
		done |= bb_sq(sq);
		v = drop_futile0(c, pos, ml.m[i], depth);
	}
	slot->key = key | (uint64_t)v;
	if (!slot->key)
		slot->key = 2;	/* never the empty slot */
	return v;
}

int
search_mated_now(struct mate_ctx *c, const struct position *pos)
{
	return position_in_check(pos) && q0(c, pos, 0);
}

/*
 * A query on another position, inside the current one: its own root,
 * with no repetition history (a futility verdict does not depend on the
 * path it was met on), on top of the current path and children.
 */
static int
nested_query(struct mate_ctx *c, const struct position *pos, int R,
    struct res *r)
{
	struct position saved = c->pos;
	int barrier = c->barrier, ret;

	if (c->ply + 2 >= MATE_MAX_PLY) {
		halt(c, MATE_STOP_DEPTH);
		return -1;
	}
	c->pos = *pos;
	c->nest++;
	push_path(c, position_key(pos), mix64(position_key(pos) ^ c->salt));
	c->barrier = c->ply;
	ret = search_query(c, R, r);
	pop_path(c);
	c->barrier = barrier;
	c->nest--;
	c->pos = saved;
	return ret;
}

/* The exact length of pos's mate if at most R: 1, 0 none, -1 unknown. */
static int
nested_exact(struct mate_ctx *c, const struct position *pos, int R, int *len)
{
	struct res r;
	int ret = nested_query(c, pos, R, &r), best;

	if (ret != 1)
		return ret;
	best = r.len;
	while (best >= 2) {
		ret = nested_query(c, pos, best - 2, &r);
		if (ret < 0)
			return -1;
		if (ret == 0)
			break;
		best = r.len;
	}
	*len = best;
	return 1;
}

static uint64_t
futile_key(const struct mate_ctx *c, const struct position *pos, move d)
{
	uint64_t k = mix64(table_key(c, pos->board_key) ^
	    (uint64_t)hand_pack(pos->hand[c->attacker]) << 32 ^ d);

	return k ? k : 1;
}

/*
 * Whether the defender's drop d (pos: the AND node, defender to move)
 * is futile: with q the shortest mate after a recapture with the piece
 * given back (qstar), q is at most L_R, the longest mate after the
 * defender's other replies that are not drops. L_R >= q holds when some
 * such reply's mate needs more than q - 2 plies. 1, 0, -1 unknown.
 */
static int
resolve_drop(struct mate_ctx *c, const struct position *pos, move d, int R)
{
	uint64_t key = futile_key(c, pos, d);
	struct futile_slot *slot = &c->futile[key & c->futile_mask];
	struct move_list ml;
	struct position after, q;
	struct undo u;
	move x[16];
	int n, i, qlen = -1, verdict = 0;
	uint16_t holds = 0xffff;

	if (slot->key == key && (slot->verdict == 1 || slot->bound >= R))
		return slot->verdict == 1;
	after = *pos;
	position_do_move(&after, d, &u);
	n = recaptures(c, &after, move_to(d), x);
	for (i = 0; i < n; i++) {
		int bound = qlen < 0 ? R : qlen - 2, len, ret;

		if (bound < 0)
			break;
		qstar(c, pos, d, x[i], &q);
		ret = nested_exact(c, &q, bound, &len);
		if (ret < 0)
			return -1;
		if (ret == 1)
			qlen = len;
	}
	if (qlen < 0) {
		/* Nothing within R: not futile as far as R goes. */
		verdict = 0;
		holds = (uint16_t)R;
	} else if (qlen == 0) {
		verdict = 1;
	} else {
		/* Futile when some other reply's mate needs qlen - 1 or more. */
		movegen_legal(pos, &ml);
		for (i = 0; i < ml.n && !verdict; i++) {
			struct position child;
			struct res r;
			int ret;

			if (move_is_drop(ml.m[i]))
				continue;
			if (qlen - 2 < 1) {
				verdict = 1;	/* no mate within 0 plies */
				break;
			}
			child = *pos;
			position_do_move(&child, ml.m[i], &u);
			ret = nested_query(c, &child, qlen - 2, &r);
			if (ret < 0)
				return -1;
			if (ret == 0)
				verdict = 1;
		}
	}
	slot->key = key;
	slot->verdict = verdict ? 1 : 2;
	slot->bound = holds;
	return verdict;
}

int
search_futile(struct mate_ctx *c, const struct position *pos, move d,
    int bound)
{
	if (!c->problem || !move_is_drop(d))
		return 0;
	if (drop_futile0(c, pos, d, 0))
		return 1;
	return resolve_drop(c, pos, d, bound);
}

/* --- expansion ------------------------------------------------------------------ */

static struct kid *
push_kid(struct mate_ctx *c)
{
	if (c->nkids >= c->akids) {
		halt(c, MATE_STOP_MEMORY);
		return NULL;
	}
	return &c->kids[c->nkids++];
}

/* Replies counted for a new AND node: drops on one square count once. */
static uint32_t
grouped_count(const struct move_list *ml)
{
	bitboard drops = BB_EMPTY;
	uint32_t n = 0;
	int i;

	for (i = 0; i < ml->n; i++) {
		if (move_is_drop(ml->m[i]))
			drops |= bb_sq(move_to(ml->m[i]));
		else
			n++;
	}
	return n + (uint32_t)bb_count(drops);
}

/*
 * A check's position seen for the first time: mated at once (a mate in
 * one found without a search of its own), or numbered by its replies.
 */
static void
eval_new_and(struct mate_ctx *c, struct kid *k, int bound)
{
	struct move_list ml;
	struct undo u;
	int i, drops = 1;

	position_do_move(&c->pos, k->m, &u);
	movegen_legal(&c->pos, &ml);
	if (ml.n == 0) {
		set_proved(k, 0, 0);
	} else {
		if (c->problem)
			for (i = 0; i < ml.n && drops; i++)
				drops = move_is_drop(ml.m[i]);
		if (c->problem && drops && q0(c, &c->pos, 0)) {
			set_proved(k, 0, LEN_NONE);
		} else if (bound < 2) {
			set_disproved(k, 0, 0);
		} else {
			k->pn = grouped_count(&ml);
			k->dn = 1;
		}
	}
	position_undo_move(&c->pos, k->m, &u);
	tt_store(&c->tt, k->key, k->hand, k->pn, k->dn,
	    k->pn == 0 ? k->len : LEN_NONE, k->pn == 0 ? k->glen : LEN_NONE,
	    k->dn == 0 ? k->dis : DIS_NONE, 0, 0, (unsigned)c->ply + 1);
}

/*
 * The children of the node at c->pos into the kid stack; returns how
 * many, or -1 when the stack is full. *inc is set when one was reached
 * before from a shallower ply (TCA).
 */
static int
expand(struct mate_ctx *c, int or, int R, int *inc)
{
	struct move_list ml;
	uint64_t path = c->path[c->ply].path;
	int i, n = 0;
	/*
	 * Squares whose drops were found futile at once. Without an
	 * attacker's king the piece dropped cannot change which
	 * recaptures are legal, so one answer serves the square.
	 */
	bitboard futile_sq = BB_EMPTY, tried_sq = BB_EMPTY;
	int per_square = c->pos.king[c->attacker] == SQ_NONE;

	struct check_info ci;

	movegen_legal(&c->pos, &ml);
	if (or)
		check_info(&c->pos, &ci);
	for (i = 0; i < ml.n; i++) {
		move m = ml.m[i];
		struct kid *k;

		if (or && !gives_check_fast(&ci, m))
			continue;
		if (!(k = push_kid(c)))
			return -1;
		n++;
		k->m = m;
		k->flags = 0;
		k->group = 0xff;
		search_keys_after(c, &c->pos, m, k);
		k->path = mix64(path ^ m);
		if (!or && move_is_drop(m)) {
			k->group = (uint8_t)move_to(m);
			if (c->problem) {
				square sq = move_to(m);
				int f;

				k->flags |= KID_DROP;
				if (per_square && bb_test(tried_sq, sq)) {
					f = bb_test(futile_sq, sq);
				} else {
					f = drop_futile0(c, &c->pos, m, 0);
					tried_sq |= bb_sq(sq);
					if (f)
						futile_sq |= bb_sq(sq);
				}
				if (f) {
					k->flags |= KID_FUTILE;
					set_proved(k, 0, LEN_NONE);
					continue;
				}
			}
		}
		kid_lookup(c, k, R - 1);
		if (k->flags & KID_OLD)
			*inc = 1;
		if (or && (k->flags & KID_NEW))
			eval_new_and(c, k, R - 1);
	}
	return n;
}

/* --- numbers of a node from its children ------------------------------------------ */

static void
evaluate(const struct mate_ctx *c, size_t base, int n, int or, struct res *r)
{
	const struct kid *k = &c->kids[base];
	int i;

	r->best = 0;
	r->pd = 0;
	r->len = r->glen = LEN_NONE;
	r->dis = DIS_NONE;
	if (or) {
		uint32_t pn = PN_INF, dn = 0;
		uint16_t dis = DIS_ABS;
		int pd = 0;

		for (i = 0; i < n; i++, k++) {
			if (k->pn == 0) {
				pn = 0;
				if (k->len + 1 < r->len) {
					r->len = (uint16_t)(k->len + 1);
					r->best = (uint16_t)k->m;
				}
				if (k->glen != LEN_NONE && k->glen + 1 < r->glen)
					r->glen = (uint16_t)(k->glen + 1);
			} else if (k->dn == 0) {
				if (k->dis < dis)
					dis = k->dis;
				pd |= (k->flags & KID_PD) != 0;
			} else {
				pn = min_u32(pn, k->pn);
				dn = sat_add(dn, k->dn);
			}
		}
		if (pn == 0) {
			r->pn = 0;
			r->dn = PN_INF;
		} else if (dn == 0) {
			r->pn = PN_INF;
			r->dn = 0;
			r->dis = dis == DIS_ABS ? DIS_ABS : (uint16_t)(dis + 1);
			r->pd = (uint8_t)pd;
		} else {
			r->pn = pn;
			r->dn = dn;
		}
		return;
	}
	{
		uint64_t sum = 0;
		uint32_t dn = PN_INF, gmax[SQ_NB], gcnt[SQ_NB];
		bitboard groups = BB_EMPTY;
		uint16_t dis_free = DIS_NONE, dis_pd = DIS_NONE, len = 0;
		uint16_t glen = 0;
		int unknown = 0, disproved = 0;

		for (i = 0; i < n; i++, k++) {
			if (k->flags & KID_FUTILE) {
				glen = LEN_NONE;
				continue;
			}
			if (k->pn == 0) {
				if (k->len + 1 > len)
					len = (uint16_t)(k->len + 1), r->best = (uint16_t)k->m;
				if (k->glen == LEN_NONE)
					glen = LEN_NONE;
				else if (glen != LEN_NONE && k->glen + 1 > glen)
					glen = (uint16_t)(k->glen + 1);
			} else if (k->dn == 0) {
				uint16_t *d = (k->flags & KID_PD) ? &dis_pd :
				    &dis_free;

				disproved = 1;
				if (*d == DIS_NONE || k->dis > *d)
					*d = k->dis;
			} else {
				unknown = 1;
				dn = min_u32(dn, k->dn);
				if (k->group != 0xff) {
					square g = k->group;

					if (!bb_test(groups, g)) {
						groups |= bb_sq(g);
						gmax[g] = 0;
						gcnt[g] = 0;
					}
					gmax[g] = max_u32(gmax[g], k->pn);
					gcnt[g]++;
				} else {
					sum += k->pn;
				}
			}
		}
		if (disproved) {
			uint16_t d = dis_free != DIS_NONE ? dis_free : dis_pd;

			r->pn = PN_INF;
			r->dn = 0;
			r->dis = d == DIS_ABS ? DIS_ABS : (uint16_t)(d + 1);
			r->pd = dis_free == DIS_NONE;
			return;
		}
		if (!unknown) {
			r->pn = 0;
			r->dn = PN_INF;
			r->len = len;
			r->glen = glen;
			return;
		}
		while (groups) {
			square g = bb_pop(&groups);

			sum += gmax[g] + gcnt[g] - 1;
		}
		r->pn = sum > PN_MAX ? PN_MAX : (uint32_t)sum;
		r->dn = dn;
	}
}

/*
 * The child to search next and its thresholds (df-pn with the 1 + 1/4
 * trick of Pawlewicz and Lew: a child may go a quarter past its
 * sibling's number before the parent looks again).
 */
static int
select_kid(const struct mate_ctx *c, size_t base, int n, int or,
    const struct res *r, uint32_t thpn, uint32_t thdn, uint32_t *cpn,
    uint32_t *cdn)
{
	const struct kid *k = &c->kids[base];
	uint32_t best = PN_INF, second = PN_INF;
	int i, b = -1;

	for (i = 0; i < n; i++) {
		uint32_t v;

		if (k[i].pn == 0 || k[i].dn == 0 || (k[i].flags & KID_FUTILE))
			continue;
		v = or ? k[i].pn : k[i].dn;
		if (v < best) {
			second = best;
			best = v;
			b = i;
		} else if (v < second) {
			second = v;
		}
	}
	if (b < 0)
		return -1;
	{
		uint64_t lim = second >= PN_INF ? PN_INF :
		    (uint64_t)second + 1 + second / 4;
		uint32_t th1 = (uint32_t)(lim > PN_INF ? PN_INF : lim);
		uint32_t self = or ? k[b].pn : k[b].dn;
		uint32_t other_th = or ? thdn : thpn;
		uint32_t other_node = or ? r->dn : r->pn;
		uint32_t other_kid = or ? k[b].dn : k[b].pn;
		uint32_t th2;

		th1 = min_u32(or ? thpn : thdn, th1);
		if (th1 <= self)
			th1 = self + 1;
		if (!or && k[b].group != 0xff) {
			/* The group's hardest member is what the node counts. */
			for (i = 0; i < n; i++)
				if (k[i].group == k[b].group && k[i].pn &&
				    k[i].dn && k[i].pn > other_kid)
					other_kid = k[i].pn;
		}
		if (other_th >= PN_INF) {
			th2 = PN_INF;
		} else {
			int64_t t = (int64_t)other_th - other_node + other_kid;

			th2 = t > PN_INF ? PN_INF : (uint32_t)(t < 1 ? 1 : t);
		}
		if (th2 <= (or ? k[b].dn : k[b].pn))
			th2 = (or ? k[b].dn : k[b].pn) + 1;
		if (or) {
			*cpn = th1;
			*cdn = th2;
		} else {
			*cdn = th1;
			*cpn = th2;
		}
	}
	return b;
}

/*
 * Under MATE_PROBLEM, an AND node disproved only through drops not yet
 * judged: judge them. Returns 1 when one was futile (the node's
 * numbers change), 0 when the node stays disproved, -1 when a verdict
 * ran out of limits (the node is then unknown).
 */
static int
resolve_pending(struct mate_ctx *c, size_t base, int n, int R)
{
	struct kid *k = &c->kids[base];
	int i, changed = 0;

	for (i = 0; i < n; i++)
		if (k[i].dn == 0 && !(k[i].flags & KID_DROP))
			return 0;	/* a real reply escapes: nothing to judge */
	for (i = 0; i < n && !c->stop; i++) {
		int v;

		if (k[i].dn != 0 || !(k[i].flags & KID_DROP) ||
		    (k[i].flags & (KID_REAL | KID_FUTILE)))
			continue;
		/* No mate at all after it: not futile (doc/mate.md). */
		if (k[i].dis == DIS_ABS && !(k[i].flags & KID_PD)) {
			k[i].flags |= KID_REAL;
			continue;
		}
		v = resolve_drop(c, &c->pos, k[i].m, R);
		k = &c->kids[base];
		if (v < 0)
			return -1;
		if (v) {
			k[i].flags |= KID_FUTILE;
			set_proved(&k[i], 0, LEN_NONE);
			changed = 1;
		} else {
			k[i].flags |= KID_REAL;
			break;		/* the node is disproved */
		}
	}
	return changed;
}

static unsigned
log2_of(uint64_t x)
{
	unsigned n = 0;

	while (x > 1) {
		x >>= 1;
		n++;
	}
	return n;
}

static void
store(struct mate_ctx *c, const struct res *r, uint64_t nodes)
{
	uint64_t key = table_key(c, c->pos.board_key);
	uint32_t hand = hand_pack(c->pos.hand[c->attacker]);

	if (r->dn == 0 && r->pd) {
		path_table_put(&c->paths, c->path[c->ply].path, r->dis);
		c->pd_filter[(c->path[c->ply].pkey >> 6) & PD_FILTER_MASK] |=
		    (uint64_t)1 << (c->path[c->ply].pkey & 63);
		return;
	}
	tt_store(&c->tt, key, hand, r->pn, r->dn,
	    r->pn == 0 ? r->len : LEN_NONE, r->pn == 0 ? r->glen : LEN_NONE,
	    r->dn == 0 ? r->dis : DIS_NONE, r->best, log2_of(nodes + 1),
	    (unsigned)c->ply);
}

/* The leaves a bound makes: no search below them. */
static int
terminal(struct mate_ctx *c, int or, int R, struct res *r)
{
	memset(r, 0, sizeof(*r));
	r->len = r->glen = LEN_NONE;
	r->dis = DIS_NONE;
	if (or && (R < 1 || c->ply >= MATE_MAX_PLY)) {
		if (c->ply >= MATE_MAX_PLY)
			halt(c, MATE_STOP_DEPTH);
		r->pn = PN_INF;
		r->dn = 0;
		r->dis = 0;
		return 1;
	}
	if (!or && (R < 2 || c->ply >= MATE_MAX_PLY)) {
		struct move_list ml;

		if (movegen_legal(&c->pos, &ml) == 0) {
			r->dn = PN_INF;
			r->len = r->glen = 0;
		} else if (c->problem && q0(c, &c->pos, 0)) {
			r->dn = PN_INF;
			r->len = 0;
		} else {
			r->pn = PN_INF;
			r->dis = 0;
		}
		return 1;
	}
	return 0;
}

static void
mid(struct mate_ctx *c, struct res *r, uint32_t thpn, uint32_t thdn, int R,
    int inc)
{
	const int or = c->pos.side == c->attacker;
	uint64_t nodes0 = c->nodes;
	size_t base = c->nkids;
	int n, old = 0, extended = 0;

	count_node(c);
	if (or ? !(R & 1) : (R & 1))
		R--;
	if (terminal(c, or, R, r)) {
		store(c, r, 0);
		return;
	}
	n = expand(c, or, R, &old);
	if (n < 0) {
		c->nkids = base;
		r->pn = r->dn = 1;
		r->len = r->glen = LEN_NONE;
		r->dis = DIS_NONE;
		r->pd = 0;
		r->best = 0;
		return;
	}
	if (old)
		inc = 1;
	for (;;) {
		uint32_t cpn, cdn;
		struct res cr;
		struct undo u;
		struct kid *k;
		int b, first, v;

		evaluate(c, base, n, or, r);
		if (c->problem && !or && r->dn == 0 && R >= 2 &&
		    (v = resolve_pending(c, base, n, R)) != 0) {
			if (v > 0)
				continue;
			/* A drop's verdict ran out: nothing proved here. */
			r->pn = r->dn = 1;
			r->pd = 0;
			c->nkids = base;
			return;
		}
		if (r->pn == 0 || r->dn == 0 || c->stop)
			break;
		/*
		 * TCA: below a child reached before from a shallower ply,
		 * the numbers read may be this node's own through a loop;
		 * search until they grow, whatever the parent asked.
		 */
		if (inc && !extended) {
			thpn = max_u32(thpn, min_u32(r->pn + 1, PN_INF));
			thdn = max_u32(thdn, min_u32(r->dn + 1, PN_INF));
			extended = 1;
		}
		if (r->pn >= thpn || r->dn >= thdn)
			break;
		b = select_kid(c, base, n, or, r, thpn, thdn, &cpn, &cdn);
		if (b < 0)
			break;
		k = &c->kids[base + b];
		first = (k->flags & KID_NEW) != 0;
		position_do_move(&c->pos, k->m, &u);
		push_path(c, k->pkey, k->path);
		mid(c, &cr, cpn, cdn, R - 1, inc && !first);
		pop_path(c);
		k = &c->kids[base + b];
		position_undo_move(&c->pos, k->m, &u);
		k->flags &= ~(KID_NEW | KID_PD);
		k->pn = cr.pn;
		k->dn = cr.dn;
		k->len = cr.len;
		k->glen = cr.glen;
		k->dis = cr.dis;
		if (cr.dn == 0 && cr.pd)
			k->flags |= KID_PD;
		if (first)
			inc = 0;
	}
	store(c, r, c->nodes - nodes0);
	c->nkids = base;
}

int
search_query(struct mate_ctx *c, int R, struct res *r)
{
	const int or = c->pos.side == c->attacker;
	struct tt_probe p;

	if (or ? !(R & 1) : (R & 1))
		R--;
	tt_lookup(&c->tt, table_key(c, c->pos.board_key),
	    hand_pack(c->pos.hand[c->attacker]), c->problem, &p);
	memset(r, 0, sizeof(*r));
	r->len = r->glen = LEN_NONE;
	r->dis = DIS_NONE;
	if (R >= 0 && p.len != LEN_NONE && p.len <= R) {
		r->dn = PN_INF;
		r->len = p.len;
		r->glen = p.glen;
		r->best = p.best;
		return 1;
	}
	if (R < 0) {
		/* Nothing mates in fewer than no plies; no fact to keep. */
		r->pn = PN_INF;
		return 0;
	}
	if (p.dis != DIS_NONE && (p.dis == DIS_ABS || p.dis >= R)) {
		r->pn = PN_INF;
		r->dis = p.dis;
		return 0;
	}
	if (c->stop)
		return -1;
	mid(c, r, PN_INF, PN_INF, R, 0);
	if (r->pn == 0)
		return 1;
	if (r->dn == 0)
		return 0;
	if (!c->stop)
		halt(c, MATE_STOP_NODES);	/* cannot happen: thresholds are infinite */
	return -1;
}

void
search_record_exact(struct mate_ctx *c, const struct position *pos, int len)
{
	tt_store(&c->tt, table_key(c, pos->board_key),
	    hand_pack(pos->hand[c->attacker]), 0, PN_INF, (uint16_t)len,
	    LEN_NONE, len >= 2 ? (uint16_t)(len - 2) : DIS_NONE, 0, 8, 0);
}

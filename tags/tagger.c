/*
 * tagger.c - matching the definitions against a game's positions
 * (tagger.h). The work per ply is proportional to the definitions the
 * move can have changed: the squares it touched index them, and a
 * definition reached or ruled out queues the ones that depend on it.
 */
#include <stdlib.h>
#include <string.h>

#include "tags/tagger.h"
#include "core/handicap.h"
#include "core/xalloc.h"

struct tagger {
	const struct tagdefs *d;
	const struct record *r;
	size_t w, lw;
	int may_stop, done, last_ply;
	uint64_t *open[2];	/* defs that may still be reached */
	uint64_t *holding[2];	/* hold defs true so far */
	uint64_t *labels[2];	/* labels reached */
	uint64_t *cand[2];	/* scratch: defs to look at this ply */
	int *ply[2];		/* ply a def was reached at, -1 */
	int deflt[2];		/* default style that held at the start */
	uint64_t hand_key;
	uint8_t hand[COLOR_NB][HAND_NB];	/* as at the last ply */
	int even;		/* the record starts from the even start */
	/*
	 * Every even game looks the same at ply 0: what the first one's
	 * look gave is kept and copied into the next ones.
	 */
	struct {
		int ok;
		uint64_t *open[2], *holding[2], *labels[2];
		int *ply[2];
		int deflt[2];
	} start;
	struct tag_result res;
	size_t ahits[2][2];
	struct diag_list scratch;
};

static int
bit(const uint64_t *b, size_t i)
{
	return (int)((b[i / 64] >> (i % 64)) & 1);
}

static void
bit_clear(uint64_t *b, size_t i)
{
	b[i / 64] &= ~((uint64_t)1 << (i % 64));
}

static void
bit_put(uint64_t *b, size_t i)
{
	b[i / 64] |= (uint64_t)1 << (i % 64);
}

struct tagger *
tagger_new(const struct tagdefs *d)
{
	struct tagger *t = xcalloc(1, sizeof(*t));
	int c;

	t->d = d;
	t->w = d->words;
	t->lw = d->lwords;
	for (c = 0; c < 2; c++) {
		t->open[c] = xcalloc(t->w, sizeof(uint64_t));
		t->holding[c] = xcalloc(t->w, sizeof(uint64_t));
		t->cand[c] = xcalloc(t->w, sizeof(uint64_t));
		t->labels[c] = xcalloc(t->lw, sizeof(uint64_t));
		t->ply[c] = xcalloc(d->n ? d->n : 1, sizeof(int));
		t->start.open[c] = xcalloc(t->w, sizeof(uint64_t));
		t->start.holding[c] = xcalloc(t->w, sizeof(uint64_t));
		t->start.labels[c] = xcalloc(t->lw, sizeof(uint64_t));
		t->start.ply[c] = xcalloc(d->n ? d->n : 1, sizeof(int));
	}
	diag_list_init(&t->scratch);
	return t;
}

void
tagger_free(struct tagger *t)
{
	int c;

	if (!t)
		return;
	for (c = 0; c < 2; c++) {
		free(t->open[c]);
		free(t->holding[c]);
		free(t->cand[c]);
		free(t->labels[c]);
		free(t->ply[c]);
		free(t->start.open[c]);
		free(t->start.holding[c]);
		free(t->start.labels[c]);
		free(t->start.ply[c]);
		free(t->res.side[c].openings);
		free(t->res.side[c].castles);
	}
	diag_list_release(&t->scratch);
	free(t);
}

const struct tagdefs *
tagger_defs(const struct tagger *t)
{
	return t->d;
}

/* Whether side c holds at least one piece of type pt at the start. */
static int
has_type(const struct position *pos, enum color c, enum piece_type pt)
{
	enum piece_type base = pt_unpromoted(pt);

	if (pos->by_type[base] & pos->by_color[c])
		return 1;
	return base <= PT_GOLD && base >= PT_PAWN && pos->hand[c][base] > 0;
}

/*
 * Whether a definition can name the side: every piece of its own that
 * it asks for is one the side starts with. An upper player without a
 * rook is not given a rook's opening for a rook it captured.
 */
static int
applies(const struct tag_def *t, const struct position *start, enum color c)
{
	size_t k;

	for (k = 0; k < t->nterms; k++) {
		const struct tag_term *m = &t->terms[k];

		if (!m->neg && !m->opp && m->type != PT_NONE &&
		    !has_type(start, c, (enum piece_type)m->type))
			return 0;
	}
	return 1;
}

void
tagger_begin(struct tagger *t, const struct record *r, int may_stop)
{
	const struct tagdefs *d = t->d;
	enum handicap h;
	size_t i;
	int c;

	t->r = r;
	t->may_stop = may_stop;
	t->done = 0;
	t->last_ply = 0;
	t->hand_key = r->start.hand_key;
	memcpy(t->hand, r->start.hand, sizeof(t->hand));
	t->res.named = 0;
	t->res.why = NULL;
	t->res.handicap = 0;
	t->res.matchup = MATCHUP_NONE;
	t->res.game = -1;
	t->res.plies = 0;
	for (c = 0; c < 2; c++) {
		struct tag_side *s = &t->res.side[c];

		s->style = -1;
		s->style_ply = -1;
		s->nopenings = s->ncastles = 0;
		memset(t->holding[c], 0, t->w * sizeof(uint64_t));
		memset(t->labels[c], 0, t->lw * sizeof(uint64_t));
		memset(t->open[c], 0, t->w * sizeof(uint64_t));
		for (i = 0; i < d->n; i++)
			t->ply[c][i] = -1;
		t->deflt[c] = -1;
	}
	h = handicap_identify(&r->start);
	if (r->v != variant_standard() || !d->compiled ||
	    (h != HANDICAP_EVEN && (h <= HANDICAP_EVEN || h > HANDICAP_10))) {
		t->res.why = r->v != variant_standard() ? "minishogi" :
		    !d->compiled ? "no definitions" : "not a standard start";
		t->done = 1;
		return;
	}
	t->res.named = 1;
	t->res.handicap = h != HANDICAP_EVEN;
	t->even = h == HANDICAP_EVEN;
	for (c = 0; c < 2; c++) {
		memcpy(t->open[c], d->side_defs, t->w * sizeof(uint64_t));
		if (!t->res.handicap)
			continue;
		for (i = 0; i < d->n; i++)
			if (bit(t->open[c], i) &&
			    !applies(&d->v[i], &r->start, (enum color)c))
				bit_clear(t->open[c], i);
	}
}

/* --- one definition at one ply ------------------------------------------- */

static int
all_reached(const uint64_t *labels, const struct tag_ids *ids)
{
	size_t k;

	for (k = 0; k < ids->n; k++)
		if (!bit(labels, ids->v[k]))
			return 0;
	return 1;
}

/*
 * Whether the own labels and the opponent's allow def i now: all it
 * requires reached, nothing it rules out (*dead: never again).
 */
static int
labels_allow(const struct tagger *t, size_t i, enum color c, int *dead)
{
	const uint64_t *m = t->d->lmasks + i * 4 * t->lw;
	const uint64_t *own = t->labels[c], *opp = t->labels[!c];
	size_t k, lw = t->lw;
	int ok = 1;

	*dead = 0;
	if (!bit(t->d->dep_defs, i))
		return 1;
	for (k = 0; k < lw; k++) {
		if ((own[k] & m[2 * lw + k]) | (opp[k] & m[3 * lw + k])) {
			*dead = 1;
			return 0;
		}
		if ((own[k] & m[k]) != m[k] || (opp[k] & m[lw + k]) !=
		    m[lw + k])
			ok = 0;
	}
	return ok;
}

static int
hand_holds(const struct tag_hand *h, const struct position *pos, enum color c)
{
	int pt;

	for (pt = PT_PAWN; pt <= PT_GOLD; pt++) {
		int own = pos->hand[c][pt] > 0, opp = pos->hand[!c][pt] > 0;

		if ((h->own[pt] == 1 && !own) || (h->own[pt] == 2 && own) ||
		    (h->opp[pt] == 1 && !opp) || (h->opp[pt] == 2 && opp))
			return 0;
	}
	return 1;
}

/* Whether the board and the hands are as definition t asks, for side c. */
static int
board_holds(const struct tag_def *t, const struct position *pos, enum color c)
{
	size_t k;

	for (k = 0; k < t->nterms; k++) {
		const struct tag_term *m = &t->terms[k];
		bitboard set;

		if (m->type == PT_NONE)
			set = pos->v->board & ~pos->occ;
		else
			set = pos->by_type[m->type] &
			    pos->by_color[m->opp ? !c : c];
		if (((set & m->mask[c]) != 0) == m->neg)
			return 0;
	}
	return !t->hand.any || hand_holds(&t->hand, pos, c);
}

/* Labels just reached queue the definitions that refer to them. */
static void
label_reached(struct tagger *t, enum color c, uint32_t id)
{
	const struct tagdefs *d = t->d;
	size_t k;

	if (bit(t->labels[c], id))
		return;
	bit_put(t->labels[c], id);
	for (k = 0; k < t->w; k++) {
		t->cand[c][k] |= d->dep_own[id * t->w + k] & t->open[c][k];
		t->cand[!c][k] |= d->dep_opp[id * t->w + k] & t->open[!c][k];
	}
}

static void
reach(struct tagger *t, enum color c, size_t i, int ply)
{
	const struct tagdefs *d = t->d;
	const struct tag_def *def = &d->v[i];
	size_t k;

	t->ply[c][i] = ply;
	/* One variant reached names it: the others need no more looks. */
	for (k = 0; k < t->w; k++)
		t->open[c][k] &= ~d->variants[def->name * t->w + k];
	bit_clear(t->open[c], i);
	label_reached(t, c, def->name);
	label_reached(t, c, def->family);
}

static void
drop(struct tagger *t, enum color c, size_t i)
{
	bit_clear(t->open[c], i);
	bit_clear(t->holding[c], i);
}

static void
look(struct tagger *t, enum color c, size_t i, const struct position *pos,
    int ply)
{
	const struct tag_def *def = &t->d->v[i];
	int ok, dead;

	/* Queued before a variant of its name was reached this ply. */
	if (!bit(t->open[c], i))
		return;
	if (ply < def->from)
		return;
	if (ply > def->to) {
		drop(t, c, i);
		return;
	}
	ok = labels_allow(t, i, c, &dead);
	if (dead) {
		/* Reached names stay reached: this one never can be now. */
		drop(t, c, i);
		return;
	}
	ok = ok && board_holds(def, pos, c);
	if (def->hold) {
		if (!ok) {
			drop(t, c, i);
			return;
		}
		bit_put(t->holding[c], i);
		if (ply == def->to) {
			bit_clear(t->holding[c], i);
			reach(t, c, i, ply);
		}
		return;
	}
	if (ok)
		reach(t, c, i, ply);
}

/* Looks at every queued definition, lowest first, until none is left. */
static void
run(struct tagger *t, const struct position *pos, int ply)
{
	int c, more = 1;

	while (more) {
		more = 0;
		for (c = 0; c < 2; c++) {
			size_t k;

			for (k = 0; k < t->w; k++) {
				uint64_t *q = &t->cand[c][k];

				while (*q) {
					size_t i = k * 64 +
					    (size_t)__builtin_ctzll(*q);

					*q &= *q - 1;
					look(t, (enum color)c, i, pos, ply);
					more = 1;
				}
			}
		}
	}
}

static int
nothing_open(const struct tagger *t)
{
	size_t k;

	for (k = 0; k < t->w; k++)
		if (t->open[0][k] | t->open[1][k])
			return 0;
	return 1;
}

static void
default_styles(struct tagger *t, const struct position *pos)
{
	const struct tagdefs *d = t->d;
	size_t i;
	int c;

	for (c = 0; c < 2; c++)
		for (i = 0; i < d->n && t->deflt[c] < 0; i++) {
			const struct tag_def *def = &d->v[i];

			if (def->kind == TAG_STYLE && def->deflt && !def->off &&
			    board_holds(def, pos, (enum color)c))
				t->deflt[c] = (int)i;
		}
}

/* The type a capture by `by` took: the one its hand has one more of. */
static enum piece_type
captured(const struct tagger *t, const struct position *pos, enum color by)
{
	int pt;

	for (pt = PT_PAWN; pt < HAND_NB; pt++)
		if (pos->hand[by][pt] > t->hand[by][pt])
			return (enum piece_type)pt;
	return PT_NONE;
}

/* Keeps (save) or restores the state after the even start's look. */
static void
start_state(struct tagger *t, int save)
{
	size_t n = t->d->n ? t->d->n : 1;
	int c;

	for (c = 0; c < 2; c++) {
		if (save) {
			memcpy(t->start.open[c], t->open[c], t->w * 8);
			memcpy(t->start.holding[c], t->holding[c], t->w * 8);
			memcpy(t->start.labels[c], t->labels[c], t->lw * 8);
			memcpy(t->start.ply[c], t->ply[c], n * sizeof(int));
			t->start.deflt[c] = t->deflt[c];
		} else {
			memcpy(t->open[c], t->start.open[c], t->w * 8);
			memcpy(t->holding[c], t->start.holding[c], t->w * 8);
			memcpy(t->labels[c], t->start.labels[c], t->lw * 8);
			memcpy(t->ply[c], t->start.ply[c], n * sizeof(int));
			t->deflt[c] = t->start.deflt[c];
		}
	}
}

/* What the ply's number alone says: windows that end, start, must hold. */
static void
plyset(struct tagger *t, const struct tag_plyset *ps, int ply)
{
	const struct tagdefs *d = t->d;
	size_t i, k;
	int c;

	for (c = 0; c < 2; c++)
		for (k = 0; k < t->w; k++) {
			if (ps->ends) {
				t->open[c][k] &= ~ps->ends[k];
				t->cand[c][k] &= ~ps->ends[k];
			}
			if (ps->starts)
				t->cand[c][k] |= ps->starts[k] & t->open[c][k];
		}
	if (!ps->holds_end)
		return;
	/* A hold def whose window ends here is settled even if the move
	 * did not touch it. */
	for (i = 0; i < d->nholds; i++)
		if (d->v[d->holds[i]].to == ply)
			for (c = 0; c < 2; c++)
				if (bit(t->holding[c], d->holds[i]))
					bit_put(t->cand[c], d->holds[i]);
}

int
tagger_visit(void *ctx, const struct position *pos, int32_t node, int main)
{
	struct tagger *t = ctx;
	const struct tagdefs *d = t->d;
	int ply, c;
	size_t k;

	if (!main || t->done)
		return t->done && t->may_stop;
	ply = node ? t->r->nodes[node].ply : 0;
	t->last_ply = ply;
	if (ply == 0) {
		if (t->even && t->start.ok) {
			start_state(t, 0);
			return 0;
		}
		for (c = 0; c < 2; c++)
			for (k = 0; k < t->w; k++)
				t->cand[c][k] = t->open[c][k];
		default_styles(t, pos);
		run(t, pos, ply);
		if (t->even) {
			start_state(t, 1);
			t->start.ok = 1;
		}
		return 0;
	} else {
		move m = t->r->nodes[node].mv;
		size_t to = (size_t)move_to(m), from = (size_t)move_from(m);
		int drop = move_is_drop(m);
		piece p = move_piece(m);
		enum color mover = piece_color(p);
		/* A capture changes a hand (a drop does too): which type. */
		enum piece_type took = drop || pos->hand_key == t->hand_key ?
		    PT_NONE : captured(t, pos, mover);

		for (c = 0; c < 2; c++) {
			size_t rel = mover != (enum color)c, w = t->w;
			const uint64_t *arr = d->arrive[c] + ((rel * PT_NB +
			    (size_t)piece_type_of(move_piece_after(m))) *
			    SQ_NB + to) * w;
			const uint64_t *any = d->arrive_any[c] + to * w;
			const uint64_t *lfrom = d->leave[c] + ((rel * PT_NB +
			    (size_t)piece_type_of(p)) * SQ_NB + from) * w;
			const uint64_t *lany = d->leave_any[c] + from * w;

			for (k = 0; k < w; k++)
				t->cand[c][k] = (arr[k] | any[k] | (drop ? 0 :
				    lfrom[k] | lany[k])) & t->open[c][k];
			if (took != PT_NONE) {
				/* It may have been promoted: both types. */
				const uint64_t *a = d->leave[c] + (((1 - rel) *
				    PT_NB + (size_t)took) * SQ_NB + to) * w;
				const uint64_t *b = pt_can_promote(took) ?
				    d->leave[c] + (((1 - rel) * PT_NB +
				    (size_t)(took | PT_PROMOTED)) * SQ_NB +
				    to) * w : a;

				for (k = 0; k < w; k++)
					t->cand[c][k] |= (a[k] | b[k]) &
					    t->open[c][k];
			}
		}
		if (pos->hand_key != t->hand_key) {
			t->hand_key = pos->hand_key;
			memcpy(t->hand, pos->hand, sizeof(t->hand));
			for (c = 0; c < 2; c++)
				for (k = 0; k < t->w; k++)
					t->cand[c][k] |= d->hand_defs[k] &
					    t->open[c][k];
		}
		if (ply < d->nplyset)
			plyset(t, &d->plyset[ply], ply);
	}
	run(t, pos, ply);
	if (ply >= d->max_ply || nothing_open(t))
		t->done = 1;
	return t->done && t->may_stop;
}

/* --- the end --------------------------------------------------------------- */

static void
add_hit(struct tagger *t, int c, int castle, uint32_t def, int ply)
{
	struct tag_side *s = &t->res.side[c];
	struct tag_hit **v = castle ? &s->castles : &s->openings;
	size_t *n = castle ? &s->ncastles : &s->nopenings;
	size_t *a = &t->ahits[c][castle], j;

	ALLOC_GROW(*v, *n + 1, *a);
	/* By ply, then in the definitions' order: insertion from the end. */
	j = *n;
	while (j > 0 && (*v)[j - 1].ply > ply)
		j--;
	memmove(&(*v)[j + 1], &(*v)[j], (*n - j) * sizeof(**v));
	(*v)[j].def = def;
	(*v)[j].ply = ply;
	(*n)++;
}

static int
replaced(const struct tagdefs *d, const struct tagger *t, int c, uint32_t name)
{
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		const struct tag_def *def = &d->v[i];

		if (t->ply[c][i] < 0)
			continue;
		for (k = 0; k < def->replaces.n; k++)
			if (def->replaces.v[k] == name)
				return 1;
	}
	return 0;
}

static int
side_labels_have(const struct tagger *t, int c, const struct tag_ids *ids)
{
	return all_reached(t->labels[c], ids);
}

static enum tag_matchup
matchup_of(const struct tagdefs *d, const struct tag_result *res)
{
	int st[2], c;

	for (c = 0; c < 2; c++) {
		const char *name;

		if (res->side[c].style < 0)
			return MATCHUP_NONE;
		name = d->labels[d->v[res->side[c].style].family];
		if (strcmp(name, TAG_STYLE_STATIC) == 0)
			st[c] = 0;
		else if (strcmp(name, TAG_STYLE_RANGING) == 0)
			st[c] = 1;
		else
			return MATCHUP_NONE;
	}
	return st[0] + st[1] == 0 ? MATCHUP_STATIC :
	    st[0] + st[1] == 2 ? MATCHUP_RANGING : MATCHUP_OPPOSITE;
}

const struct tag_result *
tagger_end(struct tagger *t)
{
	const struct tagdefs *d = t->d;
	struct tag_result *res = &t->res;
	size_t i;
	int c;

	res->plies = t->last_ply;
	if (!res->named)
		return res;
	for (c = 0; c < 2; c++) {
		struct tag_side *s = &res->side[c];

		for (i = 0; i < d->n; i++) {
			const struct tag_def *def = &d->v[i];
			int p = t->ply[c][i];

			if (p < 0)
				continue;
			if (def->kind == TAG_STYLE && (s->style < 0 ||
			    p < s->style_ply)) {
				s->style = (int)i;
				s->style_ply = p;
			}
			if ((def->kind == TAG_OPENING || def->kind == TAG_CASTLE)
			    && !replaced(d, t, c, def->name))
				add_hit(t, c, def->kind == TAG_CASTLE,
				    (uint32_t)i, p);
		}
		if (s->style < 0 && t->deflt[c] >= 0) {
			s->style = t->deflt[c];
			s->style_ply = 0;
			bit_put(t->labels[c], d->v[s->style].name);
			bit_put(t->labels[c], d->v[s->style].family);
		}
	}
	res->matchup = matchup_of(d, res);
	if (res->handicap)
		return res;
	for (i = 0; i < d->n; i++) {
		const struct tag_def *def = &d->v[i];

		if (def->kind != TAG_GAME || def->off)
			continue;
		if (def->matchup != MATCHUP_NONE && def->matchup != res->matchup)
			continue;
		if (res->plies < def->from || res->plies > def->to)
			continue;
		if (def->either.n && !side_labels_have(t, 0, &def->either) &&
		    !side_labels_have(t, 1, &def->either))
			continue;
		if (def->both.n && !(side_labels_have(t, 0, &def->both) &&
		    side_labels_have(t, 1, &def->both)))
			continue;
		res->game = (int)i;
		break;
	}
	return res;
}

const struct tag_result *
tagger_record(struct tagger *t, struct record *r, struct diag_list *d)
{
	struct replay_walk wk;
	struct replay rp;

	tagger_begin(t, r, 1);
	if (t->res.named) {
		memset(&wk, 0, sizeof(wk));
		wk.visit = tagger_visit;
		wk.ctx = t;
		wk.main_only = 1;
		if (!d) {
			diag_list_clear(&t->scratch);
			d = &t->scratch;
		}
		replay_record_walk(r, &rp, d, &wk);
	}
	return tagger_end(t);
}

const struct tag_result *
tagger_replayed(struct tagger *t, const struct record *r)
{
	struct position pos;
	struct undo u;
	int32_t n;

	tagger_begin(t, r, 1);
	if (!t->res.named || !r->nnodes)
		return tagger_end(t);
	pos = r->start;
	if (tagger_visit(t, &pos, 0, 1))
		return tagger_end(t);
	for (n = r->nodes[0].next; n > 0; n = r->nodes[n].next) {
		const struct record_node *nd = &r->nodes[n];

		if (nd->special != SP_NONE || nd->mv == MOVE_NONE)
			break;
		position_do_move(&pos, nd->mv, &u);
		if (tagger_visit(t, &pos, n, 1))
			break;
	}
	return tagger_end(t);
}

int
tag_side_has(const struct tagdefs *d, const struct tag_result *res, int c,
    uint32_t label)
{
	const struct tag_side *s = &res->side[c];
	size_t k;

	if (s->style >= 0 && (d->v[s->style].name == label ||
	    d->v[s->style].family == label))
		return 1;
	for (k = 0; k < s->nopenings; k++)
		if (d->v[s->openings[k].def].name == label ||
		    d->v[s->openings[k].def].family == label)
			return 1;
	for (k = 0; k < s->ncastles; k++)
		if (d->v[s->castles[k].def].name == label ||
		    d->v[s->castles[k].def].family == label)
			return 1;
	return 0;
}

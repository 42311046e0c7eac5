/*
 * match.c - the referee of one engine game (match.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match.h"
#include "core/adjudicate.h"
#include "core/handicap.h"
#include "core/movegen.h"
#include "core/replay.h"
#include "core/rules.h"
#include "core/usi.h"
#include "core/xalloc.h"
#include "parsers/format.h"

#define MATCH_END_NAME(e, id) id,
static const char *const end_names[] = { MATCH_END_LIST(MATCH_END_NAME) };
#undef MATCH_END_NAME

const char *
match_end_name(enum match_end e)
{
	return (unsigned)e < END_NB ? end_names[e] : "unknown";
}

int
match_end_by_name(const char *name)
{
	int i;

	for (i = 0; i < END_NB; i++)
		if (!strcmp(end_names[i], name))
			return i;
	return -1;
}

/* --- time controls ------------------------------------------------------ */

/* Seconds, fractions allowed, as milliseconds; -1 when not a time. */
static long long
seconds(const char *s, size_t n)
{
	char buf[32], *end;
	double x;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '-' || buf[0] == '+' || buf[0] == ' ')
		return -1;
	x = strtod(buf, &end);
	if (*end || !isfinite(x) || x < 0 || x > 1e9)
		return -1;
	return (long long)(x * 1000 + 0.5);	/* x >= 0; no libm */
}

static long long
count(const char *s, size_t n)
{
	char buf[32], *end;
	long long v;

	if (!n || n >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	v = strtoll(buf, &end, 10);
	return *end || v <= 0 ? -1 : v;
}

static int
has_key(const char *s, size_t n, const char *key)
{
	size_t k = strlen(key);

	return n > k && !strncmp(s, key, k) && s[k] == '=';
}

int
match_tc_parse(const char *text, struct match_tc *tc, char *err, size_t n)
{
	size_t len = strlen(text), k;
	const char *plus = strchr(text, '+');

	memset(tc, 0, sizeof(*tc));
	if (has_key(text, len, "nodes") || has_key(text, len, "depth")) {
		long long v = count(text + 6, len - 6);

		if (v < 0) {
			snprintf(err, n, "'%s': nodes and depth take a whole "
			    "number above 0", text);
			return -1;
		}
		tc->kind = text[0] == 'n' ? TC_NODES : TC_DEPTH;
		if (tc->kind == TC_NODES)
			tc->nodes = v;
		else
			tc->depth = v;
		return 0;
	}
	if (has_key(text, len, "movetime")) {
		tc->kind = TC_MOVETIME;
		tc->movetime_ms = seconds(text + 9, len - 9);
		if (tc->movetime_ms <= 0) {
			snprintf(err, n, "'%s': movetime takes seconds above "
			    "0 (fractions allowed)", text);
			return -1;
		}
		return 0;
	}
	tc->kind = TC_CLOCK;
	if (has_key(text, len, "byoyomi")) {
		tc->byoyomi_ms = seconds(text + 8, len - 8);
		if (tc->byoyomi_ms <= 0)
			goto bad;
		return 0;
	}
	k = plus ? (size_t)(plus - text) : len;
	tc->main_ms = seconds(text, k);
	if (tc->main_ms < 0)
		goto bad;
	if (plus) {
		const char *r = plus + 1;
		size_t rn = len - k - 1;

		if (has_key(r, rn, "byoyomi")) {
			tc->byoyomi_ms = seconds(r + 8, rn - 8);
			if (tc->byoyomi_ms < 0)
				goto bad;
		} else {
			tc->inc_ms = seconds(r, rn);
			if (tc->inc_ms < 0)
				goto bad;
		}
	}
	if (!tc->main_ms && !tc->byoyomi_ms && !tc->inc_ms)
		goto bad;
	return 0;
bad:
	snprintf(err, n, "'%s' is no time control: nodes=N, depth=N, "
	    "movetime=S, M (main time), M+byoyomi=Y, byoyomi=Y, or M+I "
	    "(Fischer); seconds, fractions allowed", text);
	return -1;
}

static void
add_seconds(struct strbuf *sb, long long ms)
{
	if (ms % 1000)
		strbuf_addf(sb, "%lld.%03lld", ms / 1000, ms % 1000);
	else
		strbuf_addf(sb, "%lld", ms / 1000);
	/* trailing zeros of a fraction */
	while (ms % 1000 && sb->buf[sb->len - 1] == '0')
		sb->buf[--sb->len] = '\0';
}

void
match_tc_describe(const struct match_tc *tc, char *buf, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	switch (tc->kind) {
	case TC_NODES: strbuf_addf(&sb, "nodes=%lld", tc->nodes); break;
	case TC_DEPTH: strbuf_addf(&sb, "depth=%lld", tc->depth); break;
	case TC_MOVETIME:
		strbuf_adds(&sb, "movetime=");
		add_seconds(&sb, tc->movetime_ms);
		break;
	case TC_CLOCK:
		add_seconds(&sb, tc->main_ms);
		if (tc->inc_ms) {
			strbuf_addc(&sb, '+');
			add_seconds(&sb, tc->inc_ms);
		} else if (tc->byoyomi_ms) {
			strbuf_adds(&sb, "+byoyomi=");
			add_seconds(&sb, tc->byoyomi_ms);
		}
		break;
	}
	snprintf(buf, n, "%s", sb.buf ? sb.buf : "");
	strbuf_release(&sb);
}

void
match_tc_csa(const struct match_tc *tc, char *buf, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	if (tc->kind == TC_CLOCK) {
		add_seconds(&sb, tc->main_ms);
		strbuf_addc(&sb, '+');
		add_seconds(&sb, tc->byoyomi_ms);
		strbuf_addc(&sb, '+');
		add_seconds(&sb, tc->inc_ms);
	}
	snprintf(buf, n, "%s", sb.buf ? sb.buf : "");
	strbuf_release(&sb);
}

/* --- the game's record ---------------------------------------------------- */

/* "a,b" or, with three, "a,b[,c]": a 0..1000000, b 1..100000, c 0..100000. */
static int
parse_counts(const char *s, int *a, int *b, int *c, int three)
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
	*c = (int)z;
	return 0;
}

int
match_resign_parse(const char *text, struct match_rules *mr)
{
	int cp, moves, unused;

	if (parse_counts(text, &cp, &moves, &unused, 0) < 0 || !cp)
		return -1;
	mr->resign_cp = cp;
	mr->resign_moves = moves;
	return 0;
}

int
match_draw_parse(const char *text, struct match_rules *mr)
{
	int cp, moves, after;

	if (parse_counts(text, &cp, &moves, &after, 1) < 0)
		return -1;
	mr->draw_cp = cp;
	mr->draw_moves = moves;
	mr->draw_after = after;
	return 0;
}

void
match_game_init(struct match_game *g, const struct variant *v)
{
	memset(g, 0, sizeof(*g));
	record_init(&g->rec, v);
}

void
match_game_release(struct match_game *g)
{
	record_release(&g->rec);
}

const char *
match_winner_name(const struct match_game *g)
{
	if (g->end == END_ABANDONED)
		return "none";
	return g->result.winner == WINNER_BLACK ? "black" :
	    g->result.winner == WINNER_WHITE ? "white" : "draw";
}

static void
header(struct record *r, enum header_id id, const char *key, const char *v)
{
	record_add_header(r, key, strlen(key), v, strlen(v), id, NULL);
}

static int32_t
add_move(struct record *r, int32_t parent, move m)
{
	int32_t idx = record_add_node(r, parent);
	struct record_node *nd = &r->nodes[idx];

	if (move_is_drop(m)) {
		nd->spec.flags = SPEC_DROP;
		nd->spec.from = SQ_NONE;
		nd->spec.piece = (uint8_t)move_drop_type(m);
	} else {
		nd->spec.flags = move_is_promotion(m) ? SPEC_PROMOTE : 0;
		nd->spec.from = (uint8_t)move_from(m);
	}
	nd->spec.to = (uint8_t)move_to(m);
	nd->spec.color = -1;
	nd->mv = m;
	return idx;
}

static int32_t
add_terminal(struct record *r, int32_t parent, enum special sp)
{
	int32_t idx = record_add_node(r, parent);

	r->nodes[idx].special = (uint8_t)sp;
	return idx;
}

static void
comment(struct record *r, int32_t node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
comment(struct record *r, int32_t node, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	record_add_comment(r, node, buf, (size_t)n >= sizeof(buf) ?
	    sizeof(buf) - 1 : (size_t)n);
}

/*
 * The Floodgate comment of a move: `** <score> <pv>`, the score from
 * Black's view (a mate as +-100000, as Floodgate shows it), the PV in CSA
 * moves from the reply on (engines.md 2.4). Nothing without a score.
 */
static void
score_comment(struct record *r, int32_t node, const struct usi_result *res,
    enum color mover, struct strbuf *sb)
{
	const struct usi_line *l;
	long long s;
	int i;

	if (res->nlines < 1 || res->lines[0].score.kind == USI_SCORE_NONE)
		return;
	l = &res->lines[0];
	if (l->score.kind == USI_SCORE_MATE)
		s = l->score.sign > 0 ? 100000 : -100000;
	else
		s = l->score.cp;
	if (mover == WHITE)
		s = -s;
	strbuf_reset(sb);
	strbuf_addf(sb, "** %lld", s);
	/* The PV starts with the move itself when it is the move played. */
	for (i = l->npv && l->pv[0] == res->best ? 1 : 0; i < l->npv; i++) {
		char m[8];

		csa_format_move(l->pv[i], m);
		strbuf_addc(sb, ' ');
		strbuf_adds(sb, m);
	}
	record_add_comment(r, node, sb->buf, sb->len);
}

static const char *
side_word(enum color c)
{
	return c == BLACK ? "Black" : "White";
}

static enum winner
winner_of(enum color c)
{
	return c == BLACK ? WINNER_BLACK : WINNER_WHITE;
}

static enum match_end
end_of_reason(enum reason r)
{
	switch (r) {
	case REASON_CHECKMATE: return END_CHECKMATE;
	case REASON_STALEMATE: return END_STALEMATE;
	case REASON_SENNICHITE: return END_SENNICHITE;
	case REASON_PERPETUAL_CHECK: return END_PERPETUAL_CHECK;
	case REASON_MAX_MOVES: return END_MAX_MOVES;
	case REASON_DECLARATION: return END_DECLARATION;
	case REASON_RESIGN: return END_RESIGN;
	case REASON_TIME_UP: return END_TIME_UP;
	case REASON_ILLEGAL_MOVE: return END_ILLEGAL_MOVE;
	default: return END_ABANDONED;
	}
}

/* --- the game ------------------------------------------------------------- */

struct game {
	const struct match_rules *mr;
	struct match_game *g;
	struct position pos;
	move *moves;		/* from the opening's start: the game so far */
	int nmoves, amoves;
	uint64_t *keys;		/* keys[i]: the position after i moves */
	int32_t last;		/* the record's last node */
	long long clock[COLOR_NB];	/* main time left, ms */
	/* score adjudication: the last scores each side reported, its view */
	int nscores[COLOR_NB];
	int low[COLOR_NB], high[COLOR_NB], quiet[COLOR_NB];
	struct strbuf sb;
};

static void
push(struct game *s, move m)
{
	struct undo u;

	if (s->nmoves + 1 >= s->amoves) {
		s->amoves = s->amoves ? 2 * s->amoves : 256;
		s->moves = xreallocarray(s->moves, (size_t)s->amoves,
		    sizeof(*s->moves));
		s->keys = xreallocarray(s->keys, (size_t)s->amoves + 1,
		    sizeof(*s->keys));
	}
	s->moves[s->nmoves++] = m;
	position_do_move(&s->pos, m, &u);
	s->keys[s->nmoves] = position_key(&s->pos);
}

/* How often the position now occurred (the start counts as one). */
static int
occurrences(const struct game *s)
{
	uint64_t k = s->keys[s->nmoves];
	int i, n = 0;

	for (i = 0; i <= s->nmoves; i++)
		n += s->keys[i] == k;
	return n;
}

/*
 * The rules' verdict on the record so far (replayed again: rare, at the
 * endings a position decides). Returns 1 when it says the game is over.
 */
static int
rules_verdict(struct game *s, struct adjudication *adj)
{
	struct record *r = &s->g->rec;
	struct replay rp;
	struct diag_list d;

	diag_list_init(&d);
	replay_record(r, &rp, &d);
	diag_list_release(&d);
	adjudicate(r, &rp, &s->mr->rs, adj);
	return adj->result.reason != REASON_UNFINISHED;
}

static void
finish(struct game *s, enum winner w, enum reason why, enum match_end end)
{
	s->g->result.winner = w;
	s->g->result.reason = why;
	s->g->result.ply = s->nmoves;
	s->g->end = end;
}

/* The side to move loses by end; the record ends with sp. */
static void
loses(struct game *s, enum special sp, enum reason why, enum match_end end,
    long long time_ms)
{
	enum color side = s->pos.side;
	int32_t t = add_terminal(&s->g->rec, s->last, sp);

	s->g->rec.nodes[t].time_ms = time_ms;
	comment(&s->g->rec, t, "kifu: %s", s->g->how);
	s->last = t;
	finish(s, winner_of(color_flip(side)), why, end);
}

static void
howf(struct game *s, const char *fmt, ...) __attribute__((format(printf, 2,
    3)));

static void
howf(struct game *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->g->how, sizeof(s->g->how), fmt, ap);
	va_end(ap);
}

void
match_tc_limit(const struct match_tc *tc, struct usi_limit *l)
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

/* The search limit of this move, and the longest it may take (ms). */
static void
limit_for(const struct game *s, struct usi_limit *l, long long *allowed,
    long long *timeout)
{
	const struct match_rules *mr = s->mr;
	const struct match_tc *tc = &mr->tc;

	match_tc_limit(tc, l);
	switch (tc->kind) {
	case TC_NODES:
	case TC_DEPTH:
		*allowed = -1;
		*timeout = mr->hang_ms;
		return;
	case TC_MOVETIME:
		*allowed = -1;
		*timeout = tc->movetime_ms + mr->hang_ms;
		return;
	case TC_CLOCK:
		l->btime = s->clock[BLACK];
		l->wtime = s->clock[WHITE];
		*allowed = s->clock[s->pos.side] + tc->byoyomi_ms + tc->inc_ms;
		/* stopped just past the flag: the loss is certain then */
		*timeout = *allowed + mr->timemargin_ms + 1;
		return;
	}
}

/* A score from the mover's view for adjudication; 0 when none. */
static int
score_of(const struct usi_result *res, long long *cp)
{
	const struct usi_score *sc;

	if (res->nlines < 1)
		return 0;
	sc = &res->lines[0].score;
	if (sc->kind == USI_SCORE_CP)
		*cp = sc->cp;
	else if (sc->kind == USI_SCORE_MATE)
		*cp = sc->sign > 0 ? 100000 : -100000;
	else
		return 0;
	return 1;
}

/* Counts the runs --resign and --draw look at, for the side that moved. */
static void
track_scores(struct game *s, enum color mover, const struct usi_result *res)
{
	const struct match_rules *mr = s->mr;
	long long cp;

	if (!score_of(res, &cp)) {
		s->low[mover] = s->high[mover] = s->quiet[mover] = 0;
		return;
	}
	s->low[mover] = mr->resign_moves && cp <= -mr->resign_cp ?
	    s->low[mover] + 1 : 0;
	s->high[mover] = mr->resign_moves && cp >= mr->resign_cp ?
	    s->high[mover] + 1 : 0;
	s->quiet[mover] = mr->draw_moves && llabs(cp) <= mr->draw_cp ?
	    s->quiet[mover] + 1 : 0;
}

/*
 * Score adjudication before the side to move searches: it resigns when
 * its engine said it is lost (at most -resign_cp) on each of its last
 * resign_moves moves and the other's engine agreed on each of its own;
 * the game is drawn when both said the game is level (within draw_cp)
 * draw_moves times each, from move draw_after on. Returns 1 if it ended.
 */
static int
adjudicated(struct game *s)
{
	const struct match_rules *mr = s->mr;
	enum color side = s->pos.side, other = color_flip(side);

	if (mr->resign_moves && s->low[side] >= mr->resign_moves &&
	    s->high[other] >= mr->resign_moves) {
		howf(s, "adjudicated: %s's engine scored itself at -%d or "
		    "less and its opponent agreed, %d moves each (--resign)",
		    side_word(side), mr->resign_cp, mr->resign_moves);
		loses(s, SP_RESIGN, REASON_RESIGN, END_ADJ_RESIGN, -1);
		return 1;
	}
	if (mr->draw_moves && s->nmoves >= mr->draw_after &&
	    s->quiet[side] >= mr->draw_moves &&
	    s->quiet[other] >= mr->draw_moves) {
		/* No terminal says "drawn by agreement" without a
		   declaration's points to judge: the game is stopped. */
		int32_t t = add_terminal(&s->g->rec, s->last, SP_ABORT);

		howf(s, "adjudicated: both engines scored the game within "
		    "+-%d for %d moves each (--draw)", mr->draw_cp,
		    mr->draw_moves);
		comment(&s->g->rec, t, "kifu: %s", s->g->how);
		s->last = t;
		finish(s, WINNER_NONE, REASON_DECLARATION, END_ADJ_DRAW);
		return 1;
	}
	return 0;
}

/* After a move: whether a position rule ended the game (the rules say). */
static int
position_ended(struct game *s)
{
	struct adjudication adj;
	int limit = s->mr->rs.max_moves;
	int mates = movegen_count(&s->pos) == 0;

	if (!mates && occurrences(s) < 4 && !(limit && s->nmoves >= limit))
		return 0;
	if (!rules_verdict(s, &adj))
		return 0;	/* the check extension goes on */
	s->g->result = adj.result;
	s->g->end = end_of_reason(adj.result.reason);
	if (adj.detail[0])
		howf(s, "%s", adj.detail);
	else if (mates)
		howf(s, "%s is %s", side_word(s->pos.side),
		    adj.result.reason == REASON_STALEMATE ? "stalemated" :
		    "checkmated");
	else
		howf(s, "%s", reason_name(adj.result.reason));
	if (adj.result.reason == REASON_CHECKMATE) {
		/* The mated engine is not asked: the record says mate. */
		int32_t t = add_terminal(&s->g->rec, s->last, SP_MATE);

		comment(&s->g->rec, t, "kifu: %s", s->g->how);
		s->last = t;
	} else if (adj.result.reason == REASON_STALEMATE) {
		/* No terminal says stalemate: the position does. */
		comment(&s->g->rec, s->last, "kifu: %s", s->g->how);
	} else if (adj.result.reason == REASON_SENNICHITE ||
	    adj.result.reason == REASON_PERPETUAL_CHECK) {
		/* A perpetual check is the checker's foul, as shogi-server
		   writes it (%+ILLEGAL_ACTION: Black fouled). */
		enum special sp = adj.result.reason == REASON_SENNICHITE ?
		    SP_SENNICHITE : adj.result.winner == WINNER_WHITE ?
		    SP_ILLEGAL_BLACK : SP_ILLEGAL_WHITE;
		int32_t t = add_terminal(&s->g->rec, s->last, sp);

		comment(&s->g->rec, t, "kifu: %s", s->g->how);
		s->last = t;
	} else if (adj.result.reason == REASON_MAX_MOVES) {
		int32_t t = add_terminal(&s->g->rec, s->last, SP_MAX_MOVES);

		comment(&s->g->rec, t, "kifu: %s", s->g->how);
		s->last = t;
	}
	return 1;
}

/* A bestmove win: the declaration judged on the position it is made in. */
static void
declared(struct game *s, long long ms)
{
	struct declaration d;
	enum color side = s->pos.side;
	int credit = s->mr->rs.handicap_credit ?
	    adjudicate_handicap_credit(&s->g->rec.start, &s->pos) : 0;
	int32_t t;

	adjudicate_declaration(&s->pos, s->mr->rs.declaration,
	    side == WHITE ? credit : 0, &d);
	t = add_terminal(&s->g->rec, s->last, SP_DECLARATION);
	s->g->rec.nodes[t].time_ms = ms;
	s->last = t;
	if (d.result.winner == winner_of(side)) {
		howf(s, "%s declared a win with %d points (%d needed)",
		    side_word(side), d.points, d.needed);
		finish(s, d.result.winner, REASON_DECLARATION,
		    END_DECLARATION);
	} else if (d.result.winner == WINNER_NONE &&
	    d.result.reason == REASON_DECLARATION) {
		s->g->rec.nodes[t].special = SP_DRAW_DECLARATION;
		howf(s, "%s declared with %d points: a draw under these rules",
		    side_word(side), d.points);
		finish(s, WINNER_NONE, REASON_DECLARATION, END_DECLARATION);
	} else {
		/* The record shows a foul: %KACHI would claim the win. */
		s->g->rec.nodes[t].special = SP_ILLEGAL_MOVE;
		howf(s, "%s declared a win falsely (bestmove win; king %s the "
		    "zone, %s, %d pieces there, %d points of %d needed): it "
		    "loses", side_word(side), d.king_in_zone ? "in" : "not in",
		    d.in_check ? "in check" : "not in check", d.pieces,
		    d.points, d.needed);
		finish(s, winner_of(color_flip(side)), REASON_DECLARATION,
		    END_FALSE_DECLARATION);
	}
	comment(&s->g->rec, t, "kifu: %s", s->g->how);
}

static void
headers(struct game *s, struct match_side sides[COLOR_NB],
    const struct opening *op)
{
	struct record *r = &s->g->rec;
	char buf[512];
	time_t now = time(NULL);
	struct tm tm;

	header(r, HDR_BLACK, "NAME+", sides[BLACK].name);
	header(r, HDR_WHITE, "NAME-", sides[WHITE].name);
	if (s->mr->event)
		header(r, HDR_EVENT, "EVENT", s->mr->event);
	localtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y/%m/%d %H:%M:%S", &tm);
	header(r, HDR_START_TIME, "START_TIME", buf);
	match_tc_csa(&s->mr->tc, buf, sizeof(buf));
	if (*buf)
		header(r, HDR_TIME, "TIME", buf);
	if (s->mr->rs.max_moves) {
		snprintf(buf, sizeof(buf), "%d", s->mr->rs.max_moves);
		header(r, HDR_MAX_MOVES, "MAX_MOVES", buf);
	}
	ruleset_describe(&s->mr->rs, buf, sizeof(buf));
	header(r, HDR_RULES, "KIFU_RULES", buf);
	match_tc_describe(&s->mr->tc, buf, sizeof(buf));
	comment(r, 0, "kifu match: time control %s, margin %lld ms", buf,
	    s->mr->timemargin_ms);
	if (op->where[0] || op->nmoves) {
		char usi[4096];

		opening_usi(op, usi, sizeof(usi));
		comment(r, 0, "kifu match: opening %s%s%s", op->where[0] ?
		    op->where : "", op->where[0] ? " " : "", usi);
	}
}

static void
end_headers(struct record *r)
{
	char buf[64];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y/%m/%d %H:%M:%S", &tm);
	header(r, HDR_END_TIME, "END_TIME", buf);
}

/* One engine's move. Returns 1 when the game ended on it. */
static int
one_move(struct game *s, struct match_side *side, struct usi_result *res,
    struct match_overhead *ov, long long *last_read_us)
{
	struct usi_search q;
	struct usi_error err;
	long long allowed = -1, timeout = 0, ms;
	enum color mover = s->pos.side;
	int32_t node;
	int rc;

	memset(&q, 0, sizeof(q));
	q.start = &s->g->rec.start;
	q.moves = s->moves;
	q.nmoves = s->nmoves;
	q.pos = &s->pos;
	q.multipv = 1;
	limit_for(s, &q.limit, &allowed, &timeout);
	q.timeout_ms = timeout;
	rc = usi_search(side->e, &q, res, &err);
	if (ov && *last_read_us && usi_engine_go_sent_us(side->e) >
	    *last_read_us) {
		if (ov->n == ov->alloc) {
			ov->alloc = ov->alloc ? 2 * ov->alloc : 1024;
			ov->us = xreallocarray(ov->us, ov->alloc,
			    sizeof(*ov->us));
		}
		ov->us[ov->n++] = usi_engine_go_sent_us(side->e) -
		    *last_read_us;
	}
	*last_read_us = rc == 0 ? usi_engine_go_sent_us(side->e) +
	    res->elapsed_us : 0;
	if (rc < 0) {
		ms = timeout;
		if (!usi_alive(side->e))
			s->g->fault[mover] = 1;
		switch (err.status) {
		case USI_ERR_TIMEOUT:
			if (allowed >= 0) {
				howf(s, "%s (%s) lost on time: no move within "
				    "%lld ms", side_word(mover), side->name,
				    allowed + s->mr->timemargin_ms);
				s->g->used_ms[mover] += allowed;
				loses(s, SP_TIME_UP, REASON_TIME_UP,
				    END_TIME_UP, allowed);
			} else {
				howf(s, "%s (%s) hung: no move within %lld "
				    "ms; %s", side_word(mover), side->name,
				    timeout, usi_alive(side->e) ? "it answered "
				    "stop" : "it did not answer stop and was "
				    "ended");
				loses(s, SP_TIME_UP, REASON_TIME_UP, END_HANG,
				    ms);
			}
			return 1;
		case USI_ERR_PROTOCOL:
			howf(s, "%s (%s) lost by an illegal move: %s",
			    side_word(mover), side->name, err.msg);
			loses(s, SP_ILLEGAL_MOVE, REASON_ILLEGAL_MOVE,
			    END_ILLEGAL_MOVE, -1);
			return 1;
		default:
			s->g->fault[mover] = 1;
			howf(s, "%s (%s) crashed: %s", side_word(mover),
			    side->name, err.msg);
			loses(s, SP_RESIGN, REASON_RESIGN, END_CRASH, -1);
			return 1;
		}
	}
	ms = res->elapsed_us / 1000;
	s->g->used_ms[mover] += ms;
	if (allowed >= 0 && ms > allowed + s->mr->timemargin_ms) {
		howf(s, "%s (%s) lost on time: %lld ms used of %lld (margin "
		    "%lld ms)", side_word(mover), side->name, ms, allowed,
		    s->mr->timemargin_ms);
		loses(s, SP_TIME_UP, REASON_TIME_UP, END_TIME_UP, ms);
		return 1;
	}
	if (s->mr->tc.kind == TC_CLOCK) {
		long long c = s->clock[mover] + s->mr->tc.inc_ms - ms;

		/* byoyomi is no credit: what it covered is not kept */
		s->clock[mover] = c < 0 ? 0 : c;
	}
	switch (res->best_kind) {
	case USI_BEST_RESIGN:
		howf(s, "%s (%s) resigned", side_word(mover), side->name);
		loses(s, SP_RESIGN, REASON_RESIGN, END_RESIGN, ms);
		return 1;
	case USI_BEST_WIN:
		declared(s, ms);
		return 1;
	case USI_BEST_NONE:
		howf(s, "%s (%s) sent no move", side_word(mover), side->name);
		loses(s, SP_ILLEGAL_MOVE, REASON_ILLEGAL_MOVE,
		    END_ILLEGAL_MOVE, ms);
		return 1;
	case USI_BEST_MOVE:
		break;
	}
	node = add_move(&s->g->rec, s->last, res->best);
	s->g->rec.nodes[node].time_ms = ms;
	score_comment(&s->g->rec, node, res, mover, &s->sb);
	s->last = node;
	push(s, res->best);
	track_scores(s, mover, res);
	return position_ended(s);
}

/* Whether the written record, judged again, says what the referee did. */
static void
cross_check(struct game *s)
{
	struct adjudication adj;
	struct match_game *g = s->g;

	rules_verdict(s, &adj);
	ruleset_describe(&s->mr->rs, g->rules_verdict,
	    sizeof(g->rules_verdict));
	if (g->end == END_ADJ_DRAW || g->end == END_ABANDONED) {
		g->agrees = 1;	/* the record claims no result the rules own */
		return;
	}
	g->agrees = adj.consistent && adj.result.winner == g->result.winner;
	snprintf(g->rules_verdict, sizeof(g->rules_verdict), "%s %s%s%s",
	    reason_name(adj.result.reason), winner_name(adj.result.winner),
	    adj.message[0] ? ": " : "", adj.message);
}

int
match_play(struct match_side sides[COLOR_NB], const struct opening *op,
    const struct match_rules *mr, struct match_game *g,
    volatile sig_atomic_t *stop, struct match_overhead *ov)
{
	struct game s;
	struct usi_result res;
	struct usi_error err;
	long long last_read_us = 0;
	int i, c;

	memset(&s, 0, sizeof(s));
	s.mr = mr;
	s.g = g;
	strbuf_init(&s.sb);
	record_reset(&g->rec, mr->v);
	memset((char *)g + sizeof(g->rec), 0, sizeof(*g) - sizeof(g->rec));
	g->rec.start = op->start;
	s.pos = op->start;
	s.amoves = 256;
	s.moves = xreallocarray(NULL, (size_t)s.amoves, sizeof(*s.moves));
	s.keys = xreallocarray(NULL, (size_t)s.amoves + 1, sizeof(*s.keys));
	s.keys[0] = position_key(&s.pos);
	headers(&s, sides, op);
	for (i = 0; i < op->nmoves; i++) {
		s.last = add_move(&g->rec, s.last, op->moves[i]);
		push(&s, op->moves[i]);
	}
	g->opening_plies = op->nmoves;
	for (c = 0; c < COLOR_NB; c++)
		s.clock[c] = mr->tc.main_ms;
	for (c = 0; c < COLOR_NB; c++) {
		if (usi_ready(sides[c].e, &err) < 0 ||
		    usi_new_game(sides[c].e, &err) < 0) {
			g->fault[c] = !usi_alive(sides[c].e) ||
			    err.status == USI_ERR_TIMEOUT;
			howf(&s, "%s (%s) was not ready for the game: %s",
			    side_word((enum color)c), sides[c].name, err.msg);
			/* A loss, as a crash; the record names the side,
			   which need not be the one to move. */
			{
				int32_t t = add_terminal(&g->rec, s.last,
				    c == BLACK ? SP_ILLEGAL_BLACK :
				    SP_ILLEGAL_WHITE);

				comment(&g->rec, t, "kifu: %s", g->how);
				s.last = t;
				finish(&s, winner_of(color_flip((enum color)c)),
				    REASON_ILLEGAL_MOVE, END_CRASH);
			}
			goto done;
		}
	}
	usi_result_init(&res);
	for (;;) {
		if (stop && *stop) {
			int32_t t = add_terminal(&g->rec, s.last, SP_ABORT);

			howf(&s, "abandoned: the match was interrupted");
			comment(&g->rec, t, "kifu: %s", g->how);
			s.last = t;
			finish(&s, WINNER_NONE, REASON_ABORT, END_ABANDONED);
			break;
		}
		if (adjudicated(&s))
			break;
		if (one_move(&s, &sides[s.pos.side], &res, ov, &last_read_us))
			break;
	}
	usi_result_release(&res);
done:
	g->plies = s.nmoves;
	end_headers(&g->rec);
	cross_check(&s);
	for (c = 0; c < COLOR_NB; c++)
		if (g->end != END_ABANDONED && usi_alive(sides[c].e) &&
		    !g->fault[c]) {
			const char *word = g->result.winner == WINNER_NONE ?
			    "draw" : g->result.winner == winner_of(
			    (enum color)c) ? "win" : "lose";

			usi_game_over(sides[c].e, word, &err);
		}
	free(s.moves);
	free(s.keys);
	strbuf_release(&s.sb);
	return 0;
}

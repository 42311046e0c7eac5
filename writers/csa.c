/*
 * csa.c - writing a record as CSA V2.2, or V3.0 on request (formats.md
 * 2.11): one statement per line, PI for the standard starts and a full
 * board otherwise, the main line up to its first unresolved move.
 *
 * Minishogi is written as the MSK format has it (formats.md 7): the
 * same syntax on a 5x5 board, ranks P1..P5 of five cells, never PI
 * (which means the 9x9 start).
 *
 * CSA holds no variations, no bookmarks, no running totals and no move
 * number for a start from the middle of a game; V2.2 has no %MAX_MOVES
 * and no fractions of seconds (V3.0 no %MATTA): what is dropped or
 * rewritten is reported once per kind, so that a conversion never loses
 * data silently.
 */
#include <stdio.h>
#include <string.h>

#include "core/handicap.h"
#include "parsers/format.h"

/* CSA piece codes, indexed by enum piece_type. */
static const char codes[PT_NB][3] = {
	"", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU",
	"TO", "NY", "NK", "NG", "UM", "RY"
};

/* The order pieces are listed in hands, strongest first, as CSA writers do. */
static const enum piece_type hand_order[] = {
	PT_ROOK, PT_BISHOP, PT_GOLD, PT_SILVER, PT_KNIGHT, PT_LANCE, PT_PAWN
};

/* The order of PI removals: PI82HI22KA11KY91KY as formats.md 0.3 writes. */
static const enum piece_type pi_order[] = {
	PT_ROOK, PT_BISHOP, PT_LANCE, PT_KNIGHT, PT_SILVER, PT_GOLD
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct out {
	const struct record *r;
	struct strbuf *sb;
	struct diag_list *d;
	int v3;
	/*
	 * Headers CSA has no line for, kept as comments. They are written
	 * after the position, where a reader puts comments it finds before
	 * the first move, so that CSA -> CSA is stable.
	 */
	struct strbuf late;
};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The $ key of a well-known header; NULL for those written otherwise. */
static const char *
header_key(enum header_id id)
{
	switch (id) {
	case HDR_EVENT: return "EVENT";
	case HDR_SITE: return "SITE";
	case HDR_START_TIME: return "START_TIME";
	case HDR_END_TIME: return "END_TIME";
	case HDR_TIME_LIMIT: return "TIME_LIMIT";
	case HDR_TIME: return "TIME";
	case HDR_TIME_BLACK: return "TIME+";
	case HDR_TIME_WHITE: return "TIME-";
	case HDR_OPENING: return "OPENING";
	case HDR_MAX_MOVES: return "MAX_MOVES";
	case HDR_JISHOGI: return "JISHOGI";
	case HDR_NOTE: return "NOTE";
	case HDR_RULES: return "KIFU_RULES";
	default: return NULL;
	}
}

/* Whether a key can follow '$': ASCII letters, digits, '_', '+', '-'. */
static int
key_ok(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!((*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') ||
		    is_digit(*k) || *k == '_' || *k == '+' || *k == '-'))
			return 0;
	return 1;
}

/*
 * Whether a raw line (one the reader could not place) reads back as the
 * same unknown line: printable ASCII that no CSA statement starts like.
 * Anything else, a KIF line for one, is written as a comment.
 */
static int
raw_is_csa(const char *s)
{
	const char *c;

	if (!*s)
		return 0;
	for (c = s; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			return 0;
	switch (s[0]) {
	case '\'': case '/': case '$': case '+': case '-': case '%': case ' ':
	case '\t':
		return 0;
	case 'N':
		return s[1] != '+' && s[1] != '-';
	case 'V':
		return !is_digit(s[1]);
	case 'T':
		return s[1] && !is_digit(s[1]) && s[1] != '.';
	case 'P':
		return !s[1] || !strchr("123456789I+-", s[1]);
	default:
		return 1;
	}
}

/* A header value on one line; $NOTE keeps its line breaks as "\n". */
static void
add_value(struct strbuf *sb, const char *s, int note)
{
	for (; *s; s++) {
		if (*s == '\n')
			strbuf_adds(sb, note ? "\\n" : " ");
		else if (*s != '\r')
			strbuf_addc(sb, *s);
	}
}

/*
 * Comment lines: "'" and the line, for each line of the text. Runs are
 * copied whole: Floodgate logs have a comment line for nearly every move.
 */
static void
add_comment(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '\'');
	for (;;) {
		size_t k = strcspn(s, "\n\r");

		strbuf_add(sb, s, k);
		s += k;
		if (!*s)
			break;
		if (*s++ == '\n')
			strbuf_add(sb, "\n'", 2);
	}
	strbuf_addc(sb, '\n');
}

/* Appends the decimal digits of v (not negative). */
static void
add_uint(struct strbuf *sb, uint64_t v)
{
	char buf[24];
	size_t i = sizeof(buf);

	do
		buf[--i] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	strbuf_add(sb, buf + i, sizeof(buf) - i);
}

static void
write_names(struct out *w)
{
	const struct record_header *b = record_find_header(w->r, HDR_BLACK);
	const struct record_header *wh = record_find_header(w->r, HDR_WHITE);

	if (b) {
		strbuf_adds(w->sb, "N+");
		add_value(w->sb, record_str(w->r, b->value), 0);
		strbuf_addc(w->sb, '\n');
	}
	if (wh) {
		strbuf_adds(w->sb, "N-");
		add_value(w->sb, record_str(w->r, wh->value), 0);
		strbuf_addc(w->sb, '\n');
	}
}

static void
write_header(struct out *w, const struct record_header *h)
{
	const char *key = record_str(w->r, h->key);
	const char *value = record_str(w->r, h->value);
	const char *csa = header_key(h->id);

	switch (h->id) {
	case HDR_BLACK: case HDR_WHITE: case HDR_HANDICAP: case HDR_VERSION:
	case HDR_ENCODING:
		/* Names come first; the rest the writer makes itself. */
		return;
	case HDR_RAW:
		if (raw_is_csa(key)) {
			strbuf_adds(w->sb, key);
			strbuf_addc(w->sb, '\n');
		} else {
			add_comment(&w->late, key);
		}
		return;
	default:
		break;
	}
	if (!csa && !key_ok(key)) {
		/* A key from another format ("棋戦") is no CSA key. */
		strbuf_addc(&w->late, '\'');
		add_value(&w->late, key, 0);
		strbuf_addc(&w->late, ':');
		add_value(&w->late, value, 0);
		strbuf_addc(&w->late, '\n');
		return;
	}
	strbuf_addf(w->sb, "$%s:", csa ? csa : key);
	add_value(w->sb, value, h->id == HDR_NOTE);
	strbuf_addc(w->sb, '\n');
}

/* PI and the pieces a standard handicap takes off the even board. */
static void
write_pi(struct out *w)
{
	const struct position *pos = &w->r->start;
	struct position even;
	size_t i;
	square sq;

	handicap_position(HANDICAP_EVEN, &even);
	strbuf_adds(w->sb, "PI");
	for (i = 0; i < NELEM(pi_order); i++)
		for (sq = 0; sq < SQ_NB; sq++)
			if (piece_type_of(even.board[sq]) == pi_order[i] &&
			    pos->board[sq] == PIECE_NONE)
				strbuf_addf(w->sb, "%d%d%s", sq_file(sq) + 1,
				    sq_rank(sq) + 1, codes[pi_order[i]]);
	strbuf_addc(w->sb, '\n');
}

static void
write_board(struct out *w)
{
	const struct position *pos = &w->r->start;
	int rank, file, c;
	size_t i;

	for (rank = 0; rank < pos->v->ranks; rank++) {
		strbuf_addf(w->sb, "P%d", rank + 1);
		for (file = pos->v->files - 1; file >= 0; file--) {
			piece p = pos->board[sq_make(file, rank)];

			if (p == PIECE_NONE)
				strbuf_adds(w->sb, " * ");
			else
				strbuf_addf(w->sb, "%c%s",
				    piece_color(p) == BLACK ? '+' : '-',
				    codes[piece_type_of(p)]);
		}
		strbuf_addc(w->sb, '\n');
	}
	for (c = 0; c < COLOR_NB; c++) {
		size_t at = w->sb->len;
		int k;

		strbuf_adds(w->sb, c == BLACK ? "P+" : "P-");
		for (i = 0; i < NELEM(hand_order); i++)
			for (k = 0; k < pos->hand[c][hand_order[i]]; k++)
				strbuf_addf(w->sb, "00%s",
				    codes[hand_order[i]]);
		if (w->sb->len == at + 2)
			w->sb->len = at;	/* no line for no hand */
		else
			strbuf_addc(w->sb, '\n');
		w->sb->buf[w->sb->len] = '\0';
	}
}

static void
write_position(struct out *w)
{
	enum handicap h = handicap_identify(&w->r->start);

	/* HANDICAP_MINISHOGI is past the range: PI is the 9x9 start. */
	if (h >= HANDICAP_EVEN && h <= HANDICAP_10)
		write_pi(w);
	else
		write_board(w);
	strbuf_adds(w->sb, w->r->start.side == BLACK ? "+\n" : "-\n");
}

/* "T12"; V3.0 writes "T1.5" when the time is not whole seconds. */
static void
write_time(struct out *w, int64_t ms)
{
	char frac[8];
	int n;

	if (ms < 0)
		return;
	strbuf_addc(w->sb, 'T');
	add_uint(w->sb, (uint64_t)(ms / 1000));
	if (w->v3 && ms % 1000 != 0) {
		n = snprintf(frac, sizeof(frac), ".%03d", (int)(ms % 1000));
		while (frac[n - 1] == '0')
			n--;
		strbuf_add(w->sb, frac, (size_t)n);
	}
	strbuf_addc(w->sb, '\n');
}

void
csa_format_move(move m, char buf[8])
{
	const char *code = codes[piece_type_of(move_piece_after(m))];
	square from = move_from(m), to = move_to(m);

	buf[0] = piece_color(move_piece(m)) == BLACK ? '+' : '-';
	buf[1] = move_is_drop(m) ? '0' : (char)('1' + sq_file(from));
	buf[2] = move_is_drop(m) ? '0' : (char)('1' + sq_rank(from));
	buf[3] = (char)('1' + sq_file(to));
	buf[4] = (char)('1' + sq_rank(to));
	buf[5] = code[0];
	buf[6] = code[1];
	buf[7] = '\0';
}

static void
write_move(struct out *w, move m)
{
	char buf[8];

	csa_format_move(m, buf);
	strbuf_add(w->sb, buf, 7);
	strbuf_addc(w->sb, '\n');
}

/*
 * The % code of a terminal; `side` is the side to move there. NULL when
 * this version of CSA has no code for it.
 */
static const char *
terminal_code(const struct out *w, enum special sp, enum color side)
{
	switch (sp) {
	case SP_RESIGN: return "%TORYO";
	case SP_ABORT: return "%CHUDAN";
	case SP_SENNICHITE: return "%SENNICHITE";
	case SP_TIME_UP: return "%TIME_UP";
	case SP_ILLEGAL_MOVE: return "%ILLEGAL_MOVE";
	/* The previous mover, the side not to move, fouled. */
	case SP_ILLEGAL_WIN:
		return side == BLACK ? "%-ILLEGAL_ACTION" : "%+ILLEGAL_ACTION";
	case SP_ILLEGAL_BLACK: return "%+ILLEGAL_ACTION";
	case SP_ILLEGAL_WHITE: return "%-ILLEGAL_ACTION";
	case SP_IMPASSE: return "%JISHOGI";
	case SP_DECLARATION: return "%KACHI";
	case SP_DRAW_DECLARATION: return "%HIKIWAKE";
	case SP_MAX_MOVES: return w->v3 ? "%MAX_MOVES" : NULL;
	case SP_MATE: return "%TSUMI";
	case SP_NO_MATE: return "%FUZUMI";
	case SP_ERROR: return "%ERROR";
	case SP_MATTA: return w->v3 ? NULL : "%MATTA";
	default: return NULL;
	}
}

/*
 * A terminal CSA cannot name is written as %CHUDAN with the word it had
 * as a comment, and a warning.
 */
static void
write_terminal(struct out *w, const struct record_node *n)
{
	enum color side = (enum color)(w->r->start.side ^ ((n->ply - 1) & 1));
	const char *code = terminal_code(w, (enum special)n->special, side);
	const char *raw = record_str(w->r, n->raw);

	if (!*raw)
		raw = special_name((enum special)n->special);
	strbuf_adds(w->sb, code ? code : "%CHUDAN");
	strbuf_addc(w->sb, '\n');
	write_time(w, n->time_ms);
	if (!code) {
		add_comment(w->sb, raw);
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
		    n->ply, "csa %s has no terminal for '%s'; wrote '%%CHUDAN'",
		    w->v3 ? "V3.0" : "V2.2", raw);
	}
	if (n->comment)
		add_comment(w->sb, record_str(w->r, n->comment));
}

/*
 * The main line stops at a move the rules refused. When the record's own
 * terminal says that foul ended the game, CSA can still say who fouled
 * (%+ILLEGAL_ACTION / %-ILLEGAL_ACTION); the move itself, which no CSA
 * reader would accept, goes into a comment.
 */
static void
write_foul(struct out *w, const struct record_node *n)
{
	const struct record *r = w->r;
	const struct record_node *t = n->next >= 0 ? &r->nodes[n->next] : NULL;
	enum color fouler = (enum color)(r->start.side ^ ((n->ply - 1) & 1));

	if (t && (t->special == SP_ILLEGAL_WIN ||
	    (t->special == SP_ILLEGAL_BLACK && fouler == BLACK) ||
	    (t->special == SP_ILLEGAL_WHITE && fouler == WHITE))) {
		strbuf_addf(w->sb, "'illegal move: %s\n",
		    record_str(r, n->raw));
		strbuf_adds(w->sb, fouler == BLACK ? "%+ILLEGAL_ACTION\n" :
		    "%-ILLEGAL_ACTION\n");
		write_time(w, t->time_ms);
		if (t->comment)
			add_comment(w->sb, record_str(r, t->comment));
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
		    n->ply, "illegal move %d '%s' kept as a comment before "
		    "the terminal", n->ply, record_str(r, n->raw));
		return;
	}
	diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
	    n->ply, "move %d was not resolved; the csa record stops before it",
	    n->ply);
}

static void
write_moves(struct out *w)
{
	const struct record *r = w->r;
	int32_t i;

	for (i = r->nodes[0].next; i >= 0; i = r->nodes[i].next) {
		const struct record_node *n = &r->nodes[i];

		if (n->special != SP_NONE) {
			write_terminal(w, n);
			return;
		}
		if (n->mv == MOVE_NONE) {
			write_foul(w, n);
			return;
		}
		write_move(w, n->mv);
		write_time(w, n->time_ms);
		if (n->comment)
			add_comment(w->sb, record_str(r, n->comment));
	}
}

/*
 * CSA states the time of each move only (V2.2 in whole seconds): a
 * fraction V2.2 cuts off, and a running total the record states that is
 * not the sum of the times written before it (a clock that did not start
 * at zero, rounding by another program), are lost, once per kind.
 */
static void
report_times(struct out *w)
{
	const struct record *r = w->r;
	int64_t sum[COLOR_NB] = { 0, 0 };
	size_t frac = 0, totals = 0;
	int32_t i;

	for (i = r->nodes[0].next; i >= 0; i = r->nodes[i].next) {
		const struct record_node *n = &r->nodes[i];
		enum color c = (enum color)(r->start.side ^ ((n->ply - 1) & 1));
		int64_t ms = n->time_ms;

		if (n->special == SP_NONE && n->mv == MOVE_NONE)
			break;
		if (ms >= 0 && !w->v3 && ms % 1000) {
			frac++;
			ms -= ms % 1000;
		}
		if (ms >= 0)
			sum[c] += ms;
		if (n->total_ms >= 0 && n->total_ms != sum[c]) {
			totals++;
			sum[c] = n->total_ms;
		}
		if (n->special != SP_NONE)
			break;
	}
	if (frac)
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "csa V2.2 times are whole seconds; dropped the fractions "
		    "of %zu time(s) (--csa-version 3 keeps them)", frac);
	if (totals)
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "csa holds no running totals; dropped %zu time total(s) "
		    "that are not the sum of the times", totals);
}

/* Variations and bookmarks have no place in CSA: one warning per kind. */
static void
report_dropped(struct out *w)
{
	const struct record *r = w->r;
	const struct record_node *fv = NULL, *fb = NULL;
	size_t i, nv = 0, nb = 0;

	for (i = 1; i < r->nnodes; i++) {
		const struct record_node *n = &r->nodes[i];

		/* A node not its parent's first continuation starts one. */
		if (n->parent >= 0 && r->nodes[n->parent].next != (int32_t)i &&
		    nv++ == 0)
			fv = n;
		if (n->bookmark && nb++ == 0)
			fb = n;
	}
	if (r->nnodes && r->nodes[0].bookmark && nb++ == 0)
		fb = &r->nodes[0];
	if (nv)
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &fv->loc,
		    fv->ply, "csa cannot hold variations; dropped %zu", nv);
	if (nb)
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &fb->loc,
		    fb->ply, "csa cannot hold bookmarks; dropped %zu", nb);
	report_times(w);
	writer_report_flipped(r, "csa", w->d);
	/* A board from the middle of a game (SFEN, a KIF diagram's 手数＝). */
	if (r->start.move_number > 1)
		diag_add(w->d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), NULL, 0,
		    "csa cannot hold the move number of the start (%d); "
		    "dropped", r->start.move_number);
}

int
csa_write(const struct record *r, const struct write_opts *o,
    struct strbuf *out, struct diag_list *d)
{
	struct out w;
	size_t i;

	w.r = r;
	w.sb = out;
	w.d = d;
	w.v3 = o && o->csa_version == 3;
	/* Room for every move, time and comment: one allocation, mostly. */
	strbuf_grow(out, r->pool.len + r->nnodes * 16 + 1024);
	if (w.v3) {
		const char *enc = o->encoding ? o->encoding : "UTF-8";

		/* V3.0 names Shift_JIS as SHIFT_JIS; CP932 is its superset in use. */
		strbuf_addf(out, "'CSA encoding=%s\nV3.0\n",
		    strcmp(enc, "CP932") == 0 ? "SHIFT_JIS" : enc);
	} else {
		strbuf_adds(out, "V2.2\n");
	}
	strbuf_init(&w.late);
	write_names(&w);
	for (i = 0; i < r->nheaders; i++)
		if (!(o && o->rules && r->headers[i].id == HDR_RULES))
			write_header(&w, &r->headers[i]);
	if (o && o->rules && *o->rules)
		strbuf_addf(out, "$%s:%s\n", header_key(HDR_RULES), o->rules);
	write_position(&w);
	strbuf_add(out, w.late.buf, w.late.len);
	strbuf_release(&w.late);
	if (r->nnodes && r->nodes[0].comment)
		add_comment(out, record_str(r, r->nodes[0].comment));
	write_moves(&w);
	report_dropped(&w);
	return 0;
}

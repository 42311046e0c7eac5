/*
 * kakinoki.c - KIF/KI2 words, and what writing either format shares:
 * the header and start position block (and in it the board diagram,
 * which writers/bod.c also writes alone), move text, the まで line, and
 * the order Kifu for Windows writes variations in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/xalloc.h"
#include "kakinoki.h"
#include "format.h"

static const char *const piece_words[PT_NB] = {
	"", "歩", "香", "桂", "銀", "角", "飛", "金", "玉",
	"と", "成香", "成桂", "成銀", "馬", "龍"
};

static const char *const piece_cells[PT_NB] = {
	"", "歩", "香", "桂", "銀", "角", "飛", "金", "玉",
	"と", "杏", "圭", "全", "馬", "龍"
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static size_t
starts(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n >= k && memcmp(s, word, k) == 0 ? k : 0;
}

const char *
kakinoki_piece_word(enum piece_type pt)
{
	return (unsigned)pt < PT_NB ? piece_words[pt] : "";
}

const char *
kakinoki_piece_cell(enum piece_type pt)
{
	return (unsigned)pt < PT_NB ? piece_cells[pt] : "";
}

/*
 * The code point of the three-byte UTF-8 character at u (text.c has
 * checked the encoding), or 0 when the character is not three bytes.
 * Piece words, numerals and marks are all three-byte characters: the
 * readers below look at every character of every move line, so they
 * compare code points instead of calling memcmp once per spelling.
 */
static uint32_t
cp3(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	if (n < 3 || u[0] < 0xe0 || u[0] > 0xef)
		return 0;
	return (uint32_t)(u[0] & 0x0f) << 12 | (uint32_t)(u[1] & 0x3f) << 6 |
	    (uint32_t)(u[2] & 0x3f);
}

size_t
kakinoki_read_piece(const char *s, size_t n, enum piece_type *pt)
{
	switch (cp3(s, n)) {
	case 0x6210:		/* 成 */
		switch (cp3(s + 3, n - 3)) {
		case 0x9999: *pt = PT_PRO_LANCE; return 6;	/* 香 */
		case 0x6842: *pt = PT_PRO_KNIGHT; return 6;	/* 桂 */
		case 0x9280: *pt = PT_PRO_SILVER; return 6;	/* 銀 */
		default: return 0;
		}
	case 0x6b69: *pt = PT_PAWN; break;		/* 歩 */
	case 0x9999: *pt = PT_LANCE; break;		/* 香 */
	case 0x6842: *pt = PT_KNIGHT; break;		/* 桂 */
	case 0x9280: *pt = PT_SILVER; break;		/* 銀 */
	case 0x91d1: *pt = PT_GOLD; break;		/* 金 */
	case 0x89d2: *pt = PT_BISHOP; break;		/* 角 */
	case 0x98db: *pt = PT_ROOK; break;		/* 飛 */
	case 0x7389: case 0x738b: *pt = PT_KING; break;	/* 玉 王 */
	case 0x3068: *pt = PT_PRO_PAWN; break;		/* と */
	case 0x674f: *pt = PT_PRO_LANCE; break;		/* 杏 */
	case 0x572d: *pt = PT_PRO_KNIGHT; break;	/* 圭 */
	case 0x5168: *pt = PT_PRO_SILVER; break;	/* 全 */
	case 0x99ac: *pt = PT_HORSE; break;		/* 馬 */
	case 0x9f8d: case 0x7adc: *pt = PT_DRAGON; break; /* 龍 竜 */
	default: return 0;
	}
	return 3;
}

static const char *const fw_digits[10] = {
	"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"
};
static const char *const kanji_digits[10] = {
	"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"
};

const char *
kakinoki_file_digit(int file)
{
	return file >= 1 && file <= 9 ? fw_digits[file] : "";
}

const char *
kakinoki_rank_kanji(int rank)
{
	return rank >= 1 && rank <= 9 ? kanji_digits[rank] : "";
}

size_t
kakinoki_read_digit(const char *s, size_t n, int *value)
{
	const unsigned char *u = (const unsigned char *)s;
	int d;

	if (n >= 1 && u[0] >= '1' && u[0] <= '9') {
		*value = u[0] - '0';
		return 1;
	}
	/* Full-width digits are U+FF11..U+FF19 (EF BC 91..99). */
	if (n >= 3 && u[0] == 0xef && u[1] == 0xbc && u[2] >= 0x91 &&
	    u[2] <= 0x99) {
		*value = u[2] - 0x90;
		return 3;
	}
	switch (cp3(s, n)) {
	case 0x4e00: d = 1; break;	/* 一 */
	case 0x4e8c: d = 2; break;	/* 二 */
	case 0x4e09: d = 3; break;	/* 三 */
	case 0x56db: d = 4; break;	/* 四 */
	case 0x4e94: d = 5; break;	/* 五 */
	case 0x516d: d = 6; break;	/* 六 */
	case 0x4e03: d = 7; break;	/* 七 */
	case 0x516b: d = 8; break;	/* 八 */
	case 0x4e5d: d = 9; break;	/* 九 */
	default: return 0;
	}
	*value = d;
	return 3;
}

size_t
kakinoki_read_count(const char *s, size_t n, int *value)
{
	size_t used = 0, k;
	int tens = 0, ones = 0, d;

	/* Arabic numerals, ASCII or full-width. */
	if (n && ((s[0] >= '0' && s[0] <= '9') || starts(s, n, "０") ||
	    kakinoki_read_digit(s, n, &d))) {
		int v = 0, any = 0;

		for (;;) {
			if (used < n && s[used] >= '0' && s[used] <= '9') {
				v = v * 10 + (s[used++] - '0');
			} else if ((k = starts(s + used, n - used, "０"))) {
				v = v * 10;
				used += k;
			} else {
				int i;

				for (i = 1; i <= 9; i++)
					if ((k = starts(s + used, n - used,
					    fw_digits[i])))
						break;
				if (i > 9)
					break;
				v = v * 10 + i;
				used += k;
			}
			any = 1;
			if (v > 99)
				return 0;
		}
		if (any) {
			*value = v;
			return used;
		}
	}
	/* Kanji: [d]十[d] or d. */
	for (d = 1; d <= 9; d++)
		if ((k = starts(s, n, kanji_digits[d]))) {
			ones = d;
			used = k;
			break;
		}
	if ((k = starts(s + used, n - used, "十"))) {
		tens = ones ? ones : 1;
		ones = 0;
		used += k;
		for (d = 1; d <= 9; d++)
			if ((k = starts(s + used, n - used, kanji_digits[d]))) {
				ones = d;
				used += k;
				break;
			}
	}
	if (!used)
		return 0;
	*value = tens * 10 + ones;
	return used;
}

void
kakinoki_add_count(struct strbuf *sb, int v)
{
	if (v >= 20)
		strbuf_adds(sb, kanji_digits[v / 10]);
	if (v >= 10)
		strbuf_adds(sb, "十");
	if (v % 10)
		strbuf_adds(sb, kanji_digits[v % 10]);
}

size_t
kakinoki_read_mark(const char *s, size_t n, enum color *c)
{
	switch (cp3(s, n)) {
	case 0x25b2: case 0x25bc: case 0x2617:	/* ▲ ▼ ☗ */
		*c = BLACK;
		return 3;
	case 0x25b3: case 0x25bd: case 0x2616:	/* △ ▽ ☖ */
		*c = WHITE;
		return 3;
	default:
		return 0;
	}
}

const char *
kakinoki_mark(enum color c)
{
	return c == BLACK ? "▲" : "△";
}

static const struct {
	enum handicap h;
	const char *name;
} handicap_names[] = {
	{ HANDICAP_EVEN, "平手" },
	{ HANDICAP_LANCE, "香落ち" },
	{ HANDICAP_RIGHT_LANCE, "右香落ち" },
	{ HANDICAP_BISHOP, "角落ち" },
	{ HANDICAP_ROOK, "飛車落ち" },
	{ HANDICAP_ROOK_LANCE, "飛香落ち" },
	{ HANDICAP_2, "二枚落ち" },
	{ HANDICAP_3, "三枚落ち" },
	{ HANDICAP_4, "四枚落ち" },
	{ HANDICAP_5, "五枚落ち" },
	{ HANDICAP_5_LEFT, "左五枚落ち" },
	{ HANDICAP_6, "六枚落ち" },
	{ HANDICAP_7_LEFT, "左七枚落ち" },
	{ HANDICAP_7_RIGHT, "右七枚落ち" },
	{ HANDICAP_8, "八枚落ち" },
	{ HANDICAP_10, "十枚落ち" },
	{ HANDICAP_MINISHOGI, "5五将棋" },
};

const char *
kakinoki_handicap_name(enum handicap h)
{
	size_t i;

	for (i = 0; i < N(handicap_names); i++)
		if (handicap_names[i].h == h)
			return handicap_names[i].name;
	return NULL;
}

enum handicap
kakinoki_handicap_by_name(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < N(handicap_names); i++)
		if (strlen(handicap_names[i].name) == n &&
		    memcmp(handicap_names[i].name, s, n) == 0)
			return handicap_names[i].h;
	/* Other spellings of 5五将棋 (formats.md 7). */
	if ((n == strlen("５五将棋") && memcmp(s, "５五将棋", n) == 0) ||
	    (n == strlen("五々将棋") && memcmp(s, "五々将棋", n) == 0))
		return HANDICAP_MINISHOGI;
	return HANDICAP_NONE;
}

static const struct {
	const char *word;
	enum special sp;
} terminal_words[] = {
	{ "投了", SP_RESIGN },
	{ "中断", SP_ABORT },
	{ "千日手", SP_SENNICHITE },
	{ "持将棋", SP_IMPASSE },
	{ "切れ負け", SP_TIME_UP },
	{ "時間切れ", SP_TIME_UP },
	{ "Time-up", SP_TIME_UP },	/* 81Dojo writes it in English */
	{ "反則勝ち", SP_ILLEGAL_WIN },
	{ "反則負け", SP_ILLEGAL_MOVE },
	{ "入玉勝ち", SP_DECLARATION },
	{ "最大手数", SP_MAX_MOVES },
	{ "詰み", SP_MATE },
	{ "詰", SP_MATE },
	{ "不詰", SP_NO_MATE },
	{ "封じ手", SP_SEALED },
};

enum special
kakinoki_special_by_word(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < N(terminal_words); i++)
		if (strlen(terminal_words[i].word) == n &&
		    memcmp(terminal_words[i].word, s, n) == 0)
			return terminal_words[i].sp;
	return SP_NONE;
}

const char *
kakinoki_special_word(enum special sp)
{
	size_t i;

	/* The first spelling in the table is the one written. */
	for (i = 0; i < N(terminal_words); i++)
		if (terminal_words[i].sp == sp)
			return terminal_words[i].word;
	return NULL;
}

static const struct {
	const char *key;
	enum header_id id;
} header_keys[] = {
	{ "先手", HDR_BLACK }, { "下手", HDR_BLACK },
	{ "後手", HDR_WHITE }, { "上手", HDR_WHITE },
	{ "棋戦", HDR_EVENT }, { "場所", HDR_SITE },
	{ "開始日時", HDR_START_TIME }, { "対局日", HDR_START_TIME },
	{ "終了日時", HDR_END_TIME }, { "持ち時間", HDR_TIME_LIMIT },
	{ "戦型", HDR_OPENING }, { "手合割", HDR_HANDICAP },
	{ "最大手数", HDR_MAX_MOVES }, { "持将棋", HDR_JISHOGI },
	{ "備考", HDR_NOTE },
	{ "先手持ち時間", HDR_TIME_BLACK }, { "後手持ち時間", HDR_TIME_WHITE },
	/* kifu's own: the rule set a converted record was judged by. */
	{ "kifu-rules", HDR_RULES },
};

enum header_id
kakinoki_header_id(const char *key, size_t n)
{
	size_t i;

	for (i = 0; i < N(header_keys); i++)
		if (strlen(header_keys[i].key) == n &&
		    memcmp(header_keys[i].key, key, n) == 0)
			return header_keys[i].id;
	return HDR_OTHER;
}

const char *
kakinoki_header_key(enum header_id id, int handicap_game)
{
	size_t i;

	if (handicap_game && id == HDR_BLACK)
		return "下手";
	if (handicap_game && id == HDR_WHITE)
		return "上手";
	for (i = 0; i < N(header_keys); i++)
		if (header_keys[i].id == id)
			return header_keys[i].key;
	return NULL;
}

/* ---- writers ---- */

size_t
kakinoki_width(const char *s, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x80)
			w++;
		else if ((c & 0xc0) != 0x80)
			w += 2;		/* a lead byte: one wide character */
	}
	return w;
}

static int
value_is(const char *s, const char *word)
{
	size_t n = strlen(s);

	/* Readers trim values, but a record may come from elsewhere. */
	while (n >= 3 && memcmp(s + n - 3, "　", 3) == 0)
		n -= 3;
	while (n && s[n - 1] == ' ')
		n--;
	return n == strlen(word) && memcmp(s, word, n) == 0;
}

int
kakinoki_handicap_labels(const struct record *r)
{
	enum handicap h = handicap_identify(&r->start);
	const struct record_header *hh;
	size_t i;

	if (h != HANDICAP_NONE)
		return h > HANDICAP_EVEN && h <= HANDICAP_10;
	if (handicap_minishogi_odds(&r->start))
		return 1;
	for (i = 0; i < r->nheaders; i++) {
		const struct record_header *x = &r->headers[i];

		if ((x->id == HDR_BLACK &&
		    strcmp(record_str(r, x->key), "下手") == 0) ||
		    (x->id == HDR_WHITE &&
		    strcmp(record_str(r, x->key), "上手") == 0))
			return 1;
	}
	hh = record_find_header(r, HDR_HANDICAP);
	return hh && value_is(record_str(r, hh->value), "その他");
}

void
kakinoki_write_notes(const struct record *r, const struct record_node *n,
    struct strbuf *sb)
{
	if (n->comment)
		kakinoki_write_lines(sb, "*", record_str(r, n->comment));
	if (n->bookmark)
		kakinoki_write_lines(sb, "&", record_str(r, n->bookmark));
}

void
kakinoki_write_lines(struct strbuf *sb, const char *mark, const char *text)
{
	for (;;) {
		size_t k = strcspn(text, "\r\n");

		strbuf_adds(sb, mark);
		strbuf_add(sb, text, k);
		strbuf_addc(sb, '\n');
		text += k;
		if (*text == '\r')
			text++;
		if (*text == '\n')
			text++;
		if (!*text)
			break;
	}
}

void
kakinoki_write_move(struct strbuf *sb, move m, int same)
{
	square to = move_to(m);

	if (same) {
		strbuf_adds(sb, "同　");
	} else {
		strbuf_adds(sb, kakinoki_file_digit(sq_file(to) + 1));
		strbuf_adds(sb, kakinoki_rank_kanji(sq_rank(to) + 1));
	}
	strbuf_adds(sb, kakinoki_piece_word(move_is_drop(m) ?
	    move_drop_type(m) : piece_type_of(move_piece(m))));
	if (move_is_promotion(m))
		strbuf_adds(sb, "成");
	if (move_is_drop(m))
		strbuf_adds(sb, "打");
	else
		strbuf_addf(sb, "(%d%d)", sq_file(move_from(m)) + 1,
		    sq_rank(move_from(m)) + 1);
}

void
kakinoki_write_ki2_move(struct strbuf *sb, const struct position *pos,
    move m, int same)
{
	square to = move_to(m);
	enum piece_type pt = move_is_drop(m) ? move_drop_type(m) :
	    piece_type_of(move_piece(m));
	const char *word = kakinoki_piece_word(pt);
	char rest[64];
	int drop_word;
	unsigned rel = notation_words(pos, m, &drop_word);

	snprintf(rest, sizeof(rest), "%s%s%s%s%s%s%s%s", word,
	    rel & REL_RIGHT ? "右" : "", rel & REL_LEFT ? "左" : "",
	    rel & REL_STRAIGHT ? "直" : "", rel & REL_UP ? "上" : "",
	    rel & REL_SIDEWAYS ? "寄" : "", rel & REL_DOWN ? "引" : "",
	    move_is_drop(m) ? (drop_word ? "打" : "") :
	    move_is_promotion(m) ? "成" :
	    pt_can_promote(pt) && (bb_test(pos->v->zone[pos->side],
	    move_from(m)) || bb_test(pos->v->zone[pos->side], to)) ?
	    "不成" : "");
	if (same) {
		strbuf_adds(sb, "同");
		/* "同　歩" but "同銀引": U+3000 only before one character. */
		if (strcmp(rest, word) == 0 && strlen(word) == 3)
			strbuf_adds(sb, "　");
	} else {
		strbuf_adds(sb, kakinoki_file_digit(sq_file(to) + 1));
		strbuf_adds(sb, kakinoki_rank_kanji(sq_rank(to) + 1));
	}
	strbuf_adds(sb, rest);
}

int
kakinoki_is_same(const struct record *r, int32_t i)
{
	const struct record_node *n = &r->nodes[i];
	const struct record_node *p = &r->nodes[n->parent];

	return n->parent > 0 && p->special == SP_NONE && p->mv != MOVE_NONE &&
	    n->mv != MOVE_NONE && move_to(p->mv) == move_to(n->mv);
}

/* A header value on one line: line breaks become "\n", as JSA files have. */
static void
add_value(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			strbuf_adds(sb, "\\n");
		else if (*s != '\r')
			strbuf_addc(sb, *s);
	}
}

/* "手数＝12  ▲２三金打  まで", kept whole by the reader (formats.md 3.4). */
static int
is_bod_trailer(const char *line)
{
	return starts(line, strlen(line), "手数＝") != 0;
}

/*
 * Whether "key：value" reads back as a header with this key: a key that
 * starts like a move, a comment, a board or a hand line, or that holds a
 * colon, would come back as something else (or not at all).
 */
static int
key_reads_back(const char *key)
{
	static const char *const starters[] = {
		"　", "まで", "変化", "手数", "先手の持駒", "後手の持駒",
		"下手の持駒", "上手の持駒",
	};
	size_t n = strlen(key), i;
	enum color c;

	if (!n || strchr(" \t#*&|+", key[0]) || (key[0] >= '0' && key[0] <= '9'))
		return 0;
	if (strchr(key, ':') || strstr(key, "：") ||
	    kakinoki_read_mark(key, n, &c))
		return 0;
	for (i = 0; i < N(starters); i++)
		if (starts(key, n, starters[i]))
			return 0;
	return 1;
}

static void
write_header(const struct record *r, const struct record_header *h, int hg,
    struct strbuf *sb)
{
	const char *key = record_str(r, h->key);
	const char *kif;

	switch (h->id) {
	case HDR_VERSION: case HDR_ENCODING: case HDR_HANDICAP:
		/* The writer states these itself. */
		return;
	case HDR_RAW:
		/*
		 * A line the reader kept whole: a comment for programs. The
		 * "#KIF" line is the writer's own, and so is a diagram's 手数＝
		 * line when it states a later start (kakinoki_start_trailer).
		 */
		if (starts(key, strlen(key), "#KIF ") ||
		    starts(key, strlen(key), "#KI2 ") ||
		    (is_bod_trailer(key) && r->start.move_number > 1))
			return;
		kakinoki_write_lines(sb, key[0] == '#' ? "" : "#", key);
		return;
	default:
		break;
	}
	kif = kakinoki_header_key(h->id, hg);
	/*
	 * A key KIF reads as the same header keeps its spelling: 対局日 and
	 * 開始日時 side by side are two headers, not one written twice. The
	 * players' keys follow the record's labels (下手/上手) instead.
	 */
	if (h->id != HDR_BLACK && h->id != HDR_WHITE &&
	    kakinoki_header_id(key, strlen(key)) == h->id)
		kif = key;
	if (h->id == HDR_OTHER || !kif)
		kif = key;
	if (!key_reads_back(kif))
		/* Kept for the reader to see, as a comment for programs. */
		strbuf_addc(sb, '#');
	add_value(sb, kif);
	strbuf_adds(sb, "：");
	add_value(sb, record_str(r, h->value));
	strbuf_addc(sb, '\n');
}

/* The order pieces are listed in hands, strongest first. */
static const enum piece_type hand_order[] = {
	PT_ROOK, PT_BISHOP, PT_GOLD, PT_SILVER, PT_KNIGHT, PT_LANCE, PT_PAWN
};

static void
write_hand(const struct position *pos, enum color c, const char *label,
    struct strbuf *sb)
{
	size_t i, at;

	strbuf_adds(sb, label);
	strbuf_adds(sb, "の持駒：");
	at = sb->len;
	for (i = 0; i < N(hand_order); i++) {
		int k = pos->hand[c][hand_order[i]];

		if (!k)
			continue;
		strbuf_adds(sb, kakinoki_piece_cell(hand_order[i]));
		if (k > 1)
			kakinoki_add_count(sb, k);
		/* Kifu for Windows ends every item with U+3000. */
		strbuf_adds(sb, "　");
	}
	if (sb->len == at)
		strbuf_adds(sb, "なし");
	strbuf_addc(sb, '\n');
}

void
kakinoki_write_bod(const struct position *pos, int hg, const char *trailer,
    struct strbuf *sb)
{
	kakinoki_write_bod_styled(pos, hg, trailer, NULL, sb);
}

void
kakinoki_write_bod_styled(const struct position *pos, int hg,
    const char *trailer, const struct bod_style *st, struct strbuf *sb)
{
	int files = pos->v->files, ranks = pos->v->ranks, f, rk;

	write_hand(pos, WHITE, hg ? "上手" : "後手", sb);
	strbuf_addc(sb, ' ');
	for (f = files; f >= 1; f--) {
		strbuf_addc(sb, ' ');
		strbuf_adds(sb, kakinoki_file_digit(f));
	}
	strbuf_adds(sb, "\n+");
	for (f = 0; f < files; f++)
		strbuf_adds(sb, "---");
	strbuf_adds(sb, "+\n");
	for (rk = 0; rk < ranks; rk++) {
		strbuf_addc(sb, '|');
		for (f = files - 1; f >= 0; f--) {
			piece p = pos->board[sq_make(f, rk)];
			int marked = st && st->mark == sq_make(f, rk);

			if (marked)
				strbuf_adds(sb, st->on);
			if (p == PIECE_NONE) {
				strbuf_adds(sb, " ・");
			} else {
				strbuf_addc(sb, piece_color(p) == WHITE ?
				    'v' : ' ');
				strbuf_adds(sb,
				    kakinoki_piece_cell(piece_type_of(p)));
			}
			if (marked)
				strbuf_adds(sb, st->off);
		}
		strbuf_addc(sb, '|');
		strbuf_adds(sb, kakinoki_rank_kanji(rk + 1));
		strbuf_addc(sb, '\n');
	}
	strbuf_addc(sb, '+');
	for (f = 0; f < files; f++)
		strbuf_adds(sb, "---");
	strbuf_adds(sb, "+\n");
	write_hand(pos, BLACK, hg ? "下手" : "先手", sb);
	/* Where Kifu for Windows and tsshogi put it: before the side line. */
	if (trailer) {
		strbuf_adds(sb, trailer);
		strbuf_addc(sb, '\n');
	}
	/* Readers take Black (先手) to move unless told; 下手 needs saying. */
	if (pos->side == WHITE)
		strbuf_adds(sb, hg ? "上手番\n" : "後手番\n");
	else if (hg || (st && st->side_always))
		strbuf_adds(sb, hg ? "下手番\n" : "先手番\n");
}

/* "手合割：平手　　": Kifu for Windows pads the name to four characters. */
void
kakinoki_write_handicap_line(const char *name, struct strbuf *sb)
{
	size_t chars = 0;
	const char *s;

	strbuf_adds(sb, "手合割：");
	strbuf_adds(sb, name);
	for (s = name; *s; s++)
		chars += ((unsigned char)*s & 0xc0) != 0x80;
	for (; chars < 4; chars++)
		strbuf_adds(sb, "　");
	strbuf_addc(sb, '\n');
}

int
kakinoki_start_trailer(const struct record *r, struct strbuf *trailer)
{
	size_t i;

	if (r->start.move_number <= 1)
		return 0;
	for (i = 0; i < r->nheaders; i++)
		if (r->headers[i].id == HDR_RAW &&
		    is_bod_trailer(record_str(r, r->headers[i].key))) {
			strbuf_adds(trailer, record_str(r, r->headers[i].key));
			return 1;
		}
	strbuf_addf(trailer, "手数＝%d", r->start.move_number - 1);
	return 0;
}

static void
write_position(const struct record *r, int hg, struct strbuf *sb)
{
	enum handicap h = handicap_identify(&r->start);
	const struct record_header *hh = record_find_header(r, HDR_HANDICAP);
	struct strbuf tb = STRBUF_INIT;
	const char *trailer;

	(void)kakinoki_start_trailer(r, &tb);
	trailer = tb.len ? tb.buf : NULL;
	/* 手合割 cannot say the move number: a later start is a diagram. */
	if (h != HANDICAP_NONE && kakinoki_handicap_name(h) && !trailer)
		kakinoki_write_handicap_line(kakinoki_handicap_name(h), sb);
	/* The variant, which a board of 5x5 alone only hints at. */
	else if (r->start.v == variant_minishogi())
		kakinoki_write_handicap_line(
		    kakinoki_handicap_name(HANDICAP_MINISHOGI), sb);
	else if (hh && value_is(record_str(r, hh->value), "その他"))
		kakinoki_write_handicap_line("その他", sb);
	if (h == HANDICAP_NONE || !kakinoki_handicap_name(h) || trailer)
		kakinoki_write_bod(&r->start, hg, trailer, sb);
	strbuf_release(&tb);
}

void
kakinoki_write_head(const struct record *r, const struct write_opts *o,
    const char *fmt, struct strbuf *sb)
{
	const char *enc = o && o->encoding ? o->encoding : "UTF-8";
	int hg = kakinoki_handicap_labels(r);
	size_t i, at = r->nheaders;

	/* Kakinoki's name for CP932, which is what Shift_JIS files hold. */
	if (strcmp(enc, "CP932") == 0)
		enc = "Shift_JIS";
	strbuf_addf(sb, "#%s version=2.0 encoding=%s\n", fmt, enc);
	/* The start goes where the record had it, else before the names. */
	for (i = 0; i < r->nheaders && at == r->nheaders; i++)
		if (r->headers[i].id == HDR_HANDICAP)
			at = i;
	for (i = 0; i < r->nheaders && at == r->nheaders; i++)
		if (r->headers[i].id == HDR_BLACK ||
		    r->headers[i].id == HDR_WHITE)
			at = i;
	for (i = 0; i <= r->nheaders; i++) {
		/* The set stated last of the headers the record has. */
		if (i == r->nheaders && o && o->rules && *o->rules)
			strbuf_addf(sb, "%s：%s\n",
			    kakinoki_header_key(HDR_RULES, 0), o->rules);
		if (i == at)
			write_position(r, hg, sb);
		if (i < r->nheaders &&
		    !(o && o->rules && r->headers[i].id == HDR_RULES))
			write_header(r, &r->headers[i], hg, sb);
	}
	/*
	 * Kifu for Windows' spelling, which the readers that know the line
	 * (Kifu for JS, json-kifu-format) take; after the headers and the
	 * board, where they read it.
	 */
	if (r->flipped)
		strbuf_adds(sb, "盤面回転\n");
}

void
kakinoki_write_summary(const struct record *r, enum special sp, int ply,
    struct strbuf *sb)
{
	int hg = kakinoki_handicap_labels(r);
	enum color s = (enum color)((r->start.side + ply - 1) & 1);
	const char *side[COLOR_NB], *us, *them;

	side[BLACK] = hg ? "下手" : "先手";
	side[WHITE] = hg ? "上手" : "後手";
	us = side[s];
	them = side[color_flip(s)];
	strbuf_addf(sb, "まで%d手", ply - 1);
	switch (sp) {
	case SP_RESIGN:
		strbuf_addf(sb, "で%sの勝ち\n", them);
		return;
	case SP_SENNICHITE:
		strbuf_adds(sb, "で千日手\n");
		return;
	case SP_TIME_UP:
		strbuf_addf(sb, "で時間切れにより%sの勝ち\n", them);
		return;
	case SP_ILLEGAL_MOVE:
		strbuf_addf(sb, "で%sの反則負け\n", us);
		return;
	case SP_ILLEGAL_WIN:
		strbuf_addf(sb, "で%sの反則勝ち\n", us);
		return;
	case SP_ILLEGAL_BLACK: case SP_ILLEGAL_WHITE:
		/* Who fouled is named: the words follow the side to move. */
		strbuf_addf(sb, "で%sの%s\n", us,
		    (sp == SP_ILLEGAL_BLACK) == (s == BLACK) ?
		    "反則負け" : "反則勝ち");
		return;
	case SP_IMPASSE: case SP_DRAW_DECLARATION:
		strbuf_adds(sb, "で持将棋\n");
		return;
	case SP_DECLARATION:
		strbuf_addf(sb, "で%sの入玉勝ち\n", us);
		return;
	case SP_MAX_MOVES:
		strbuf_adds(sb, "で最大手数\n");
		return;
	case SP_MATE:
		/* Kifu for Windows: "まで7手詰" for a problem, else "で詰". */
		strbuf_adds(sb, handicap_identify(&r->start) == HANDICAP_NONE ?
		    "詰\n" : "で詰\n");
		return;
	case SP_NO_MATE:
		strbuf_adds(sb, "で不詰\n");
		return;
	case SP_SEALED:
		strbuf_adds(sb, "で封じ手\n");
		return;
	default:
		/* An unknown word: unfinished, as Kifu for Windows reads it. */
		strbuf_adds(sb, "で中断\n");
		return;
	}
}

int32_t
kakinoki_line_end(const struct record *r, int32_t first)
{
	int32_t i = first;

	while (i >= 0) {
		const struct record_node *n = &r->nodes[i];

		if (n->special != SP_NONE || n->mv == MOVE_NONE || n->next < 0)
			return i;
		i = n->next;
	}
	return -1;
}

int32_t
kakinoki_foul_terminal(const struct record *r, int32_t i)
{
	const struct record_node *n = &r->nodes[i];
	enum color mover = (enum color)((r->start.side + n->ply - 1) & 1);
	int32_t t = n->next;

	if (t < 0)
		return -1;
	switch (r->nodes[t].special) {
	case SP_ILLEGAL_WIN:
		return t;
	case SP_ILLEGAL_BLACK:
		return mover == BLACK ? t : -1;
	case SP_ILLEGAL_WHITE:
		return mover == WHITE ? t : -1;
	default:
		return -1;
	}
}

int
kakinoki_node_written(const struct record *r, int32_t i)
{
	const struct record_node *n = &r->nodes[i];

	return n->special != SP_NONE || n->mv != MOVE_NONE ||
	    kakinoki_foul_terminal(r, i) >= 0;
}

int
kakinoki_variation_ok(const struct record *r, int32_t first, int attached,
    const char *format, struct diag_list *d)
{
	const struct record_node *n = &r->nodes[first];

	if (!attached) {
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
		    n->ply, "the line this variation branches from stops "
		    "before move %d; the %s variations from it are left out",
		    n->ply, format);
		return 0;
	}
	if (!kakinoki_node_written(r, first)) {
		diag_add(d, DIAG_WARNING, diag_id_name(DIAG_LIMIT), &n->loc,
		    n->ply, "move %d was not resolved; the %s variation from "
		    "it is left out", n->ply, format);
		return 0;
	}
	return 1;
}

/*
 * The walk keeps one position: the one before the node it is at. A line
 * is played forward once when its frame is pushed and taken back move by
 * move as the walk goes back along it; a variation is pushed right where
 * its position is the current one. Every node costs a move and its undo,
 * however deep the variations nest or however many share a branch point.
 */
struct walk {
	struct frame {
		int32_t first, cur;
		int attached;	/* see below */
	} *stack;
	size_t n, alloc;
	struct undo *undo;	/* of the moves played on every pushed line */
	size_t nundo, aundo;
	struct position pos;
};

static void
push_line(struct walk *wk, const struct record *r, int32_t first,
    int attached)
{
	int32_t end = kakinoki_line_end(r, first), i;
	struct frame *f;

	ALLOC_GROW(wk->stack, wk->n + 1, wk->alloc);
	f = &wk->stack[wk->n++];
	f->first = first;
	f->cur = end;
	f->attached = attached;
	for (i = first;; i = r->nodes[i].next) {
		if (r->nodes[i].mv != MOVE_NONE) {
			ALLOC_GROW(wk->undo, wk->nundo + 1, wk->aundo);
			position_do_move(&wk->pos, r->nodes[i].mv,
			    &wk->undo[wk->nundo++]);
		}
		if (i == end)
			break;
	}
}

void
kakinoki_walk_variations(const struct record *r, kakinoki_line_fn line,
    void *ctx)
{
	struct walk wk;

	if (r->nodes[0].next < 0)
		return;
	memset(&wk, 0, sizeof(wk));
	wk.pos = r->start;
	/*
	 * `attached`: the line a frame's first node replaces a move of was
	 * written, which is what lets that node's own alternatives attach.
	 */
	push_line(&wk, r, r->nodes[0].next, 0);
	while (wk.n) {
		struct frame *f = &wk.stack[wk.n - 1];
		int32_t x = f->cur, alt;
		int attached;

		if (x < 0) {
			wk.n--;
			continue;
		}
		f->cur = x == f->first ? -1 : r->nodes[x].parent;
		if (r->nodes[x].mv != MOVE_NONE)
			position_undo_move(&wk.pos, r->nodes[x].mv,
			    &wk.undo[--wk.nundo]);
		if ((alt = r->nodes[x].alt) < 0)
			continue;
		/*
		 * "変化：N手" names move N of the latest line that has one: a
		 * line cut short before move N leaves no move to branch from,
		 * so those alternatives and everything under them are left
		 * out rather than attached to some other line's move N.
		 */
		attached = kakinoki_node_written(r, x) ||
		    (x == f->first && f->attached);
		line(ctx, alt, attached, &wk.pos);
		if (attached)
			push_line(&wk, r, alt, 1);
	}
	free(wk.stack);
	free(wk.undo);
}

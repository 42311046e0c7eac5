/*
 * kakinoki.c - KIF/KI2 words.
 */
#include <string.h>

#include "kakinoki.h"

static const char *const piece_words[PT_NB] = {
	"", "歩", "香", "桂", "銀", "角", "飛", "金", "玉",
	"と", "成香", "成桂", "成銀", "馬", "龍"
};

static const char *const piece_cells[PT_NB] = {
	"", "歩", "香", "桂", "銀", "角", "飛", "金", "玉",
	"と", "杏", "圭", "全", "馬", "龍"
};

/* Every spelling a reader accepts; longer words first. */
static const struct {
	const char *word;
	enum piece_type pt;
} piece_spellings[] = {
	{ "成香", PT_PRO_LANCE }, { "成桂", PT_PRO_KNIGHT },
	{ "成銀", PT_PRO_SILVER }, { "歩", PT_PAWN }, { "香", PT_LANCE },
	{ "桂", PT_KNIGHT }, { "銀", PT_SILVER }, { "金", PT_GOLD },
	{ "角", PT_BISHOP }, { "飛", PT_ROOK }, { "玉", PT_KING },
	{ "王", PT_KING }, { "と", PT_PRO_PAWN }, { "杏", PT_PRO_LANCE },
	{ "圭", PT_PRO_KNIGHT }, { "全", PT_PRO_SILVER }, { "馬", PT_HORSE },
	{ "龍", PT_DRAGON }, { "竜", PT_DRAGON },
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

size_t
kakinoki_read_piece(const char *s, size_t n, enum piece_type *pt)
{
	size_t i, k;

	for (i = 0; i < N(piece_spellings); i++)
		if ((k = starts(s, n, piece_spellings[i].word))) {
			*pt = piece_spellings[i].pt;
			return k;
		}
	return 0;
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
	int d;
	size_t k;

	if (n >= 1 && s[0] >= '1' && s[0] <= '9') {
		*value = s[0] - '0';
		return 1;
	}
	for (d = 1; d <= 9; d++) {
		if ((k = starts(s, n, fw_digits[d])) ||
		    (k = starts(s, n, kanji_digits[d]))) {
			*value = d;
			return k;
		}
	}
	return 0;
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
	static const struct {
		const char *m;
		enum color c;
	} marks[] = {
		{ "▲", BLACK }, { "△", WHITE }, { "▼", BLACK }, { "▽", WHITE },
		{ "☗", BLACK }, { "☖", WHITE },
	};
	size_t i, k;

	for (i = 0; i < N(marks); i++)
		if ((k = starts(s, n, marks[i].m))) {
			*c = marks[i].c;
			return k;
		}
	return 0;
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
	if (n == strlen("５五将棋") && memcmp(s, "５五将棋", n) == 0)
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

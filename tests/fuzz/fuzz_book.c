/*
 * fuzz_book.c - the libFuzzer target of YaneuraOu's text book reader
 * (parsers/book.h), with the checks kifu book runs on what it reads.
 *
 * Not only a crash test: every line is read as kifu book reads it (the
 * first one with a BOM and header looked for), each position read by
 * core/sfen, each move and ponder judged by core/rules; a move line the
 * reader accepts is written back by the writer and must read back to
 * the same fields; an error must name the line it was given and a
 * column inside it (or just past its end). A failure aborts.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_book -max_total_time=60 \
 *       -dict=tests/fuzz/dict/book.dict testdata/book
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "core/sfen.h"
#include "core/usi.h"
#include "parsers/book.h"

#define MAX_INPUT (1 << 16)

static void
check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_book: %s\n", what);
		abort();
	}
}

static int
same_text(struct book_text a, struct book_text b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

/* The writer's line of l reads back to l's fields. */
static void
round_trip(const struct book_line *l)
{
	struct strbuf sb = STRBUF_INIT;
	struct book_move_out m;
	struct book_line back;
	struct book_error err;
	char mv[8], pd[8];

	check(l->text.n < sizeof(mv) && l->ponder.n < sizeof(pd),
	    "a move longer than USI's");
	memcpy(mv, l->text.p, l->text.n);
	mv[l->text.n] = '\0';
	memcpy(pd, l->ponder.p ? l->ponder.p : "", l->ponder.n);
	pd[l->ponder.n] = '\0';
	memset(&m, 0, sizeof(m));
	m.move = mv;
	m.ponder = l->ponder.n ? pd : NULL;
	m.has_value = l->has_value;
	m.value = l->value;
	m.has_depth = l->has_depth;
	m.depth = l->depth;
	m.count = l->count;
	m.tail = l->tail.p;
	m.tail_len = l->tail.n;
	book_write_move(&sb, &m);
	check(sb.len && sb.buf[sb.len - 1] == '\n', "no newline written");
	if (book_parse_line(sb.buf, sb.len - 1, 1, 0, &back, &err) == 0) {
		check(back.type == BOOK_MOVE, "a move reads back as no move");
		check(same_text(back.text, l->text) &&
		    same_text(back.ponder, l->ponder), "moves differ");
		check(back.has_value == l->has_value && back.has_depth ==
		    l->has_depth && back.count == l->count, "fields differ");
		check(!l->has_value || back.value == l->value, "value differs");
		check(!l->has_depth || back.depth == l->depth, "depth differs");
	} else {
		/* only a tail the writer wrote as is may break the line */
		check(l->tail.n > 0, "a written line does not read");
	}
	strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const char *p = (const char *)data, *end = p + n;
	struct position pos;
	int have = 0;
	unsigned long lineno = 0;

	if (n > MAX_INPUT)
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct book_line l;
		struct book_error err;

		lineno++;
		if (book_parse_line(p, len, lineno, lineno == 1, &l,
		    &err) < 0) {
			check(err.line == lineno, "an error on another line");
			check(err.col >= 1 && err.col <= len + 1,
			    "an error outside its line");
			check(err.id && *err.id, "an error without an id");
		} else if (l.type == BOOK_POSITION) {
			char *s = malloc(l.text.n + 1);
			long long ply;

			memcpy(s, l.text.p, l.text.n);
			s[l.text.n] = '\0';
			check(book_sfen_key(s, l.text.n, &ply) <= l.text.n,
			    "a key longer than its text");
			have = sfen_read(&pos, variant_standard(), s, NULL) ==
			    SFEN_OK;
			free(s);
		} else if (l.type == BOOK_MOVE) {
			struct move_claim c;
			move m;

			round_trip(&l);
			if (have && usi_parse_move(pos.v, l.text.p, l.text.n,
			    &c) == 0 && rules_check_move(&pos, &c, &m) ==
			    RULE_OK && l.ponder.n) {
				struct position after = pos;
				struct undo u;
				move pm;

				position_do_move(&after, m, &u);
				if (usi_parse_move(after.v, l.ponder.p,
				    l.ponder.n, &c) == 0)
					(void)rules_check_move(&after, &c, &pm);
			}
		}
		p += len + (nl ? 1 : 0);
	}
	return 0;
}

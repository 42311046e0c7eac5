/*
 * helpers.h - shared by the cmocka unit tests: set up positions from
 * SFEN and ask the core about USI moves, failing the test on misuse.
 */
#ifndef KIFU_TESTS_HELPERS_H
#define KIFU_TESTS_HELPERS_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/movegen.h"
#include "core/rules.h"
#include "core/sfen.h"
#include "core/usi.h"

/* x within tol of want, or the test fails naming x. */
#define NEAR(x, want, tol) do { \
	double x_ = (x), w_ = (want); \
	if (!(fabs(x_ - w_) <= (tol))) \
		fail_msg("%s = %.6f, want %.6f (+-%g)", #x, x_, w_, \
		    (double)(tol)); \
} while (0)

/* How often needle occurs in s (the SVG tests count elements so). */
static inline int
count_of(const char *s, const char *needle)
{
	int n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* Reads a valid SFEN (shogi or, with five ranks, minishogi) or fails. */
static inline void
load_sfen(struct position *pos, const char *sfen)
{
	struct sfen_error e;
	size_t ranks = 1, i;

	/* The board's ranks say the game: five are minishogi. */
	for (i = 0; sfen[i] && sfen[i] != ' '; i++)
		ranks += sfen[i] == '/';
	if (sfen_read(pos, ranks == 5 ? variant_minishogi() :
	    variant_standard(), sfen, &e) != SFEN_OK)
		fail_msg("bad test SFEN '%s': %s", sfen, e.message);
}

/* What the core says of a USI move in pos (the text must parse). */
static inline enum rule_id
judge_usi(const struct position *pos, const char *usi)
{
	struct move_claim c;

	if (usi_parse_move(pos->v, usi, strlen(usi), &c))
		fail_msg("bad test move '%s'", usi);
	return rules_check_move(pos, &c, NULL);
}

/* Whether the generator lists the USI move. */
static inline int
generates(const struct position *pos, const char *usi)
{
	struct move_list ml;
	char buf[USI_MOVE_MAX];
	int i;

	movegen_legal(pos, &ml);
	for (i = 0; i < ml.n; i++) {
		usi_format_move(ml.m[i], buf);
		if (strcmp(buf, usi) == 0)
			return 1;
	}
	return 0;
}

/*
 * Asserts that the judge and the generator agree on a move: legal and
 * generated, or broken with the expected rule and not generated.
 */
#define assert_rule(pos, usi, rule) do { \
	enum rule_id got_ = judge_usi((pos), (usi)); \
	if (got_ != (rule)) \
		fail_msg("%s: expected %s, got %s", (usi), \
		    rule_id_name(rule), rule_id_name(got_)); \
	if (generates((pos), (usi)) != ((rule) == RULE_OK)) \
		fail_msg("%s: generator disagrees with the judge", (usi)); \
} while (0)

/* Plays a legal USI move on pos or fails the test. */
static inline void
play_usi(struct position *pos, const char *usi)
{
	struct move_claim c;
	struct undo u;
	move m;

	if (usi_parse_move(pos->v, usi, strlen(usi), &c))
		fail_msg("bad test move '%s'", usi);
	if (rules_check_move(pos, &c, &m) != RULE_OK)
		fail_msg("test move '%s' is illegal", usi);
	position_do_move(pos, m, &u);
}

#endif /* KIFU_TESTS_HELPERS_H */

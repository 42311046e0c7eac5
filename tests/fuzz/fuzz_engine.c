/*
 * fuzz_engine.c - the libFuzzer target of what kifu reads from engines
 * and writes about them: the engines file (engine/enginefile.h), an
 * engine's option and info lines and a search's answer (engine/usi.h),
 * and the analysis comments (engine/annotate.h, parsers/evaluation.h);
 * and what kifu match reads: an openings file (engine/openings.h), a
 * time control (engine/match.h), an SPRT setting (stats/elo.h).
 *
 * Not only a crash test: an engines file read has a command for every
 * engine and distinct names, a refused one says a line and column in
 * it; a search's answer read from the start position has legal moves
 * only (every PV replayed here) and reads back to itself once written;
 * replacing kifu's block in a comment keeps the new block and is the
 * same when done twice; every opening read replays from its start
 * with moves the rules allow, and a refused file names its line; a time
 * control read prints as text that reads back to the same. A failure
 * aborts.
 *
 *   make fuzz CC=clang && build/fuzz/fuzz_engine -max_total_time=60 \
 *       testdata/engine
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/rules.h"
#include "core/usi.h"
#include "engine/annotate.h"
#include "engine/enginefile.h"
#include "engine/match.h"
#include "engine/openings.h"
#include "engine/usi.h"
#include "parsers/evaluation.h"
#include "stats/elo.h"

#define MAX_INPUT (1 << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

static void
check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_engine: %s\n", what);
		abort();
	}
}

static void
engines_file(const char *text, size_t n)
{
	struct engine_file f;
	char err[512];
	size_t i, k;

	enginefile_init(&f);
	if (enginefile_parse(&f, text, n, "f", err, sizeof(err)) == 0) {
		for (i = 0; i < f.n; i++) {
			check(f.v[i].command && *f.v[i].command,
			    "an engine without a command");
			for (k = 0; k < i; k++)
				check(strcmp(f.v[i].name, f.v[k].name) != 0,
				    "two engines of one name");
			for (k = 0; k < f.v[i].noptions; k++)
				check(strchr(f.v[i].options[k], '=') != NULL,
				    "an option without '='");
		}
	} else {
		check(!strncmp(err, "f:", 2) && err[2] >= '1' && err[2] <= '9',
		    "an error without its line");
	}
	enginefile_release(&f);
}

static void
lines(const char *text)
{
	const char *p = text;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		struct usi_option o;
		struct usi_info in;
		const char *why;

		if (usi_parse_option(p, len, &o, &why) == 0) {
			check(o.name && *o.name && o.name[0] != ' ' &&
			    o.name[strlen(o.name) - 1] != ' ',
			    "an option name with blanks around it");
			usi_option_release(&o);
		}
		if (usi_parse_info(p, len, &in) == 0) {
			check(!in.pv || (in.pv >= p && in.pv + in.pv_len <=
			    p + len), "a PV outside its line");
			check(in.depth >= -1 && in.nodes >= -1 &&
			    in.time_ms >= -1, "a negative count");
		}
		p += len;
		if (*p)
			p++;
	}
}

/* Every move of every line is legal from pos. */
static void
legal(const struct usi_result *r, const struct position *pos)
{
	int i, k;

	for (i = 0; i < r->nlines; i++) {
		struct position p = *pos;

		for (k = 0; k < r->lines[i].npv; k++) {
			struct move_claim c;
			struct undo u;
			char buf[USI_MOVE_MAX];
			move m = MOVE_NONE;

			usi_format_move(r->lines[i].pv[k], buf);
			check(usi_parse_move(p.v, buf, strlen(buf), &c) == 0 &&
			    rules_check_move(&p, &c, &m) == RULE_OK &&
			    m == r->lines[i].pv[k], "an illegal PV move");
			position_do_move(&p, m, &u);
		}
	}
}

static void
result(const char *text)
{
	struct usi_result r, back;
	struct usi_error err;
	struct position pos;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	position_set_start(&pos, variant_standard());
	usi_result_init(&r);
	usi_result_init(&back);
	if (usi_result_parse(text, &pos, 3, &r, NULL, NULL, &err) == 0) {
		legal(&r, &pos);
		usi_result_format(&r, &a);
		check(usi_result_parse(a.buf, &pos, 3, &back, NULL, NULL,
		    &err) == 0, "a result written does not read back");
		usi_result_format(&back, &b);
		check(!strcmp(a.buf, b.buf), "a result reads back otherwise");
	}
	usi_result_release(&r);
	usi_result_release(&back);
	strbuf_release(&a);
	strbuf_release(&b);
}

static void
comment(const char *text)
{
	static const char block[] = "#kifu-analyze: 1 line; e; nodes 1\n"
	    "#評価値=5";
	struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;
	struct evaluation e;

	evaluation_read(text, &e);
	evaluation_read_analysis(text, &e);
	annotate_replace(text, block, &once);
	check(strstr(once.buf, block) != NULL, "the new block is missing");
	annotate_replace(once.buf, block, &twice);
	check(!strcmp(once.buf, twice.buf), "replacing twice differs");
	evaluation_read_analysis(once.buf, &e);
	check(e.has && !e.mate && e.score == 5 ? 1 : strstr(text,
	    EVALUATION_KIFU_MARKER) != NULL, "kifu's own score not read");
	strbuf_release(&once);
	strbuf_release(&twice);
}

static void
openings(const char *text, size_t n)
{
	struct openings o;
	char err[1024];
	size_t i;
	int k;

	openings_init(&o);
	if (openings_read(&o, "o", text, n, variant_standard(), -1, err,
	    sizeof(err)) == 0) {
		for (i = 0; i < o.n; i++) {
			struct position p = o.v[i].start;

			for (k = 0; k < o.v[i].nmoves; k++) {
				struct move_claim cl;
				char u[USI_MOVE_MAX];
				struct undo un;
				move m;

				usi_format_move(o.v[i].moves[k], u);
				check(usi_parse_move(p.v, u, strlen(u), &cl) ==
				    0 && rules_check_move(&p, &cl, &m) ==
				    RULE_OK && m == o.v[i].moves[k],
				    "an opening move the rules refuse");
				position_do_move(&p, m, &un);
			}
		}
	} else {
		check(!strncmp(err, "o:", 2), "an opening error without its "
		    "file");
	}
	openings_release(&o);
}

static void
settings(const char *text)
{
	struct match_tc tc, back;
	struct sprt sp;
	char err[512], desc[128];

	if (match_tc_parse(text, &tc, err, sizeof(err)) == 0) {
		match_tc_describe(&tc, desc, sizeof(desc));
		check(match_tc_parse(desc, &back, err, sizeof(err)) == 0 &&
		    !memcmp(&tc, &back, sizeof(tc)), "a time control that "
		    "does not read back");
	}
	if (sprt_parse(text, &sp, err, sizeof(err)) == 0) {
		double lo, hi;

		sprt_bounds(&sp, &lo, &hi);
		check(lo < 0 && hi > 0 && sp.elo0 < sp.elo1, "an SPRT setting "
		    "with bounds the wrong way");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text;

	if (n > MAX_INPUT)
		return 0;
	core_init();
	engines_file((const char *)data, n);
	text = malloc(n + 1);
	if (!text)
		abort();
	memcpy(text, data, n);
	text[n] = '\0';
	/* Text with a NUL is read up to it, as a line reader would. */
	lines(text);
	result(text);
	comment(text);
	openings(text, strlen(text));
	settings(text);
	free(text);
	return 0;
}

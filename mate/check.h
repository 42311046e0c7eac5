/*
 * check.h - is a composed problem sound? The solution a record gives is
 * judged move by move against the solver (kifu tsume check;
 * doc/mate.md, "Checking a problem").
 *
 * The solution is walked from its end: at each attacker move, does
 * another check mate within the moves left (a cook, 余詰; at the last
 * move an alternative mate, reported apart); at each defender move,
 * does another reply need more moves (変長) or escape (不詰), or as
 * many (変同, reported apart). Each position of the solution whose
 * length is so established is recorded for the later queries, so that
 * an alternative which returns to the solution is cut at once.
 */
#ifndef KIFU_MATE_CHECK_H
#define KIFU_MATE_CHECK_H

#include "mate.h"

/*
 * X(enum name, id, label, whether it makes the problem unsound). The ids
 * are promises to scripts (JSON "kind"): add, never rename.
 */
#define TSUME_FINDINGS(X) \
	X(TF_ILLEGAL, "illegal", "illegal move", 1) \
	X(TF_NOT_CHECK, "not-check", "no check", 1) \
	X(TF_NOT_MATE, "not-mate", "no mate at the end", 1) \
	X(TF_ESCAPE, "no-mate", "escape (不詰)", 1) \
	X(TF_COOK, "cook", "cook (余詰)", 1) \
	X(TF_LONGER, "longer-defence", "longer defence (変長)", 1) \
	X(TF_PIECES_LEFT, "pieces-left", "pieces left (駒余り)", 1) \
	X(TF_FUTILE, "futile-interposition", "futile interposition played (無駄合)", 1) \
	X(TF_LENGTH, "length", "exact length", 1) \
	X(TF_LAST_ALT, "last-move-alternative", "another last move (最終手余詰)", 0) \
	X(TF_CHOICE, "non-determinate", "non-determinate (非限定)", 0) \
	X(TF_TRANSPOSITION, "transposition", "transposition (手順前後)", 0) \
	X(TF_EQUAL, "equal-defence", "equal defence (変同)", 0) \
	X(TF_UNDECIDED, "undecided", "undecided within the limits", 0)

#define TF_ENUM(e, id, what, bad) e,
enum tsume_finding_kind { TSUME_FINDINGS(TF_ENUM) TF_NB };
#undef TF_ENUM

const char *tsume_finding_id(enum tsume_finding_kind k);
/* The label text output uses: "cook (余詰)". */
const char *tsume_finding_text(enum tsume_finding_kind k);
int tsume_finding_unsound(enum tsume_finding_kind k);

struct tsume_finding {
	enum tsume_finding_kind kind;
	int ply;		/* the move it is about (1 = the first); 0 none */
	move m;			/* the other move, or the solution's; 0 none */
	int length;		/* plies of the mate after m from this ply; -1 */
	int pieces;		/* TF_PIECES_LEFT: how many */
	struct mate_line line;	/* the mate after m, when found */
};

enum tsume_verdict {
	TSUME_SOUND,
	TSUME_UNSOUND,
	TSUME_UNKNOWN
};

struct tsume_report {
	enum tsume_verdict verdict;
	int length;		/* the solution's plies */
	int exact;		/* the exact length from the start; -1 unknown */
	struct mate_line exact_line;	/* a line of that length, when needed */
	struct tsume_finding *f;
	int nf, af;
	uint64_t nodes;
	double seconds;
};

void tsume_report_init(struct tsume_report *r);
void tsume_report_release(struct tsume_report *r);
const char *tsume_verdict_name(enum tsume_verdict v);

/*
 * Called after each ply is judged (from the last to the first), for a
 * caller that shows progress on a long problem; fn may be NULL.
 */
struct tsume_progress {
	void (*fn)(void *ctx, int ply, const struct tsume_report *r);
	void *ctx;
};

/*
 * Judges solution[0..n) from start (attacker to move, prepared with
 * mate_prepare under `rules`): every move must be legal (the caller has
 * replayed them; an illegal one ends the solution there and is passed
 * as illegal_ply, 0 for none). out is reset first.
 */
void tsume_check(struct mate_ctx *c, const struct position *start,
    const move *solution, int n, int illegal_ply, enum mate_rules rules,
    const struct mate_limits *lim, const struct tsume_progress *progress,
    struct tsume_report *out);

#endif /* KIFU_MATE_CHECK_H */

/*
 * train_game.h - for the training-row tests: a record read from a file or
 * a string, replayed and judged under a rule set, as export hands it to
 * a writer (struct train_game).
 */
#ifndef KIFU_TESTS_TRAIN_GAME_H
#define KIFU_TESTS_TRAIN_GAME_H

#include "walk_records.h"
#include "core/adjudicate.h"
#include "core/ruleset.h"
#include "parsers/train.h"

struct tgame {
	struct record r;
	struct replay rp;
	struct adjudication adj;
	struct train_game g;
	struct diag_list d;
};

/*
 * Reads the first record of `n` bytes of `data` with the reader the name
 * `name`'s extension picks, replays and judges it under rule set `rules`
 * (with max-moves overridden when max_moves >= 0).
 */
static inline void
tgame_load(struct tgame *t, const char *name, const char *data, size_t n,
    const char *rules, int max_moves)
{
	enum read_status (*read)(struct reader *, struct record *,
	    struct diag_list *) = walk_reader_for(name);
	struct ruleset rs = *ruleset_by_name(rules);
	struct reader rd;
	struct text tx;

	if (!read)
		fail_msg("%s: no reader", name);
	if (max_moves >= 0) {
		char v[16];

		snprintf(v, sizeof(v), "%d", max_moves);
		assert_int_equal(ruleset_set(&rs, "max-moves", v), 0);
	}
	diag_list_init(&t->d);
	text_init(&tx);
	if (text_decode(&tx, data, n, &t->d) < 0)
		fail_msg("%s: cannot decode", name);
	record_init(&t->r, variant_standard());
	reader_init(&rd, &tx, variant_standard());
	if (read(&rd, &t->r, &t->d) != READ_OK)
		fail_msg("%s: cannot read: %s", name, t->d.n ?
		    t->d.v[0].message : "?");
	text_release(&tx);
	replay_record(&t->r, &t->rp, &t->d);
	adjudicate(&t->r, &t->rp, &rs, &t->adj);
	t->g.r = &t->r;
	t->g.rp = &t->rp;
	t->g.adj = &t->adj;
}

static inline void
tgame_load_file(struct tgame *t, const char *path, const char *rules)
{
	size_t n;
	char *data = walk_slurp(path, &n);

	if (!data)
		fail_msg("cannot read %s", path);
	tgame_load(t, path, data, n, rules, -1);
	free(data);
}

/* A record given as text; name only picks the reader ("x.usi"). */
static inline void
tgame_load_text(struct tgame *t, const char *name, const char *text,
    const char *rules, int max_moves)
{
	tgame_load(t, name, text, strlen(text), rules, max_moves);
}

static inline void
tgame_release(struct tgame *t)
{
	record_release(&t->r);
	diag_list_release(&t->d);
}

#endif /* KIFU_TESTS_TRAIN_GAME_H */

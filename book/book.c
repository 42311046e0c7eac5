/*
 * book.c - a book's options, life and counts (book.h); the work is in
 * build.c, read.c, write.c and query.c.
 */
#include <stdlib.h>
#include <string.h>

#include "book/book.h"

const char *
book_why_name(int why)
{
	switch (why) {
	case BOOK_WHY_UNREADABLE: return "unreadable";
	case BOOK_WHY_ILLEGAL: return "illegal";
	default: break;
	}
	if (why >= BOOK_WHY_SELECT && why < BOOK_WHY_TRAIN)
		return select_drop_name((enum select_drop)(why -
		    BOOK_WHY_SELECT));
	if (why >= BOOK_WHY_TRAIN && why < BOOK_WHY_NB)
		return train_skip_name((enum train_skip)(why - BOOK_WHY_TRAIN));
	return "used";
}

void
book_opts_init(struct book_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->max_ply = 40;
	o->side = -1;
	o->memory = BOOK_DEFAULT_MEMORY;
	o->tmpdir = ".";
	select_init(&o->so);
}

void
book_init(struct book *b, const struct book_opts *o)
{
	memset(b, 0, sizeof(*b));
	b->o = *o;
	bookagg_init(&b->agg, o->memory, o->tmpdir);
	select_seen_init(&b->seen);
	strbuf_init(&b->preamble);
	strbuf_init(&b->w);
	pthread_mutex_init(&b->join, NULL);
}

void
book_release(struct book *b)
{
	bookagg_release(&b->agg);
	select_seen_release(&b->seen);
	strbuf_release(&b->preamble);
	strbuf_release(&b->w);
	free(b->idx);
	pthread_mutex_destroy(&b->join);
}

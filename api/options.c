/*
 * options.c - the options of kifu_options that the pictures, books and
 * the walk take (api/libkifu.h), by the names of the commands' options:
 * `kifu show`'s, `kifu book build`'s with the selection `export` shares,
 * and the walk's --all-files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api/libkifu.h"
#include "core/parse.h"

void
api_opts_init(struct api_opts *x)
{
	memset(x, 0, sizeof(*x));
	x->show.flip = -1;
	x->show.size = 0;	/* the kind's: 480, a graph 640 */
	x->show.delay_ms = 1000;
	book_opts_init(&x->book);
}

static int
yes_no(const char *v, int *out)
{
	if (!strcmp(v, "yes"))
		*out = 1;
	else if (!strcmp(v, "no"))
		*out = 0;
	else
		return -1;
	return 1;
}

static int
count(const char *v, int min, int max, int *out)
{
	int n = parse_count(v, max);

	if (n < min)
		return -1;
	*out = n;
	return 1;
}

static int
show_set(struct api_show *s, const char *key, const char *v)
{
	int n;

	if (!strcmp(key, "flip"))
		return yes_no(v, &s->flip);
	if (!strcmp(key, "size"))
		return count(v, 120, 4000, &s->size);
	if (!strcmp(key, "ascii"))
		return yes_no(v, &s->ascii);
	if (!strcmp(key, "moves"))
		return yes_no(v, &s->moves);
	if (!strcmp(key, "color")) {
		/* No terminal to ask: "auto" has nothing to go by. */
		if (!strcmp(v, "always") || !strcmp(v, "never")) {
			s->colour = v[0] == 'a';
			return 1;
		}
		return -1;
	}
	if (!strcmp(key, "delay")) {
		if (count(v, 0, 655350, &n) < 0)
			return -1;
		s->delay_ms = n;
		return 1;
	}
	if (!strcmp(key, "real-time")) {
		char *end;
		double f;

		errno = 0;
		f = strtod(v, &end);
		if (!*v || *end || errno || !(f > 0) || f > 1000)
			return -1;
		s->real_time = f;
		return 1;
	}
	return 0;
}

/* The selection's names and the codes select_take knows them by. */
static const struct {
	const char *name;
	int opt;
} selection[] = {
	{ "min-moves", OPT_SELECT_MIN_MOVES },
	{ "min-rating", OPT_SELECT_MIN_RATING },
	{ "results", OPT_SELECT_RESULTS },
	{ "winner", OPT_SELECT_WINNER },
};

static int
book_set(struct book_opts *o, const char *key, const char *v)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;
	int rc;

	if (!strcmp(key, "max-ply"))
		return count(v, 0, 1000000000, &o->max_ply);
	if (!strcmp(key, "min-count"))
		return count(v, 0, 1000000000, &o->min_count);
	if (!strcmp(key, "side")) {
		if (!strcmp(v, "black"))
			o->side = BLACK;
		else if (!strcmp(v, "white"))
			o->side = WHITE;
		else if (!strcmp(v, "both"))
			o->side = -1;
		else
			return -1;
		return 1;
	}
	if (!strcmp(key, "memory")) {
		size_t m;

		if (bookagg_parse_size(v, &m) < 0)
			return -1;
		o->memory = m;
		return 1;
	}
	if (!strcmp(key, "uniq"))
		return yes_no(v, &o->so.uniq);
	for (i = 0; i < sizeof(selection) / sizeof(selection[0]); i++)
		if (!strcmp(key, selection[i].name)) {
			/* A value refused leaves the selection as it was. */
			struct select_opts so = o->so;

			rc = select_take(&so, selection[i].opt, v, &why);
			strbuf_release(&why);
			if (rc != 1)
				return -1;
			o->so = so;
			return 1;
		}
	return 0;
}

int
api_opts_set(struct api_opts *x, const char *key, const char *value)
{
	int rc;

	if ((rc = show_set(&x->show, key, value)) != 0 ||
	    (rc = book_set(&x->book, key, value)) != 0)
		return rc;
	if (!strcmp(key, "all-files"))
		return yes_no(value, &x->all_files);
	return 0;
}

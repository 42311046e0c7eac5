/*
 * schedule.c - the games of an engine match (schedule.h).
 */
#include <stdlib.h>
#include <string.h>

#include "schedule.h"
#include "core/xalloc.h"

long long
schedule_games_per_pairing(long long games, int repeat)
{
	return repeat && games % 2 ? games + 1 : games;
}

size_t
schedule_openings_needed(long long games, int repeat)
{
	return (size_t)(repeat ? (games + 1) / 2 : games);
}

static void
pairings(struct schedule *s, int n, int round_robin)
{
	int i, j;

	s->pairings = xcalloc((size_t)n * (size_t)n, sizeof(*s->pairings));
	s->npairings = 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (round_robin || i == 0) {
				s->pairings[s->npairings][0] = i;
				s->pairings[s->npairings++][1] = j;
			}
}

void
schedule_make(struct schedule *s, const struct schedule_opts *o)
{
	long long per = schedule_games_per_pairing(o->games, o->repeat), g;
	int step = o->repeat ? 2 : 1, p, pair = 0;
	size_t i = 0;

	memset(s, 0, sizeof(*s));
	pairings(s, o->nengines, o->round_robin);
	s->n = (size_t)per * (size_t)s->npairings;
	s->games = xcalloc(s->n ? s->n : 1, sizeof(*s->games));
	for (g = 0; i < s->n; g += step) {
		long long round = g / step;
		size_t op = o->order[(size_t)round % o->nopenings];

		for (p = 0; p < s->npairings && i < s->n; p++) {
			int a = s->pairings[p][0], b = s->pairings[p][1], k;

			pair++;
			for (k = 0; k < step && i < s->n; k++, i++) {
				struct schedule_game *sg = &s->games[i];
				/* a pair swaps within; single games by round */
				int swap = o->repeat ? k : (int)(g & 1);

				sg->black = swap ? b : a;
				sg->white = swap ? a : b;
				sg->opening = op;
				sg->round = (int)round + 1;
				sg->pair = o->repeat ? pair : 0;
			}
		}
	}
}

void
schedule_release(struct schedule *s)
{
	free(s->pairings);
	free(s->games);
	memset(s, 0, sizeof(*s));
}

/*
 * mate_bench - the mate solver's benchmark (`make bench`) and the maker
 * of its sets.
 *
 *   mate_bench --generate MAXN < positions.sfen > set.tsv
 *	solves every position (the side to move attacking, game rules,
 *	limits below), keeps those with a mate of at most MAXN plies as
 *	"N<TAB>SFEN" lines, and checks each of up to REF_MAX plies against
 *	the plain search of tests/mate_ref.h (a second method): a
 *	disagreement is printed on stderr and the position left out.
 *   mate_bench [--ref MAXN] set.tsv
 *	solves each position afresh (a new solver each, so that no
 *	problem is helped by the table of another), checks the length
 *	against the set's and the line against the core, times each with
 *	the process's CPU clock (the machine is shared: wall time drifts),
 *	and for N <= MAXN times the plain search too. Prints a table by N
 *	and exits 1 if any mate was not proved or was proved wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/sfen.h"
#include "mate/mate.h"
#include "tests/mate_ref.h"

#define MAXN 31
#define REF_MAX 7

static double
cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int
read_position(const char *text, struct position *pos)
{
	struct mate_error me;

	if (sfen_read(pos, variant_standard(), text, NULL) != SFEN_OK)
		return -1;
	return mate_prepare(pos, MATE_GAME, &me);
}

static int
generate(int maxn)
{
	struct mate_ctx *c = mate_ctx_new((size_t)256 << 20);
	struct mate_limits lim = { 200000, 10 };
	char line[1024];
	int kept = 0, seen = 0;

	if (!c)
		return 2;
	while (fgets(line, sizeof(line), stdin)) {
		struct mate_result r;
		struct position pos;

		line[strcspn(line, "\t\n")] = '\0';
		if (!line[0] || line[0] == '#' || read_position(line, &pos))
			continue;
		seen++;
		mate_result_init(&r);
		mate_solve(c, &pos, MATE_GAME, &lim, &r);
		if (r.status == MATE_MATE && r.length <= maxn) {
			int ok = 1;

			if (r.length <= REF_MAX) {
				int ref = ref_mate_length(&pos, 0, r.length,
				    NULL);

				if (ref != r.length) {
					fprintf(stderr, "mate_bench: %s: solver "
					    "%d, plain search %d\n", line,
					    r.length, ref);
					ok = 0;
				}
			}
			if (ok) {
				printf("%d\t%s\n", r.length, line);
				fflush(stdout);
				kept++;
			}
		}
		mate_result_release(&r);
	}
	fprintf(stderr, "mate_bench: %d positions, %d mates kept\n", seen,
	    kept);
	mate_ctx_free(c);
	return 0;
}

struct row {
	int n, proved, wrong, ref_n, ref_wrong;
	double cpu, max, ref_cpu;
	unsigned long long nodes;
};

static int
bench(const char *path, int refmax)
{
	struct row rows[MAXN + 1];
	struct mate_limits lim = { 0, 60 };
	FILE *f = fopen(path, "r");
	char line[1024];
	struct rusage ru;
	int n, bad = 0;

	if (!f) {
		perror(path);
		return 2;
	}
	memset(rows, 0, sizeof(rows));
	while (fgets(line, sizeof(line), f)) {
		struct mate_ctx *c;
		struct mate_result r;
		struct position pos;
		struct row *w;
		char *sfen = strchr(line, '\t');
		double t0;
		int want;

		if (!sfen || line[0] == '#')
			continue;
		*sfen++ = '\0';
		sfen[strcspn(sfen, "\n")] = '\0';
		want = atoi(line);
		if (want < 1 || want > MAXN || read_position(sfen, &pos))
			continue;
		w = &rows[want];
		w->n++;
		if (!(c = mate_ctx_new((size_t)256 << 20)))
			return 2;
		mate_result_init(&r);
		t0 = cpu_now();
		mate_solve(c, &pos, MATE_GAME, &lim, &r);
		t0 = cpu_now() - t0;
		w->cpu += t0;
		if (t0 > w->max)
			w->max = t0;
		w->nodes += r.nodes;
		if (r.status == MATE_MATE && r.length == want &&
		    mate_line_replays(c, &pos, &r.line)) {
			w->proved++;
		} else {
			if (r.status == MATE_MATE) {
				w->wrong++;
				fprintf(stderr, "WRONG %s: %d, not %d\n", sfen,
				    r.length, want);
			} else {
				fprintf(stderr, "UNPROVED %s (%s, %s)\n", sfen,
				    mate_status_name(r.status),
				    mate_stop_name(r.stop));
			}
			bad = 1;
		}
		mate_result_release(&r);
		mate_ctx_free(c);
		if (want <= refmax) {
			int ref;

			t0 = cpu_now();
			ref = ref_mate_length(&pos, 0, want, NULL);
			w->ref_cpu += cpu_now() - t0;
			w->ref_n++;
			if (ref != want)
				w->ref_wrong++;
		}
	}
	fclose(f);
	printf("  %-4s %6s %7s %6s %11s %11s %10s %13s\n", "N", "count",
	    "proved", "wrong", "avg ms", "max ms", "knodes/s", "plain avg ms");
	for (n = 1; n <= MAXN; n++) {
		struct row *w = &rows[n];

		if (!w->n)
			continue;
		printf("  %-4d %6d %7d %6d %11.2f %11.2f %10.0f", n, w->n,
		    w->proved, w->wrong, w->cpu / w->n * 1000, w->max * 1000,
		    w->cpu > 0 ? (double)w->nodes / w->cpu / 1000 : 0);
		if (w->ref_n)
			printf(" %13.2f%s", w->ref_cpu / w->ref_n * 1000,
			    w->ref_wrong ? " (DISAGREES)" : "");
		printf("\n");
	}
	{
		double cpu = 0;
		int count = 0;

		for (n = 1; n <= 7; n++) {
			cpu += rows[n].cpu;
			count += rows[n].n;
		}
		if (count)
			printf("  N <= 7: %d problems, %.2f ms a problem on "
			    "average (target: under 50)\n", count,
			    cpu / count * 1000);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("  peak memory %ld MB (the table's ceiling: 256 MB)\n",
	    ru.ru_maxrss / 1024);
	return bad;
}

int
main(int argc, char **argv)
{
	int refmax = 0;

	if (argc == 3 && !strcmp(argv[1], "--generate"))
		return generate(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "--ref")) {
		refmax = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: mate_bench --generate MAXN <sfens "
		    ">set\n       mate_bench [--ref MAXN] set\n");
		return 2;
	}
	return bench(argv[1], refmax);
}

/*
 * mock_engine - a USI engine for the tests: real answers (legal moves,
 * scores that are a function of the position) and, on request, each
 * fault a real engine shows rarely. Built by the Makefile into
 * build/san/tests/mock_engine, against libkifu for the rules.
 *
 *   mock_engine [--name NAME] [--pidfile FILE] [--log FILE]
 *               [--fault FAULT] [--at N | --after N] [--counter FILE]
 *               [--spawn-child]
 *               [--init-delay MS] [--variants] [--no-multipv]
 *               [--think MS] [--ready-delay MS] [--play M1,M2,...]
 *               [--score CP] [--declare LINE]...
 *
 * --pidfile appends the pid of every start, and "PID child" for the
 * child --spawn-child leaves in its group, so a test can check that none
 * is left; --log appends every line received. With --at N and --counter
 * FILE the fault strikes only on the Nth `go` counted across starts
 * (the engine that kifu starts again then behaves); with --after N on
 * every `go` after the Nth (kifu tries an unknown engine's limit once
 * with a go of its own before the analysis). Faults:
 *
 *   exit-start       exits at once, status 3
 *   no-usiok         never answers usi
 *   no-readyok       never answers isready
 *   flood-init       endless lines, never usiok
 *   long-lines       a 200 KB line before usiok and in every search
 *   garbage          junk lines (binary, broken info fields, CR LF)
 *   die-search       exits in the middle of a search (status 134)
 *   hang-search      never answers go, ignores stop (and SIGTERM)
 *   overrun          searches until stop, then answers
 *   flood-search     info lines without end until stop
 *   illegal-bestmove a bestmove that is no legal move
 *   empty-bestmove   "bestmove" alone
 *   illegal-pv       a PV with an illegal third move
 *   close-output     closes stdout at go and sleeps
 *   no-depth         dies (SIGABRT) on go depth and go nodes, as gpsusi
 *   no-score         bestmove without any info line
 *   mate-score       every score a mate: "mate 3" / "mate -2" by position
 *   declare-win      "bestmove win", whatever the position
 *   resign           "bestmove resign"
 *   noise-init       before usiok: stray readyok, bestmove and info lines
 *
 * --play M1,M2,... plays the first of these USI moves that is legal,
 * when one is (a scripted game: cycles for sennichite, perpetual check).
 * --score CP makes every score that (a lost or won engine, for
 * adjudication).
 * --declare LINE adds an option line to the usi answer ("option name
 * USI_AnalyseMode type check default false": what kifu sets by itself).
 * --think MS waits MS before each bestmove (a clock to run out);
 * --ready-delay MS before each readyok (late, within kifu's timeout or
 * past it).
 */
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "core/sfen.h"
#include "core/usi.h"

static const char *name = "kifu mock 1.0";
static const char *pidfile, *logfile, *fault = "", *counter;
static int at = 0, after = -1, spawn_child, init_delay, variants, multipv_opt = 1;
static int think, ready_delay;
static const char *play;
static int fixed_score, has_fixed_score;
static const char *declared[8];
static int ndeclared;
static int multipv = 1;
static const struct variant *variant;
static struct position pos;

static void
say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void
append(const char *path, const char *fmt, long v)
{
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, fmt, v);
	fclose(f);
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void __attribute__((noreturn))
sleep_forever(void)
{
	for (;;)
		sleep(60);
}

/* Whether the fault strikes on this go (the Nth, counted in a file). */
static int
strikes(const char *f)
{
	long n = 0;
	FILE *c;

	if (strcmp(fault, f))
		return 0;
	if ((!at && after < 0) || !counter)
		return 1;
	if ((c = fopen(counter, "r"))) {
		if (fscanf(c, "%ld", &n) != 1)
			n = 0;
		fclose(c);
	}
	n++;
	if ((c = fopen(counter, "w"))) {
		fprintf(c, "%ld\n", n);
		fclose(c);
	}
	return after >= 0 ? n > after : n == at;
}

static int
is(const char *f)
{
	return !strcmp(fault, f);
}

/* A score that depends on the position only. */
static int
eval(const struct position *p)
{
	uint64_t k = position_key(p);

	return (int)(k % 601) - 300;
}

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* The legal moves in an order that is a function of the position. */
static int
ranked(const struct position *p, move *out, int max)
{
	struct move_list ml;
	uint64_t key = position_key(p);
	int i, j, n = movegen_legal(p, &ml);

	for (i = 1; i < n; i++) {
		move m = ml.m[i];
		uint64_t h = mix(key ^ m);

		for (j = i; j > 0 && mix(key ^ ml.m[j - 1]) > h; j--)
			ml.m[j] = ml.m[j - 1];
		ml.m[j] = m;
	}
	for (i = 0; i < n && i < max; i++)
		out[i] = ml.m[i];
	return n < max ? n : max;
}

static void
print_pv(struct position p, move first, int len, int illegal_third)
{
	char buf[USI_MOVE_MAX];
	move m = first;
	int i;

	for (i = 0; i < len && m; i++) {
		struct undo u;
		move next[1];

		if (i == 2 && illegal_third) {
			fputs(" 5e5e", stdout);
			continue;
		}
		usi_format_move(m, buf);
		printf(" %s", buf);
		position_do_move(&p, m, &u);
		m = ranked(&p, next, 1) ? next[0] : MOVE_NONE;
	}
}

static void
long_line(void)
{
	int i;

	for (i = 0; i < 200 * 1024; i++)
		putchar(i % 64 ? 'x' : ' ');
	putchar('\n');
	fflush(stdout);
}

static void
garbage(void)
{
	fputs("\x01\xff\xfe garbage \x80\r\n", stdout);
	fputs("info depth abc score cp xyz nodes -5 pv\r\n", stdout);
	fputs("   \r\n\r\n", stdout);
	fputs("bestmovex 7g7f\n", stdout);
	fputs("info score mate\n", stdout);
	fputs("info string bestmove 1a1a\n", stdout);
	fflush(stdout);
}

static int
stop_requested(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin))
		if (!strncmp(line, "stop", 4))
			return 1;
	return 0;
}

static void
search(const char *args)
{
	move cand[64];
	int n, k, score = has_fixed_score ? fixed_score : eval(&pos);
	char buf[USI_MOVE_MAX];
	/* Counted once a go: whether the fault strikes on this one. */
	int on = *fault && strikes(fault);

	if (on && is("no-depth") && (strstr(args, "depth") ||
	    strstr(args, "nodes"))) {
		fprintf(stderr, "unknown option in go %s\n", args);
		abort();
	}
	if (on && is("die-search")) {
		say("info depth 1 score cp 10 nodes 1 pv 7g7f");
		exit(134);
	}
	if (on && is("hang-search")) {
		signal(SIGTERM, SIG_IGN);
		say("info depth 1");
		sleep_forever();
	}
	if (on && is("close-output")) {
		fclose(stdout);
		close(1);
		sleep_forever();
	}
	if (on && is("long-lines"))
		long_line();
	if (on && is("garbage"))
		garbage();
	if (on && is("overrun") && !stop_requested())
		exit(0);
	if (on && is("flood-search")) {
		struct pollfd pf = { 0, POLLIN, 0 };
		long i;

		/* Until stop arrives; stdin is polled between lines. */
		for (i = 0; poll(&pf, 1, 0) == 0; i++) {
			printf("info depth %ld nodes %ld string flood\n", i, i);
			fflush(stdout);
		}
	}
	if (think)
		sleep_ms(think);
	if (on && is("declare-win")) {
		say("bestmove win");
		return;
	}
	if (on && is("resign")) {
		say("info depth 1 score cp -3000 pv resign");
		say("bestmove resign");
		return;
	}
	n = ranked(&pos, cand, 64);
	if (play && n) {
		const char *p = play;

		while (*p) {
			size_t len = strcspn(p, ",");
			struct move_claim cl;
			move m;
			int j;

			if (usi_parse_move(variant, p, len, &cl) == 0 &&
			    rules_check_move(&pos, &cl, &m) == RULE_OK) {
				for (j = 0; j < n && cand[j] != m; j++)
					;
				if (j < n) {
					cand[j] = cand[0];
					cand[0] = m;
				}
				break;
			}
			p += len + (p[len] == ',');
		}
	}
	if (!n) {
		say("info depth 0 score mate 0");
		say("bestmove resign");
		return;
	}
	if (on && is("illegal-bestmove")) {
		say("info depth 1 score cp 5 pv 5e5e");
		say("bestmove 5e5e");
		return;
	}
	if (on && is("empty-bestmove")) {
		say("bestmove");
		return;
	}
	if (!(on && is("no-score")))
		for (k = 0; k < multipv && k < n; k++) {
			printf("info depth 3 seldepth 5 multipv %d ", k + 1);
			if (on && is("mate-score"))
				printf("score mate %d", score >= 0 ? 3 : -2);
			else
				printf("score cp %d", score - 10 * k);
			printf(" nodes %d nps 1000 time 1 pv", 100 + k);
			print_pv(pos, cand[k], 4, (on && is("illegal-pv")));
			printf("%s\n", (on && is("garbage")) ? "\r" : "");
			fflush(stdout);
		}
	if (on && is("long-lines"))
		long_line();
	usi_format_move(cand[0], buf);
	{
		struct position next = pos;
		struct undo u;
		move reply[1];
		char pbuf[USI_MOVE_MAX];

		position_do_move(&next, cand[0], &u);
		if (ranked(&next, reply, 1)) {
			usi_format_move(reply[0], pbuf);
			say("bestmove %s ponder %s", buf, pbuf);
			return;
		}
	}
	say("bestmove %s", buf);
}

static void
set_position(char *args)
{
	char *p = args;
	size_t used = 0;
	struct sfen_error e;

	if (!strncmp(p, "startpos", 8)) {
		position_set_start(&pos, variant);
		p += 8;
	} else if (!strncmp(p, "sfen ", 5)) {
		if (sfen_read_prefix(&pos, variant, p + 5, &used, &e) != SFEN_OK) {
			fprintf(stderr, "mock: bad sfen: %s\n", e.message);
			exit(2);
		}
		p += 5 + used;
	}
	while (*p == ' ')
		p++;
	if (!strncmp(p, "moves", 5)) {
		char *tok = strtok(p + 5, " \n");

		for (; tok; tok = strtok(NULL, " \n")) {
			struct move_claim cl;
			struct undo u;
			move m;

			if (usi_parse_move(variant, tok, strlen(tok), &cl) < 0 ||
			    rules_check_move(&pos, &cl, &m) != RULE_OK) {
				fprintf(stderr, "mock: illegal move %s\n", tok);
				exit(2);
			}
			position_do_move(&pos, m, &u);
		}
	}
}

static void
usi(void)
{
	int i;

	if (init_delay)
		sleep_ms(init_delay);
	if (is("exit-start"))
		exit(3);
	say("mock banner line");
	say("%s", "");
	if (is("flood-init"))
		for (;;)
			say("info string still starting");
	if (is("long-lines"))
		long_line();
	if (is("no-usiok"))
		return;
	if (is("noise-init")) {
		say("readyok");
		say("bestmove 7g7f");
		say("info depth 1 score cp 0 pv 7g7f");
		say("id name");
	}
	say("id name %s", name);
	say("id author kifu tests");
	say("option name Threads type spin default 1 min 1 max 4");
	if (multipv_opt)
		say("option name MultiPV type spin default 1 min 1 max 8");
	say("option name Style type combo default normal var normal var wild");
	say("option name Ponder type check default false");
	say("option name Clear Hash type button");
	say("option name Log File type string default <empty>");
	if (variants)
		say("option name UCI_Variant type combo default shogi var shogi "
		    "var minishogi");
	for (i = 0; i < ndeclared; i++)
		say("%s", declared[i]);
	say("usiok");
}

int
main(int argc, char **argv)
{
	static char line[1 << 20];
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--name") && v)
			name = v, i++;
		else if (!strcmp(a, "--pidfile") && v)
			pidfile = v, i++;
		else if (!strcmp(a, "--log") && v)
			logfile = v, i++;
		else if (!strcmp(a, "--fault") && v)
			fault = v, i++;
		else if (!strcmp(a, "--at") && v)
			at = atoi(v), i++;
		else if (!strcmp(a, "--after") && v)
			after = atoi(v), i++;
		else if (!strcmp(a, "--counter") && v)
			counter = v, i++;
		else if (!strcmp(a, "--init-delay") && v)
			init_delay = atoi(v), i++;
		else if (!strcmp(a, "--score") && v)
			fixed_score = atoi(v), has_fixed_score = 1, i++;
		else if (!strcmp(a, "--play") && v)
			play = v, i++;
		else if (!strcmp(a, "--think") && v)
			think = atoi(v), i++;
		else if (!strcmp(a, "--ready-delay") && v)
			ready_delay = atoi(v), i++;
		else if (!strcmp(a, "--spawn-child"))
			spawn_child = 1;
		else if (!strcmp(a, "--variants"))
			variants = 1;
		else if (!strcmp(a, "--no-multipv"))
			multipv_opt = 0;
		else if (!strcmp(a, "--declare") && v && ndeclared < 8)
			declared[ndeclared++] = v, i++;
		else {
			fprintf(stderr, "mock: unknown argument %s\n", a);
			return 2;
		}
	}
	core_init();
	variant = variant_standard();
	position_set_start(&pos, variant);
	append(pidfile, "%ld\n", (long)getpid());
	if (spawn_child) {
		pid_t c = fork();

		if (c == 0) {
			/* Stays in the engine's group, holding nothing. */
			fclose(stdin);
			fclose(stdout);
			sleep_forever();
		}
		append(pidfile, "%ld child\n", (long)c);
	}
	while (fgets(line, sizeof(line), stdin)) {
		char *nl = strpbrk(line, "\r\n");

		if (nl)
			*nl = '\0';
		if (logfile) {
			FILE *f = fopen(logfile, "a");

			if (f) {
				fprintf(f, "%s\n", line);
				fclose(f);
			}
		}
		if (!strcmp(line, "usi"))
			usi();
		else if (!strcmp(line, "isready")) {
			if (ready_delay)
				sleep_ms(ready_delay);
			if (!is("no-readyok"))
				say("readyok");
		} else if (!strncmp(line, "setoption name MultiPV value ", 29))
			multipv = atoi(line + 29);
		else if (!strcmp(line, "setoption name UCI_Variant value minishogi"))
			variant = variant_minishogi();
		else if (!strcmp(line, "setoption name UCI_Variant value shogi"))
			variant = variant_standard();
		else if (!strncmp(line, "position ", 9))
			set_position(line + 9);
		else if (!strncmp(line, "go", 2))
			search(line + 2);
		else if (!strcmp(line, "quit"))
			return 0;
		/* usinewgame, stop when idle, setoption: nothing to say. */
	}
	return 0;
}

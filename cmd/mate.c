/*
 * mate.c - `kifu mate`: is there a mate by checks, and how long exactly
 * (the solver is mate/; doc/mate.md).
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/input.h"
#include "api/judge.h"
#include "api/mateio.h"
#include "api/problems.h"
#include "book/bookagg.h"
#include "cmd.h"
#include "core/sfen.h"
#include "core/xalloc.h"
#include "mate/mate.h"

const char cmd_mate_usage[] =
    "usage: kifu mate [--sfen <sfen> | <file>...] [--rules game|problem]\n"
    "                 [--nodes <n>] [--time <seconds>] [--memory <size>]\n"
    "                 [--json] [-j <n>] [--ply <n>] [--kanji]\n"
    "\n"
    "Solves mates by checks: whether the side to move can mate the other\n"
    "by checking on every move, and in how many plies exactly (the\n"
    "shortest mate against the longest defence). Each position gets one\n"
    "line: 'mate 7: G*5b 4a5b ...', 'nomate' (proved: no mate by checks\n"
    "at all) or 'unknown' (not decided within the limits; never a\n"
    "guess). Every line printed has been replayed through the rules.\n"
    "A repetition is no mate (the checks would be perpetual).\n"
    "\n"
    "Positions come from --sfen, or from files ('-': standard input): a\n"
    "file whose first line is a position (an SFEN, 'sfen ...', 'startpos'\n"
    "or 'position ...', with 'moves ...' if wanted) is read as one problem\n"
    "a line, a line at a time, blank and '#' lines skipped; any other\n"
    "file is read as records (KIF, KI2, CSA, JKF...), and each record's\n"
    "final position, or the one after --ply moves, is solved. From files\n"
    "each answer starts with FILE:LINE: of its line or record.\n"
    "Exit status: 0 every position mates, 1 some do not or are unknown,\n"
    "2 trouble (usage, unreadable input, a position that cannot be solved).\n"
    "\n"
    "    --sfen <sfen>       the position (an SFEN, or a USI position line)\n"
    "    --rules game|problem\n"
    "                        game (default): any mate, every interposition\n"
    "                        counts, hands as given; problem: composed-\n"
    "                        problem conventions (詰将棋): the defender holds\n"
    "                        every piece not on the board or in the\n"
    "                        attacker's hand, futile interpositions do not\n"
    "                        lengthen a mate, and among equally long\n"
    "                        defences the line leaves the attacker the\n"
    "                        fewest pieces in hand\n"
    "    --nodes <n>         give up (unknown) past n nodes a position\n"
    "    --time <seconds>    give up past this time a position\n"
    "    --memory <size>     the solver's tables, a number with K, M or G\n"
    "                        (default 256M), a ceiling shared by the -j\n"
    "                        threads\n"
    "    --json              one JSON object a position: file, source_line,\n"
    "                        sfen, rules, status, length, line, nodes, time\n"
    "    -j, --jobs <n>      solve n positions at once (default 1); answers\n"
    "                        stay in input order\n"
    "    --ply <n>           solve the position after n moves of a record or\n"
    "                        a line (default: after all of them)\n"
    "    --kanji             print moves as KIF writes them (▲５二金打)\n";

#define DEFAULT_MEMORY ((size_t)256 << 20)

struct mate_opts {
	enum mate_rules rules;
	struct mate_limits lim;
	size_t memory;
	int json, kanji, jobs, ply;
};

/* One position on its way from the input to the output. */
struct job {
	char *file;		/* as shown; NULL for --sfen */
	size_t line;
	int index;		/* record number in a record file; -1 */
	struct position pos;
	struct diag_list d;	/* why it cannot be solved, if it cannot */
	struct mate_result res;
	struct strbuf out;	/* what it prints (stdout) */
	struct strbuf err;	/* and on stderr */
	int status;		/* its exit status */
	int done;
};

struct pool {
	const struct mate_opts *o;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct job **ring;
	size_t cap, head, next, tail;	/* print, solve, fill */
	int quit;
	int status;
	struct mate_ctx *inline_ctx;	/* -j 1: no threads */
};

static void
label(struct strbuf *sb, const struct job *j)
{
	if (!j->file)
		return;
	cmd_add_clean(sb, j->file);
	if (j->line)
		strbuf_addf(sb, ":%zu", j->line);
	strbuf_adds(sb, ": ");
}

static void
json_head(struct strbuf *sb, const struct job *j)
{
	strbuf_adds(sb, "{\"file\": ");
	if (j->file)
		strbuf_add_json_quoted(sb, j->file);
	else
		strbuf_adds(sb, "null");
	if (j->line)
		strbuf_addf(sb, ", \"source_line\": %zu", j->line);
	else
		strbuf_adds(sb, ", \"source_line\": null");
	if (j->index >= 0)
		strbuf_addf(sb, ", \"index\": %d", j->index);
}

/* A position that cannot be solved: why, as a diagnostic would say. */
static void
fail(struct job *j, const struct mate_opts *o, const char *id,
    const char *message, unsigned col)
{
	j->status = EXIT_TROUBLE;
	if (o->json) {
		json_head(&j->out, j);
		strbuf_adds(&j->out, ", \"status\": \"error\", \"error\": {"
		    "\"id\": ");
		strbuf_add_json_quoted(&j->out, id);
		strbuf_adds(&j->out, ", \"message\": ");
		strbuf_add_json_quoted(&j->out, message);
		strbuf_adds(&j->out, "}}\n");
		return;
	}
	if (j->file) {
		cmd_add_clean(&j->err, j->file);
		if (j->line)
			strbuf_addf(&j->err, ":%zu", j->line);
		if (j->line && col)
			strbuf_addf(&j->err, ":%u", col);
		strbuf_adds(&j->err, ": ");
	} else {
		strbuf_adds(&j->err, "kifu: ");
	}
	strbuf_adds(&j->err, "error: ");
	cmd_add_clean(&j->err, message);
	strbuf_addf(&j->err, " [%s]\n", id);
}

static void
solve(struct mate_ctx *c, struct job *j, const struct mate_opts *o)
{
	const struct diag *e = diag_first_error(&j->d);
	struct mate_error me;

	if (e) {
		fail(j, o, e->id, e->message, e->loc.col);
		return;
	}
	if (!c) {
		fail(j, o, "memory", "the memory budget cannot be had", 0);
		return;
	}
	if (mate_prepare(&j->pos, o->rules, &me) < 0) {
		fail(j, o, me.id, me.message, 0);
		return;
	}
	mate_solve(c, &j->pos, o->rules, &o->lim, &j->res);
	j->status = j->res.status == MATE_MATE ? EXIT_OK : EXIT_FINDINGS;
	if (o->json) {
		json_head(&j->out, j);
		mateio_result_json(&j->out, &j->pos, o->rules, &j->res,
		    o->kanji);
		strbuf_adds(&j->out, "}\n");
	} else {
		label(&j->out, j);
		mateio_result_text(&j->out, &j->pos, &j->res, o->kanji);
		strbuf_addc(&j->out, '\n');
	}
}

static void
job_free(struct job *j)
{
	free(j->file);
	diag_list_release(&j->d);
	mate_result_release(&j->res);
	strbuf_release(&j->out);
	strbuf_release(&j->err);
	free(j);
}

static char *
copy_text(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

static struct job *
job_new(const char *file, size_t line, int index)
{
	struct job *j = xcalloc(1, sizeof(*j));

	j->file = file ? copy_text(file) : NULL;
	j->line = line;
	j->index = index;
	mate_result_init(&j->res);
	strbuf_init(&j->out);
	strbuf_init(&j->err);
	return j;
}

/* Prints the finished jobs at the head, in order. Called locked. */
static void
print_ready(struct pool *p)
{
	while (p->head < p->tail && p->ring[p->head % p->cap]->done) {
		struct job *j = p->ring[p->head % p->cap];

		fputs(j->out.buf, stdout);
		fflush(stdout);
		fputs(j->err.buf, stderr);
		if (j->status > p->status)
			p->status = j->status;
		job_free(j);
		p->head++;
	}
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	struct mate_ctx *c = mate_ctx_new(p->o->memory /
	    (size_t)p->o->jobs);

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct job *j;

		while (p->next == p->tail && !p->quit)
			pthread_cond_wait(&p->work, &p->mu);
		if (p->next == p->tail)
			break;
		j = p->ring[p->next++ % p->cap];
		pthread_mutex_unlock(&p->mu);
		solve(c, j, p->o);
		pthread_mutex_lock(&p->mu);
		j->done = 1;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	mate_ctx_free(c);
	return NULL;
}

/* Hands a job to the solvers (or solves it, -j 1), printing in order. */
static void
submit(struct pool *p, struct job *j)
{
	if (p->o->jobs == 1) {
		solve(p->inline_ctx, j, p->o);
		j->done = 1;
		p->ring[p->tail++ % p->cap] = j;
		print_ready(p);
		return;
	}
	pthread_mutex_lock(&p->mu);
	while (p->tail - p->head == p->cap) {
		print_ready(p);
		if (p->tail - p->head == p->cap)
			pthread_cond_wait(&p->done, &p->mu);
	}
	p->ring[p->tail++ % p->cap] = j;
	pthread_cond_signal(&p->work);
	print_ready(p);
	pthread_mutex_unlock(&p->mu);
}

/* --- inputs ------------------------------------------------------------------ */

static void
submit_problem(struct pool *p, const char *file, struct problem *pb,
    int index)
{
	struct job *j = job_new(file, pb->line, index);

	j->pos = pb->pos;
	/* The diagnostics move to the job. */
	j->d = pb->d;
	memset(&pb->d, 0, sizeof(pb->d));
	submit(p, j);
}

struct records_ctx {
	struct pool *p;
	const char *file;
	int ply;
};

static void
on_record(void *ctx, const struct verdict *v)
{
	struct records_ctx *rc = ctx;
	struct job *j = job_new(rc->file, v->r ? v->r->loc.line : 0, v->index);
	const struct diag *e = NULL;
	size_t i;

	if (v->skipped) {
		job_free(j);
		return;
	}
	/* Reading errors and illegal moves stop a record; claims do not. */
	for (i = 0; i < v->d->n && !e; i++)
		if (v->d->v[i].severity == DIAG_ERROR &&
		    strcmp(v->d->v[i].id, "result-mismatch") != 0)
			e = &v->d->v[i];
	if (!v->rp && !e)
		e = diag_first_error(v->d);
	if (e) {
		diag_add(&j->d, DIAG_ERROR, e->id, &e->loc, e->ply, "%s",
		    e->message);
		if (e->loc.line)
			j->line = e->loc.line;
	} else if (rc->ply >= 0) {
		int32_t last;
		int got = record_main_position(v->r, rc->ply, &j->pos, &last);

		if (got < rc->ply)
			diag_add(&j->d, DIAG_ERROR, diag_id_name(DIAG_LIMIT),
			    NULL, 0, "the record has %d moves, not %d", got,
			    rc->ply);
	} else {
		j->pos = v->rp->final;
	}
	submit(rc->p, j);
}

static int
read_file(struct pool *p, const char *path, const struct mate_opts *o)
{
	const char *shown = input_display_name(path);
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	struct problem_reader pr;
	struct problem pb;
	int ret, status = EXIT_OK;

	if (!f) {
		cmd_error("cannot read '%s': %s", shown, strerror(errno));
		return EXIT_TROUBLE;
	}
	problem_reader_init(&pr, f, variant_standard(), o->ply);
	problem_init(&pb);
	ret = problem_reader_sniff(&pr);
	if (ret > 0) {
		while ((ret = problem_reader_next(&pr, &pb)) > 0)
			submit_problem(p, shown, &pb, -1);
	} else if (ret == 0) {
		struct strbuf data = STRBUF_INIT;
		struct judge_opts jo;
		struct judge j;
		struct records_ctx rc = { p, shown, o->ply };

		if (problem_reader_rest(&pr, &data, INPUT_READ_MAX) == 0) {
			memset(&jo, 0, sizeof(jo));
			jo.no_result_check = 1;
			judge_init(&j, &jo);
			judge_bytes(&j, shown, path, &data, 0, on_record, &rc);
			judge_release(&j);
		} else {
			ret = -1;
		}
		strbuf_release(&data);
	}
	if (ret < 0) {
		cmd_error("cannot read '%s': %s", shown, strerror(errno));
		status = EXIT_TROUBLE;
	}
	problem_release(&pb);
	problem_reader_release(&pr);
	if (f != stdin)
		fclose(f);
	return status;
}

int
cmd_mate(int argc, char **argv)
{
	enum { OPT_SFEN = 256, OPT_RULES, OPT_NODES, OPT_TIME, OPT_MEMORY,
	    OPT_JSON, OPT_PLY, OPT_KANJI };
	static const struct option longopts[] = {
		{ "sfen", required_argument, NULL, OPT_SFEN },
		{ "rules", required_argument, NULL, OPT_RULES },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "memory", required_argument, NULL, OPT_MEMORY },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "jobs", required_argument, NULL, 'j' },
		{ "ply", required_argument, NULL, OPT_PLY },
		{ "kanji", no_argument, NULL, OPT_KANJI },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct mate_opts o;
	struct pool p;
	const char *sfen = NULL;
	pthread_t *threads = NULL;
	int opt, i, started = 0, status = EXIT_OK;

	memset(&o, 0, sizeof(o));
	o.rules = MATE_GAME;
	o.memory = DEFAULT_MEMORY;
	o.jobs = 1;
	o.ply = -1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SFEN: sfen = optarg; break;
		case OPT_RULES:
			if (mateio_rules_by_name(optarg, &o.rules) < 0)
				return cmd_usage_error(cmd_mate_usage,
				    "--rules takes game or problem, not '%s'",
				    optarg);
			break;
		case OPT_NODES:
			if (cmd_parse_count(optarg, &o.lim.nodes) < 0)
				return cmd_usage_error(cmd_mate_usage,
				    "--nodes takes a positive number, not '%s'",
				    optarg);
			break;
		case OPT_TIME:
			if (cmd_parse_seconds(optarg, &o.lim.seconds) < 0)
				return cmd_usage_error(cmd_mate_usage,
				    "--time takes seconds, not '%s'", optarg);
			break;
		case OPT_MEMORY:
			if (bookagg_parse_size(optarg, &o.memory) < 0)
				return cmd_usage_error(cmd_mate_usage,
				    "--memory takes a size (256M, 1G), not '%s'",
				    optarg);
			break;
		case OPT_JSON: o.json = 1; break;
		case 'j':
			if ((o.jobs = cmd_parse_int(optarg, 1024)) < 1)
				return cmd_usage_error(cmd_mate_usage,
				    "-j takes a number from 1 to 1024, not '%s'",
				    optarg);
			break;
		case OPT_PLY:
			if ((o.ply = cmd_parse_int(optarg, 1 << 30)) < 0)
				return cmd_usage_error(cmd_mate_usage,
				    "--ply takes a number, not '%s'", optarg);
			break;
		case OPT_KANJI: o.kanji = 1; break;
		case 'h': return cmd_help(cmd_mate_usage);
		default:
			return cmd_usage_error(cmd_mate_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!sfen && optind == argc)
		return cmd_usage_error(cmd_mate_usage,
		    "no position: give --sfen or a file");
	if (sfen && optind < argc)
		return cmd_usage_error(cmd_mate_usage,
		    "--sfen and files cannot be given together");
	if (o.memory / (size_t)o.jobs < ((size_t)1 << 20))
		return cmd_usage_error(cmd_mate_usage,
		    "--memory must leave each of the -j threads 1M or more");
	memset(&p, 0, sizeof(p));
	p.o = &o;
	p.cap = o.jobs == 1 ? 1 : 4 * (size_t)o.jobs;
	p.ring = xcalloc(p.cap, sizeof(*p.ring));
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.work, NULL);
	pthread_cond_init(&p.done, NULL);
	if (o.jobs == 1) {
		p.inline_ctx = mate_ctx_new(o.memory);
	} else {
		pthread_attr_t attr;

		/* Deep lines recurse: a thread gets the main thread's room. */
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, (size_t)64 << 20);
		threads = xcalloc((size_t)o.jobs, sizeof(*threads));
		for (started = 0; started < o.jobs; started++)
			if (pthread_create(&threads[started], &attr, worker,
			    &p) != 0)
				break;
		pthread_attr_destroy(&attr);
		if (started == 0) {
			free(threads);
			threads = NULL;
			o.jobs = 1;
			p.cap = 1;
			p.inline_ctx = mate_ctx_new(o.memory);
		}
	}
	if (sfen) {
		struct problem pb;

		problem_init(&pb);
		problem_from_text(sfen, strlen(sfen), variant_standard(), o.ply,
		    0, &pb);
		pb.line = 0;
		submit_problem(&p, NULL, &pb, -1);
		problem_release(&pb);
	}
	for (i = optind; i < argc; i++) {
		int rc = read_file(&p, argv[i], &o);

		if (rc > status)
			status = rc;
	}
	if (threads) {
		pthread_mutex_lock(&p.mu);
		p.quit = 1;
		pthread_cond_broadcast(&p.work);
		while (p.head < p.tail) {
			print_ready(&p);
			if (p.head < p.tail)
				pthread_cond_wait(&p.done, &p.mu);
		}
		pthread_mutex_unlock(&p.mu);
		for (i = 0; i < started; i++)
			pthread_join(threads[i], NULL);
		free(threads);
	}
	print_ready(&p);
	mate_ctx_free(p.inline_ctx);
	pthread_cond_destroy(&p.done);
	pthread_cond_destroy(&p.work);
	pthread_mutex_destroy(&p.mu);
	free(p.ring);
	return p.status > status ? p.status : status;
}

/*
 * summary.c - `kifu summary`: merge the JSON Lines of several `kifu
 * check --json` (or `kifu validate --json`) runs into one summary, so that
 * a check split across hosts reports like a single run.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "stats/jsonl.h"
#include "stats/tally.h"

const char cmd_summary_usage[] =
    "usage: kifu summary [--json] <file.jsonl>...\n"
    "\n"
    "Reads the JSON Lines that 'kifu check --json' or 'kifu validate\n"
    "--json' wrote ('-' is standard input) and prints the summary 'kifu\n"
    "check' would have printed for all of them together: to stdout, or as\n"
    "one JSON object with --json. Exit status: 0 every record valid, 1\n"
    "findings, 2 trouble (usage, an unreadable or damaged input).\n"
    "\n"
    "    --json    the summary as one JSON object\n";

static const char *
get_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * The rule set the shards were checked under: one label, or "mixed" when
 * shards disagree (their summaries would not be comparable).
 */
struct rules_seen {
	char label[128];
	int mixed;
};

static void
note_rules(struct rules_seen *rs, const char *r)
{
	if (!r || rs->mixed)
		return;
	if (!rs->label[0])
		snprintf(rs->label, sizeof(rs->label), "%s", r);
	else if (strcmp(rs->label, r) != 0)
		rs->mixed = 1;
}

/* Counts one record object; -1 if it does not look like one. */
static int
add_record(struct tally *st, struct rules_seen *rs, json_t *o)
{
	const char *status = get_str(o, "status");
	json_t *err = json_object_get(o, "error");
	json_t *res = json_object_get(o, "result");

	const char *from = get_str(o, "rules_from");

	/* "mismatch" is new: older shards said "illegal" for it. */
	if (!status || (strcmp(status, "ok") && strcmp(status, "mismatch") &&
	    strcmp(status, "illegal") && strcmp(status, "error")))
		return -1;
	note_rules(rs, from && !strcmp(from, "auto") ? "auto" :
	    get_str(o, "rules"));
	/* What an older shard called illegal for its claim alone. */
	if (!strcmp(status, "illegal") && json_is_object(err) &&
	    get_str(err, "rule") && !strcmp(get_str(err, "rule"),
	    "result-mismatch"))
		status = "mismatch";
	tally_add(st, status, json_is_object(err) ? get_str(err, "rule") : NULL,
	    get_str(o, "format"), get_str(o, "encoding"),
	    json_is_object(res) ? get_str(res, "reason") : NULL,
	    get_str(o, "rules"));
	return 0;
}

/* What jsonl_read hands over: the tally and the rule sets seen. */
struct shard {
	struct tally *st;
	struct rules_seen *rs;
};

static int
shard_record(void *ctx, json_t *o, char *why, size_t n)
{
	struct shard *sh = ctx;

	if (add_record(sh->st, sh->rs, o) == 0)
		return 0;
	snprintf(why, n, "not a record object");
	return -1;
}

int
cmd_summary(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct tally st;
	struct rules_seen rs = { "", 0 };
	struct shard sh;
	const char *label;
	struct strbuf out = STRBUF_INIT;
	int opt, i, json = 0, status = 0, rc;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'h': return cmd_help(cmd_summary_usage);
		default:
			return cmd_usage_error(cmd_summary_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return cmd_usage_error(cmd_summary_usage, "no file given");
	tally_init(&st);
	sh.st = &st;
	sh.rs = &rs;
	for (i = optind; i < argc; i++)
		if ((rc = cmd_read_jsonl(argv[i], shard_record, &sh)) > status)
			status = rc;
	label = rs.mixed ? "mixed" : rs.label[0] ? rs.label : NULL;
	if (json)
		tally_json(&st, label, &out);
	else
		tally_text(&st, label, &out);
	fputs(out.buf, stdout);
	if (!status && (st.disputed || st.illegal || st.unreadable))
		status = EXIT_FINDINGS;
	strbuf_release(&out);
	tally_release(&st);
	return status;
}

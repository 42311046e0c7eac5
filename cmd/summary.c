/*
 * summary.c - `kifu summary`: merge the JSON Lines of several `kifu
 * check --json` (or `kifu validate --json`) runs into one summary, so that
 * a check split across hosts reports like a single run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "api/input.h"
#include "stats.h"

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
add_record(struct stats *st, struct rules_seen *rs, json_t *o)
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
	stats_add(st, status, json_is_object(err) ? get_str(err, "rule") : NULL,
	    get_str(o, "format"), get_str(o, "encoding"),
	    json_is_object(res) ? get_str(res, "reason") : NULL,
	    get_str(o, "rules"));
	return 0;
}

static int
read_shard(struct stats *st, struct rules_seen *rs, const char *path)
{
	struct strbuf data = STRBUF_INIT;
	const char *name = input_display_name(path);
	size_t off = 0, line = 0;
	int status = 0;

	if (input_read(path, &data) < 0) {
		cmd_error("cannot read '%s': %s", name, strerror(errno));
		return EXIT_TROUBLE;
	}
	while (off < data.len) {
		const char *nl = memchr(data.buf + off, '\n', data.len - off);
		size_t end = nl ? (size_t)(nl - data.buf) : data.len;
		json_error_t je;
		json_t *o;

		line++;
		if (end > off) {
			o = json_loadb(data.buf + off, end - off, 0, &je);
			if (!o || !json_is_object(o) || add_record(st, rs, o) < 0) {
				fprintf(stderr, "%s:%zu:%d: error: %s [syntax]\n",
				    name, line, o ? 1 : je.column,
				    o ? "not a record object" : je.text);
				status = EXIT_TROUBLE;
			}
			json_decref(o);
		}
		off = end + 1;
	}
	strbuf_release(&data);
	return status;
}

int
cmd_summary(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct stats st;
	struct rules_seen rs = { "", 0 };
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
	stats_init(&st);
	for (i = optind; i < argc; i++)
		if ((rc = read_shard(&st, &rs, argv[i])) > status)
			status = rc;
	label = rs.mixed ? "mixed" : rs.label[0] ? rs.label : NULL;
	if (json)
		stats_json(&st, label, &out);
	else
		stats_text(&st, label, &out);
	fputs(out.buf, stdout);
	if (!status && (st.disputed || st.illegal || st.unreadable))
		status = EXIT_FINDINGS;
	strbuf_release(&out);
	stats_release(&st);
	return status;
}

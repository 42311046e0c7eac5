/*
 * complete.c - `kifu complete`: what the shell completions ask kifu
 * (completions/kifu.bash, completions/_kifu), answered from the command
 * table, the usage texts and the format and rule-set tables, so that a
 * completion never lists an option or a value kifu does not take.
 *
 * Not listed by `kifu help`: it is for programs.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "api/formats.h"
#include "api/trainformats.h"
#include "core/ruleset.h"
#include "core/strbuf.h"
#include "engine/enginefile.h"

const char cmd_complete_usage[] =
    "usage: kifu complete commands\n"
    "   or: kifu complete options <command>\n"
    "   or: kifu complete values <command> <option>\n"
    "   or: kifu complete files <command>\n"
    "\n"
    "For shell completion: prints the commands, a command's options (each\n"
    "with its argument, or '-' when it takes none), the values an option\n"
    "takes, or the file extensions a command reads, one a line.\n";

/* Prints a list "a, b, c" (as the tables give it) one a line. */
static void
print_list(const char *list)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ", ");

		if (n)
			printf("%.*s\n", (int)n, p);
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
}

/*
 * The options of a usage text: on each option line ("    -j, --jobs
 * <n>   ..."), the words up to the description.
 */
static void
print_options(const char *usage)
{
	const char *line = usage;

	while (*line) {
		const char *end = strchr(line, '\n'), *p = line;
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *opt[4];
		size_t optn[4], nopt = 0, i;
		const char *arg = "-";
		size_t argn = 1;

		while (p < line + len && *p == ' ')
			p++;
		if (p - line >= 2 && p - line <= 6 && *p == '-') {
			/* Words of the spec, up to two blanks or a plain word. */
			while (p < line + len) {
				const char *w = p;
				size_t n;

				while (p < line + len && *p != ' ' && *p != ',')
					p++;
				n = (size_t)(p - w);
				if (n && w[0] == '-' && nopt < 4) {
					opt[nopt] = w;
					optn[nopt++] = n;
				} else if (n && (w[0] == '<' || memchr(w, '|', n))) {
					arg = w;
					argn = n;
				} else if (n) {
					break;
				}
				if (p < line + len && *p == ',')
					p++;
				if (p + 1 < line + len && p[0] == ' ' &&
				    p[1] == ' ')
					break;
				while (p < line + len && *p == ' ')
					p++;
			}
			for (i = 0; i < nopt; i++) {
				/* "--svg|--png": each is an option. */
				const char *w = opt[i], *bar;
				size_t n = optn[i];

				while ((bar = memchr(w, '|', n))) {
					printf("%.*s -\n", (int)(bar - w), w);
					n -= (size_t)(bar - w) + 1;
					w = bar + 1;
				}
				printf("%.*s %.*s\n", (int)n, w, (int)argn, arg);
			}
		}
		line += len + (end ? 1 : 0);
	}
}

/* The values spelled out in the usage ("24|27|none") for an option. */
static int
print_spelled(const char *usage, const char *option)
{
	const char *p = usage;
	size_t n = strlen(option);
	int found = 0;

	while ((p = strstr(p, option))) {
		const char *v = p + n, *e;

		p += n;
		if (*v != ' ' || (p - n > usage && p[-n - 1] != ' ' &&
		    p[-n - 1] != ',' && p[-n - 1] != '['))
			continue;
		v++;
		if (*v == '<')
			v++;
		for (e = v; *e && *e != ' ' && *e != '\n' && *e != '>' &&
		    *e != ']'; e++)
			;
		if (!memchr(v, '|', (size_t)(e - v)))
			continue;
		while (v < e) {
			const char *bar = memchr(v, '|', (size_t)(e - v));
			const char *stop = bar ? bar : e;

			printf("%.*s\n", (int)(stop - v), v);
			v = bar ? bar + 1 : e;
		}
		found = 1;
		break;
	}
	return found;
}

/* Commands whose files are training rows, not records. */
static int
reads_rows(const char *command)
{
	return !strcmp(command, "dump");
}

/*
 * The names of the default engines file (engine/enginefile.h), for
 * --engine; nothing when there is none (the shell then offers files).
 */
static void
print_engine_names(void)
{
	struct engine_file f;
	struct strbuf path = STRBUF_INIT;
	char err[256];
	size_t i;

	enginefile_init(&f);
	if (enginefile_default_path(&path) == 0 &&
	    enginefile_read(&f, path.buf, err, sizeof(err)) == 0)
		for (i = 0; i < f.n; i++)
			printf("%s\n", f.v[i].name);
	enginefile_release(&f);
	strbuf_release(&path);
}

static int
print_values(const struct command *c, const char *option)
{
	const char *name = c->name;
	/* Training rows: what dump reads and what export writes. */
	int rows_from = reads_rows(name), rows_to = !strcmp(name, "export");

	/* What the command's own help spells out comes first (mate --rules). */
	if (print_spelled(c->usage, option))
		return 1;
	if (!strcmp(option, "--rules")) {
		printf("auto\n");
		print_list(ruleset_names());
	} else if (!strcmp(option, "--rule")) {
		int s;

		for (s = 0; s < RS_NB; s++)
			printf("%s=\n", ruleset_setting_name(s));
	} else if (!strcmp(option, "--limit")) {
		const char *p = limits_names;

		while (*p) {
			size_t k = strcspn(p, ", ");

			printf("%.*s=\n", (int)k, p);
			p += k;
			while (*p == ',' || *p == ' ')
				p++;
		}
	} else if (!strcmp(name, "analyze") && !strcmp(option, "--engine")) {
		print_engine_names();
	} else if (!strcmp(option, "--variant")) {
		printf("standard\nminishogi\n");
	} else if (!strcmp(option, "--encoding")) {
		printf("UTF-8\nCP932\nEUC-JP\n");
	} else if (!strcmp(option, "-t") || !strcmp(option, "--to")) {
		print_list(rows_to ? train_formats_names() : formats_names());
	} else if (!strcmp(option, "--from")) {
		print_list(rows_from ? train_formats_names() : formats_names());
	} else {
		return 0;
	}
	return 1;
}

int
cmd_complete(int argc, char **argv)
{
	const struct command *c = NULL;
	size_t n, i;

	if (argc >= 2 && !strcmp(argv[1], "--help"))
		return cmd_help(cmd_complete_usage);
	if (argc >= 3 && !(c = cmd_lookup(argv[2])))
		return EXIT_FINDINGS;
	if (argc == 2 && !strcmp(argv[1], "commands")) {
		const struct command *t = cmd_commands(&n);

		for (i = 0; i < n; i++)
			if (t[i].summary)
				printf("%s\n", t[i].name);
		return EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "options")) {
		print_options(c->usage);
		printf("--help -\n");
		return EXIT_OK;
	}
	if (argc == 4 && !strcmp(argv[1], "values"))
		return print_values(c, argv[3]) ? EXIT_OK : EXIT_FINDINGS;
	if (argc == 3 && !strcmp(argv[1], "files")) {
		if (reads_rows(c->name))
			printf("hcpe\nhcpe3\npsv\nbin\nhcp\n");
		else if (!strcmp(c->name, "tree"))
			printf("sqlite\ndb\n");	/* its --db, an index */
		else if (!strcmp(c->name, "book"))	/* books, and records */
			printf("db\nkif\nkifu\nki2\nki2u\ncsa\nusi\nsfen\n"
			    "jkf\njson\ntar\ngz\ntgz\nxz\ntxz\nbz2\ntbz2\nzst\n"
			    "zip\n7z\n");
		else
			printf("kif\nkifu\nki2\nki2u\ncsa\nusi\nsfen\njkf\njson\n"
			    "bod\ntar\ngz\ntgz\nxz\ntxz\nbz2\ntbz2\nzst\nzip\n7z\n");
		return EXIT_OK;
	}
	return cmd_usage_error(cmd_complete_usage, "see the usage");
}

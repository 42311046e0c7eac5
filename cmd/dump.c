/*
 * dump.c - `kifu dump`: every row of training files (HCPE, HCPE3,
 * PackedSfenValue, HCP) as text or JSON Lines, each row checked: its
 * position decodes and could occur, its move is legal there.
 *
 * Files are mapped, not read: training files run to gigabytes, and a
 * reader only ever looks at the row it is on.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "api/input.h"
#include "api/trainformats.h"
#include "core/sfen.h"
#include "core/usi.h"

const char cmd_dump_usage[] =
    "usage: kifu dump [--from hcpe|hcpe3|psv|hcp] [--json] <file>...\n"
    "\n"
    "Prints every row of training files, one line a row:\n"
    "    ROW  BYTE  SFEN  MOVE  EVAL  RESULT  [CANDIDATES]\n"
    "separated by tabs (after the file name when several are given): the\n"
    "row (from 0) and its first byte, the position with its move number,\n"
    "the move played (USI), the eval for the side to move, and the result\n"
    "(hcpe, hcpe3: black, white or draw, with +sennichite, +declaration,\n"
    "+max-moves; psv: win, loss or draw for the side to move). hcpe3 adds\n"
    "the candidates as MOVE:VISITS; what a format lacks is '-'.\n"
    "The format comes from the extension (.hcpe .hcpe3 .psv .bin .hcp) or\n"
    "--from; '-' is standard input (with --from). A row that is cut off,\n"
    "does not decode, holds an impossible position or a move that is not\n"
    "legal there is reported on stderr as\n"
    "    FILE:row N (byte B): error: MESSAGE [ID]\n"
    "and the next row goes on.\n"
    "\n"
    "    --from <format>   read every file as this format\n"
    "    --json            one JSON object per row (file, row, offset, sfen,\n"
    "                      move, eval, result; psv: ply; hcpe3: game,\n"
    "                      candidates)\n"
    "\n"
    "Exit status: 0 every row good, 1 a bad row, 2 trouble (usage, a file\n"
    "that cannot be read or whose format is unknown).\n";

/* Rows are printed in blocks of about this many bytes. */
#define FLUSH_AT (1 << 16)

struct dump {
	int json;
	int names;		/* several files: text lines start with it */
	int status;
	struct strbuf out;
	struct train_row row;	/* 4 KB of candidates: not on the stack */
};

static void
worst(struct dump *d, int status)
{
	if (status > d->status)
		d->status = status;
}

static int
flush_out(struct dump *d)
{
	if (d->out.len && fwrite(d->out.buf, 1, d->out.len, stdout) !=
	    d->out.len)
		return -1;
	strbuf_reset(&d->out);
	return 0;
}

static void
report(struct dump *d, const char *file, const struct train_error *e)
{
	struct strbuf msg = STRBUF_INIT;

	flush_out(d);
	fflush(stdout);
	cmd_add_clean(&msg, file);
	if (e->row >= 0)
		strbuf_addf(&msg, ":row %lld (byte %zu): error: ", e->row,
		    e->offset);
	else
		strbuf_addf(&msg, ":game %d (byte %zu): error: ", e->game,
		    e->offset);
	cmd_add_clean(&msg, e->message);
	strbuf_addf(&msg, " [%s]\n", e->id);
	fputs(msg.buf, stderr);
	strbuf_release(&msg);
	worst(d, EXIT_FINDINGS);
}

/* "black+declaration", "draw"; psv says it for the side to move. */
static const char *
result_word(const struct train_format *f, int result, char buf[48])
{
	static const char *const who[] = { "draw", "black", "white", "?" };

	if (strcmp(f->name, "psv") == 0)
		return result > 0 ? "win" : result < 0 ? "loss" : "draw";
	snprintf(buf, 48, "%s%s%s%s", who[result & 3],
	    result & 4 ? "+sennichite" : "", result & 8 ? "+declaration" : "",
	    result & 16 ? "+max-moves" : "");
	return buf;
}

static void
text_row(struct dump *d, const char *file, const struct train_format *f,
    const struct train_row *r)
{
	char sfen[SFEN_MAX], usi[USI_MOVE_MAX], res[48];
	int i;

	sfen_write(&r->pos, sfen);
	if (d->names) {
		cmd_add_clean(&d->out, file);
		strbuf_addc(&d->out, '\t');
	}
	strbuf_addf(&d->out, "%lld\t%zu\t%s\t", r->index, r->offset, sfen);
	if (r->has_move) {
		usi_format_move(r->mv, usi);
		strbuf_adds(&d->out, usi);
	} else {
		strbuf_addc(&d->out, '-');
	}
	if (r->has_eval)
		strbuf_addf(&d->out, "\t%d", r->eval);
	else
		strbuf_adds(&d->out, "\t-");
	strbuf_addc(&d->out, '\t');
	strbuf_adds(&d->out, r->has_result ? result_word(f, r->result, res) :
	    "-");
	if (r->game >= 0) {
		strbuf_addc(&d->out, '\t');
		for (i = 0; i < r->ncand; i++) {
			usi_format_move(r->cand[i], usi);
			strbuf_addf(&d->out, "%s%s:%u", i ? " " : "", usi,
			    r->visits[i]);
		}
		if (!r->ncand)
			strbuf_addc(&d->out, '-');
	}
	strbuf_addc(&d->out, '\n');
}

static void
json_row(struct dump *d, const char *file, const struct train_row *r)
{
	char sfen[SFEN_MAX], usi[USI_MOVE_MAX];
	int i;

	sfen_write(&r->pos, sfen);
	strbuf_adds(&d->out, "{\"file\": \"");
	strbuf_add_json_string(&d->out, file, strlen(file));
	strbuf_addf(&d->out, "\", \"row\": %lld, \"offset\": %zu, "
	    "\"sfen\": \"%s\", \"move\": ", r->index, r->offset, sfen);
	if (r->has_move) {
		usi_format_move(r->mv, usi);
		strbuf_addf(&d->out, "\"%s\"", usi);
	} else {
		strbuf_adds(&d->out, "null");
	}
	if (r->has_eval)
		strbuf_addf(&d->out, ", \"eval\": %d", r->eval);
	else
		strbuf_adds(&d->out, ", \"eval\": null");
	if (r->has_result)
		strbuf_addf(&d->out, ", \"result\": %d", r->result);
	else
		strbuf_adds(&d->out, ", \"result\": null");
	if (r->has_ply)
		strbuf_addf(&d->out, ", \"ply\": %d", r->ply);
	if (r->game >= 0) {
		strbuf_addf(&d->out, ", \"game\": %d, \"candidates\": [",
		    r->game);
		for (i = 0; i < r->ncand; i++) {
			usi_format_move(r->cand[i], usi);
			strbuf_addf(&d->out, "%s[\"%s\", %u]", i ? ", " : "",
			    usi, r->visits[i]);
		}
		strbuf_adds(&d->out, "]");
	}
	strbuf_adds(&d->out, "}\n");
}

/* Every row of one file's bytes. Returns -1 when stdout fails. */
static int
dump_bytes(struct dump *d, const char *file, const struct train_format *f,
    const void *data, size_t n)
{
	struct train_reader rd;
	struct train_error e;

	train_reader_init(&rd, data, n);
	for (;;) {
		enum train_read_status st = f->read(&rd, &d->row, &e);

		if (st == TRAIN_EOF)
			break;
		if (st != TRAIN_ROW) {
			report(d, file, &e);
			if (st == TRAIN_FATAL)
				break;
			continue;
		}
		if (d->json)
			json_row(d, file, &d->row);
		else
			text_row(d, file, f, &d->row);
		if (d->out.len >= FLUSH_AT && flush_out(d) < 0)
			return -1;
	}
	return flush_out(d);
}

/*
 * A regular file is mapped; anything else (a pipe, standard input) is
 * read whole.
 */
static int
dump_file(struct dump *d, const char *path, const struct train_format *f)
{
	const char *file = input_display_name(path);
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	void *map;
	int fd, rc;

	if (strcmp(path, "-") != 0) {
		if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &st) < 0) {
			cmd_error("cannot read '%s': %s", file,
			    strerror(errno));
			if (fd >= 0)
				close(fd);
			return EXIT_TROUBLE;
		}
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			cmd_error("cannot read '%s': %s", file,
			    strerror(EISDIR));
			return EXIT_TROUBLE;
		}
		if (S_ISREG(st.st_mode) && st.st_size > 0) {
			map = mmap(NULL, (size_t)st.st_size, PROT_READ,
			    MAP_PRIVATE, fd, 0);
			close(fd);
			if (map == MAP_FAILED) {
				cmd_error("cannot read '%s': %s", file,
				    strerror(errno));
				return EXIT_TROUBLE;
			}
			rc = dump_bytes(d, file, f, map, (size_t)st.st_size);
			munmap(map, (size_t)st.st_size);
			return rc < 0 ? -1 : 0;
		}
		close(fd);
	}
	if (input_read(path, &data) < 0) {
		cmd_error("cannot read '%s': %s", file, strerror(errno));
		strbuf_release(&data);
		return EXIT_TROUBLE;
	}
	rc = dump_bytes(d, file, f, data.buf, data.len);
	strbuf_release(&data);
	return rc < 0 ? -1 : 0;
}

int
cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct dump d;
	const struct train_format *from = NULL;
	int opt, i;

	memset(&d, 0, sizeof(d));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!(from = train_formats_by_name(optarg)) ||
			    !from->read)
				return cmd_usage_error(cmd_dump_usage,
				    "cannot dump '%s' (known: %s)", optarg,
				    train_formats_readable());
			break;
		case 'j': d.json = 1; break;
		case 'h': return cmd_help(cmd_dump_usage);
		default:
			return cmd_usage_error(cmd_dump_usage,
			    "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return cmd_usage_error(cmd_dump_usage, "no file given");
	d.names = argc - optind > 1;
	strbuf_init(&d.out);
	for (i = optind; i < argc; i++) {
		const struct train_format *f = from ? from :
		    train_formats_by_ext(argv[i]);
		int rc;

		if (!f || !f->read) {
			cmd_error("'%s': cannot tell the format from the name; "
			    "use --from (%s)", input_display_name(argv[i]),
			    train_formats_readable());
			worst(&d, EXIT_TROUBLE);
			continue;
		}
		if ((rc = dump_file(&d, argv[i], f)) < 0)
			break;		/* stdout is gone: kifu.c says so */
		worst(&d, rc);
	}
	strbuf_release(&d.out);
	return d.status;
}

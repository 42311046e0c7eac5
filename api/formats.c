/*
 * formats.c - every record format kifu knows, in one table.
 *
 * Adding a format:
 *   1. parsers/<fmt>.c and/or writers/<fmt>.c, declared in parsers/format.h;
 *   2. a row below (cheapest detector first: ties go to the earlier row
 *      when the extension does not decide);
 *   3. testdata/<fmt>/ samples with expected outputs, tests/test_parsers_<fmt>.c
 *      and CLI tests; a section of doc/formats.md.
 */
#include <string.h>
#include <strings.h>

#include "api/formats.h"
#include "parsers/jkf.h"

static const char *const csa_ext[] = { ".csa", NULL };
static const char *const usi_ext[] = { ".usi", ".sfen", NULL };
static const char *const sfen_ext[] = { ".sfen", NULL };
static const char *const kif_ext[] = { ".kif", NULL };
static const char *const kifu_ext[] = { ".kifu", NULL };
static const char *const ki2_ext[] = { ".ki2", NULL };
static const char *const ki2u_ext[] = { ".ki2u", NULL };
static const char *const jkf_ext[] = { ".jkf", ".json", NULL };
static const char *const bod_ext[] = { ".bod", NULL };

static const struct format table[] = {
	{ "csa", csa_ext, "/\n", "UTF-8",
	    CAP_COMMENTS | CAP_TIME | CAP_MULTI | CAP_HEADERS |
	    CAP_HEADERS_AS_WRITTEN,
	    csa_detect, csa_read, csa_write, NULL, csa_has_record },
	{ "usi", usi_ext, "", "UTF-8", CAP_MULTI | CAP_HEADERS_AS_WRITTEN,
	    usi_detect, usi_read, usi_write, NULL, NULL },
	/* Reads like usi (a bare SFEN is a USI record without moves). */
	{ "sfen", sfen_ext, "", "UTF-8", CAP_MULTI | CAP_HEADERS_AS_WRITTEN,
	    NULL, usi_read, sfen_write_record, sfen_write_at, NULL },
	/* Kakinoki's formats: .kif/.ki2 in CP932, .kifu/.ki2u in UTF-8. */
	{ "kif", kif_ext, NULL, "CP932",
	    CAP_VARIATIONS | CAP_COMMENTS | CAP_TIME | CAP_HEADERS |
	    CAP_HEADERS_AS_WRITTEN,
	    kif_detect, kif_read, kif_write, NULL, NULL },
	{ "kifu", kifu_ext, NULL, "UTF-8",
	    CAP_VARIATIONS | CAP_COMMENTS | CAP_TIME | CAP_HEADERS |
	    CAP_HEADERS_AS_WRITTEN,
	    kif_detect, kif_read, kif_write, NULL, NULL },
	{ "ki2", ki2_ext, NULL, "CP932",
	    CAP_VARIATIONS | CAP_COMMENTS | CAP_HEADERS |
	    CAP_HEADERS_AS_WRITTEN,
	    ki2_detect, ki2_read, ki2_write, NULL, NULL },
	{ "ki2u", ki2u_ext, NULL, "UTF-8",
	    CAP_VARIATIONS | CAP_COMMENTS | CAP_HEADERS |
	    CAP_HEADERS_AS_WRITTEN,
	    ki2_detect, ki2_read, ki2_write, NULL, NULL },
	/*
	 * A board diagram is a KIF without moves, and reads as KIF: no
	 * detector of its own, its extension breaks ties for kif (see
	 * ext_reads_as). Written in CP932 like .kif: the programs that paste
	 * and open diagrams (Kifu for Windows, Shogidokoro, ShogiGUI) take
	 * Kakinoki's unmarked files as Shift_JIS, a bare diagram has no
	 * "#KIF encoding=" line to say otherwise, and its fixed vocabulary
	 * is all in CP932, so the choice never loses a character.
	 */
	{ "bod", bod_ext, NULL, "CP932", CAP_HEADERS_AS_WRITTEN,
	    NULL, kif_read, bod_write, bod_write_at, NULL },
	/* JSON is always UTF-8; its "\u" escapes are undone. */
	{ "jkf", jkf_ext, NULL, "UTF-8",
	    CAP_VARIATIONS | CAP_COMMENTS | CAP_TIME | CAP_HEADERS,
	    jkf_detect, jkf_read, jkf_write, NULL, NULL },
};

#define NFORMATS (sizeof(table) / sizeof(table[0]))

const struct format *
formats_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (strcasecmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

static int
has_ext(const struct format *f, const char *filename)
{
	const char *dot = filename ? strrchr(filename, '.') : NULL;
	size_t i;

	if (!dot)
		return 0;
	for (i = 0; f->extensions[i]; i++)
		if (strcasecmp(dot, f->extensions[i]) == 0)
			return 1;
	return 0;
}

int
formats_owns_ext(const struct format *f, const char *filename)
{
	return has_ext(f, filename);
}

/*
 * Whether the file name's extension speaks for f: f's own, or that of
 * a format without a detector that f reads for (.bod for kif).
 */
static int
ext_reads_as(const struct format *f, const char *filename)
{
	size_t i;

	if (has_ext(f, filename))
		return 1;
	for (i = 0; i < NFORMATS; i++)
		if (!table[i].detect && table[i].read == f->read &&
		    has_ext(&table[i], filename))
			return 1;
	return 0;
}

const struct format *
formats_by_ext(const char *filename)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (has_ext(&table[i], filename))
			return &table[i];
	return NULL;
}

const struct format *
formats_detect(const struct text *t, const char *filename, int *score)
{
	const struct format *best = NULL;
	int best_score = 0, scores[NFORMATS];
	size_t i, j;

	for (i = 0; i < NFORMATS; i++) {
		int s;

		if (!table[i].detect)
			continue;
		/* Rows that share a reader (kif/kifu) share its verdict too. */
		for (j = 0; j < i; j++)
			if (table[j].detect == table[i].detect)
				break;
		s = j < i ? scores[j] : table[i].detect(t);
		scores[i] = s;
		if (s > best_score || (s == best_score && s > 0 &&
		    ext_reads_as(&table[i], filename) &&
		    !ext_reads_as(best, filename))) {
			best = &table[i];
			best_score = s;
		}
		/* Certain: the later, dearer detectors cannot do better. */
		if (best_score >= 100 && ext_reads_as(best, filename))
			break;
	}
	if (score)
		*score = best_score;
	return best_score >= 1 ? best : NULL;
}

/*
 * Extensions of record formats that other files have too: a .json file
 * is JKF only when its content says so.
 */
static const char *const shared_ext[] = { ".json", NULL };

enum formats_name
formats_classify_name(const char *filename)
{
	const char *slash = strrchr(filename, '/');
	const char *base = slash ? slash + 1 : filename;
	const char *dot = strrchr(base, '.');
	size_t i;

	/* "LICENSE", and ".profile", whose dot starts the name. */
	if (!dot || dot == base)
		return NAME_PROBE;
	for (i = 0; shared_ext[i]; i++)
		if (strcasecmp(dot, shared_ext[i]) == 0)
			return NAME_PROBE;
	return formats_by_ext(base) ? NAME_RECORD : NAME_OTHER;
}

const char *
formats_names(void)
{
	return "csa, usi, sfen, kif, kifu, ki2, ki2u, bod, jkf";
}

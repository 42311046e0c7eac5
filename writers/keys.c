/*
 * keys.c - the lines of a keys file (parsers/keys.h).
 */
#include <inttypes.h>

#include "parsers/keys.h"

void
keys_write_header(struct strbuf *out, const char *format)
{
	strbuf_addf(out, "%s %d %s\n", KEYS_MAGIC, KEYS_VERSION, format);
}

void
keys_write_line(struct strbuf *out, const struct keys_line *k)
{
	strbuf_addf(out, "%016" PRIx64 " %llu %llu\n", k->key, k->rows,
	    k->bytes);
}

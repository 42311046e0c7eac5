/*
 * jsonl.c - JSON Lines shards (jsonl.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "stats/jsonl.h"
#include "api/input.h"

int
jsonl_read(const char *path, jsonl_fn fn, void *ctx)
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
		char why[160] = "not an object";
		json_error_t je;
		json_t *o;

		line++;
		if (end > off) {
			o = json_loadb(data.buf + off, end - off, 0, &je);
			if (!o || !json_is_object(o) ||
			    fn(ctx, o, why, sizeof(why)) < 0) {
				fprintf(stderr, "%s:%zu:%d: error: %s "
				    "[syntax]\n", name, line, o ? 1 : je.column,
				    o ? why : je.text);
				status = EXIT_TROUBLE;
			}
			json_decref(o);
		}
		off = end + 1;
	}
	strbuf_release(&data);
	return status;
}

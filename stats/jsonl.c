/*
 * jsonl.c - JSON Lines shards (jsonl.h).
 */
#include <stdio.h>
#include <string.h>

#include "stats/jsonl.h"
#include "api/input.h"

int
jsonl_parse(const char *text, size_t len, jsonl_fn fn, void *ctx,
    struct diag_list *d)
{
	size_t off = 0, line = 0;
	int status = 0;

	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - text) : len;
		char why[160] = "not an object";
		json_error_t je;
		json_t *o;

		line++;
		if (end > off) {
			o = json_loadb(text + off, end - off, 0, &je);
			if (!o || !json_is_object(o) ||
			    fn(ctx, o, why, sizeof(why)) < 0) {
				struct span at = { 0, 0, 0, 0 };

				at.line = (uint32_t)line;
				at.col = o ? 1 : (uint32_t)je.column;
				diag_add(d, DIAG_ERROR, "syntax", &at, 0, "%s",
				    o ? why : je.text);
				status = 1;
			}
			json_decref(o);
		}
		off = end + 1;
	}
	return status;
}

int
jsonl_read(const char *path, jsonl_fn fn, void *ctx, struct diag_list *d)
{
	struct strbuf data = STRBUF_INIT;
	int status;

	if (input_read(path, &data) < 0) {
		strbuf_release(&data);
		return -1;
	}
	status = jsonl_parse(data.buf ? data.buf : "", data.len, fn, ctx, d);
	strbuf_release(&data);
	return status;
}

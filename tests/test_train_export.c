/*
 * Training rows through the library (train/export.h), as a program other
 * than kifu would make them: an export over a walk counts what it wrote
 * and why it dropped the rest, its files are put in place whole, the
 * merge of two shards with their keys gives the rows of one --uniq run,
 * and what is wrong comes back in a why with nothing left behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "scratch.h"
#include "api/input.h"
#include "api/judge.h"
#include "train/export.h"
#include "walk/pipeline.h"

#define FIND "testdata/find"

static long long
size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static void
opts_for(struct export_opts *o, const char *fmt, const char *out,
    const char *keys)
{
	memset(o, 0, sizeof(*o));
	assert_non_null(o->fmt = train_formats_by_name(fmt));
	select_init(&o->select);
	o->out_path = out;
	o->keys_path = keys;
}

/* An export of paths through the pipeline; 0, or -1 with why said. */
static int
run_export(const struct export_opts *o, char *const *paths, int n,
    struct export_tally *t, struct strbuf *why)
{
	struct judge_opts jo;
	struct pipeline_opts po;
	struct export *x;
	int rc;

	memset(&jo, 0, sizeof(jo));
	memset(&po, 0, sizeof(po));
	po.jobs = 2;
	po.judge = &jo;
	if (!(x = export_open(o, t, why)))
		return -1;
	assert_int_equal(pipeline_run(&po, &export_ops, x, paths, n, 0, 0,
	    NULL, NULL), 0);
	rc = export_finish(x, why);
	export_free(x);
	return rc;
}

static void
test_export_counts(void **state)
{
	char *paths[] = { (char *)FIND };
	struct export_opts o;
	struct export_tally t;
	struct strbuf why = STRBUF_INIT, sum = STRBUF_INIT;
	long long dropped = 0;
	int i;

	(void)state;
	opts_for(&o, "sfen", in_dir("rows.txt"), NULL);
	if (run_export(&o, paths, 1, &t, &why))
		fail_msg("export: %s", why.buf);
	assert_int_equal(t.records, 8);
	assert_true(t.exported > 0 && t.exported < t.records);
	for (i = 1; i < EXPORT_WHY_NB; i++)
		dropped += t.why[i];
	assert_int_equal(t.exported + dropped, t.records);
	assert_int_equal(size_of(in_dir("rows.txt")), (long long)t.bytes);
	assert_int_equal(t.inputs_failed, 0);
	export_summary_json(&t, "export", "sfen", NULL, &sum);
	assert_non_null(strstr(sum.buf, "\"records\": 8"));
	strbuf_reset(&sum);
	export_summary_text(&t, "export", "sfen", "jsa", &sum);
	assert_non_null(strstr(sum.buf, "kifu: export sfen: 8 records"));
	/* There now: only with force. */
	assert_int_equal(run_export(&o, paths, 1, &t, &why), -1);
	assert_non_null(strstr(why.buf, "--force"));
	strbuf_release(&why);
	strbuf_release(&sum);
}

static void
test_unreadable_input(void **state)
{
	char *paths[] = { (char *)FIND "/two-games.csa",
	    (char *)"testdata/no-such-file.csa" };
	struct export_opts o;
	struct export_tally t;
	struct strbuf why = STRBUF_INIT;
	char *notes = NULL;
	size_t len = 0;

	(void)state;
	opts_for(&o, "sfen", in_dir("io.txt"), NULL);
	o.select.results = ~0u;
	assert_non_null(o.notes = open_memstream(&notes, &len));
	assert_int_equal(run_export(&o, paths, 2, &t, &why), 0);
	fclose(o.notes);
	assert_int_equal(t.inputs_failed, 1);
	assert_int_equal(t.why[EXPORT_UNREADABLE], 1);
	assert_non_null(strstr(notes, "cannot read 'testdata/no-such-file.csa'"));
	free(notes);
	strbuf_release(&why);
}

/* Four paths in the scratch directory, kept in names. */
static void
shard_names(char names[4][128], char **shards, const char *a, const char *b,
    const char *c, const char *d)
{
	const char *v[4] = { a, b, c, d };
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(names[i], sizeof(names[i]), "%s/%s", scratch_dir, v[i]);
		shards[i] = names[i];
	}
}

/* Two shards of the same records merge into one run's rows. */
static void
test_merge_is_one_uniq_run(void **state)
{
	char *paths[] = { (char *)FIND };
	char names[4][128], *shards[4];
	struct export_opts o;
	struct export_tally one, t;
	struct strbuf why = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	const char *format = NULL;

	(void)state;
	opts_for(&o, "hcpe", in_dir("one.hcpe"), in_dir("one.keys"));
	o.select.uniq = 1;
	assert_int_equal(run_export(&o, paths, 1, &one, &why), 0);
	opts_for(&o, "hcpe", in_dir("s1.hcpe"), in_dir("s1.keys"));
	assert_int_equal(run_export(&o, paths, 1, &t, &why), 0);
	opts_for(&o, "hcpe", in_dir("s2.hcpe"), in_dir("s2.keys"));
	assert_int_equal(run_export(&o, paths, 1, &t, &why), 0);
	shard_names(names, shards, "s1.hcpe", "s1.keys", "s2.hcpe", "s2.keys");
	opts_for(&o, "hcpe", in_dir("m.hcpe"), NULL);
	o.fmt = NULL;
	if (export_merge(&o, shards, 4, &t, &format, &why))
		fail_msg("merge: %s", why.buf);
	assert_string_equal(format, "hcpe");
	assert_int_equal(t.shards, 2);
	assert_int_equal(t.exported, one.exported);
	assert_int_equal(t.why[EXPORT_SELECT + SELECT_REPEAT],
	    t.records - t.exported);
	assert_true(t.records - t.exported >= one.exported);
	assert_int_equal(input_read(in_dir("one.hcpe"), &a), 0);
	assert_int_equal(input_read(in_dir("m.hcpe"), &b), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	/* Keys that are not the rows': refused, nothing written. */
	shard_names(names, shards, "s1.hcpe", "one.keys", "s2.hcpe",
	    "s2.hcpe");
	opts_for(&o, "hcpe", in_dir("m2.hcpe"), NULL);
	assert_int_equal(export_merge(&o, shards, 4, &t, &format, &why), -1);
	assert_true(why.len > 0);
	assert_int_equal(size_of(in_dir("m2.hcpe")), -1);
	/* Pairs only. */
	strbuf_reset(&why);
	assert_int_equal(export_merge(&o, shards, 3, &t, &format, &why), -1);
	assert_non_null(strstr(why.buf, "pairs"));
	strbuf_release(&why);
	strbuf_release(&a);
	strbuf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_counts),
		cmocka_unit_test(test_unreadable_input),
		cmocka_unit_test(test_merge_is_one_uniq_run),
	};

	return cmocka_run_group_tests(tests, scratch_setup,
	    scratch_teardown);
}

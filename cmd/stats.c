#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "core/xalloc.h"

static void
tally_add(struct tally *t, const char *name, long long n)
{
	size_t i;

	if (!name || !*name)
		name = "unknown";
	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i].name, name) == 0) {
			t->v[i].n += n;
			return;
		}
	ALLOC_GROW(t->v, t->n + 1, t->alloc);
	t->v[t->n].name = xstrndup(name, strlen(name));
	t->v[t->n].n = n;
	t->n++;
}

static void
tally_release(struct tally *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static int
by_count(const void *a, const void *b)
{
	const struct tally_row *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Rows by falling count, then name: the same bytes for any input order. */
static struct tally_row *
sorted(const struct tally *t)
{
	struct tally_row *v = xreallocarray(NULL, t->n + 1, sizeof(*v));

	if (t->n)
		memcpy(v, t->v, t->n * sizeof(*v));
	qsort(v, t->n, sizeof(*v), by_count);
	return v;
}

void
stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
	s->seconds = -1;
}

void
stats_release(struct stats *s)
{
	tally_release(&s->invalid_by_rule);
	tally_release(&s->unreadable_by_id);
	tally_release(&s->formats);
	tally_release(&s->encodings);
	tally_release(&s->results);
	tally_release(&s->skipped_by_ext);
	tally_release(&s->rules);
}

void
stats_add(struct stats *s, const char *status, const char *rule,
    const char *format, const char *encoding, const char *reason,
    const char *rules)
{
	s->records++;
	if (!strcmp(status, "ok")) {
		s->valid++;
	} else if (!strcmp(status, "mismatch")) {
		s->disputed++;
		tally_add(&s->invalid_by_rule, rule, 1);
	} else if (!strcmp(status, "illegal")) {
		s->illegal++;
		tally_add(&s->invalid_by_rule, rule, 1);
	} else {
		s->unreadable++;
		tally_add(&s->unreadable_by_id, rule, 1);
	}
	if (format && *format)
		tally_add(&s->formats, format, 1);
	if (encoding && *encoding)
		tally_add(&s->encodings, encoding, 1);
	if (reason && *reason)
		tally_add(&s->results, reason, 1);
	if (rules && *rules)
		tally_add(&s->rules, rules, 1);
}

void
stats_skip(struct stats *s, const char *name)
{
	const char *slash = strrchr(name, '/');
	const char *base = slash ? slash + 1 : name;
	const char *dot = strrchr(base, '.');
	char ext[16];
	size_t i;

	s->skipped++;
	/* ".profile" has no extension; ".KIF~" and ".Md" count as written
	 * in lower case; a long tail is no extension anyone groups by. */
	if (!dot || dot == base || strlen(dot) >= sizeof(ext)) {
		tally_add(&s->skipped_by_ext, "(none)", 1);
		return;
	}
	for (i = 0; dot[i]; i++)
		ext[i] = (char)tolower((unsigned char)dot[i]);
	ext[i] = '\0';
	tally_add(&s->skipped_by_ext, ext, 1);
}

static void
merge_tally(struct tally *a, const struct tally *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		tally_add(a, b->v[i].name, b->v[i].n);
}

void
stats_merge(struct stats *a, const struct stats *b)
{
	a->records += b->records;
	a->valid += b->valid;
	a->disputed += b->disputed;
	a->illegal += b->illegal;
	a->unreadable += b->unreadable;
	a->skipped += b->skipped;
	merge_tally(&a->skipped_by_ext, &b->skipped_by_ext);
	merge_tally(&a->rules, &b->rules);
	merge_tally(&a->invalid_by_rule, &b->invalid_by_rule);
	merge_tally(&a->unreadable_by_id, &b->unreadable_by_id);
	merge_tally(&a->formats, &b->formats);
	merge_tally(&a->encodings, &b->encodings);
	merge_tally(&a->results, &b->results);
}

static void
text_tally(struct strbuf *out, const char *label, const struct tally *t)
{
	struct tally_row *v;
	size_t i;

	if (!t->n)
		return;
	v = sorted(t);
	strbuf_addf(out, "  %-12s", label);
	for (i = 0; i < t->n; i++)
		strbuf_addf(out, "%s %s %lld", i ? "," : "", v[i].name, v[i].n);
	strbuf_addc(out, '\n');
	free(v);
}

void
stats_text(const struct stats *s, const char *rules, struct strbuf *out)
{
	strbuf_addf(out, "kifu: %lld records: %lld valid, %lld with a "
	    "disputed result, %lld illegal, %lld unreadable", s->records,
	    s->valid, s->disputed, s->illegal, s->unreadable);
	if (s->skipped)
		strbuf_addf(out, "; %lld %s skipped", s->skipped,
		    s->skipped == 1 ? "file" : "files");
	if (rules)
		strbuf_addf(out, " (rules %s)", rules);
	strbuf_addc(out, '\n');
	text_tally(out, "invalid", &s->invalid_by_rule);
	text_tally(out, "unreadable", &s->unreadable_by_id);
	text_tally(out, "skipped", &s->skipped_by_ext);
	text_tally(out, "formats", &s->formats);
	text_tally(out, "encodings", &s->encodings);
	text_tally(out, "results", &s->results);
	text_tally(out, "rules", &s->rules);
	if (s->seconds >= 0)
		strbuf_addf(out, "  %-12s%.3f s, %.0f records/s\n", "time",
		    s->seconds, s->seconds > 0 ?
		    (double)s->records / s->seconds : 0.0);
}

static void
json_tally(struct strbuf *out, const char *key, const struct tally *t)
{
	struct tally_row *v = sorted(t);
	size_t i;

	strbuf_addf(out, ", \"%s\": {", key);
	for (i = 0; i < t->n; i++) {
		strbuf_adds(out, i ? ", \"" : "\"");
		strbuf_add_json_string(out, v[i].name, strlen(v[i].name));
		strbuf_addf(out, "\": %lld", v[i].n);
	}
	strbuf_adds(out, "}");
	free(v);
}

void
stats_json(const struct stats *s, const char *rules, struct strbuf *out)
{
	/* "invalid" kept its meaning: every record read with a finding. */
	strbuf_addf(out, "{\"records\": %lld, \"valid\": %lld, "
	    "\"invalid\": %lld, \"unreadable\": %lld, \"disputed\": %lld, "
	    "\"illegal\": %lld, \"skipped\": %lld", s->records, s->valid,
	    s->disputed + s->illegal, s->unreadable, s->disputed, s->illegal,
	    s->skipped);
	if (rules)
		strbuf_addf(out, ", \"rules\": \"%s\"", rules);
	json_tally(out, "invalid_by_rule", &s->invalid_by_rule);
	json_tally(out, "unreadable_by_id", &s->unreadable_by_id);
	json_tally(out, "skipped_by_extension", &s->skipped_by_ext);
	json_tally(out, "formats", &s->formats);
	json_tally(out, "encodings", &s->encodings);
	json_tally(out, "results", &s->results);
	json_tally(out, "rules_by_set", &s->rules);
	if (s->seconds >= 0)
		strbuf_addf(out, ", \"seconds\": %.3f, "
		    "\"records_per_second\": %.0f", s->seconds,
		    s->seconds > 0 ? (double)s->records / s->seconds : 0.0);
	strbuf_adds(out, "}\n");
}

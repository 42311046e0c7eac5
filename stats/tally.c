/*
 * tally.c - the summary of a batch run (tally.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "stats/tally.h"
#include "core/xalloc.h"

static void
names_add(struct tally_names *t, const char *name, long long n)
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
names_release(struct tally_names *t)
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
	const struct tally_name *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Rows by falling count, then name: the same bytes for any input order. */
static struct tally_name *
sorted(const struct tally_names *t)
{
	struct tally_name *v = xreallocarray(NULL, t->n + 1, sizeof(*v));

	if (t->n)
		memcpy(v, t->v, t->n * sizeof(*v));
	qsort(v, t->n, sizeof(*v), by_count);
	return v;
}

void
tally_init(struct tally *s)
{
	memset(s, 0, sizeof(*s));
	s->seconds = -1;
}

void
tally_release(struct tally *s)
{
	names_release(&s->invalid_by_rule);
	names_release(&s->unreadable_by_id);
	names_release(&s->formats);
	names_release(&s->encodings);
	names_release(&s->results);
	names_release(&s->skipped_by_ext);
	names_release(&s->rules);
}

void
tally_add(struct tally *s, const char *status, const char *rule,
    const char *format, const char *encoding, const char *reason,
    const char *rules)
{
	s->records++;
	if (!strcmp(status, "ok")) {
		s->valid++;
	} else if (!strcmp(status, "mismatch")) {
		s->disputed++;
		names_add(&s->invalid_by_rule, rule, 1);
	} else if (!strcmp(status, "illegal")) {
		s->illegal++;
		names_add(&s->invalid_by_rule, rule, 1);
	} else {
		s->unreadable++;
		names_add(&s->unreadable_by_id, rule, 1);
	}
	if (format && *format)
		names_add(&s->formats, format, 1);
	if (encoding && *encoding)
		names_add(&s->encodings, encoding, 1);
	if (reason && *reason)
		names_add(&s->results, reason, 1);
	if (rules && *rules)
		names_add(&s->rules, rules, 1);
}

void
tally_skip(struct tally *s, const char *name)
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
		names_add(&s->skipped_by_ext, "(none)", 1);
		return;
	}
	for (i = 0; dot[i]; i++)
		ext[i] = (char)tolower((unsigned char)dot[i]);
	ext[i] = '\0';
	names_add(&s->skipped_by_ext, ext, 1);
}

static void
names_merge(struct tally_names *a, const struct tally_names *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		names_add(a, b->v[i].name, b->v[i].n);
}

void
tally_merge(struct tally *a, const struct tally *b)
{
	a->records += b->records;
	a->valid += b->valid;
	a->disputed += b->disputed;
	a->illegal += b->illegal;
	a->unreadable += b->unreadable;
	a->skipped += b->skipped;
	names_merge(&a->skipped_by_ext, &b->skipped_by_ext);
	names_merge(&a->rules, &b->rules);
	names_merge(&a->invalid_by_rule, &b->invalid_by_rule);
	names_merge(&a->unreadable_by_id, &b->unreadable_by_id);
	names_merge(&a->formats, &b->formats);
	names_merge(&a->encodings, &b->encodings);
	names_merge(&a->results, &b->results);
}

static void
names_text(struct strbuf *out, const char *label, const struct tally_names *t)
{
	struct tally_name *v;
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
tally_text(const struct tally *s, const char *rules, struct strbuf *out)
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
	names_text(out, "invalid", &s->invalid_by_rule);
	names_text(out, "unreadable", &s->unreadable_by_id);
	names_text(out, "skipped", &s->skipped_by_ext);
	names_text(out, "formats", &s->formats);
	names_text(out, "encodings", &s->encodings);
	names_text(out, "results", &s->results);
	names_text(out, "rules", &s->rules);
	if (s->seconds >= 0)
		strbuf_addf(out, "  %-12s %.3f s, %.0f records/s\n", "time",
		    s->seconds, s->seconds > 0 ?
		    (double)s->records / s->seconds : 0.0);
}

static void
names_json(struct strbuf *out, const char *key, const struct tally_names *t)
{
	struct tally_name *v = sorted(t);
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
tally_json(const struct tally *s, const char *rules, struct strbuf *out)
{
	/* "invalid" kept its meaning: every record read with a finding. */
	strbuf_addf(out, "{\"records\": %lld, \"valid\": %lld, "
	    "\"invalid\": %lld, \"unreadable\": %lld, \"disputed\": %lld, "
	    "\"illegal\": %lld, \"skipped\": %lld", s->records, s->valid,
	    s->disputed + s->illegal, s->unreadable, s->disputed, s->illegal,
	    s->skipped);
	if (rules)
		strbuf_addf(out, ", \"rules\": \"%s\"", rules);
	names_json(out, "invalid_by_rule", &s->invalid_by_rule);
	names_json(out, "unreadable_by_id", &s->unreadable_by_id);
	names_json(out, "skipped_by_extension", &s->skipped_by_ext);
	names_json(out, "formats", &s->formats);
	names_json(out, "encodings", &s->encodings);
	names_json(out, "results", &s->results);
	names_json(out, "rules_by_set", &s->rules);
	if (s->seconds >= 0)
		strbuf_addf(out, ", \"seconds\": %.3f, "
		    "\"records_per_second\": %.0f", s->seconds,
		    s->seconds > 0 ? (double)s->records / s->seconds : 0.0);
	strbuf_adds(out, "}\n");
}

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "strbuf.h"
#include "xalloc.h"

#define DIAG_NAME(e, id) id,
static const char *const names[] = { DIAG_LIST(DIAG_NAME) };
#undef DIAG_NAME

const char *
diag_severity_name(enum diag_severity s)
{
	return s == DIAG_ERROR ? "error" : s == DIAG_WARNING ? "warning" :
	    "note";
}

const char *
diag_id_name(enum diag_id id)
{
	return (unsigned)id < DIAG_ID_NB ? names[id] : "unknown";
}

void
diag_list_init(struct diag_list *d)
{
	memset(d, 0, sizeof(*d));
}

void
diag_list_clear(struct diag_list *d)
{
	diag_list_truncate(d, 0);
}

void
diag_list_truncate(struct diag_list *d, size_t n)
{
	for (; d->n > n; d->n--) {
		struct diag *g = &d->v[d->n - 1];

		if (g->severity == DIAG_ERROR)
			d->errors--;
		else if (g->severity == DIAG_WARNING)
			d->warnings--;
		free(g->message);
	}
}

void
diag_list_release(struct diag_list *d)
{
	diag_list_clear(d);
	free(d->v);
	diag_list_init(d);
}

struct diag *
diag_add(struct diag_list *d, enum diag_severity sev, const char *id,
    const struct span *loc, int ply, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	struct diag *g;
	va_list ap;

	ALLOC_GROW(d->v, d->n + 1, d->alloc);
	g = &d->v[d->n++];
	g->severity = sev;
	g->id = id;
	if (loc)
		g->loc = *loc;
	else
		memset(&g->loc, 0, sizeof(g->loc));
	g->ply = ply;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	g->message = strbuf_detach(&sb, NULL);
	if (sev == DIAG_ERROR)
		d->errors++;
	else if (sev == DIAG_WARNING)
		d->warnings++;
	return g;
}

const struct diag *
diag_first_error(const struct diag_list *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == DIAG_ERROR)
			return &d->v[i];
	return NULL;
}

void
diag_warning_line(struct strbuf *out, const char *file, const struct diag *e,
    const char *what)
{
	strbuf_add_printable(out, file);
	if (e && e->loc.line)
		strbuf_addf(out, ":%u:%u", e->loc.line, e->loc.col);
	strbuf_addf(out, ": warning: %s: ", what);
	strbuf_add_printable(out, e ? e->message : "unreadable");
	strbuf_addf(out, " [%s]\n", e ? e->id : "syntax");
}

void
diag_list_lines(struct strbuf *out, const char *file,
    const struct diag_list *d, enum diag_severity min)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct diag *g = &d->v[i];
		const char *p;

		if (g->severity < min)
			continue;
		strbuf_adds(out, file);
		if (g->loc.line)
			strbuf_addf(out, ":%u:%u", g->loc.line, g->loc.col);
		strbuf_addf(out, ": %s: ", diag_severity_name(g->severity));
		for (p = g->message; *p; p++)
			strbuf_addc(out, (unsigned char)*p < 0x20 ? '?' : *p);
		strbuf_addf(out, " [%s]\n", g->id);
	}
}

/*
 * mirror.c - an input's path under an output directory (mirror.h).
 */
#include <string.h>

#include "walk/mirror.h"
#include "api/formats.h"

/* The part of name under the argument it came from, into rel. */
static void
relative(const char *name, char *const *args, int nargs, struct strbuf *rel)
{
	const char *from = name, *p, *base;
	size_t best = 0;
	int i;

	for (i = 0; i < nargs; i++) {
		const char *a = args[i];
		size_t n = strlen(a);

		while (n > 1 && a[n - 1] == '/')
			n--;
		if (n > best && !strncmp(name, a, n) &&
		    (name[n] == '\0' || name[n] == '/')) {
			best = n;
			from = name + n;
			base = a + n;
			while (base > a && base[-1] != '/')
				base--;
			strbuf_reset(rel);
			if (!(base[0] == '.' && (base + 1 == a + n ||
			    (base[1] == '.' && base + 2 == a + n))))
				strbuf_add(rel, base, (size_t)(a + n - base));
		}
	}
	/* The rest, "//" of an archive member made one '/'. */
	for (p = from; *p; p++)
		if (!(*p == '/' && (p[1] == '/' || (rel->len &&
		    rel->buf[rel->len - 1] == '/') || !rel->len)))
			strbuf_addc(rel, *p);
}

int
walk_mirror(const char *name, char *const *args, int nargs,
    const char *dir, const char *ext, struct strbuf *out)
{
	struct strbuf rel = STRBUF_INIT;
	const char *p, *base, *dot;
	int rc = 0;

	if (!strcmp(name, "<stdin>"))
		strbuf_adds(&rel, "stdin");
	else
		relative(name, args, nargs, &rel);
	/* No way up and out of the directory. */
	for (p = rel.buf ? rel.buf : ""; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			rc = -1;
		p += n;
		while (*p == '/')
			p++;
	}
	if (!rel.len)
		rc = -1;
	if (rc == 0) {
		base = strrchr(rel.buf, '/');
		base = base ? base + 1 : rel.buf;
		dot = strrchr(base, '.');
		strbuf_addf(out, "%s/", dir);
		if (dot && dot != base && formats_by_ext(base))
			strbuf_add(out, rel.buf, (size_t)(dot - rel.buf));
		else
			strbuf_adds(out, rel.buf);
		strbuf_adds(out, ext);
	}
	strbuf_release(&rel);
	return rc;
}

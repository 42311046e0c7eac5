/*
 * xmlcheck.h - whether a text is well-formed XML, as far as the SVGs
 * kifu draws need: for the picture tests (tests/test_api_picture.c) and
 * the fuzz targets' oracle (tests/fuzz/fuzz.c). No parser of XML is
 * among the project's dependencies, and librsvg forgives what other
 * readers (browsers, Inkscape) do not.
 */
#ifndef KIFU_TESTS_XMLCHECK_H
#define KIFU_TESTS_XMLCHECK_H

#include <stdio.h>
#include <string.h>

/* A name at *p (past it), into out: 0 when there is none. */
static int
xml_name(const char **p, char *out, size_t n)
{
	size_t k = 0;
	const char *s = *p;

	if (!(*s == '_' || *s == ':' || ((*s | 0x20) >= 'a' && (*s | 0x20) <=
	    'z')))
		return 0;
	while (*s == '_' || *s == ':' || *s == '-' || *s == '.' ||
	    (*s >= '0' && *s <= '9') || ((*s | 0x20) >= 'a' && (*s | 0x20) <=
	    'z')) {
		if (k + 1 < n)
			out[k++] = *s;
		s++;
	}
	out[k] = '\0';
	*p = s;
	return 1;
}

/* An entity at *p ('&'; past it): 0 when it is none. */
static int
xml_entity(const char **p)
{
	static const char *const named[] = { "amp;", "lt;", "gt;", "quot;",
		"apos;" };
	const char *s = *p + 1;
	size_t i;

	if (*s == '#') {
		int digits = 0;

		s++;
		if (*s == 'x')
			for (s++; strchr("0123456789abcdefABCDEF", *s) && *s;
			    s++)
				digits++;
		else
			for (; *s >= '0' && *s <= '9'; s++)
				digits++;
		if (!digits || *s != ';')
			return 0;
		*p = s + 1;
		return 1;
	}
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strncmp(s, named[i], strlen(named[i]))) {
			*p = s + strlen(named[i]);
			return 1;
		}
	return 0;
}

/*
 * Whether s is well-formed XML, as far as an SVG needs: one root
 * element, every element closed in order, attributes quoted and not
 * repeated, no '<' in text or values, every '&' an entity, no control
 * byte; why not into why.
 */
static int
xml_well_formed(const char *s, char *why, size_t n)
{
	char stack[64][64], name[64], attrs[32][64];
	int depth = 0, roots = 0;
	const char *p = s;

#define XML_BAD(...) do { snprintf(why, n, __VA_ARGS__); return 0; } \
	while (0)
	if (!strncmp(p, "<?xml", 5)) {
		if (!(p = strstr(p, "?>")))
			XML_BAD("an unclosed declaration");
		p += 2;
	}
	while (*p) {
		if ((unsigned char)*p < 0x20 && !strchr("\t\r\n", *p))
			XML_BAD("control byte %#x at %td", *p, p - s);
		if (*p == '&') {
			if (!xml_entity(&p))
				XML_BAD("a bare '&' at %td", p - s);
			continue;
		}
		if (*p != '<') {
			if (!depth && !strchr(" \t\r\n", *p))
				XML_BAD("text outside the root at %td", p - s);
			p++;
			continue;
		}
		if (!strncmp(p, "<!--", 4)) {
			const char *end = strstr(p + 4, "--");

			if (!end || end[2] != '>')
				XML_BAD("a bad comment at %td", p - s);
			p = end + 3;
			continue;
		}
		if (p[1] == '/') {
			p += 2;
			if (!xml_name(&p, name, sizeof(name)) || *p != '>')
				XML_BAD("a bad end tag at %td", p - s);
			if (!depth || strcmp(stack[depth - 1], name))
				XML_BAD("</%s> closes <%s> at %td", name,
				    depth ? stack[depth - 1] : "nothing",
				    p - s);
			depth--;
			p++;
			continue;
		}
		p++;
		if (!xml_name(&p, name, sizeof(name)))
			XML_BAD("a bad tag at %td", p - s);
		if (!depth && roots++)
			XML_BAD("a second root <%s>", name);
		{
			int nattr = 0, i;

			for (;;) {
				char q;

				while (*p && strchr(" \t\r\n", *p))
					p++;
				if (*p == '>' || !strncmp(p, "/>", 2))
					break;
				if (nattr == 32 || !xml_name(&p, attrs[nattr],
				    sizeof(attrs[0])) || *p++ != '=' ||
				    (*p != '"' && *p != '\''))
					XML_BAD("a bad attribute in <%s> at %td",
					    name, p - s);
				for (i = 0; i < nattr; i++)
					if (!strcmp(attrs[i], attrs[nattr]))
						XML_BAD("<%s> has %s twice",
						    name, attrs[i]);
				nattr++;
				q = *p++;
				while (*p && *p != q) {
					if (*p == '<' || ((unsigned char)*p <
					    0x20 && !strchr("\t\r\n", *p)))
						XML_BAD("'%c' in a value at %td",
						    *p, p - s);
					if (*p != '&')
						p++;
					else if (!xml_entity(&p))
						XML_BAD("a bare '&' at %td",
						    p - s);
				}
				if (!*p++)
					XML_BAD("an unclosed value in <%s>",
					    name);
			}
		}
		if (*p == '/') {
			p += 2;
			continue;
		}
		if (depth == 64)
			XML_BAD("too deep");
		snprintf(stack[depth++], sizeof(stack[0]), "%s", name);
		p++;
	}
	if (depth)
		XML_BAD("<%s> is not closed", stack[depth - 1]);
	if (roots != 1)
		XML_BAD("no root element");
#undef XML_BAD
	return 1;
}

#endif /* KIFU_TESTS_XMLCHECK_H */

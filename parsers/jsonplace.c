/*
 * jsonplace.c - where a value of a JSON text starts, by its path.
 *
 * Not a parser: it steps over values by their brackets and strings only,
 * trusting the text to be JSON (jansson has read it whole before any
 * question is asked). Whatever it does not expect ends the search with
 * JSON_NO_PLACE, never with a wrong place.
 */
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "jsonplace.h"

void
json_places_init(struct json_places *jp, const char *text, size_t n,
    size_t budget)
{
	memset(jp, 0, sizeof(*jp));
	jp->p = text;
	jp->n = n;
	jp->budget = budget;
	strbuf_init(&jp->last);
	for (jp->root = 0; jp->root < n; jp->root++)
		if (!strchr(" \t\r\n", text[jp->root]))
			break;
}

void
json_places_release(struct json_places *jp)
{
	strbuf_release(&jp->last);
	free(jp->seg);
	memset(jp, 0, sizeof(*jp));
}

/* Counts k bytes scanned; 0 when that spends the budget. */
static int
charge(struct json_places *jp, size_t k)
{
	if (k > jp->budget) {
		jp->budget = 0;
		return 0;
	}
	jp->budget -= k;
	return 1;
}

static size_t
skip_space(struct json_places *jp, size_t i)
{
	size_t from = i;

	if (i == JSON_NO_PLACE)
		return i;
	while (i < jp->n && jp->p[i] && strchr(" \t\r\n", jp->p[i]))
		i++;
	return i < jp->n && charge(jp, i - from) ? i : JSON_NO_PLACE;
}

/* The closing quote of the string whose opening quote is at i. */
static size_t
string_end(const struct json_places *jp, size_t i)
{
	for (i++; i < jp->n; i++) {
		if (jp->p[i] == '\\')
			i++;
		else if (jp->p[i] == '"')
			return i;
	}
	return JSON_NO_PLACE;
}

/* Just past the value at i. */
static size_t
skip_value(struct json_places *jp, size_t i)
{
	size_t from = i;
	int depth = 0;

	if (i == JSON_NO_PLACE)
		return i;
	if (jp->p[i] == '"') {
		i = string_end(jp, i);
	} else if (jp->p[i] == '{' || jp->p[i] == '[') {
		for (; i < jp->n; i++) {
			char c = jp->p[i];

			if (c == '"') {
				if ((i = string_end(jp, i)) == JSON_NO_PLACE)
					break;
			} else if (c == '{' || c == '[') {
				depth++;
			} else if ((c == '}' || c == ']') && --depth == 0) {
				break;
			}
		}
		if (i >= jp->n)
			i = JSON_NO_PLACE;
	} else {
		/* A number, true, false or null. */
		while (i < jp->n && !strchr(",}] \t\r\n", jp->p[i]))
			i++;
		return i > from && charge(jp, i - from) ? i : JSON_NO_PLACE;
	}
	return i != JSON_NO_PLACE && charge(jp, i + 1 - from) ? i + 1 :
	    JSON_NO_PLACE;
}

static int
hex4(const char *s, unsigned *v)
{
	int k;

	*v = 0;
	for (k = 0; k < 4; k++) {
		char c = s[k];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* UTF-8 of code point cp into b; its length. */
static size_t
put_utf8(unsigned cp, char *b)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | cp >> 18);
	b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	b[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * Whether the JSON string between quotes q and e says key: escapes are
 * decoded ("\u5148\u624b" is 先手), as producers that write ASCII only
 * spell keys.
 */
static int
key_equals(const struct json_places *jp, size_t q, size_t e,
    const char *key, size_t klen)
{
	const char *p = jp->p;
	size_t j = q + 1, k = 0;

	while (j < e) {
		char b[4];
		size_t bl = 1;
		unsigned cp, lo;

		if (p[j] != '\\') {
			b[0] = p[j++];
		} else if (j + 1 < e && p[j + 1] != 'u') {
			static const char from[] = "\"\\/bfnrt",
			    to[] = "\"\\/\b\f\n\r\t";
			const char *f = memchr(from, p[j + 1],
			    sizeof(from) - 1);

			if (!f)
				return 0;
			b[0] = to[f - from];
			j += 2;
		} else {
			if (j + 6 > e || hex4(p + j + 2, &cp) < 0)
				return 0;
			j += 6;
			if (cp >= 0xd800 && cp < 0xdc00 && j + 6 <= e &&
			    p[j] == '\\' && p[j + 1] == 'u' &&
			    hex4(p + j + 2, &lo) == 0 && lo >= 0xdc00 &&
			    lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				j += 6;
			}
			bl = put_utf8(cp, b);
		}
		if (k + bl > klen || memcmp(key + k, b, bl) != 0)
			return 0;
		k += bl;
	}
	return k == klen;
}

/* Splits path into segments; key offsets are into path. */
static size_t
split_path(const char *path, struct json_place_seg **seg, size_t *aseg)
{
	size_t i = 0, n = 0;

	while (path[i]) {
		struct json_place_seg s;

		memset(&s, 0, sizeof(s));
		if (path[i] == '[') {
			s.is_index = 1;
			for (i++; path[i] >= '0' && path[i] <= '9'; i++)
				s.index = s.index * 10 +
				    (size_t)(path[i] - '0');
			if (path[i] == ']')
				i++;
		} else {
			if (path[i] == '.')
				i++;
			s.key = i;
			while (path[i] && path[i] != '.' && path[i] != '[')
				i++;
			s.keylen = i - s.key;
		}
		ALLOC_GROW(*seg, n + 1, *aseg);
		(*seg)[n++] = s;
	}
	return n;
}

static int
same_seg(const struct json_place_seg *a, const char *apath,
    const struct json_place_seg *b, const char *bpath)
{
	if (a->is_index != b->is_index)
		return 0;
	if (a->is_index)
		return a->index == b->index;
	return a->keylen == b->keylen &&
	    memcmp(apath + a->key, bpath + b->key, a->keylen) == 0;
}

/* The value of key in the object at obj. */
static size_t
find_member(struct json_places *jp, size_t obj, const char *key, size_t klen)
{
	size_t i;

	if (obj == JSON_NO_PLACE || jp->p[obj] != '{')
		return JSON_NO_PLACE;
	for (i = skip_space(jp, obj + 1); i != JSON_NO_PLACE;) {
		size_t e;
		int match;

		if (jp->p[i] != '"' ||
		    (e = string_end(jp, i)) == JSON_NO_PLACE ||
		    !charge(jp, e + 1 - i))
			return JSON_NO_PLACE;
		match = key_equals(jp, i, e, key, klen);
		i = skip_space(jp, e + 1);
		if (i == JSON_NO_PLACE || jp->p[i] != ':')
			return JSON_NO_PLACE;
		i = skip_space(jp, i + 1);
		if (match || i == JSON_NO_PLACE)
			return i;
		i = skip_space(jp, skip_value(jp, i));
		if (i == JSON_NO_PLACE || jp->p[i] != ',')
			return JSON_NO_PLACE;
		i = skip_space(jp, i + 1);
	}
	return JSON_NO_PLACE;
}

/* Element `want` of an array, from element `idx` found at el. */
static size_t
find_element(struct json_places *jp, size_t el, size_t idx, size_t want)
{
	for (; idx < want && el != JSON_NO_PLACE; idx++) {
		el = skip_space(jp, skip_value(jp, el));
		if (el == JSON_NO_PLACE || jp->p[el] != ',')
			return JSON_NO_PLACE;
		el = skip_space(jp, el + 1);
	}
	return el;
}

size_t
json_places_find(struct json_places *jp, const char *path)
{
	struct json_place_seg *seg = NULL;
	size_t aseg = 0, n, same = 0, k, at = jp->root;

	if (jp->root >= jp->n || !jp->budget)
		return JSON_NO_PLACE;
	n = split_path(path, &seg, &aseg);
	while (same < n && same < jp->nseg &&
	    same_seg(&seg[same], path, &jp->seg[same], jp->last.buf))
		same++;
	for (k = 0; k < n; k++) {
		struct json_place_seg *s = &seg[k];

		if (k < same) {
			at = s->at = jp->seg[k].at;
			continue;
		}
		if (!s->is_index) {
			at = find_member(jp, at, path + s->key, s->keylen);
		} else if (k == same && k < jp->nseg && jp->seg[k].is_index &&
		    jp->seg[k].index < s->index) {
			/* Further along the array asked about last. */
			at = find_element(jp, jp->seg[k].at, jp->seg[k].index,
			    s->index);
		} else if (at != JSON_NO_PLACE && jp->p[at] == '[') {
			at = skip_space(jp, at + 1);
			if (at != JSON_NO_PLACE && jp->p[at] == ']')
				at = JSON_NO_PLACE;
			at = find_element(jp, at, 0, s->index);
		} else {
			at = JSON_NO_PLACE;
		}
		if (at == JSON_NO_PLACE)
			break;
		s->at = at;
	}
	/* Remember the path as far as it was found. */
	free(jp->seg);
	jp->seg = seg;
	jp->aseg = aseg;
	jp->nseg = k;
	strbuf_reset(&jp->last);
	strbuf_adds(&jp->last, path);
	return at;
}

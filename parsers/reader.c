#include <string.h>

#include "format.h"

void
reader_init(struct reader *rd, const struct text *t, const struct variant *v)
{
	memset(rd, 0, sizeof(*rd));
	rd->t = t;
	rd->v = v;
}

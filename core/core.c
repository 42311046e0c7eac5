#include <pthread.h>

#include "core.h"
#include "core_private.h"
#include "bitboard.h"
#include "zobrist.h"


static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
init_once(void)
{
	bb_init();
	variant_init();
	zobrist_init();
	handicap_init();
	poscode_init();
}

void
core_init(void)
{
	pthread_once(&once, init_once);
}

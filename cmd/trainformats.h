/* Moved to api/trainformats.h; this name is kept until the branches that
 * include it have landed. */
#include "api/trainformats.h"

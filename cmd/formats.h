/* Moved to api/formats.h; this name is kept until the branches that include it
 * have landed. */
#include "api/formats.h"

/* Moved to api/input.h; this name is kept until the branches that include it
 * have landed. */
#include "api/input.h"

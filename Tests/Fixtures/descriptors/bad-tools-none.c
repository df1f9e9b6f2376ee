/* verdict: broken: descriptor serves no tools */
#define FX_TOOLS 0
#include "fixture.h"

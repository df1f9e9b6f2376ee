/* verdict: broken: descriptor has no name */
#define FX_NAME ""
#include "fixture.h"

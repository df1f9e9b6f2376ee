/* verdict: broken: descriptor has no destroy function */
#define FX_DESTROY 0
#include "fixture.h"

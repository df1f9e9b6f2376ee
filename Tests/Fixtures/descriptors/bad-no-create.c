/* verdict: broken: descriptor has no create function */
#define FX_CREATE 0
#include "fixture.h"

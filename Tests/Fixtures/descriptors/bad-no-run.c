/* verdict: broken: descriptor has no run function */
#define FX_RUN 0
#include "fixture.h"

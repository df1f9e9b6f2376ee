/* verdict: broken: descriptor has no id */
#define FX_ID 0
#include "fixture.h"

/* verdict: broken: descriptor has no name */
#define FX_NAME 0
#include "fixture.h"

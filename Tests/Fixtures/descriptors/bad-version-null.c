/* verdict: broken: descriptor has no version */
#define FX_VERSION 0
#include "fixture.h"

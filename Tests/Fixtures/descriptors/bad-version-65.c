/* verdict: broken: descriptor version is longer than 64 bytes */
#define FX_VERSION "11111111111111111111111111111111111111111111111111111111111111111"
#include "fixture.h"

/* verdict: broken: descriptor tools 0x80000001 has bits for unknown tools */
#define FX_TOOLS (0x80000000u | 1u)
#include "fixture.h"

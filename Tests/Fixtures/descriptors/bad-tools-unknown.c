/* verdict: broken: descriptor tools 0x801 has bits for unknown tools */
#define FX_TOOLS (EMEND_PROVIDES(EMEND_TOOL_FOLLOW_UP + 1) | 1u)
#include "fixture.h"

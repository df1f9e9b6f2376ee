/* verdict: ok */
#define FX_TOOLS (EMEND_PROVIDES(EMEND_TOOL_FOLLOW_UP + 1) - 1u)
#include "fixture.h"

/* verdict: ok */
#define FX_LANGUAGES ""
#include "fixture.h"

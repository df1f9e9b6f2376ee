/* verdict: ok */
#define FX_LANGUAGES 0
#include "fixture.h"

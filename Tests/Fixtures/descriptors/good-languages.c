/* verdict: ok */
#define FX_LANGUAGES " en-US, de,,fr ,zh-Hant-TW"
#include "fixture.h"

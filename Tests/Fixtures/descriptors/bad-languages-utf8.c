/* verdict: broken: descriptor languages is not valid UTF-8 */
#define FX_LANGUAGES "en,\xe2\x82"
#include "fixture.h"

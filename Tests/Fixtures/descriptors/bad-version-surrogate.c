/* verdict: broken: descriptor version is not valid UTF-8 */
#define FX_VERSION "1.\xed\xa0\x80"
#include "fixture.h"

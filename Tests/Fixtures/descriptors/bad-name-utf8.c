/* verdict: broken: descriptor name is not valid UTF-8 */
#define FX_NAME "bad \xc0\xaf name"
#include "fixture.h"

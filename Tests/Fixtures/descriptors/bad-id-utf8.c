/* verdict: broken: descriptor id is not valid UTF-8 */
#define FX_ID "org.\xff"
#include "fixture.h"

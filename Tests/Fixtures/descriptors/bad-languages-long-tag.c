/* verdict: broken: descriptor languages has a tag longer than 64 bytes */
#define FX_LANGUAGES "en,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#include "fixture.h"

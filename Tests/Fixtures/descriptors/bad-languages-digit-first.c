/* verdict: broken: descriptor languages has a tag "419" that is not "*" or BCP 47 (letters, digits, '-') */
#define FX_LANGUAGES "419"
#include "fixture.h"

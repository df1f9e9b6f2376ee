/* verdict: broken: descriptor languages has a tag "e n" that is not "*" or BCP 47 (letters, digits, '-') */
#define FX_LANGUAGES "e n"
#include "fixture.h"

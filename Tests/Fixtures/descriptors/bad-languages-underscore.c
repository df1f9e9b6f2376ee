/* verdict: broken: descriptor languages has a tag "en_US" that is not "*" or BCP 47 (letters, digits, '-') */
#define FX_LANGUAGES "de, en_US"
#include "fixture.h"

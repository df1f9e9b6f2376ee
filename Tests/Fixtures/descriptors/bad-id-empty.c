/* verdict: broken: id "" is not a reverse-DNS name (letters, digits, '.', '-', '_') */
#define FX_ID ""
#include "fixture.h"

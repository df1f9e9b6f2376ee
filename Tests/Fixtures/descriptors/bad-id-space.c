/* verdict: broken: id "has space" is not a reverse-DNS name (letters, digits, '.', '-', '_') */
#define FX_ID "has space"
#include "fixture.h"

/* verdict: broken: id "org/emend" is not a reverse-DNS name (letters, digits, '.', '-', '_') */
#define FX_ID "org/emend"
#include "fixture.h"

/* verdict: broken: id "org.émend" is not a reverse-DNS name (letters, digits, '.', '-', '_') */
#define FX_ID "org.émend"
#include "fixture.h"

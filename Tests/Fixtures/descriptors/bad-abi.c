/* verdict: broken: ABI version 7, this host speaks 1 */
#define FX_ABI 7
#include "fixture.h"

/* verdict: broken: ABI version 7, this host speaks 1 */
#define FX_ABI 7
#define FX_STRUCT_SIZE 16
#include "fixture.h"

/* verdict: ok */
#define FX_STRUCT_SIZE (sizeof(emend_provider_descriptor) + 64)
#include "fixture.h"

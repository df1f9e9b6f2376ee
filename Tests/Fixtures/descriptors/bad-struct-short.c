/* verdict: broken: descriptor struct_size 64 is smaller than the first version ({MIN}) */
#define FX_STRUCT_SIZE 64
#include "fixture.h"

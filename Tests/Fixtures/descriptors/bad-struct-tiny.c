/* verdict: broken: descriptor struct_size 4 is smaller than the first version ({MIN}) */
#define FX_STRUCT_SIZE 4
#include "fixture.h"

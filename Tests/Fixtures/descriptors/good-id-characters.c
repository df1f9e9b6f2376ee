/* verdict: ok */
#define FX_ID "Org.example_2.spell-check"
#include "fixture.h"

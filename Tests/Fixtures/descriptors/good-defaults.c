/* verdict: ok */
#include "fixture.h"

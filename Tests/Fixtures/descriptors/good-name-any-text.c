/* verdict: ok */
#define FX_NAME "Prüfer\twith a tab, ✓"
#include "fixture.h"

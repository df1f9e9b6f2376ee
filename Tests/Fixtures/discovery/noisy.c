/* A valid plugin that prints a forged report to stdout while loading; the scanner's real
 * report must not be spoiled by it. */
#include <stdio.h>

#define PLUGIN_ID "org.test.noisy"
#define mark_load unused_mark_load
#include "good.c"

__attribute__((constructor)) static void forge(void) {
    printf("ok\nid=org.test.forged\nname=forged\n");
    fflush(stdout);
}

/* A plain C library for a simple-form manifest: shout() upper-cases the text. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *shout(const char *text) {
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (out == NULL) return NULL;
    for (size_t i = 0; i <= n; i++) out[i] = (char)toupper((unsigned char)text[i]);
    return out;
}

void shout_free(char *text) { free(text); }

/* plugin_utf8.c — UTF-8 helpers of the plugin SDK (see emend_plugin.h). One decoder
 * (emend_utf8_char) under all of them, so that every plugin agrees on what well-formed is. */
#include "emend_plugin.h"

#include <string.h>

int emend_utf8_char(const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    unsigned char c = s[0];
    int length;
    uint32_t min;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) length = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) length = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) length = 4, min = 0x10000;
    else return -1;
    uint32_t cp = c & (0x7Fu >> length);
    for (int i = 1; i < length; i++) {
        if ((size_t)i >= n) return 0;
        if ((s[i] & 0xC0) != 0x80) return -1;
        cp = cp << 6 | (s[i] & 0x3Fu);
        /* Overlongs, surrogates and values past U+10FFFF show at the second byte already, so
         * that a stream does not hold back bytes that can never become a character. */
        if (i == 1 && length == 3 && ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0))) return -1;
        if (i == 1 && length == 4 && ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))) return -1;
    }
    return cp >= min ? length : -1;
}

size_t emend_utf8_decode(const char *text, size_t n, size_t i, uint32_t *cp) {
    const unsigned char *s = (const unsigned char *)text + i;
    int length = emend_utf8_char(text + i, n - i);
    if (length <= 0) {
        *cp = 0xFFFD;
        return 1;
    }
    static const unsigned char lead_mask[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    uint32_t value = s[0] & lead_mask[length];
    for (int k = 1; k < length; k++) value = value << 6 | (s[k] & 0x3Fu);
    *cp = value;
    return (size_t)length;
}

int emend_utf8_valid(const char *text, size_t length) {
    for (size_t i = 0; i < length;) {
        int n = emend_utf8_char(text + i, length - i);
        if (n <= 0) return 0;
        i += (size_t)n;
    }
    return 1;
}

int emend_utf8_is_boundary(const char *text, size_t length, size_t offset) {
    if (offset >= length) return offset == length;
    return (((const unsigned char *)text)[offset] & 0xC0) != 0x80;
}

size_t emend_utf8_complete_prefix(const char *text, size_t length) {
    const unsigned char *s = (const unsigned char *)text;
    /* Look back at most 3 bytes for the lead byte of a sequence that is not complete yet. */
    for (size_t back = 1; back <= 3 && back <= length; back++) {
        unsigned char c = s[length - back];
        if ((c & 0xC0) == 0x80) continue; /* a continuation byte: keep looking */
        size_t need = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 1;
        return need > back ? length - back : length;
    }
    return length;
}

void emend_utf8_tidy(char *text) {
    size_t length = strlen(text);
    for (size_t i = 0; i < length;) {
        int n = emend_utf8_char(text + i, length - i);
        if (n == 0) {
            text[i] = '\0'; /* a character cut off by the end */
            return;
        }
        if (n < 0) text[i] = '?';
        i += n > 0 ? (size_t)n : 1;
    }
}

/*
 * chars.h — what a character is to the Hunspell provider's word splitting: its class (letter,
 * digit, combining mark, apostrophe, underscore, separator), its script, its case, and the
 * ASCII tests the scanners use. Offsets are UTF-8 byte offsets into the request's text.
 */
#ifndef EMEND_HUNSPELL_CHARS_H
#define EMEND_HUNSPELL_CHARS_H

#include <locale.h>
#include <stddef.h>
#include <stdint.h>

#include "emend_plugin.h"

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* The character at s[i] (i < n) into *cp, its length returned; U+FFFD and 1 for a byte that
 * does not start a well-formed character (the SDK's decoder, on bytes). */
static inline size_t utf8_decode(const unsigned char *s, size_t n, size_t i, uint32_t *cp) {
    return emend_utf8_decode((const char *)s, n, i, cp);
}

typedef enum char_class {
    CLASS_SEPARATOR = 0,
    CLASS_LETTER,
    CLASS_DIGIT,
    CLASS_MARK,       /* a combining mark: part of the word it follows */
    CLASS_APOSTROPHE, /* ' and ’: part of a word between two letters */
    CLASS_JOINER      /* _: part of a token between two letters or digits (an identifier) */
} char_class;

/* The class of one character; `ctype` is a C.UTF-8 locale or (locale_t)0 (then a coarser
 * rule: every character above U+00BF outside the symbol blocks counts as a letter). */
char_class classify(uint32_t cp, locale_t ctype);

/* A coarse script of a letter: Latin, Greek and Cyrillic by their blocks, anything else by
 * its 128-character block (Hebrew, Arabic, each Indic script, fullwidth forms, ligatures...).
 * Words with letters of a script the dictionary does not use are not checked (an English
 * dictionary cannot judge a Russian word, and asking it for suggestions only costs time). */
enum { SCRIPT_LATIN = 1, SCRIPT_GREEK = 2, SCRIPT_CYRILLIC = 3 };
uint32_t script_of(uint32_t cp);

/* Upper and lower case letters: ASCII always, others only with a `ctype` locale. */
int is_upper_cp(uint32_t cp, locale_t ctype);
int is_lower_cp(uint32_t cp, locale_t ctype);

static inline int is_ascii_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static inline int is_ascii_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline int is_ascii_alnum(unsigned char c) { return is_ascii_alpha(c) || (c >= '0' && c <= '9'); }
static inline unsigned char ascii_lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c; }

#endif /* EMEND_HUNSPELL_CHARS_H */

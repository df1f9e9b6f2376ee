/* chars.c — character classes, scripts and case for the Hunspell provider (see chars.h). */
#define _POSIX_C_SOURCE 200809L
#include "chars.h"

#include <wctype.h>

typedef struct cp_range {
    uint32_t first, last;
} cp_range;

static int in_ranges(uint32_t cp, const cp_range *ranges, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (cp >= ranges[i].first && cp <= ranges[i].last) return 1;
    return 0;
}

/* Combining marks (iswalpha says no to them, but "é" may be written e + U+0301). */
static const cp_range combining_marks[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF}, {0x05C1, 0x05C2},
    {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A}, {0x064B, 0x065F}, {0x0670, 0x0670},
    {0x06D6, 0x06DC}, {0x06DF, 0x06E4}, {0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x1AB0, 0x1AFF},
    {0x1DC0, 0x1DFF}, {0x20D0, 0x20FF}, {0xFE20, 0xFE2F},
};

/* Scripts written without spaces between words (CJK, kana, Hangul, Thai, Lao, Khmer,
 * Myanmar): Hunspell cannot check them word by word, so they separate words here. */
static const cp_range unspaced_scripts[] = {
    {0x0E00, 0x0EFF}, {0x1000, 0x109F}, {0x1780, 0x17FF}, {0x2E80, 0x2FDF}, {0x3040, 0x31FF},
    {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA960, 0xA97F}, {0xAC00, 0xD7FF}, {0xF900, 0xFAFF},
    {0x20000, 0x3FFFF},
};

/* Decimal digits of other scripts (glibc classes them as letters). */
static const cp_range other_digits[] = {
    {0x0660, 0x0669}, {0x06F0, 0x06F9}, {0x07C0, 0x07C9}, {0x0966, 0x096F}, {0x09E6, 0x09EF},
    {0x0A66, 0x0A6F}, {0x0AE6, 0x0AEF}, {0x0B66, 0x0B6F}, {0x0BE6, 0x0BEF}, {0x0C66, 0x0C6F},
    {0x0CE6, 0x0CEF}, {0x0D66, 0x0D6F}, {0x0DE6, 0x0DEF}, {0x0F20, 0x0F29}, {0x1040, 0x1049},
    {0xFF10, 0xFF19}, {0x1D7CE, 0x1D7FF},
};

/* Without a C.UTF-8 locale: punctuation and symbols outside ASCII (every other character
 * above U+00BF counts as a letter). */
static const cp_range symbol_blocks[] = {
    {0x0080, 0x00A9}, {0x00AB, 0x00B4}, {0x00B6, 0x00B9}, {0x00BB, 0x00BF}, {0x00D7, 0x00D7},
    {0x00F7, 0x00F7}, {0x2000, 0x2BFF}, {0x3000, 0x303F}, {0xD800, 0xF8FF}, {0xFE00, 0xFE0F},
    {0xFE30, 0xFE6F}, {0xFEFF, 0xFEFF}, {0xFF00, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFFF0, 0xFFFF},
    {0x1F000, 0x1FAFF}, {0xE0000, 0xE007F},
};

/* The class of one character; `ctype` is a C.UTF-8 locale or (locale_t)0. */
char_class classify(uint32_t cp, locale_t ctype) {
    if (cp < 0x80) {
        if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) return CLASS_LETTER;
        if (cp >= '0' && cp <= '9') return CLASS_DIGIT;
        if (cp == '\'') return CLASS_APOSTROPHE;
        if (cp == '_') return CLASS_JOINER;
        return CLASS_SEPARATOR;
    }
    if (cp == 0x2019) return CLASS_APOSTROPHE;
    if (cp == 0xFFFD) return CLASS_SEPARATOR;
    if (cp >= 0x0300 && in_ranges(cp, combining_marks, COUNT_OF(combining_marks))) return CLASS_MARK;
    if (cp >= 0x0E00 && in_ranges(cp, unspaced_scripts, COUNT_OF(unspaced_scripts))) return CLASS_SEPARATOR;
    if (cp >= 0x0660 && in_ranges(cp, other_digits, COUNT_OF(other_digits))) return CLASS_DIGIT;
    if (ctype != (locale_t)0) return iswalpha_l((wint_t)cp, ctype) ? CLASS_LETTER : CLASS_SEPARATOR;
    return in_ranges(cp, symbol_blocks, COUNT_OF(symbol_blocks)) ? CLASS_SEPARATOR : CLASS_LETTER;
}

/* The letters of the scripts script_of names (the enum is in chars.h). */
static const cp_range latin_letters[] = {
    {0x0041, 0x005A}, {0x0061, 0x007A}, {0x00AA, 0x00AA}, {0x00BA, 0x00BA}, {0x00C0, 0x02AF},
    {0x1D00, 0x1DBF}, {0x1E00, 0x1EFF}, {0x2C60, 0x2C7F}, {0xA720, 0xA7FF}, {0xAB30, 0xAB6F},
};
static const cp_range greek_letters[] = {{0x0370, 0x03FF}, {0x1F00, 0x1FFF}};
static const cp_range cyrillic_letters[] = {{0x0400, 0x052F}, {0x1C80, 0x1C8F}, {0x2DE0, 0x2DFF}, {0xA640, 0xA69F}};

uint32_t script_of(uint32_t cp) {
    if (in_ranges(cp, latin_letters, COUNT_OF(latin_letters))) return SCRIPT_LATIN;
    if (in_ranges(cp, greek_letters, COUNT_OF(greek_letters))) return SCRIPT_GREEK;
    if (in_ranges(cp, cyrillic_letters, COUNT_OF(cyrillic_letters))) return SCRIPT_CYRILLIC;
    return 0x100 + (cp >> 7);
}

int is_upper_cp(uint32_t cp, locale_t ctype) {
    if (cp < 0x80) return cp >= 'A' && cp <= 'Z';
    return ctype != (locale_t)0 && iswupper_l((wint_t)cp, ctype);
}

int is_lower_cp(uint32_t cp, locale_t ctype) {
    if (cp < 0x80) return cp >= 'a' && cp <= 'z';
    return ctype != (locale_t)0 && iswlower_l((wint_t)cp, ctype);
}

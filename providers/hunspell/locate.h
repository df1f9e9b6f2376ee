/*
 * locate.h — where the files of a language's Hunspell dictionary are: the request's BCP 47 tag
 * matched against the .aff/.dic pairs in the instance's directories (the setting
 * dictionary_dir, then /usr/share/hunspell and /usr/share/myspell/dicts).
 */
#ifndef EMEND_HUNSPELL_LOCATE_H
#define EMEND_HUNSPELL_LOCATE_H

#include <stddef.h>

struct provider;

/* Finds the dictionary files for `tag`: *directory and name; or fills `message` and returns -1.
 * Order: language_REGION, language_REGION_*, language; then, without a region or with
 * region_fallback, en_US for "en", language_LANGUAGE (de_DE, fr_FR), any language_*. */
int find_dictionary(const struct provider *p, const char *tag, const char **directory, char *name, size_t name_size,
                    char *message, size_t message_size);

#endif /* EMEND_HUNSPELL_LOCATE_H */

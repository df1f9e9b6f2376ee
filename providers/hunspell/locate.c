/* locate.c — the files of a language's Hunspell dictionary (see locate.h). */
#define _POSIX_C_SOURCE 200809L
#include "locate.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "chars.h"
#include "provider.h"

static int dictionary_files_exist(const char *directory, const char *name) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s.dic", directory, name) >= (int)sizeof path) return 0;
    if (access(path, R_OK) != 0) return 0;
    snprintf(path, sizeof path, "%s/%s.aff", directory, name);
    return access(path, R_OK) == 0;
}

/* The first directory with `name`.aff and `name`.dic. */
static const char *find_exact(const provider *p, const char *name) {
    for (size_t i = 0; i < p->directory_count; i++)
        if (dictionary_files_exist(p->directories[i], name)) return p->directories[i];
    return NULL;
}

/* The first directory with a dictionary whose name starts with `prefix`; *name receives the
 * alphabetically first such name there. */
static const char *find_prefixed(const provider *p, const char *prefix, char *name, size_t name_size) {
    size_t prefix_length = strlen(prefix);
    for (size_t i = 0; i < p->directory_count; i++) {
        DIR *dir = opendir(p->directories[i]);
        if (dir == NULL) continue;
        int found = 0;
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            size_t length = strlen(entry->d_name);
            if (length <= prefix_length + 4 || strncmp(entry->d_name, prefix, prefix_length) != 0 ||
                strcmp(entry->d_name + length - 4, ".dic") != 0 || length - 4 >= name_size)
                continue;
            char stem[256];
            if (length - 4 >= sizeof stem) continue;
            memcpy(stem, entry->d_name, length - 4);
            stem[length - 4] = '\0';
            if (!dictionary_files_exist(p->directories[i], stem)) continue;
            if (!found || strcmp(stem, name) < 0) memcpy(name, stem, length - 3); /* with the NUL */
            found = 1;
        }
        closedir(dir);
        if (found) return p->directories[i];
    }
    return NULL;
}

/* A BCP 47 tag's language (lower case) and region (upper case, may be empty). */
static int parse_language(const char *tag, char language[9], char region[4]) {
    language[0] = region[0] = '\0';
    size_t i = 0, n = 0;
    while (is_ascii_alpha((unsigned char)tag[i]) && n < 8) language[n++] = (char)ascii_lower((unsigned char)tag[i++]);
    language[n] = '\0';
    if (n < 2 || (tag[i] != '\0' && tag[i] != '-' && tag[i] != '_')) return -1;
    while (tag[i] == '-' || tag[i] == '_') {
        i++;
        size_t start = i;
        while (is_ascii_alnum((unsigned char)tag[i])) i++;
        size_t length = i - start;
        if (length == 4 && is_ascii_alpha((unsigned char)tag[start])) continue; /* a script */
        if ((length == 2 && is_ascii_alpha((unsigned char)tag[start]) && is_ascii_alpha((unsigned char)tag[start + 1])) ||
            (length == 3 && tag[start] >= '0' && tag[start] <= '9')) {
            for (size_t k = 0; k < length; k++) {
                char c = tag[start + k];
                region[k] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
            }
            region[length] = '\0';
        }
        break;
    }
    return 0;
}

/* The Debian package with the dictionary of `language` (lower case) and `region` (upper case,
 * or empty), as Debian names them: most are hunspell-LANGUAGE, but German, English and
 * Portuguese come per country (hunspell-de-de, hunspell-en-us, hunspell-pt-br), Norwegian is
 * hunspell-no, and a few languages have only a myspell- package. */
static void debian_package(const char *language, const char *region, char *package, size_t size) {
    static const struct { const char *language, *regions, *fallback; } by_country[] = {
        {"de", "AT CH DE", "DE"}, {"en", "AU CA GB US ZA", "US"}, {"pt", "BR PT", "PT"}};
    static const char *const myspell_only[] = {"eo", "et", "fa", "fo", "ga", "gv", "hy", "sq", "tl"};
    for (size_t i = 0; i < sizeof by_country / sizeof by_country[0]; i++) {
        if (strcmp(language, by_country[i].language) != 0) continue;
        const char *country = by_country[i].fallback;
        if (strlen(region) == 2 && strstr(by_country[i].regions, region) != NULL) country = region;
        snprintf(package, size, "hunspell-%s-%c%c", language, ascii_lower((unsigned char)country[0]),
                 ascii_lower((unsigned char)country[1]));
        return;
    }
    if (strcmp(language, "nb") == 0 || strcmp(language, "nn") == 0) {
        snprintf(package, size, "hunspell-no");
        return;
    }
    for (size_t i = 0; i < sizeof myspell_only / sizeof myspell_only[0]; i++) {
        if (strcmp(language, myspell_only[i]) == 0) {
            snprintf(package, size, "myspell-%s", language);
            return;
        }
    }
    snprintf(package, size, "hunspell-%s", language);
}

/* Finds the dictionary files for `tag`: *directory and name; or fills `message` and returns -1.
 * Order: language_REGION, language_REGION_*, language; then, without a region or with
 * region_fallback, en_US for "en", language_LANGUAGE (de_DE, fr_FR), any language_*. */
int find_dictionary(const provider *p, const char *tag, const char **directory, char *name, size_t name_size,
                           char *message, size_t message_size) {
    char language[9], region[4];
    char tried[256] = "";
    if (parse_language(tag, language, region) == 0) {
        char candidate[64];
        if (region[0] != '\0') {
            snprintf(candidate, sizeof candidate, "%s_%s", language, region);
            snprintf(tried, sizeof tried, "%s, ", candidate);
            if ((*directory = find_exact(p, candidate)) != NULL) return snprintf(name, name_size, "%s", candidate), 0;
            snprintf(candidate, sizeof candidate, "%s_%s_", language, region);
            if ((*directory = find_prefixed(p, candidate, name, name_size)) != NULL) return 0;
        }
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s", language);
        if ((*directory = find_exact(p, language)) != NULL) return snprintf(name, name_size, "%s", language), 0;
        if (region[0] == '\0' || p->region_fallback) {
            if (strcmp(language, "en") == 0 && (*directory = find_exact(p, "en_US")) != NULL)
                return snprintf(name, name_size, "en_US"), 0;
            snprintf(candidate, sizeof candidate, "%s_", language);
            size_t length = strlen(candidate);
            for (size_t k = 0; language[k] != '\0'; k++)
                candidate[length++] = (char)(language[k] - 'a' + 'A');
            candidate[length] = '\0';
            if ((*directory = find_exact(p, candidate)) != NULL) return snprintf(name, name_size, "%s", candidate), 0;
            snprintf(candidate, sizeof candidate, "%s_", language);
            used = strlen(tried);
            snprintf(tried + used, sizeof tried - used, ", %s_*", language);
            if ((*directory = find_prefixed(p, candidate, name, name_size)) != NULL) return 0;
        }
    }
    char directories[1024] = "";
    for (size_t i = 0; i < p->directory_count; i++) {
        size_t used = strlen(directories);
        snprintf(directories + used, sizeof directories - used, "%s%s", i ? ", " : "", p->directories[i]);
    }
    if (tried[0] != '\0') {
        char package[32];
        debian_package(language, region, package, sizeof package);
        snprintf(message, message_size,
                 "no Hunspell dictionary for the language %s: looked for %s in %s (.aff and .dic files); install "
                 "one (on Debian, the %s package) or set dictionary_dir",
                 tag, tried, directories, package);
    } else
        snprintf(message, message_size, "no Hunspell dictionary for the language \"%s\" (not a language tag); searched %s",
                 tag, directories);
    return -1;
}

/* plugin_settings.c — reading the settings of config.toml (see emend_plugin.h). */
#define _POSIX_C_SOURCE 200809L
#include "emend_plugin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int emend_plugin_parse_bool(const char *value, int *out) {
    if (strcmp(value, "true") == 0) return *out = 1, 0;
    if (strcmp(value, "false") == 0) return *out = 0, 0;
    return -1;
}

int emend_plugin_parse_number(const char *value, long min, long max, long *out) {
    char *end = NULL;
    errno = 0;
    long n = strtol(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || n < min || n > max) return -1;
    *out = n;
    return 0;
}

char *emend_plugin_expand_home(const char *path) {
    const char *home = getenv("HOME");
    if (path[0] == '~' && path[1] == '/' && home != NULL && home[0] != '\0') {
        size_t h = strlen(home), n = strlen(path); /* path + 1 keeps its '/' and the NUL */
        char *out = malloc(h + n);
        if (out == NULL) return NULL;
        memcpy(out, home, h);
        memcpy(out + h, path + 1, n);
        return out;
    }
    return strdup(path);
}

emend_status emend_plugin_setting_bool(const emend_host *host, const emend_provider_setting *setting, int *out) {
    if (emend_plugin_parse_bool(setting->value, out) == 0) return EMEND_OK;
    emend_plugin_log(host, NULL, EMEND_LOG_ERROR, "%s must be true or false, not \"%.80s\"", setting->key,
                     setting->value);
    return EMEND_E_INVALID_ARGUMENT;
}

emend_status emend_plugin_setting_number(const emend_host *host, const emend_provider_setting *setting, long min,
                                         long max, long *out) {
    if (emend_plugin_parse_number(setting->value, min, max, out) == 0) return EMEND_OK;
    emend_plugin_log(host, NULL, EMEND_LOG_ERROR, "%s must be a number from %ld to %ld, not \"%.80s\"", setting->key,
                     min, max, setting->value);
    return EMEND_E_INVALID_ARGUMENT;
}

void emend_plugin_setting_unknown(const emend_host *host, const emend_provider_setting *setting) {
    /* Emend's own time limit for the provider, handed to every plugin: not the user's slip. */
    if (strcmp(setting->key, "timeout_ms") == 0) return;
    emend_plugin_log(host, NULL, EMEND_LOG_WARNING, "unknown setting \"%.80s\" ignored", setting->key);
}

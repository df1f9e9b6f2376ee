/* plugin_log.c — printf-style lines through host->log (see emend_plugin.h). */
#define _POSIX_C_SOURCE 200809L
#include "emend_plugin.h"

#include <stdio.h>
#include <stdlib.h>

char *emend_plugin_vformat(const char *format, va_list args) {
    va_list again;
    va_copy(again, args);
    int length = vsnprintf(NULL, 0, format, args);
    char *text = length >= 0 ? malloc((size_t)length + 1) : NULL;
    if (text != NULL) vsnprintf(text, (size_t)length + 1, format, again);
    va_end(again);
    return text;
}

void emend_plugin_vlog(const emend_host *host, emend_run *run, emend_log_level level, const char *format,
                       va_list args) {
    /* Most lines fit the stack; a longer one (a checker's stderr, a model's answer) is kept
     * whole on the heap rather than cut where a reader would miss the end. */
    char line[1024];
    va_list again;
    va_copy(again, args);
    int length = vsnprintf(line, sizeof line, format, args);
    char *whole = NULL;
    if (length >= (int)sizeof line && (whole = malloc((size_t)length + 1)) != NULL)
        vsnprintf(whole, (size_t)length + 1, format, again);
    va_end(again);
    if (whole == NULL && length >= (int)sizeof line)
        line[emend_utf8_complete_prefix(line, sizeof line - 1)] = '\0'; /* cut: whole characters only */
    host->log(run, level, whole != NULL ? whole : length >= 0 ? line : "(a log line could not be formatted)");
    free(whole);
}

void emend_plugin_log(const emend_host *host, emend_run *run, emend_log_level level, const char *format, ...) {
    va_list args;
    va_start(args, format);
    emend_plugin_vlog(host, run, level, format, args);
    va_end(args);
}

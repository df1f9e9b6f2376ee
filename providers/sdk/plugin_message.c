/* plugin_message.c — a failure message into the caller's buffer (see emend_plugin.h). */
#include "emend_plugin.h"

#include <stdio.h>

int emend_plugin_fail(char *err, size_t errlen, const char *format, ...) {
    if (err != NULL && errlen > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(err, errlen, format, args);
        va_end(args);
    }
    return -1;
}

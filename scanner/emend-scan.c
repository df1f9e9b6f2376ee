/*
 * emend-scan — probes a provider file in a process of its own, so that a plugin that crashes
 * or hangs while loading costs the host a diagnostic, not its life.
 *
 *     emend-scan plugin PATH          dlopen PATH, call emend_provider_entry, check the descriptor
 *     emend-scan symbols LIB SYM...   dlopen LIB and check that every SYM exists (simple form)
 *
 * The report goes to stdout, one `key=value` per line after a first line `ok` or `broken`:
 *
 *     ok                     broken
 *     id=org.example.x       reason=no emend_provider_entry symbol
 *     name=...
 *     version=...
 *     tools=3                (EMEND_PROVIDES bits, decimal)
 *     languages=en,de
 *     outputs=1
 *     flags=0
 *     priority=10
 *     abi=1
 *
 * Values are escaped so that no value can break a line: `\\` for a backslash, `\n`, `\r`,
 * `\t`, and `\xHH` for any other byte below 0x20 or 0x7f. The exit status is 0 for either
 * report and 2 for a usage error; a crash or hang of the plugin shows as a signal or as no
 * exit at all, which the host turns into the reason. Plain C11 plus dlfcn/unistd; links
 * nothing of Emend.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emend_provider.h"

/* Where the report goes: the real stdout, kept aside while plugin code runs. */
static FILE *report;

/* Number of tools in emend_tool (EMEND_TOOL_PROOFREAD .. EMEND_TOOL_FOLLOW_UP). */
#define TOOL_COUNT 11u

static void put_escaped(const char *value) {
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        switch (*p) {
        case '\\': fputs("\\\\", report); break;
        case '\n': fputs("\\n", report); break;
        case '\r': fputs("\\r", report); break;
        case '\t': fputs("\\t", report); break;
        default:
            if (*p < 0x20 || *p == 0x7f) fprintf(report, "\\x%02x", *p);
            else fputc(*p, report);
        }
    }
}

static void put_field(const char *key, const char *value) {
    fprintf(report, "%s=", key);
    put_escaped(value);
    fputc('\n', report);
}

/* Writes the report and leaves without running the plugin's destructors or atexit handlers
 * (a plugin that crashes while unloading must not spoil a finished report). */
static _Noreturn void finish(void) {
    fflush(report);
    _exit(0);
}

static _Noreturn void broken(const char *format, const char *a, const char *b) {
    char reason[1024];
    snprintf(reason, sizeof reason, format, a ? a : "", b ? b : "");
    fputs("broken\n", report);
    put_field("reason", reason);
    finish();
}

/* 1 if `s` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF). */
static int valid_utf8(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        size_t n;
        uint32_t min, v;
        if (c < 0x80) { p++; continue; }
        if ((c & 0xe0) == 0xc0) { n = 1; min = 0x80; v = c & 0x1f; }
        else if ((c & 0xf0) == 0xe0) { n = 2; min = 0x800; v = c & 0x0f; }
        else if ((c & 0xf8) == 0xf0) { n = 3; min = 0x10000; v = c & 0x07; }
        else return 0;
        for (size_t i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80) return 0;
            v = (v << 6) | (p[i] & 0x3f);
        }
        if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
        p += n + 1;
    }
    return 1;
}

/* A required descriptor string: present, not empty, UTF-8. */
static void check_string(const char *field, const char *value) {
    if (value == NULL || value[0] == '\0') broken("descriptor has no %s", field, NULL);
    if (!valid_utf8(value)) broken("descriptor %s is not valid UTF-8", field, NULL);
}

/* Reverse-DNS ids: ASCII letters, digits, '.', '-' and '_' (the rule of simple-form
 * manifests too). */
static int valid_id(const char *id) {
    for (const char *p = id; *p; p++) {
        char c = *p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '-' || c == '_';
        if (!ok) return 0;
    }
    return 1;
}

/* dlopen; a failure is the report. `library` names the path in the reason (for the simple
 * form, where the reported file is the manifest, not the library). */
static void *open_library(const char *path, int library) {
    dlerror();
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *error = dlerror();
        size_t length = strlen(path);
        /* dlerror usually starts with the path, which the host already shows. */
        if (error && strncmp(error, path, length) == 0 && strncmp(error + length, ": ", 2) == 0) error += length + 2;
        if (library) broken("library %s cannot be loaded: %s", path, error ? error : "dlopen failed");
        broken("cannot be loaded: %s", error ? error : "dlopen failed", NULL);
    }
    return handle;
}

static int scan_plugin(const char *path) {
    void *handle = open_library(path, 0);
    dlerror();
    void *symbol = dlsym(handle, EMEND_PROVIDER_ENTRY_SYMBOL);
    if (symbol == NULL) broken("no %s symbol", EMEND_PROVIDER_ENTRY_SYMBOL, NULL);

    emend_provider_entry_fn entry;
    memcpy(&entry, &symbol, sizeof entry);
    const emend_provider_descriptor *d = entry();
    if (d == NULL) broken("%s returned NULL", EMEND_PROVIDER_ENTRY_SYMBOL, NULL);

    char number[64], expected[64];
    if (d->struct_size < EMEND_PROVIDER_DESCRIPTOR_MIN_SIZE) {
        snprintf(number, sizeof number, "%zu", d->struct_size);
        snprintf(expected, sizeof expected, "%zu", (size_t)EMEND_PROVIDER_DESCRIPTOR_MIN_SIZE);
        broken("descriptor struct_size %s is smaller than %s", number, expected);
    }
    if (d->abi_version != EMEND_PROVIDER_ABI_VERSION) {
        snprintf(number, sizeof number, "%u", (unsigned)d->abi_version);
        snprintf(expected, sizeof expected, "%u", (unsigned)EMEND_PROVIDER_ABI_VERSION);
        broken("ABI version %s, this host speaks %s", number, expected);
    }
    check_string("id", d->id);
    check_string("name", d->name);
    check_string("version", d->version);
    if (!valid_id(d->id)) broken("id \"%s\" is not a reverse-DNS name (letters, digits, '.', '-', '_')", d->id, NULL);
    if (d->languages != NULL && !valid_utf8(d->languages)) broken("descriptor languages is not valid UTF-8", NULL, NULL);
    if (d->tools == 0) broken("descriptor serves no tools", NULL, NULL);
    if (d->tools >> TOOL_COUNT) {
        snprintf(number, sizeof number, "0x%x", (unsigned)d->tools);
        broken("descriptor tools %s has bits for unknown tools", number, NULL);
    }
    if (d->create == NULL) broken("descriptor has no create function", NULL, NULL);
    if (d->run == NULL) broken("descriptor has no run function", NULL, NULL);
    if (d->destroy == NULL) broken("descriptor has no destroy function", NULL, NULL);

    fputs("ok\n", report);
    put_field("id", d->id);
    put_field("name", d->name);
    put_field("version", d->version);
    fprintf(report, "tools=%u\n", (unsigned)d->tools);
    put_field("languages", d->languages && d->languages[0] ? d->languages : "*");
    fprintf(report, "outputs=%u\n", (unsigned)d->outputs);
    fprintf(report, "flags=%u\n", (unsigned)d->flags);
    fprintf(report, "priority=%d\n", (int)d->priority);
    fprintf(report, "abi=%u\n", (unsigned)d->abi_version);
    finish();
}

static int scan_symbols(const char *library, int count, char **symbols) {
    void *handle = open_library(library, 1);
    for (int i = 0; i < count; i++) {
        dlerror();
        if (dlsym(handle, symbols[i]) == NULL) broken("library %s has no symbol %s", library, symbols[i]);
    }
    fputs("ok\n", report);
    finish();
}

/* Keeps the report's descriptor for this program and points fd 1 at stderr, so that a
 * plugin printing to stdout while it loads cannot forge or spoil the report. */
static void set_report_aside(void) {
    int fd = dup(STDOUT_FILENO);
    if (fd >= 0) {
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        report = fdopen(fd, "w");
    }
    if (report == NULL) report = stdout;
    else dup2(STDERR_FILENO, STDOUT_FILENO);
}

int main(int argc, char **argv) {
    set_report_aside();
    if (argc == 3 && strcmp(argv[1], "plugin") == 0) return scan_plugin(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "symbols") == 0) return scan_symbols(argv[2], argc - 3, argv + 3);
    fprintf(stderr, "usage: emend-scan plugin PATH\n       emend-scan symbols LIBRARY SYMBOL...\n");
    return 2;
}

/*
 * emend-scan — probes a provider file in a process of its own, so that a plugin that crashes
 * or hangs while loading costs the host a diagnostic, not its life.
 *
 *     emend-scan plugin PATH          dlopen PATH, call emend_provider_entry, check the descriptor
 *     emend-scan symbols LIB SYM...   dlopen LIB and check that every SYM exists (simple form)
 *
 * The report goes to stdout, one `key=value` per line after a first line `ok` or `broken`,
 * the report's format first (REPORT_FORMAT: a host reads only the format it knows, so a
 * scanner and a library from different builds say so instead of misreading each other):
 *
 *     ok                     broken
 *     format=2               format=2
 *     id=org.example.x       reason=no emend_provider_entry symbol
 *     name=...
 *     version=...
 *     tools=3                (EMEND_PROVIDES bits, decimal)
 *     languages=en,de
 *     outputs=1
 *     flags=0
 *     priority=10
 *     abi=1
 *     paths=/opt/x\n/opt/y  (only when the plugin exports emend_provider_read_paths)
 *
 * Values are escaped so that no value can break a line: `\\` for a backslash, `\n`, `\r`,
 * `\t`, and `\xHH` for any other byte below 0x20 or 0x7f. The exit status is 0 for either
 * report and 2 for a usage error; a crash or hang of the plugin shows as a signal or as no
 * exit at all, which the host turns into the reason. Plain C11 plus dlfcn/unistd; links
 * nothing of Emend but the plugin sandbox (Sources/CEmendSandbox/sandbox.c, libseccomp). The
 * descriptor's rules are in descriptor_verdict.h.
 *
 * A plugin's constructors run while it is scanned, so the scanner enters the same sandbox as
 * a provider host before dlopen (include/emend_sandbox.h): only the report's descriptor kept,
 * an allowlisted environment, new user/pid/net/ipc namespaces (no network at all: a scan
 * needs none), Landlock (read: the system's libraries, the plugin's file and directory;
 * write: a private runtime directory), seccomp. Whatever the plugin starts dies with the
 * scan. EMEND_SCAN_SANDBOX=off (for a debugger) skips it.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "descriptor_verdict.h"
#include "emend_provider.h"
#include "emend_sandbox.h"

/* The version of the report's layout (format=N); Sources/EmendProviders/Discovery/ScanReport.swift
 * reads this one. 1 was the layout without the format line. */
#define REPORT_FORMAT 2

/* Where the report goes: the real stdout, kept aside while plugin code runs. */
static FILE *report;

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

/* The first lines of every report. */
static void begin(const char *verdict) { fprintf(report, "%s\nformat=%d\n", verdict, REPORT_FORMAT); }

static _Noreturn void broken(const char *format, const char *a, const char *b) {
    char reason[1024];
    snprintf(reason, sizeof reason, format, a ? a : "", b ? b : "");
    begin("broken");
    put_field("reason", reason);
    finish();
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

    char reason[1024];
    if (descriptor_verdict(d, reason, sizeof reason) != 0) broken("%s", reason, NULL);

    begin("ok");
    put_field("id", d->id);
    put_field("name", d->name);
    put_field("version", d->version);
    fprintf(report, "tools=%u\n", (unsigned)d->tools);
    put_field("languages", d->languages && d->languages[0] ? d->languages : "*");
    fprintf(report, "outputs=%u\n", (unsigned)d->outputs);
    fprintf(report, "flags=%u\n", (unsigned)d->flags);
    fprintf(report, "priority=%d\n", (int)d->priority);
    fprintf(report, "abi=%u\n", (unsigned)d->abi_version);
    const char *paths = dlsym(handle, EMEND_PROVIDER_READ_PATHS_SYMBOL);
    if (paths != NULL && memchr(paths, '\0', 65536) != NULL) put_field("paths", paths);
    finish();
}

static int scan_symbols(const char *library, int count, char **symbols) {
    void *handle = open_library(library, 1);
    for (int i = 0; i < count; i++) {
        dlerror();
        if (dlsym(handle, symbols[i]) == NULL) broken("library %s has no symbol %s", library, symbols[i]);
    }
    begin("ok");
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

/* The variables a scan keeps (the same allowlist as a provider host's, HostEnvironment.swift). */
static const char *const kept_variables[] = {
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_*", "TZ", "TERM", "XDG_DATA_HOME", "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME", "XDG_DATA_DIRS", "XDG_RUNTIME_DIR", "EMEND_*", "LD_LIBRARY_PATH", "SWIFT_BACKTRACE",
};

/* Enters the sandbox before anything of `path` is loaded; `path`'s file and directory stay
 * readable. A refused layer goes to stderr (the host does not read it); the scan goes on. */
static void confine(const char *path) {
    const char *mode = getenv("EMEND_SCAN_SANDBOX");
    if (mode && strcmp(mode, "off") == 0) return;
    static char directory[4096];
    snprintf(directory, sizeof directory, "%s", path);
    char *slash = strrchr(directory, '/');
    if (slash == directory) slash[1] = '\0';
    else if (slash) *slash = '\0';
    else snprintf(directory, sizeof directory, ".");
    const char *read_paths[] = {path, directory};
    int keep = fileno(report);
    emend_sandbox_policy policy = {
        .keep_fds = &keep, .keep_count = 1, .read_paths = read_paths, .read_count = 2,
        .environment_names = kept_variables, .environment_count = sizeof kept_variables / sizeof kept_variables[0],
    };
    emend_sandbox_report outcome;
    if (emend_sandbox_enter(&policy, &outcome) != 0) {
        fprintf(stderr, "emend-scan: sandbox: none (no process could be made)\n");
    } else if (outcome.applied != outcome.wanted) {
        fprintf(stderr, "emend-scan: sandbox: %s (%s)\n", emend_sandbox_level(&outcome), outcome.refused);
    }
}

int main(int argc, char **argv) {
    set_report_aside();
    if (argc >= 3 && (strcmp(argv[1], "plugin") == 0 || strcmp(argv[1], "symbols") == 0)) confine(argv[2]);
    if (argc == 3 && strcmp(argv[1], "plugin") == 0) return scan_plugin(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "symbols") == 0) return scan_symbols(argv[2], argc - 3, argv + 3);
    fprintf(stderr, "usage: emend-scan plugin PATH\n       emend-scan symbols LIBRARY SYMBOL...\n");
    return 2;
}

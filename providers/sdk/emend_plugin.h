/*
 * emend_plugin.h — the plugin SDK: what every provider plugin of Emend needs besides the ABI
 * in emend_provider.h, written once so that the shipped plugins cannot drift apart (as
 * SQLite's extension macros give every extension the same opening).
 *
 *   settings   parse_bool, parse_number (with a range), expand_home, and their logged forms
 *   logging    printf-style lines through host->log, cut on a character boundary; a failure's
 *              message into the caller's buffer (emend_plugin_fail)
 *   checks     the host table at create; a request as the host hands it to run
 *   run slots  the runs in progress of an instance (mutex, run, cancel flag) for cancel
 *   instances  the part every instance shares (host, runs): create's opening, cancel, destroy's
 *              end, and a run served inside descriptor.run from the checks to finish
 *   UTF-8      validation, decoding and the whole-character prefix of a stream
 *   export     EMEND_PLUGIN_DESCRIPTOR: the descriptor and the one exported symbol
 *
 * Compile the SDK's .c files into the plugin (providers/sdk/plugin-flags.sh does it) with
 * -fvisibility=hidden: these functions are the plugin's own, never exported, so two plugins
 * built against different SDK versions cannot bind to each other's copies in one process.
 *
 * STATE    The SDK keeps none of its own: no globals, no allocation behind the caller's back
 *          (functions that return memory say so). Everything lives in structs the plugin
 *          instance (or one run) owns.
 * THREADS  Every function may be called from any thread; the only shared object is a
 *          emend_plugin_runs (in an emend_plugin_instance), which carries its own lock.
 *
 * C11 with POSIX threads.
 */
#ifndef EMEND_PLUGIN_H
#define EMEND_PLUGIN_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "emend_provider.h"

/* ---- export --------------------------------------------------------------------------------- */

/* Defines the plugin's one exported function, returning `descriptor` (a static
 * emend_provider_descriptor). Plugins build with -fvisibility=hidden, so this is the only
 * symbol the host (and any other library in the process) can see. */
#define EMEND_PLUGIN_ENTRY(descriptor)                                                        \
    __attribute__((visibility("default"))) const emend_provider_descriptor *emend_provider_entry(void) { \
        return &(descriptor);                                                                 \
    }

/* The static descriptor (struct_size and abi_version filled in: version 1 of this SDK's
 * emend_provider.h) and the entry point returning it, from the designated initializers of the
 * rest:
 *
 *     EMEND_PLUGIN_DESCRIPTOR(.id = "org.example.x", .name = "X", .version = "1.0.0",
 *                             .tools = TOOLS, .languages = "*", .outputs = EMEND_OUTPUT_EDITS,
 *                             .create = x_create, .run = x_run, .cancel = emend_plugin_cancel,
 *                             .destroy = x_destroy)
 *
 * Fields not named are zero (flags, priority). */
#define EMEND_PLUGIN_DESCRIPTOR(...)                                                          \
    static const emend_provider_descriptor emend_plugin_descriptor = {                        \
        .struct_size = sizeof(emend_provider_descriptor),                                     \
        .abi_version = EMEND_PROVIDER_ABI_VERSION,                                            \
        __VA_ARGS__};                                                                         \
    EMEND_PLUGIN_ENTRY(emend_plugin_descriptor)

/* ---- settings ------------------------------------------------------------------------------- */

/* Settings arrive as text in their TOML spelling (emend_provider_setting). */

/* "true" -> 1, "false" -> 0 into *out and 0; anything else -1 (*out untouched). */
int emend_plugin_parse_bool(const char *value, int *out);

/* A decimal integer (strtol's spelling, base 10) from min to max into *out and 0; -1 for
 * anything else (text after the digits, a fraction, out of range; *out untouched). */
int emend_plugin_parse_number(const char *value, long min, long max, long *out);

/* "~/x" -> "$HOME/x" (when HOME is set and not empty); anything else copied. malloc'd: the
 * caller frees it. NULL when out of memory. */
char *emend_plugin_expand_home(const char *path);

/* The logged forms, for create: on a bad value they log `KEY must be true or false, not
 * "VALUE"` (or `KEY must be a number from MIN to MAX, not "VALUE"`) as an error through
 * host->log and return EMEND_E_INVALID_ARGUMENT; else EMEND_OK with *out set. */
emend_status emend_plugin_setting_bool(const emend_host *host, const emend_provider_setting *setting, int *out);
emend_status emend_plugin_setting_number(const emend_host *host, const emend_provider_setting *setting, long min,
                                         long max, long *out);
/* Logs `unknown setting "KEY" ignored` as a warning (settings are never fatal for being new). */
void emend_plugin_setting_unknown(const emend_host *host, const emend_provider_setting *setting);

/* ---- logging -------------------------------------------------------------------------------- */

/* A line for host->log, formatted like printf. Pass the run when there is one (see
 * emend_host.log). Lines of any length are kept whole (up to memory); a line cut for want of
 * memory ends on a whole UTF-8 character. */
void emend_plugin_log(const emend_host *host, emend_run *run, emend_log_level level, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
void emend_plugin_vlog(const emend_host *host, emend_run *run, emend_log_level level, const char *format,
                       va_list args) __attribute__((format(printf, 4, 0)));

/* The formatted text, malloc'd (the caller frees it); NULL when out of memory. For plugins
 * that must rewrite a line before it is logged (the openai plugin redacts its API key). */
char *emend_plugin_vformat(const char *format, va_list args) __attribute__((format(printf, 1, 0)));

/* printf into err (errlen bytes, cut to fit; nothing when err is NULL or errlen 0): the
 * message of a failure a plugin's own functions hand up to their caller (a run's message, a
 * setting refused). Returns -1, so that `return emend_plugin_fail(err, errlen, ...);` ends a
 * function that fails with -1. */
int emend_plugin_fail(char *err, size_t errlen, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* ---- checks --------------------------------------------------------------------------------- */

/* For create: host and instance present, and the host's table reaches `finish` (the last
 * function of version 1). EMEND_OK, EMEND_E_INVALID_ARGUMENT or EMEND_E_STRUCT_SIZE. */
emend_status emend_plugin_check_host(const emend_host *host, void **instance);

/* The part of emend_provider_request every version-1 host fills (through `language`);
 * `markdown` is newer: read it only when struct_size covers it. */
#define EMEND_PLUGIN_REQUEST_MIN_SIZE (offsetof(emend_provider_request, language) + sizeof(const char *))

/* For run: the arguments and the request as the host hands them over, before any of it is
 * read. `tools` is the descriptor's EMEND_PROVIDES bits.
 *   EMEND_E_INVALID_ARGUMENT  instance, request or run NULL
 *   EMEND_E_STRUCT_SIZE       struct_size below EMEND_PLUGIN_REQUEST_MIN_SIZE
 *   EMEND_E_UNSUPPORTED       a tool outside `tools`
 *   EMEND_E_RANGE             text NULL with a length; the selection or a protected range
 *                             not inside the text, backwards, or splitting a UTF-8
 *                             character; protected ranges NULL with a count
 * The host's own checks make all of these impossible; they are here so that a plugin run by
 * a test harness or another host fails with a status instead of reading out of bounds. */
emend_status emend_plugin_check_run(const void *instance, const emend_provider_request *request, const emend_run *run,
                                    uint32_t tools);

/* ---- run slots ------------------------------------------------------------------------------ */

/* cancel may come from any thread at any time, even as the run finishes, and must neither
 * block on the run nor touch a run that is gone (emend_provider_descriptor.cancel). So an
 * instance keeps its runs in progress under a lock: run enters a slot before working and
 * leaves it before finishing; cancel only sets the flag of the slot whose run it names.
 *
 * A slot belongs to one run and usually lives on run's stack. `wake` (may be NULL) is called
 * under the lock by cancel, for a run that sleeps in a wait of its own (a curl multi handle);
 * it must not block or call back into the SDK. */
typedef struct emend_plugin_slot {
    emend_run *run;
    atomic_int cancelled;
    void (*wake)(void *context);
    void *wake_context;
    struct emend_plugin_slot *next; /* guarded by the emend_plugin_runs' lock */
} emend_plugin_slot;

/* One per instance. A plugin that runs one request at a time holds at most one slot in it;
 * a CONCURRENT one holds one per run. */
typedef struct emend_plugin_runs {
    pthread_mutex_t lock;
    emend_plugin_slot *slots;
} emend_plugin_runs;

/* 0, or -1 when the mutex cannot be made. destroy when no run is in progress. */
int emend_plugin_runs_init(emend_plugin_runs *runs);
void emend_plugin_runs_destroy(emend_plugin_runs *runs);

/* `slot` (its wake and wake_context set or zero) starts serving `run`, not cancelled. */
void emend_plugin_runs_enter(emend_plugin_runs *runs, emend_plugin_slot *slot, emend_run *run);
/* `slot` is done: cancel no longer sees it. Call before host->finish (after it, the host
 * may reuse the run pointer for a later run). */
void emend_plugin_runs_leave(emend_plugin_runs *runs, emend_plugin_slot *slot);
/* For descriptor.cancel: flags (and wakes) the slot serving `run`; nothing when none does. */
void emend_plugin_runs_cancel(emend_plugin_runs *runs, emend_run *run);

/* Sets `slot`'s wake-up (wake NULL: none) while it is entered, under the lock: for a run
 * whose wait is made after it entered and ends before it leaves. Once this returns with wake
 * NULL, cancel no longer calls the old one, so its context may go. */
void emend_plugin_runs_set_wake(emend_plugin_runs *runs, emend_plugin_slot *slot, void (*wake)(void *context),
                                void *context);

/* 1 once cancel named the slot's run or host->is_cancelled says so; 0 otherwise. From the
 * run's own thread (or any thread while the slot is entered). */
int emend_plugin_slot_cancelled(emend_plugin_slot *slot, const emend_host *host);

/* ---- instances ------------------------------------------------------------------------------ */

/* What every instance of a shipped plugin holds: the host's table and its runs in progress.
 * The plugin's own struct starts with one (its first member), so that the SDK's create,
 * cancel and destroy parts and the run below work on any plugin's instance pointer. */
typedef struct emend_plugin_instance {
    const emend_host *host;
    emend_plugin_runs runs;
} emend_plugin_instance;

/* The opening of create: the host table checked (emend_plugin_check_host), then `size` bytes
 * zeroed, starting with an emend_plugin_instance whose host is set and runs are ready. The
 * caller fills in the rest, stores it in *instance when create succeeds and releases it with
 * emend_plugin_instance_free. NULL with *status (EMEND_E_INVALID_ARGUMENT,
 * EMEND_E_STRUCT_SIZE or, out of memory, EMEND_E_INTERNAL) otherwise. */
void *emend_plugin_instance_new(const emend_host *host, void **instance, size_t size, emend_status *status);

/* The end of destroy, after the plugin freed its own parts: the runs' lock and the memory.
 * NULL is fine. */
void emend_plugin_instance_free(void *instance);

/* descriptor.cancel for such an instance: flags (and wakes) the slot serving `run`; nothing
 * when none does (the run already finished) or instance is NULL. Any thread, never blocks
 * on the run. */
void emend_plugin_cancel(void *instance, emend_run *run);

/* The room a run has for its failure message. */
#define EMEND_PLUGIN_MESSAGE_SIZE 2048

/* The work of one request, for emend_plugin_run_inside: answer through host->emit_text or
 * emit_edit, look at emend_plugin_slot_cancelled(slot, host) often, and return the run's
 * status; on failure, why in `message` (NUL-terminated UTF-8, `message_size` bytes; left
 * empty, the host names the status). It must not call host->finish. */
typedef emend_status (*emend_plugin_serve_fn)(void *instance, const emend_provider_request *request, emend_run *run,
                                              emend_plugin_slot *slot, char *message, size_t message_size);

/* descriptor.run for a plugin that does the work inside run: the request checked against
 * `tools` (emend_plugin_check_run; a failure is returned and the run not finished), a slot
 * entered so that emend_plugin_cancel reaches it, `serve` called, the slot left, and the run
 * finished with serve's status (and message unless EMEND_OK). EMEND_OK after the finish. */
emend_status emend_plugin_run_inside(void *instance, const emend_provider_request *request, emend_run *run,
                                     uint32_t tools, emend_plugin_serve_fn serve);

/* ---- UTF-8 ---------------------------------------------------------------------------------- */

/* Well-formed means: no overlongs, no surrogates, nothing past U+10FFFF. */

/* The length (1 to 4) of the well-formed character at s[0] (n > 0 bytes available); 0 when
 * the bytes so far start one but it is cut off by the end; -1 when they cannot start one. */
int emend_utf8_char(const char *s, size_t n);

/* Decodes the character at s[i] (i < n) into *cp and returns its length; a byte that does
 * not start a well-formed character gives U+FFFD and length 1. */
size_t emend_utf8_decode(const char *s, size_t n, size_t i, uint32_t *cp);

/* 1 if text[0, length) is well-formed UTF-8. */
int emend_utf8_valid(const char *text, size_t length);

/* 1 if `offset` (<= length) does not fall inside a character: the end, or a byte that is not
 * a continuation byte. */
int emend_utf8_is_boundary(const char *text, size_t length, size_t offset);

/* The length of the longest prefix of text[0, length) that ends on a whole character:
 * length, minus the bytes of an incomplete sequence at the end. Invalid bytes count as
 * whole (emit_text rejects them). For streaming output in whole characters. */
size_t emend_utf8_complete_prefix(const char *text, size_t length);

/* Makes the NUL-terminated `text` well-formed in place, for a log or a finish message: a
 * character cut off by the end is dropped, any other bad byte becomes '?'. */
void emend_utf8_tidy(char *text);

#endif /* EMEND_PLUGIN_H */

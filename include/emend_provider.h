/*
 * emend_provider.h — the provider plugin ABI of Emend.
 *
 * A provider (a grammar checker, a local model, a model server client) is a shared object
 * that Emend finds at run time and loads with dlopen. It exports one symbol,
 *
 *     const emend_provider_descriptor *emend_provider_entry(void);
 *
 * which returns a static, versioned descriptor: who the provider is, which tools it serves,
 * and the functions to create an instance, run a request, cancel it and destroy the
 * instance. The host hands the plugin a table of host functions (log, is-cancelled, emit
 * text, emit edit, finish): a plugin links nothing of the host and needs only this header
 * (and emend.h for the shared vocabulary: emend_tool, emend_status).
 *
 * Discovery: EMEND_PROVIDER_PATH (colon separated), then $XDG_DATA_HOME/emend/providers
 * (default ~/.local/share/emend/providers), then <prefix>/lib/emend/providers. Files named
 * *.so are plugins; files named *.toml are simple-form manifests (see below). A file name
 * found in an earlier directory hides the same name later. New or changed files are probed
 * in a child process with a time limit, so a plugin that crashes or hangs while loading is
 * reported, not fatal; results are cached in $XDG_CACHE_HOME/emend/ by path, mtime and size.
 * Files or directories writable by other users are refused.
 *
 * Conventions: text is UTF-8 with a length in bytes; offsets are UTF-8 byte offsets into the
 * request's text; every struct starts with struct_size and only grows at the end.
 *
 * THREADS  entry and create run on a runtime thread of the host, once per process and
 *          instance. run is called on a runtime thread, one request at a time per instance
 *          unless the descriptor says EMEND_PROVIDER_CONCURRENT. A plugin may do the work
 *          inside run (emitting, then finishing before it returns) or return at once and
 *          finish later from any thread. cancel may be called from any thread while a run is
 *          unfinished. destroy is called once, after every run finished; an instance with
 *          an abandoned run (see cancel) is never destroyed.
 *          Host functions may be called from any thread.
 *
 * THE SIMPLE FORM  A plain C function of an existing library can provide a tool without any
 * of this: a TOML manifest next to it names the library, the function, its signature and
 * the function that frees its result, and Emend calls it through libffi. See
 * examples/plugins/simple/ for a manifest with every key explained.
 */
#ifndef EMEND_PROVIDER_H
#define EMEND_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#include "emend.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EMEND_PROVIDER_ABI_VERSION 1

/* The name of the symbol every plugin exports. */
#define EMEND_PROVIDER_ENTRY_SYMBOL "emend_provider_entry"

/* The sandbox. A plugin runs in a provider host that libemend confines before the plugin is
 * loaded (and so does the scanner, emend-scan, which runs its constructors). A plugin may:
 *   - read the system's libraries and shared data (/usr, /lib, /bin, /opt, what programs
 *     need of /etc, /proc, the CPU part of /sys), its own file and the directory it is in,
 *     emend's data and cache directories ($XDG_DATA_HOME/emend, $XDG_CACHE_HOME/emend: models),
 *     every absolute path its settings name (a whole value, or a word of a command line), the
 *     paths it declares below and those the user adds with `sandbox_paths` in config.toml;
 *   - write only a private directory, $TMPDIR (removed when its host ends), /dev/null, its
 *     own cache directory ($EMEND_PROVIDER_CACHE_DIR, below), and the paths the user grants
 *     with `sandbox_write_paths`;
 *   - use the network (TCP) only when its descriptor says EMEND_PROVIDER_USES_NETWORK and the
 *     user's configuration enables the network (`network = true`);
 *   - see only a clean environment: PATH, HOME, the locale, XDG_* and EMEND_* variables, and
 *     the variables its settings name in keys ending in `_env` (`api_key_env = "OPENAI_API_KEY"`);
 *   - start processes (they share its sandbox, and all of them end with its host), but not
 *     signal, trace or read the memory of any process outside it (the editor).
 * EMEND_PROVIDER_CACHE_DIR, in the plugin's environment (and so in that of the processes it
 * starts), names the provider's own cache directory, $XDG_CACHE_HOME/emend-providers/<id>
 * (or ~/.cache/emend-providers/<id>): created by libemend (mode 0700) before the host starts,
 * kept across hosts and sessions (unlike $TMPDIR), readable and writable by this provider
 * only (no other provider's plugin can read or write it, nor can this one another's), so a
 * disk cache kept there can neither be poisoned nor read by another plugin. It is set with the sandbox on or off, but may
 * be absent (no usable HOME or XDG_CACHE_HOME, an id that is not a safe file name, a
 * directory that could not be created, an older libemend): a plugin then works without its
 * cache. A value inherited from the editor's environment is never passed on.
 * The layers the kernel refuses are reported once (`emend doctor` prints the level); the user
 * can turn the sandbox off for one provider with `sandbox = "off"`.
 * Limits (config.toml, sandbox or not): one run may use `cpu_seconds` of CPU time (600; the
 * host's RLIMIT_CPU, moved on at each run's start): beyond it the kernel ends the host with
 * SIGXCPU and the run fails saying so; a run that ignores its cancel has `cancel_grace_ms`.
 * Every process has `memory_mb` of address space (RLIMIT_AS: malloc fails beyond it); in the
 * sandbox, the plugin's processes together (it and the children it starts) have `memory_mb`
 * of memory (their PSS, measured every 100 ms): beyond it all of them are killed and the run
 * fails saying so.
 *
 * A plugin that reads files outside its directory that its settings do not name (a server
 * script, its Python packages) declares them by exporting this symbol: absolute paths
 * separated by '\n', e.g.
 *     __attribute__((visibility("default"))) const char emend_provider_read_paths[] = "/opt/x/a.py\n/opt/x/lib";
 * The scanner reads it; `/`, the home directory and hidden directories in it (~/.ssh,
 * ~/.config) are never granted this way (only the user's `sandbox_paths` can). An entry
 * `$EMEND_NAME` grants the path the user's environment variable EMEND_NAME names (e.g.
 * "$EMEND_LLAMA_MODEL": a model file the user put anywhere); unset, it grants nothing. */
#define EMEND_PROVIDER_READ_PATHS_SYMBOL "emend_provider_read_paths"

/* Tools a provider serves: bit (1 << t) for each emend_tool t. */
#define EMEND_PROVIDES(tool) (1u << (unsigned)(tool))
#define EMEND_PROVIDES_REWRITES                                                             \
    (EMEND_PROVIDES(EMEND_TOOL_REWRITE_FRIENDLY) | EMEND_PROVIDES(EMEND_TOOL_REWRITE_PROFESSIONAL) | \
     EMEND_PROVIDES(EMEND_TOOL_REWRITE_CONCISE) | EMEND_PROVIDES(EMEND_TOOL_REWRITE_DESCRIBED) | \
     EMEND_PROVIDES(EMEND_TOOL_FOLLOW_UP))

/* Shapes of output a provider produces. */
enum {
    EMEND_OUTPUT_PLAIN = 1,    /* plain text through emit_text */
    EMEND_OUTPUT_MARKDOWN = 2, /* Markdown (lists, tables, emphasis) through emit_text */
    EMEND_OUTPUT_EDITS = 4     /* suggested edits through emit_edit (proofreading) */
};

/* Descriptor flags. */
enum {
    EMEND_PROVIDER_STREAMS = 1,      /* emits text in pieces while it works */
    EMEND_PROVIDER_USES_NETWORK = 2, /* off until the user's configuration enables it */
    EMEND_PROVIDER_CONCURRENT = 4,   /* run may be called again before an earlier run finished */
    EMEND_PROVIDER_NO_RETRY = 8      /* asking again (with guidance) gives the same answer: don't */
};

/* Log levels for host->log. */
typedef enum emend_log_level {
    EMEND_LOG_DEBUG = 0,
    EMEND_LOG_INFO = 1,
    EMEND_LOG_WARNING = 2,
    EMEND_LOG_ERROR = 3
} emend_log_level;

/* A span of the request's text in UTF-8 bytes: [start, end). */
typedef struct emend_byte_range {
    size_t start;
    size_t end;
} emend_byte_range;

/* One request. Everything is owned by the host and valid until the run finishes (or is
 * abandoned after cancel); copy what you keep longer. */
typedef struct emend_provider_request {
    size_t struct_size;                /* sizeof(emend_provider_request) of the host */
    emend_tool tool;
    const char *text;                  /* UTF-8: the selection with surrounding context */
    size_t text_length;                /* bytes */
    emend_byte_range selection;        /* the part to work on; output replaces it */
    const emend_byte_range *protected_ranges; /* text no edit may touch (code, quotes) */
    size_t protected_range_count;
    uint32_t result_options;           /* EMEND_RESULT_* the engine accepts */
    const char *prompt;                /* described change, compose prompt or follow-up; NULL if none */
    const char *previous_result;       /* for a follow-up: the text being refined; else NULL */
    const char *language;              /* BCP 47, e.g. "en-US"; never NULL */
    /* The selection as Markdown (headings, lists, tables, emphasis, links, code), for
     * providers that write EMEND_OUTPUT_MARKDOWN: text they replace the selection with is
     * read back as Markdown. Protected text and attachments appear as placeholders ⟦1⟧,
     * ⟦2⟧, ... that the output must keep (Emend restores them byte for byte and puts back
     * any that are missing). NUL-terminated UTF-8, `markdown_length` bytes; never NULL
     * when struct_size covers it. */
    const char *markdown;
    size_t markdown_length;
    /* When the host asks again because the last answer changed facts of the text (a number,
     * a date, a name, a negation dropped, added or flipped): what to keep, in words for a
     * model's prompt ("Keep these facts exactly as the text states them: ..."). NULL on a
     * first request. NUL-terminated UTF-8. A plugin that cannot give another answer says so
     * with EMEND_PROVIDER_NO_RETRY and is not asked again. */
    const char *guidance;
} emend_provider_request;

/* A suggested edit: [start, end) of the request text becomes `replacement`. */
typedef struct emend_provider_edit {
    size_t struct_size;                /* sizeof(emend_provider_edit) of the plugin */
    emend_byte_range range;            /* inside the selection, outside protected ranges */
    const char *replacement;           /* UTF-8, `replacement_length` bytes */
    size_t replacement_length;
    const char *explanation;           /* NUL-terminated UTF-8 or NULL */
    const char *category;              /* "spelling", "grammar", "style", ... or NULL */
    const char *rule_id;               /* the provider's rule name, or NULL */
} emend_provider_edit;

/* One run of a request, as the host tracks it. Opaque; valid until the instance is
 * destroyed (calls after finish are refused with EMEND_E_STATE, never a crash). */
typedef struct emend_run emend_run;

/* What the host offers a plugin. Every function may be called from any thread. Pointers
 * passed in are copied before the call returns. */
typedef struct emend_host {
    size_t struct_size;                /* sizeof(emend_host) of the host */
    uint32_t abi_version;              /* EMEND_PROVIDER_ABI_VERSION of the host */

    /* A line for the host's log (NUL-terminated UTF-8). Pass the run whenever there is one:
     * with `run` NULL the line can only be attributed to a plugin while the host is inside
     * one of its functions (create, run, cancel, destroy). */
    void (*log)(emend_run *run, emend_log_level level, const char *message);

    /* 1 once the run was cancelled (stopped by the user, or past its time limit): stop
     * soon and finish with EMEND_E_CANCELLED. 0 otherwise. */
    int (*is_cancelled)(emend_run *run);

    /* A piece of the result text, whole UTF-8 characters (a model whose tokens split a
     * character must hold the partial bytes back until the character is whole).
     * EMEND_E_INVALID_UTF8 for bad text, EMEND_E_STATE after finish, EMEND_E_CANCELLED once cancelled (the piece is
     * dropped in every such case). A NUL byte in the text is EMEND_E_INVALID_ARGUMENT and refuses
     * the whole result: the run fails saying so (an engine keeping its text NUL-terminated would
     * lose the rest of its document, and a result cut there would look complete). */
    emend_status (*emit_text)(emend_run *run, const char *text, size_t length);

    /* One suggested edit. EMEND_E_RANGE for a range outside the selection, splitting a
     * character, overlapping an earlier edit or touching protected text; EMEND_E_INVALID_UTF8
     * for bad text; EMEND_E_STRUCT_SIZE for a struct too small; EMEND_E_STATE after finish.
     * A refused edit is dropped and logged with the plugin's path. A replacement holding a NUL
     * byte is EMEND_E_INVALID_ARGUMENT and refuses the whole result, as for emit_text. */
    emend_status (*emit_edit)(emend_run *run, const emend_provider_edit *edit);

    /* The run is over: EMEND_OK, or a failure status with a message (NUL-terminated UTF-8,
     * may be NULL). Exactly once per run; a second call returns EMEND_E_STATE.
     * EMEND_E_UNSUPPORTED says the provider does not serve this request (a language it has
     * no dictionary for) rather than that it broke: a combined proofread lists it as skipped
     * with the message, and the result is not partial for it. */
    emend_status (*finish)(emend_run *run, emend_status status, const char *message);
} emend_host;

/* A configuration value for an instance: the keys of the provider's table in the user's
 * config.toml ([providers."org.example.id"]), values as text (numbers and booleans in
 * their TOML spelling). */
typedef struct emend_provider_setting {
    const char *key;                   /* NUL-terminated UTF-8 */
    const char *value;                 /* NUL-terminated UTF-8 */
} emend_provider_setting;

typedef struct emend_provider_descriptor {
    size_t struct_size;                /* sizeof(emend_provider_descriptor) of the plugin */
    uint32_t abi_version;              /* EMEND_PROVIDER_ABI_VERSION the plugin was built for */
    /* The strings are NUL-terminated UTF-8; a descriptor that breaks a rule is listed as
     * broken with the rule (scanner/descriptor_verdict.h). */
    const char *id;                    /* reverse DNS, e.g. "org.example.speller"; required:
                                          1 to 128 ASCII letters, digits, '.', '-', '_' */
    const char *name;                  /* for people, e.g. "Example speller"; 1 to 256 bytes */
    const char *version;               /* the plugin's own version, e.g. "1.2.0"; 1 to 64 bytes */
    uint32_t tools;                    /* EMEND_PROVIDES(...) bits of emend_tool; at least one */
    const char *languages;             /* comma separated BCP 47 tags (letters, digits, '-'),
                                          "*" (or NULL) for any; at most 1024 bytes */
    uint32_t outputs;                  /* EMEND_OUTPUT_* bits */
    uint32_t flags;                    /* EMEND_PROVIDER_* bits */
    int32_t priority;                  /* higher is preferred when the config names none */

    /* Make an instance from the user's settings for this provider (its table in
     * config.toml, less Emend's own keys: enabled, isolation, sandbox*, the limits). One of
     * Emend's keys is handed on as well: `timeout_ms`, the time Emend gives the provider per
     * 256 KB of text; a plugin with a limit of its own should follow it, any other may
     * ignore it (the SDK's emend_plugin_setting_unknown does, silently). *instance receives the
     * plugin's own pointer (may be NULL). `host` and the settings stay valid until destroy.
     * A failure status with a message through host->log marks the provider unusable for
     * this process. */
    emend_status (*create)(const emend_host *host, const emend_provider_setting *settings,
                           size_t setting_count, void **instance);

    /* Start (or do) one request; answer through the host functions and call host->finish
     * exactly once, before or after returning. A status other than EMEND_OK returned here
     * means the run failed at once (then do not call finish). */
    emend_status (*run)(void *instance, const emend_provider_request *request, emend_run *run);

    /* Ask a run to stop; the plugin finishes it with EMEND_E_CANCELLED soon. May be NULL
     * (the host then relies on is_cancelled). It can race the run's own finish: look the run
     * up in the plugin's state rather than assume it is still going, and do not block on it.
     * A run that does not finish within a second of cancel is abandoned: the host stops
     * waiting, keeps the request memory until the plugin finishes after all, sends no
     * further runs to that instance meanwhile, and never destroys it. The engine's
     * coordinator still counts the run as executing until the plugin returned from run
     * (and finished it, unless it was cancelled), up to 5 seconds after cancel: its
     * emend_coordinator_destroy and run_until_idle wait for that, so return from run
     * promptly once cancelled. */
    void (*cancel)(void *instance, emend_run *run);

    /* Free the instance. */
    void (*destroy)(void *instance);
} emend_provider_descriptor;

/* Version 1 of the descriptor is the whole struct above: every field is needed. */
#define EMEND_PROVIDER_DESCRIPTOR_MIN_SIZE sizeof(emend_provider_descriptor)
/* The first version of an edit includes its replacement. */
#define EMEND_PROVIDER_EDIT_MIN_SIZE offsetof(emend_provider_edit, explanation)

/* The entry point's type. */
typedef const emend_provider_descriptor *(*emend_provider_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* EMEND_PROVIDER_H */

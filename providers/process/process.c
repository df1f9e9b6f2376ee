/*
 * process.c — an Emend provider that runs a checker as a long-lived child process and talks
 * to it in JSON lines over its stdin and stdout (providers/process/PROTOCOL.md), so that a
 * checker written in any language becomes a provider.
 *
 *   id     org.emend.process (or PROVIDER_ID at build time)
 *   tools  proofread (or PROVIDER_TOOLS at build time)
 *
 * The child is started on the first run and kept warm: every later request goes to the same
 * process. One request is in the child at a time. The child's stderr is read line by line and
 * sent to the host's log. When the child dies it is started again after a back-off (100 ms
 * after the first failure in a row, doubling up to 5 s; an answered request resets it): at
 * once in the background for the first four failures in a row, afterwards only when a
 * request needs it. A request the child does not answer within its time limit (`timeout_ms`
 * for each 256 KB of its text begun) fails with EMEND_E_TIMEOUT and the child is killed (with
 * its process group) and started again.
 *
 * run() queues the request and returns; one thread per instance owns the child: it starts
 * it, writes requests, reads stdout and stderr, watches the time limit and calls
 * host->finish. cancel() marks the run; the thread finishes it with EMEND_E_CANCELLED at once
 * and sends {"cancel":N}; the child has the rest of the request's time limit to acknowledge
 * (with done or error) before it is killed, and the next request waits for that.
 *
 * Settings (config.toml):
 *
 *     [providers."org.emend.process"]
 *     command = "python3 -u /opt/checkers/mine.py --strict"   # required unless built in
 *     timeout_ms = 10000                                      # per request and 256 KB of text, 1 to 3600000
 *     arguments = "--rules-off SpellCheck"                    # optional: words added after the command's
 *
 * `command` is run without a shell: it is split into words at spaces and tabs; 'single
 * quotes' keep everything literally, "double quotes" keep everything except \" and \\, and a
 * backslash outside quotes keeps the next character. $, *, |, > and ~ mean nothing special.
 * The first word is looked up on PATH unless it contains a slash. A TOML array is not
 * accepted (the host hands settings over as text, and an array's text loses its quoting).
 * `arguments` is split the same way and its words are added after the command's (the
 * built-in one or the setting's): options for a checker whose command is built in, such as
 * Harper's, without spelling out its paths again; blank adds nothing.
 *
 * Build (see build.sh): the plugin flags of providers/sdk/plugin-flags.sh on process.c and the
 * SDK, linked with cJSON (Debian libcjson-dev), which reads the child's lines and writes the
 * requests; optional -D overrides: PROVIDER_ID, PROVIDER_NAME, PROVIDER_VERSION, PROVIDER_TOOLS,
 * PROVIDER_LANGUAGES, PROVIDER_OUTPUTS, PROVIDER_FLAGS, PROVIDER_PRIORITY, DEFAULT_COMMAND and DEFAULT_TIMEOUT_MS
 * (the command when the settings name none; providers/harper/build.sh uses these), and
 * PROVIDER_READ_PATHS (the paths that command reads, '\n'-separated, for the sandbox).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "emend_plugin.h"
#include "emend_provider.h"

#ifndef PROVIDER_ID
#define PROVIDER_ID "org.emend.process"
#endif
#ifndef PROVIDER_NAME
#define PROVIDER_NAME "External checker (child process, JSON lines)"
#endif
#ifndef PROVIDER_VERSION
#define PROVIDER_VERSION "1.0.0"
#endif
#ifndef PROVIDER_TOOLS
#define PROVIDER_TOOLS EMEND_PROVIDES(EMEND_TOOL_PROOFREAD)
#endif
#ifndef PROVIDER_LANGUAGES
#define PROVIDER_LANGUAGES "*"
#endif
#ifndef PROVIDER_OUTPUTS
#define PROVIDER_OUTPUTS (EMEND_OUTPUT_EDITS | EMEND_OUTPUT_PLAIN)
#endif
#ifndef PROVIDER_FLAGS
#define PROVIDER_FLAGS EMEND_PROVIDER_STREAMS
#endif
#ifndef PROVIDER_PRIORITY
#define PROVIDER_PRIORITY 0
#endif

#ifndef DEFAULT_TIMEOUT_MS
#define DEFAULT_TIMEOUT_MS 10000 /* a checker that builds a large model on first use sets more */
#endif

enum {
    MAX_TIMEOUT_MS = 3600000,
    BACKOFF_FIRST_MS = 100,
    BACKOFF_MAX_MS = 5000,
    EAGER_RESTARTS = 4,          /* failures in a row after which restarts wait for a request */
    CANCEL_POLL_MS = 50,         /* how often host->is_cancelled is asked while a run waits */
    SHUTDOWN_GRACE_MS = 500,     /* destroy: time to exit after stdin closes, then SIGKILL */
    LIMIT_UNIT_BYTES = 256 * 1024, /* timeout_ms is the limit of a text up to this long */
    LOG_LINE_MAX = 4000,         /* longer stderr lines are logged in pieces */
};
#define MAX_OUTPUT_LINE ((size_t)64 << 20) /* a longer stdout line is a broken child */

extern char **environ;

static const char *const tool_names[] = {
    "proofread", "rewrite-friendly", "rewrite-professional", "rewrite-concise", "rewrite-described",
    "summary", "key-points", "list", "table", "compose", "follow-up",
};
/* emend_plugin_check_run lets only PROVIDER_TOOLS through: each must have its name here. */
_Static_assert(sizeof tool_names / sizeof tool_names[0] == EMEND_TOOL_FOLLOW_UP + 1, "a name for every emend_tool");

/* ---- state -------------------------------------------------------------------------------- */

typedef struct job {
    emend_run *run;
    unsigned long long id;
    char *line;                  /* the request line, until it is sent */
    size_t line_length;
    int cancel_requested;        /* cancel() was called */
    int finished;                /* host->finish was called */
    long long deadline;          /* monotonic ms, once sent */
    long long limit_ms;          /* its time limit: request_limit_ms */
    struct job *next;
} job;

/* Bytes waiting for the child's stdin. */
typedef struct byte_queue {
    char *data;
    size_t length, capacity;
} byte_queue;

typedef struct line_reader {
    int fd;                      /* -1 when closed */
    char *data;
    size_t length, capacity;
} line_reader;

typedef struct provider {
    const emend_host *host;
    char **argv;                 /* NULL-terminated */
    long timeout_ms;

    pthread_mutex_t lock;        /* guards everything below; the loop holds it except in poll */
    int wake[2];                 /* run, cancel and destroy write a byte to wake the loop */
    pthread_t thread;
    int thread_started;
    int stopping;
    job *queue;                  /* waiting to be sent, oldest first */
    job *active;                 /* sent; finished already if it was cancelled */
    emend_run *last_run;         /* for log lines outside a run (valid until destroy) */
    unsigned long long next_id;

    /* The child: touched by the loop thread only. */
    pid_t pid;                   /* 0 when there is none */
    int in_fd;
    line_reader out, err;
    byte_queue pending;          /* bytes for the child's stdin */
    size_t pending_written;
    int failures;                /* in a row */
    long long restart_at;
    int want_restart;            /* start again in the background at restart_at */
} provider;

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The run a log line belongs to: the unfinished one in the child, else the newest. */
static void plog(provider *p, emend_log_level level, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void plog(provider *p, emend_log_level level, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    emend_run *run = p->active != NULL && !p->active->finished ? p->active->run : p->last_run;
    emend_plugin_vlog(p->host, run, level, format, arguments);
    va_end(arguments);
}

static void wake(provider *p) {
    ssize_t written = write(p->wake[1], "x", 1);
    (void)written; /* a full pipe already wakes the loop */
}

static void free_job(job *j) {
    if (j == NULL) return;
    free(j->line);
    free(j);
}

static void finish(provider *p, job *j, emend_status status, const char *message) {
    if (j->finished) return;
    j->finished = 1;
    p->host->finish(j->run, status, message);
}

/* ---- the command -------------------------------------------------------------------------- */

static void free_argv(char **argv) {
    if (argv == NULL) return;
    for (char **a = argv; *a != NULL; a++) free(*a);
    free(argv);
}

/* `first`'s words followed by `second`'s, in one array; both arrays are used up (their words
 * move into the result). NULL when out of memory (both freed). */
static char **join_argv(char **first, char **second) {
    size_t a = 0, b = 0;
    while (first[a] != NULL) a++;
    while (second[b] != NULL) b++;
    char **joined = calloc(a + b + 1, sizeof *joined);
    if (joined == NULL) {
        free_argv(first);
        free_argv(second);
        return NULL;
    }
    memcpy(joined, first, a * sizeof *joined);
    memcpy(joined + a, second, b * sizeof *joined);
    free(first);
    free(second);
    return joined;
}

/* Splits `command` into words (see the comment at the top); NULL with a reason on error. */
static char **split_command(const char *command, char *why, size_t why_size) {
    size_t length = strlen(command), count = 0;
    char **argv = calloc(length / 2 + 2, sizeof *argv); /* at most one word per two bytes, rounded up */
    char *word = malloc(length + 1);
    if (argv == NULL || word == NULL) goto out_of_memory;
    const char *c = command;
    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') c++;
        if (*c == '\0') break;
        size_t n = 0;
        while (*c != '\0' && *c != ' ' && *c != '\t' && *c != '\n' && *c != '\r') {
            if (*c == '\'') {
                const char *close = strchr(c + 1, '\'');
                if (close == NULL) { snprintf(why, why_size, "a ' quote is not closed"); goto fail; }
                memcpy(word + n, c + 1, (size_t)(close - c - 1));
                n += (size_t)(close - c - 1);
                c = close + 1;
            } else if (*c == '"') {
                for (c++; *c != '"'; c++) {
                    if (*c == '\0') { snprintf(why, why_size, "a \" quote is not closed"); goto fail; }
                    if (*c == '\\' && (c[1] == '"' || c[1] == '\\')) c++;
                    word[n++] = *c;
                }
                c++;
            } else if (*c == '\\' && c[1] != '\0') {
                word[n++] = c[1];
                c += 2;
            } else {
                word[n++] = *c++;
            }
        }
        argv[count] = malloc(n + 1);
        if (argv[count] == NULL) goto out_of_memory;
        memcpy(argv[count], word, n);
        argv[count++][n] = '\0';
    }
    free(word);
    if (count == 0) {
        snprintf(why, why_size, "it is empty");
        free_argv(argv);
        return NULL;
    }
    return argv;
out_of_memory:
    snprintf(why, why_size, "out of memory");
fail:
    free(word);
    free_argv(argv);
    return NULL;
}

/* Whether `name` can be run: a path with a slash, or found on PATH. */
static int findable(const char *name) {
    if (strchr(name, '/') != NULL) return access(name, X_OK) == 0;
    const char *path = getenv("PATH");
    if (path == NULL) path = "/usr/local/bin:/usr/bin:/bin";
    while (*path != '\0') {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char candidate[4096];
        if (snprintf(candidate, sizeof candidate, "%.*s/%s", (int)n, n ? path : ".", name) < (int)sizeof candidate &&
            access(candidate, X_OK) == 0)
            return 1;
        path += n;
        if (*path == ':') path++;
    }
    return 0;
}

/* ---- the child ---------------------------------------------------------------------------- */

/* A pipe whose ends are above 0-2 (so dup2 onto 0-2 in the child cannot clobber one). */
static int make_pipe(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        if (fds[i] > 2) continue;
        int high = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
        close(fds[i]);
        fds[i] = high;
    }
    if (fds[0] < 0 || fds[1] < 0) {
        if (fds[0] >= 0) close(fds[0]);
        if (fds[1] >= 0) close(fds[1]);
        return -1;
    }
    return 0;
}

static void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

static void close_fd(int *fd) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

/* Starts the child; 0, or an errno value. */
static int spawn_child(provider *p) {
    int in[2], out[2], err[2];
    if (make_pipe(in) != 0) return errno;
    if (make_pipe(out) != 0) {
        int e = errno;
        close(in[0]), close(in[1]);
        return e;
    }
    if (make_pipe(err) != 0) {
        int e = errno;
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return e;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    /* Nothing else of the host's: a long-lived child holding another pipe's end open would
     * keep whoever reads that pipe from ever seeing its end. */
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    posix_spawnattr_init(&attributes);
    /* Its own process group (killed as a whole), no blocked signals, SIGPIPE as default. */
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attributes, 0);
    sigset_t none, defaults;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    pid_t pid = 0;
    int status = posix_spawnp(&pid, p->argv[0], &actions, &attributes, p->argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(in[0]), close(out[1]), close(err[1]);
    if (status != 0) {
        close(in[1]), close(out[0]), close(err[0]);
        return status;
    }
    set_nonblocking(in[1]);
    set_nonblocking(out[0]);
    set_nonblocking(err[0]);
    p->pid = pid;
    p->in_fd = in[1];
    p->out.fd = out[0];
    p->err.fd = err[0];
    p->out.length = p->err.length = 0;
    p->pending.length = 0;
    p->pending_written = 0;
    return 0;
}

/* Reads what is there; 1 at end of file or error, 0 otherwise. `on_line` gets each line. */
static int read_lines(provider *p, line_reader *r, void (*on_line)(provider *, char *, size_t), size_t limit,
                      int *too_long) {
    for (;;) {
        if (r->capacity - r->length < 65536) {
            size_t capacity = r->capacity ? r->capacity * 2 : 131072;
            char *data = realloc(r->data, capacity);
            if (data == NULL) return 1;
            r->data = data;
            r->capacity = capacity;
        }
        ssize_t n = read(r->fd, r->data + r->length, r->capacity - r->length);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        if (n <= 0) {
            if (r->length > 0) on_line(p, r->data, r->length); /* a last line without newline */
            r->length = 0;
            return 1;
        }
        size_t scanned = r->length;
        r->length += (size_t)n;
        size_t start = 0;
        for (size_t i = scanned; i < r->length; i++) {
            if (r->data[i] != '\n') continue;
            size_t end = i > start && r->data[i - 1] == '\r' ? i - 1 : i;
            r->data[end] = '\0';
            on_line(p, r->data + start, end - start);
            start = i + 1;
            if (r->fd < 0) return 1; /* the line handler closed the child */
        }
        memmove(r->data, r->data + start, r->length - start);
        r->length -= start;
        if (r->length > limit) {
            /* stderr: log the piece; stdout: the child is broken */
            if (too_long != NULL) { *too_long = 1; return 1; }
            char saved = r->data[limit];
            r->data[limit] = '\0';
            on_line(p, r->data, limit);
            r->data[limit] = saved;
            memmove(r->data, r->data + limit, r->length - limit);
            r->length -= limit;
        }
    }
}

static void on_stderr_line(provider *p, char *line, size_t length) {
    plog(p, EMEND_LOG_INFO, "stderr: %.*s", (int)length, line);
}

/* The back-off before the next start after `failures` failures in a row. */
static long long backoff_ms(int failures) {
    long long delay = BACKOFF_FIRST_MS;
    for (int i = 1; i < failures && delay < BACKOFF_MAX_MS; i++) delay *= 2;
    return delay < BACKOFF_MAX_MS ? delay : BACKOFF_MAX_MS;
}

/* Ends the child (its stderr read to the end first), counts a failure and arranges the
 * restart. The active run, if unfinished, fails with `status` and `message`. */
static void lose_child(provider *p, const char *what, emend_status status, const char *message) {
    pid_t pid = p->pid;
    kill(-pid, SIGKILL);
    int wait_status = 0;
    pid_t reaped;
    while ((reaped = waitpid(pid, &wait_status, 0)) < 0 && errno == EINTR) {
    }
    if (p->err.fd >= 0) read_lines(p, &p->err, on_stderr_line, LOG_LINE_MAX, NULL);
    close_fd(&p->in_fd);
    close_fd(&p->out.fd);
    close_fd(&p->err.fd);
    p->pid = 0;
    p->pending.length = p->pending_written = 0;

    char how[96] = "ended";
    if (reaped == pid && WIFEXITED(wait_status))
        snprintf(how, sizeof how, "exited with status %d", WEXITSTATUS(wait_status));
    else if (reaped == pid && WIFSIGNALED(wait_status))
        snprintf(how, sizeof how, "was killed by signal %d (%s)", WTERMSIG(wait_status), strsignal(WTERMSIG(wait_status)));
    p->failures++;
    long long delay = backoff_ms(p->failures);
    p->restart_at = now_ms() + delay;
    p->want_restart = p->failures <= EAGER_RESTARTS;
    if (p->want_restart)
        plog(p, EMEND_LOG_WARNING, "the checker (pid %d) %s; restarting it in %lld ms", (int)pid, what != NULL ? what : how, delay);
    else
        plog(p, EMEND_LOG_WARNING, "the checker (pid %d) %s; it is started again for the next request, after %lld ms",
             (int)pid, what != NULL ? what : how, delay);

    job *j = p->active;
    if (j != NULL) {
        char text[256];
        if (message == NULL) {
            snprintf(text, sizeof text, "the checker %s during the request (it is restarted)", how);
            message = text;
        }
        finish(p, j, status, message);
        free_job(j);
        p->active = NULL;
    }
}

/* Writes what is pending to the child's stdin, as far as it takes it. */
static void write_pending(provider *p) {
    while (p->in_fd >= 0 && p->pending_written < p->pending.length) {
        ssize_t n = write(p->in_fd, p->pending.data + p->pending_written, p->pending.length - p->pending_written);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n < 0) {
            /* EPIPE: it closed its stdin; its stdout's end (or the time limit) tells the rest. */
            plog(p, EMEND_LOG_WARNING, "cannot write to the checker: %s", strerror(errno));
            close_fd(&p->in_fd);
            break;
        }
        p->pending_written += (size_t)n;
    }
    p->pending.length = p->pending_written = 0;
}

static void queue_output(provider *p, const char *text, size_t length) {
    if (p->in_fd < 0) return;
    byte_queue *q = &p->pending;
    if (q->length + length > q->capacity) {
        size_t capacity = q->capacity ? q->capacity : 256;
        while (q->length + length > capacity) capacity *= 2;
        char *data = realloc(q->data, capacity);
        if (data == NULL) {
            plog(p, EMEND_LOG_ERROR, "out of memory: %zu bytes for the checker were dropped", length);
            return;
        }
        q->data = data;
        q->capacity = capacity;
    }
    memcpy(q->data + q->length, text, length);
    q->length += length;
    write_pending(p);
}

/* The active run stops for the host now; the child is told and may still answer. */
static void cancel_active(provider *p) {
    job *j = p->active;
    if (j == NULL || j->finished) return;
    finish(p, j, EMEND_E_CANCELLED, "cancelled");
    char line[64];
    int n = snprintf(line, sizeof line, "{\"cancel\":%llu}\n", j->id);
    queue_output(p, line, (size_t)n);
}

/* The request is over in the child (done or error): it is free for the next. */
static void release_active(provider *p) {
    free_job(p->active);
    p->active = NULL;
    p->failures = 0;
}

/* ---- what the child says ------------------------------------------------------------------ */

/* The member `key` of `object` as a string, or NULL when absent or not a string. */
static const char *string_member(const cJSON *object, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* The member `key` of `object` as an integer: 1 with *out, or 0 when absent, not a number,
 * not whole or beyond 2^53 (where a double stops counting every integer). */
static int integer_member(const cJSON *object, const char *key, long long *out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(item)) return 0;
    double value = item->valuedouble;
    if (!(value >= -9007199254740992.0 && value <= 9007199254740992.0) || value != (double)(long long)value) return 0;
    *out = (long long)value;
    return 1;
}

static void emit_edit(provider *p, job *j, const cJSON *edit, const char *line, size_t length) {
    long long start, end;
    const char *replacement = string_member(edit, "replacement");
    if (!integer_member(edit, "start", &start) || !integer_member(edit, "end", &end) || start < 0 || end < 0 ||
        replacement == NULL) {
        plog(p, EMEND_LOG_WARNING, "dropped an edit without a replacement and non-negative integer start and end: %.200s",
             length > 200 ? "(long line)" : line);
        return;
    }
    emend_provider_edit e = {
        .struct_size = sizeof e,
        .range = {(size_t)start, (size_t)end},
        .replacement = replacement,
        .replacement_length = strlen(replacement),
        .explanation = string_member(edit, "explanation"),
        .category = string_member(edit, "category"),
        .rule_id = string_member(edit, "rule"),
    };
    /* Refusals (range, UTF-8) are logged by the host; only a cancel matters here. */
    if (p->host->emit_edit(j->run, &e) == EMEND_E_CANCELLED) cancel_active(p);
}

static int hex_value(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The code unit of the \uXXXX escape at s[i] (i + 6 <= n), or -1. */
static long escape_unit(const char *s, size_t n, size_t i) {
    if (i + 6 > n || s[i] != '\\' || s[i + 1] != 'u') return -1;
    long unit = 0;
    for (size_t k = 2; k < 6; k++) {
        int digit = hex_value(s[i + k]);
        if (digit < 0) return -1;
        unit = unit << 4 | digit;
    }
    return unit;
}

/* Turns each lone surrogate escape (\uD800 to \uDFFF without its partner) of line[0, *length)
 * into the 3 bytes it stands for, in place, so that the string holds text that is not UTF-8,
 * which the host refuses and logs (PROTOCOL.md), instead of cJSON failing the whole line. */
static void keep_lone_surrogates(char *line, size_t *length) {
    size_t n = *length, out = 0;
    for (size_t i = 0; i < n;) {
        long unit = line[i] == '\\' ? escape_unit(line, n, i) : -1;
        if (unit >= 0xD800 && unit <= 0xDBFF && escape_unit(line, n, i + 6) >= 0xDC00 && escape_unit(line, n, i + 6) <= 0xDFFF) {
            memmove(line + out, line + i, 12); /* a pair: cJSON decodes it */
            out += 12, i += 12;
        } else if (unit >= 0xD800 && unit <= 0xDFFF) {
            line[out++] = (char)(0xE0 | unit >> 12);
            line[out++] = (char)(0x80 | (unit >> 6 & 0x3F));
            line[out++] = (char)(0x80 | (unit & 0x3F));
            i += 6;
        } else {
            size_t step = line[i] == '\\' && i + 1 < n ? 2 : 1; /* an escaped character stays whole */
            memmove(line + out, line + i, step);
            out += step, i += step;
        }
    }
    if (out < n) line[out] = '\0';
    *length = out;
}

/* One JSON value filling line[0, length) (white space around it allowed), or NULL with why. */
static cJSON *parse_line(const char *line, size_t length, char *why, size_t why_size) {
    const char *end = NULL;
    cJSON *value = cJSON_ParseWithLengthOpts(line, length, &end, 0);
    size_t at = end != NULL && end >= line ? (size_t)(end - line) : 0;
    if (value == NULL) {
        snprintf(why, why_size, "not JSON at byte %zu", at);
        return NULL;
    }
    while (at < length && (line[at] == ' ' || line[at] == '\t' || line[at] == '\r' || line[at] == '\n')) at++;
    if (at < length) {
        snprintf(why, why_size, "text after the value at byte %zu", at);
        cJSON_Delete(value);
        return NULL;
    }
    return value;
}

static void on_stdout_line(provider *p, char *line, size_t length) {
    if (length == 0) return;
    char error[96] = "";
    keep_lone_surrogates(line, &length);
    cJSON *v = parse_line(line, length, error, sizeof error);
    long long id;
    if (v == NULL || !integer_member(v, "id", &id)) {
        plog(p, EMEND_LOG_WARNING, "ignored a line from the checker (%s): %.200s",
             v == NULL ? error : "no integer id", line);
        cJSON_Delete(v);
        return;
    }
    job *j = p->active;
    if (j == NULL || id < 0 || (unsigned long long)id != j->id) {
        plog(p, EMEND_LOG_DEBUG, "ignored a line for request %lld, which is not in the checker", id);
        cJSON_Delete(v);
        return;
    }
    const cJSON *x;
    const char *s;
    if (cJSON_IsObject(x = cJSON_GetObjectItemCaseSensitive(v, "edit"))) {
        if (!j->finished) emit_edit(p, j, x, line, length);
    } else if ((s = string_member(v, "text")) != NULL) {
        if (!j->finished && p->host->emit_text(j->run, s, strlen(s)) == EMEND_E_CANCELLED) cancel_active(p);
    } else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "done"))) {
        finish(p, j, EMEND_OK, NULL);
        release_active(p);
    } else if ((x = cJSON_GetObjectItemCaseSensitive(v, "error")) != NULL) {
        s = cJSON_IsString(x) && x->valuestring[0] != '\0' ? x->valuestring : "the checker failed";
        finish(p, j, EMEND_E_PROVIDER, s);
        release_active(p);
    } else {
        plog(p, EMEND_LOG_WARNING, "ignored a line from the checker (no edit, text, done or error): %.200s", line);
    }
    cJSON_Delete(v);
}

/* ---- the loop ----------------------------------------------------------------------------- */

static void unlink_job(provider *p, job *j) {
    for (job **link = &p->queue; *link != NULL; link = &(*link)->next) {
        if (*link == j) {
            *link = j->next;
            return;
        }
    }
}

static void settle_cancellations(provider *p) {
    for (job *j = p->queue, *next; j != NULL; j = next) {
        next = j->next;
        if (j->cancel_requested || p->host->is_cancelled(j->run)) {
            unlink_job(p, j);
            finish(p, j, EMEND_E_CANCELLED, "cancelled");
            free_job(j);
        }
    }
    job *a = p->active;
    if (a != NULL && !a->finished && (a->cancel_requested || p->host->is_cancelled(a->run))) cancel_active(p);
}

static void start_child(provider *p) {
    int error = spawn_child(p);
    p->want_restart = 0;
    if (error == 0) {
        char command[512] = "";
        for (char **a = p->argv; *a != NULL; a++)
            snprintf(command + strlen(command), sizeof command - strlen(command), "%s%s", a == p->argv ? "" : " ", *a);
        plog(p, EMEND_LOG_INFO, "started the checker (pid %d): %s", (int)p->pid, command);
        return;
    }
    p->failures++;
    p->restart_at = now_ms() + backoff_ms(p->failures);
    char message[512];
    snprintf(message, sizeof message, "cannot start the checker \"%s\": %s", p->argv[0], strerror(error));
    plog(p, EMEND_LOG_ERROR, "%s", message);
    while (p->queue != NULL) {
        job *j = p->queue;
        p->queue = j->next;
        finish(p, j, EMEND_E_PROVIDER, message);
        free_job(j);
    }
}

/* A request's time limit: timeout_ms for each LIMIT_UNIT_BYTES of its text begun, as Emend's
 * combined proofreader counts its members' limits (MemberTimeLimit). Why: a checker's time
 * grows with the text; one fixed limit stopped Harper on a 1 MB file at 60 s while the
 * combination still allowed it 120 s, and the file's check came back incomplete. */
static long long request_limit_ms(long timeout_ms, size_t text_bytes) {
    long long units = (long long)((text_bytes > 0 ? text_bytes - 1 : 0) / LIMIT_UNIT_BYTES) + 1;
    return (long long)timeout_ms * units;
}

static void send_next(provider *p) {
    job *j = p->queue;
    p->queue = j->next;
    j->next = NULL;
    p->active = j;
    j->deadline = now_ms() + j->limit_ms;
    queue_output(p, j->line, j->line_length);
    free(j->line);
    j->line = NULL;
}

static void shut_down(provider *p) {
    while (p->queue != NULL) {
        job *j = p->queue;
        p->queue = j->next;
        finish(p, j, EMEND_E_CANCELLED, "the provider is being destroyed");
        free_job(j);
    }
    if (p->active != NULL) {
        finish(p, p->active, EMEND_E_CANCELLED, "the provider is being destroyed");
        free_job(p->active);
        p->active = NULL;
    }
    if (p->pid == 0) return;
    /* EOF on stdin asks the child to leave; it gets a moment, then SIGKILL. */
    close_fd(&p->in_fd);
    long long deadline = now_ms() + SHUTDOWN_GRACE_MS;
    while (p->out.fd >= 0 && now_ms() < deadline) {
        struct pollfd fds[2] = {{p->out.fd, POLLIN, 0}, {p->err.fd, POLLIN, 0}};
        pthread_mutex_unlock(&p->lock);
        poll(fds, p->err.fd >= 0 ? 2 : 1, (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 0));
        pthread_mutex_lock(&p->lock);
        if (p->err.fd >= 0 && read_lines(p, &p->err, on_stderr_line, LOG_LINE_MAX, NULL)) close_fd(&p->err.fd);
        char sink[4096];
        ssize_t n;
        while ((n = read(p->out.fd, sink, sizeof sink)) > 0) {
        }
        if (n == 0) close_fd(&p->out.fd);
    }
    pid_t pid = p->pid;
    kill(-pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    close_fd(&p->out.fd);
    close_fd(&p->err.fd);
    p->pid = 0;
}

/* Lowers the poll timeout (-1: none) to `ms`, at least 0. */
static void sooner(long long *timeout, long long ms) {
    if (ms < 0) ms = 0;
    if (*timeout < 0 || ms < *timeout) *timeout = ms;
}

static void *loop(void *argument) {
    provider *p = argument;
    /* A write to a child that is gone fails with EPIPE instead of killing the host. */
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, NULL);

    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        settle_cancellations(p);
        long long now = now_ms();
        if (p->active != NULL && now >= p->active->deadline) {
            char what[128], message[256];
            snprintf(what, sizeof what, "did not answer request %llu within %lld ms and was stopped", p->active->id,
                     p->active->limit_ms);
            /* The setting that raises the limit, named where the user reads the failure. */
            snprintf(message, sizeof message,
                     "the checker did not answer within %lld ms (it was stopped and is restarted; raise timeout_ms in "
                     "[providers.\"" PROVIDER_ID "\"] of config.toml to give it longer)",
                     p->active->limit_ms);
            lose_child(p, what, EMEND_E_TIMEOUT, message);
            continue;
        }
        if (p->pid == 0 && (p->queue != NULL || p->want_restart) && now >= p->restart_at) start_child(p);
        if (p->pid != 0 && p->active == NULL && p->queue != NULL) send_next(p);

        struct pollfd fds[4] = {{p->wake[0], POLLIN, 0}};
        int count = 1, out = -1, err = -1, in = -1;
        if (p->out.fd >= 0) fds[out = count++] = (struct pollfd){p->out.fd, POLLIN, 0};
        if (p->err.fd >= 0) fds[err = count++] = (struct pollfd){p->err.fd, POLLIN, 0};
        if (p->in_fd >= 0 && p->pending_written < p->pending.length) fds[in = count++] = (struct pollfd){p->in_fd, POLLOUT, 0};
        long long timeout = -1; /* none */
        if (p->active != NULL) sooner(&timeout, p->active->deadline - now);
        if ((p->active != NULL && !p->active->finished) || p->queue != NULL) sooner(&timeout, CANCEL_POLL_MS);
        if (p->pid == 0 && (p->queue != NULL || p->want_restart)) sooner(&timeout, p->restart_at - now);

        pthread_mutex_unlock(&p->lock);
        int ready = poll(fds, (nfds_t)count, (int)timeout);
        pthread_mutex_lock(&p->lock);
        if (ready <= 0) continue;
        if (fds[0].revents) {
            char drain[64];
            while (read(p->wake[0], drain, sizeof drain) > 0) {
            }
        }
        if (in >= 0 && fds[in].revents) write_pending(p);
        if (err >= 0 && fds[err].revents && read_lines(p, &p->err, on_stderr_line, LOG_LINE_MAX, NULL))
            close_fd(&p->err.fd);
        if (out >= 0 && fds[out].revents && p->out.fd >= 0) {
            int too_long = 0;
            if (read_lines(p, &p->out, on_stdout_line, MAX_OUTPUT_LINE, &too_long))
                lose_child(p, too_long ? "wrote a line longer than 64 MiB and was stopped" : NULL, EMEND_E_PROVIDER,
                           too_long ? "the checker wrote a line longer than 64 MiB" : NULL);
        }
    }
    shut_down(p);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* ---- the descriptor's functions ----------------------------------------------------------- */

static emend_status process_create(const emend_host *host, const emend_provider_setting *settings,
                                   size_t setting_count, void **instance) {
    emend_status checked = emend_plugin_check_host(host, instance);
    if (checked != EMEND_OK) return checked;
    const char *command = NULL, *arguments = NULL;
    long timeout_ms = DEFAULT_TIMEOUT_MS;
    for (size_t i = 0; i < setting_count; i++) {
        const emend_provider_setting *setting = &settings[i];
        if (setting->key == NULL || setting->value == NULL) continue;
        if (strcmp(setting->key, "command") == 0) {
            command = setting->value;
        } else if (strcmp(setting->key, "arguments") == 0) {
            arguments = setting->value;
        } else if (strcmp(setting->key, "timeout_ms") == 0) {
            if (emend_plugin_setting_number(host, setting, 1, MAX_TIMEOUT_MS, &timeout_ms) != EMEND_OK)
                return EMEND_E_INVALID_ARGUMENT;
        } else {
            emend_plugin_setting_unknown(host, setting);
        }
    }
#ifdef DEFAULT_COMMAND
    if (command == NULL) command = DEFAULT_COMMAND;
#endif
    if (command == NULL) {
        host->log(NULL, EMEND_LOG_ERROR,
                  "the setting \"command\" is required: the checker to run, e.g. command = \"python3 -u /path/to/checker.py\"");
        return EMEND_E_INVALID_ARGUMENT;
    }
    size_t length = strlen(command);
    if (length >= 2 && command[0] == '[' && command[length - 1] == ']') {
        host->log(NULL, EMEND_LOG_ERROR,
                  "command must be a string such as \"python3 -u checker.py\", not an array (its quoting would be lost)");
        return EMEND_E_INVALID_ARGUMENT;
    }
    char why[128];
    char **argv = split_command(command, why, sizeof why);
    if (argv == NULL) {
        emend_plugin_log(host, NULL, EMEND_LOG_ERROR, "command \"%.300s\" cannot be split into words: %s", command, why);
        return EMEND_E_INVALID_ARGUMENT;
    }
    if (arguments != NULL && arguments[strspn(arguments, " \t")] != '\0') { /* blank: nothing to add */
        char **extra = split_command(arguments, why, sizeof why);
        if (extra == NULL) {
            emend_plugin_log(host, NULL, EMEND_LOG_ERROR, "arguments \"%.300s\" cannot be split into words: %s", arguments, why);
            free_argv(argv);
            return EMEND_E_INVALID_ARGUMENT;
        }
        argv = join_argv(argv, extra);
        if (argv == NULL) return EMEND_E_INTERNAL;
    }
    if (!findable(argv[0])) {
        emend_plugin_log(host, NULL, EMEND_LOG_ERROR, "the checker \"%.300s\" %s", argv[0],
                         strchr(argv[0], '/') ? "is not an executable file" : "is not found on PATH");
        free_argv(argv);
        return EMEND_E_PROVIDER;
    }
    provider *p = calloc(1, sizeof *p);
    if (p == NULL || pipe2(p->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        free(p);
        free_argv(argv);
        return EMEND_E_INTERNAL;
    }
    p->host = host;
    p->argv = argv;
    p->timeout_ms = timeout_ms;
    p->in_fd = p->out.fd = p->err.fd = -1;
    pthread_mutex_init(&p->lock, NULL);
    *instance = p;
    return EMEND_OK;
}

/* text[0, length) as a JSON string. cJSON's strings end at a NUL, so text holding NUL bytes
 * is printed piece by piece by cJSON and joined with \u0000 into a raw item. NULL out of
 * memory. */
static cJSON *string_item(const char *text, size_t length) {
    char *copy = malloc(length + 1);
    if (copy == NULL) return NULL;
    memcpy(copy, text, length);
    copy[length] = '\0';
    if (memchr(text, '\0', length) == NULL) {
        cJSON *item = cJSON_CreateString(copy);
        free(copy);
        return item;
    }
    char *raw = malloc(length * 6 + 3); /* every byte escaped as \u00XX at the most, and quotes */
    size_t used = 0;
    int ok = raw != NULL;
    if (ok) raw[used++] = '"';
    for (size_t start = 0; ok && start <= length;) {
        size_t end = start + strlen(copy + start); /* the next NUL, or the end */
        cJSON *piece = cJSON_CreateString(copy + start);
        char *printed = piece != NULL ? cJSON_PrintUnformatted(piece) : NULL;
        cJSON_Delete(piece);
        if (printed == NULL) {
            ok = 0;
            break;
        }
        size_t n = strlen(printed) - 2; /* without its quotes */
        memcpy(raw + used, printed + 1, n);
        used += n;
        free(printed);
        if (end < length) memcpy(raw + used, "\\u0000", 6), used += 6;
        start = end + 1;
    }
    cJSON *item = NULL;
    if (ok) {
        raw[used++] = '"';
        raw[used] = '\0';
        item = cJSON_CreateRaw(raw);
    }
    free(raw);
    free(copy);
    return item;
}

/* A string item, or null for NULL. */
static cJSON *optional_string(const char *text) {
    return text != NULL ? string_item(text, strlen(text)) : cJSON_CreateNull();
}

static cJSON *pair_item(size_t first, size_t second) {
    cJSON *pair = cJSON_CreateArray();
    if (pair != NULL) {
        cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)first));
        cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)second));
    }
    return pair;
}

/* Adds `item` to `object` as `key`; 0 when it is NULL (out of memory). */
static int add(cJSON *object, const char *key, cJSON *item) {
    if (item == NULL) return 0;
    cJSON_AddItemToObject(object, key, item);
    return 1;
}

/* The request as one JSON line (PROTOCOL.md), malloc'd with its length; NULL out of memory. */
static char *encode_request(const emend_provider_request *request, unsigned long long id, size_t *length) {
    cJSON *o = cJSON_CreateObject();
    cJSON *protected = cJSON_CreateArray();
    int ok = o != NULL && protected != NULL;
    for (size_t i = 0; ok && i < request->protected_range_count; i++) {
        cJSON *pair = pair_item(request->protected_ranges[i].start, request->protected_ranges[i].end);
        if (pair == NULL) ok = 0;
        else cJSON_AddItemToArray(protected, pair);
    }
    const char *language = request->language != NULL ? request->language : "en";
    ok = ok && add(o, "id", cJSON_CreateNumber((double)id)) && add(o, "tool", cJSON_CreateString(tool_names[request->tool])) &&
         add(o, "text", string_item(request->text, request->text_length)) &&
         add(o, "selection", pair_item(request->selection.start, request->selection.end)) &&
         add(o, "language", cJSON_CreateString(language)) && add(o, "protected", protected);
    if (!ok) cJSON_Delete(protected); /* not in the object yet */
    ok = ok && add(o, "prompt", optional_string(request->prompt)) &&
         add(o, "previous", optional_string(request->previous_result));
    char *json = ok ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (json == NULL) return NULL;
    *length = strlen(json);
    char *line = realloc(json, *length + 2);
    if (line == NULL) {
        free(json);
        return NULL;
    }
    line[(*length)++] = '\n';
    line[*length] = '\0';
    return line;
}

static emend_status process_run(void *instance, const emend_provider_request *request, emend_run *run) {
    provider *p = instance;
    emend_status checked = emend_plugin_check_run(p, request, run, PROVIDER_TOOLS);
    if (checked != EMEND_OK) return checked;
    job *j = calloc(1, sizeof *j);
    if (j == NULL) return EMEND_E_INTERNAL;
    j->run = run;
    j->limit_ms = request_limit_ms(p->timeout_ms, request->text_length);
    pthread_mutex_lock(&p->lock);
    j->id = ++p->next_id;
    pthread_mutex_unlock(&p->lock);
    j->line = encode_request(request, j->id, &j->line_length);
    if (j->line == NULL) {
        free(j);
        return EMEND_E_INTERNAL;
    }

    pthread_mutex_lock(&p->lock);
    p->last_run = run;
    job **tail = &p->queue;
    while (*tail != NULL) tail = &(*tail)->next;
    *tail = j;
    if (!p->thread_started) {
        if (pthread_create(&p->thread, NULL, loop, p) != 0) {
            *tail = NULL;
            pthread_mutex_unlock(&p->lock);
            free_job(j);
            return EMEND_E_INTERNAL; /* failed at once: no finish */
        }
        p->thread_started = 1;
    }
    wake(p);
    pthread_mutex_unlock(&p->lock);
    return EMEND_OK;
}

/* May race the run's own finish: only marks it; the loop finishes it. */
static void process_cancel(void *instance, emend_run *run) {
    provider *p = instance;
    pthread_mutex_lock(&p->lock);
    for (job *j = p->queue; j != NULL; j = j->next)
        if (j->run == run) j->cancel_requested = 1;
    if (p->active != NULL && p->active->run == run) p->active->cancel_requested = 1;
    wake(p);
    pthread_mutex_unlock(&p->lock);
}

static void process_destroy(void *instance) {
    provider *p = instance;
    if (p == NULL) return;
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    wake(p);
    int started = p->thread_started;
    pthread_mutex_unlock(&p->lock);
    if (started) pthread_join(p->thread, NULL);
    close(p->wake[0]);
    close(p->wake[1]);
    free(p->out.data);
    free(p->err.data);
    free(p->pending.data);
    free_argv(p->argv);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

EMEND_PLUGIN_DESCRIPTOR(.id = PROVIDER_ID, .name = PROVIDER_NAME, .version = PROVIDER_VERSION, .tools = PROVIDER_TOOLS,
                        .languages = PROVIDER_LANGUAGES, .outputs = PROVIDER_OUTPUTS, .flags = PROVIDER_FLAGS,
                        .priority = PROVIDER_PRIORITY, .create = process_create, .run = process_run,
                        .cancel = process_cancel, .destroy = process_destroy)

#ifdef PROVIDER_READ_PATHS
/* What the built-in command reads outside the plugin's directory (the server script, its
 * packages, the Python installation): the sandbox lets it (include/emend_provider.h). */
__attribute__((visibility("default"))) const char emend_provider_read_paths[] = PROVIDER_READ_PATHS;
#endif

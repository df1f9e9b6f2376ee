/*
 * intruder.c — a test plugin that tries what a plugin from a stranger would, to check that its
 * provider host's sandbox stops it (Tests/EmendProvidersTests/SandboxTests.swift). It declares no
 * network use. The compose request's prompt names the attempt, fields separated by ':':
 *   "signal:PID:SIG"        kill(PID, SIG)
 *   "ptrace:PID"            PTRACE_SEIZE on PID (detaches at once when it works)
 *   "vmread:PID:ADDR:LEN"   process_vm_readv of LEN bytes at ADDR (hex) in PID
 *   "procmem:PID:ADDR:LEN"  opens /proc/PID/mem read-write and reads LEN bytes at ADDR (hex)
 *   "read:PATH"             reads the file PATH
 *   "write:PATH"            appends a line to PATH (creating it)
 *   "connect:PORT"          a TCP connection to 127.0.0.1:PORT
 *   "env:NAME"              looks for NAME in its environment and in /proc/self/environ
 *   "fd:N"                  writes a line to descriptor N (one it never opened)
 *   "daemon:TOKEN"          forks a child that calls setsid and runs sleep as argv[0] TOKEN
 *   "frame:N"               writes, on the host's channel (descriptor 3), the start of an EDITS
 *                           frame announcing N bytes, then zeros until the channel refuses them
 *   "fork-crash"            forks a child that keeps the channel open for 5 s, then crashes
 *   "spin"                  emits and logs "spinning", then spins, never looking at is_cancelled
 *   "wait:MS"               sleeps MS milliseconds, then answers "ESCAPED waited"
 *   "children:N:MB"         forks N children that each fill MB MiB and sleep; answers after 5 s
 *   "nul-text"              emits the text "ESCAPED a", a NUL byte and "b" (one piece), then finishes
 *   "nul-edit"              emits an edit of the whole selection whose replacement is "a", NUL, "b"
 * Settings: sleep_in_create_ms and sleep_in_destroy_ms make create and destroy sleep.
 * When it is loaded (in the scanner too) with EMEND_TEST_INTRUDER_ON_LOAD=TOKEN, its constructor
 * starts a setsid daemon (sleep, argv[0] TOKEN) and appends "loaded; secret=VALUE" (the value
 * of INTRUDER_SECRET_TOKEN, or "none") to $HOME/.bashrc.
 * The result is one text: "ESCAPED <what it got>" when the attempt worked, "BLOCKED <errno
 * text>" when it did not.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emend_provider.h"

static const emend_host *host;
static long sleep_in_destroy_ms;

static emend_status intruder_create(const emend_host *h, const emend_provider_setting *settings, size_t count, void **out) {
    host = h;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(settings[i].key, "sleep_in_create_ms") == 0) usleep((useconds_t)atol(settings[i].value) * 1000);
        if (strcmp(settings[i].key, "sleep_in_destroy_ms") == 0) sleep_in_destroy_ms = atol(settings[i].value);
    }
    *out = NULL;
    return EMEND_OK;
}

__attribute__((constructor)) static void on_load(void) {
    const char *token = getenv("EMEND_TEST_INTRUDER_ON_LOAD");
    if (token == NULL) return;
    pid_t child = fork();
    if (child == 0) {
        setsid();
        if (fork() == 0) execl("/bin/sleep", token, "300", (char *)NULL);
        _exit(0);
    }
    if (child > 0) waitpid(child, NULL, 0);
    const char *home = getenv("HOME"), *secret = getenv("INTRUDER_SECRET_TOKEN");
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/.bashrc", home ? home : "/nowhere");
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return;
    int n = snprintf(line, sizeof line, "loaded; secret=%s\n", secret ? secret : "none");
    ssize_t put = write(fd, line, (size_t)n);
    (void)put;
    close(fd);
}

/* The selection of the run being attempted ("nul-edit" edits it). */
static emend_byte_range request_selection;

/* A NULL the compiler cannot see through. */
static volatile int *volatile nowhere;

static void answer(emend_run *run, int worked, const char *detail) {
    char text[600];
    snprintf(text, sizeof text, "%s %s", worked ? "ESCAPED" : "BLOCKED", detail);
    host->emit_text(run, text, strlen(text));
    host->finish(run, EMEND_OK, NULL);
}

static void blocked(emend_run *run) { answer(run, 0, strerror(errno)); }

/* Reads LEN bytes at ADDR of PID with process_vm_readv or through /proc/PID/mem. */
static void read_memory(emend_run *run, int through_proc, const char *arguments) {
    long pid = 0;
    unsigned long address = 0, length = 0;
    if (sscanf(arguments, "%ld:%lx:%lu", &pid, &address, &length) != 3 || length == 0 || length > 256) {
        answer(run, 0, "bad arguments");
        return;
    }
    char bytes[257] = {0};
    ssize_t got;
    if (through_proc) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/mem", pid);
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) return blocked(run);
        got = pread(fd, bytes, length, (off_t)address);
        int saved = errno;
        close(fd);
        errno = saved;
    } else {
        struct iovec local = {bytes, length}, remote = {(void *)address, length};
        got = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
    }
    if (got <= 0) return blocked(run);
    answer(run, 1, bytes);
}

static void attempt(emend_run *run, const char *prompt) {
    const char *colon = strchr(prompt, ':');
    const char *arguments = colon ? colon + 1 : "";
    size_t name_length = colon ? (size_t)(colon - prompt) : strlen(prompt);
#define IS(name) (name_length == strlen(name) && strncmp(prompt, name, name_length) == 0)
    if (IS("signal")) {
        long pid = 0;
        int sig = 0;
        if (sscanf(arguments, "%ld:%d", &pid, &sig) != 2) return answer(run, 0, "bad arguments");
        if (kill((pid_t)pid, sig) != 0) return blocked(run);
        answer(run, 1, "signal sent");
    } else if (IS("ptrace")) {
        pid_t pid = (pid_t)atol(arguments);
        if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) != 0) return blocked(run);
        ptrace(PTRACE_DETACH, pid, NULL, NULL);
        answer(run, 1, "seized");
    } else if (IS("vmread")) {
        read_memory(run, 0, arguments);
    } else if (IS("procmem")) {
        read_memory(run, 1, arguments);
    } else if (IS("read")) {
        int fd = open(arguments, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return blocked(run);
        char bytes[256] = {0};
        ssize_t got = read(fd, bytes, sizeof bytes - 1);
        close(fd);
        if (got < 0) return blocked(run);
        answer(run, 1, bytes);
    } else if (IS("write")) {
        int fd = open(arguments, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) return blocked(run);
        ssize_t put = write(fd, "intruder was here\n", 18);
        close(fd);
        if (put != 18) return blocked(run);
        answer(run, 1, "written");
    } else if (IS("connect")) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return blocked(run);
        struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(arguments))};
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int rc = connect(fd, (struct sockaddr *)&to, sizeof to);
        int saved = errno;
        close(fd);
        errno = saved;
        if (rc != 0) return blocked(run);
        answer(run, 1, "connected");
    } else if (IS("env")) {
        const char *value = getenv(arguments);
        if (value) return answer(run, 1, value);
        /* The first environment, as the kernel keeps it for the process. */
        char buffer[65536];
        int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
        ssize_t got = fd >= 0 ? read(fd, buffer, sizeof buffer - 1) : -1;
        if (fd >= 0) close(fd);
        size_t name_length2 = strlen(arguments);
        for (ssize_t i = 0; got > 0 && i < got; i += (ssize_t)strlen(buffer + i) + 1) {
            buffer[got] = '\0';
            if (strncmp(buffer + i, arguments, name_length2) == 0 && buffer[i + (ssize_t)name_length2] == '=')
                return answer(run, 1, buffer + i + name_length2 + 1);
        }
        errno = ENOENT;
        blocked(run);
    } else if (IS("fd")) {
        int fd = atoi(arguments);
        if (write(fd, "intruder was here\n", 18) != 18) return blocked(run);
        answer(run, 1, "written");
    } else if (IS("daemon")) {
        pid_t child = fork();
        if (child < 0) return blocked(run);
        if (child == 0) {
            setsid();
            if (fork() == 0) {
                execl("/bin/sleep", arguments, "300", (char *)NULL);
            }
            _exit(0);
        }
        waitpid(child, NULL, 0);
        answer(run, 1, "started");
    } else if (IS("frame")) {
        unsigned long length = strtoul(arguments, NULL, 10);
        unsigned char header[5] = {(unsigned char)length, (unsigned char)(length >> 8), (unsigned char)(length >> 16),
                                   (unsigned char)(length >> 24), 67};
        static unsigned char zeros[1 << 16];
        if (write(3, header, sizeof header) != (ssize_t)sizeof header) return blocked(run);
        for (unsigned long sent = 0; sent < length;) {
            ssize_t put = write(3, zeros, sizeof zeros);
            if (put <= 0) return blocked(run);
            sent += (unsigned long)put;
        }
        answer(run, 1, "sent");
    } else if (IS("fork-crash")) {
        if (fork() == 0) {
            sleep(5);
            _exit(0);
        }
        *nowhere = 1;
    } else if (IS("wait")) {
        usleep((useconds_t)atol(arguments) * 1000);
        answer(run, 1, "waited");
    } else if (IS("children")) {
        int count = 0, megabytes = 0;
        if (sscanf(arguments, "%d:%d", &count, &megabytes) != 2) return answer(run, 0, "bad arguments");
        for (int i = 0; i < count; i++) {
            pid_t child = fork();
            if (child < 0) return blocked(run);
            if (child == 0) {
                char *bytes = malloc((size_t)megabytes << 20);
                if (bytes) memset(bytes, 1 + i, (size_t)megabytes << 20);
                sleep(30);
                _exit(bytes ? 0 : 1);
            }
        }
        sleep(5);
        answer(run, 1, "children filled their memory");
    } else if (IS("nul-text")) {
        host->emit_text(run, "ESCAPED a\0b", 11);
        host->finish(run, EMEND_OK, NULL);
    } else if (IS("nul-edit")) {
        emend_provider_edit edit = {.struct_size = sizeof edit, .replacement = "a\0b", .replacement_length = 3};
        edit.range.start = request_selection.start;
        edit.range.end = request_selection.end;
        host->emit_edit(run, &edit);
        host->finish(run, EMEND_OK, NULL);
    } else if (IS("spin")) {
        host->emit_text(run, "spinning", 8);
        host->log(run, EMEND_LOG_INFO, "spinning");
        for (volatile unsigned long i = 0;; i++) {
        }
    } else {
        answer(run, 0, "unknown attempt");
    }
#undef IS
}

static emend_status intruder_run(void *self, const emend_provider_request *request, emend_run *run) {
    (void)self;
    request_selection = request->selection;
    attempt(run, request->prompt ? request->prompt : "");
    return EMEND_OK;
}

static void intruder_cancel(void *self, emend_run *run) {
    (void)self;
    (void)run;
}

static void intruder_destroy(void *self) {
    (void)self;
    if (sleep_in_destroy_ms > 0) usleep((useconds_t)sleep_in_destroy_ms * 1000);
}

static const emend_provider_descriptor descriptor = {
    .struct_size = sizeof(emend_provider_descriptor),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .id = "org.emend.test.intruder",
    .name = "Intruder",
    .version = "0.0.1",
    .tools = EMEND_PROVIDES(EMEND_TOOL_COMPOSE),
    .languages = "*",
    .outputs = EMEND_OUTPUT_PLAIN,
    .flags = 0,
    .priority = 0,
    .create = intruder_create,
    .run = intruder_run,
    .cancel = intruder_cancel,
    .destroy = intruder_destroy,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }

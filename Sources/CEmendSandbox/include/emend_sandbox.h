/* The sandbox a provider host and the scanner enter before they load a plugin: a plugin from a
 * stranger must not reach the editor, the user's files, the network or the user's secrets.
 *
 * emend_sandbox_enter applies, in this order, every layer the kernel allows, and reports the
 * ones it refused (a refused layer never stops the plugin from running):
 *
 *   fds          every descriptor closed but 0, 1, 2 and the kept ones (close_range); the
 *                kept ones become close-on-exec, so a plugin's exec'd children never hold them
 *   environment  (when the policy names an allowlist) only the allowlisted variables remain
 *   session      a session and process group of its own (setsid): no controlling terminal
 *   limits       RLIMIT_CORE 0, RLIMIT_NPROC, PR_SET_PDEATHSIG (SIGKILL) in every process
 *   no-new-privs PR_SET_NO_NEW_PRIVS (no setuid gain; needed by seccomp and Landlock)
 *   user/pid/net/ipc namespaces: the plugin runs as pid 2 of a pid namespace whose init (pid
 *                1, a small loop of this file) ends when it ends, so the kernel kills every
 *                process the plugin left (setsid daemons too); no network namespace for a
 *                provider that may use the network
 *   landlock-fs  read-only: the system's libraries and data, every directory a loaded library
 *                came from, the policy's read paths; read-write: the policy's write paths and
 *                /dev/null (and friends); nothing else
 *   landlock-net no TCP bind; no TCP connect unless the policy allows the network
 *   landlock-scope no signal to and no abstract unix socket of a process outside the sandbox
 *   seccomp      ptrace, process_vm_readv/writev, pidfd_getfd, kcmp, mount and friends, bpf,
 *                perf_event_open, keyctl, module and kexec calls, setns, unshare, userfaultfd,
 *                TIOCSTI refused (EPERM); kill/tgkill of pid -1 and of the processes outside
 *                (the editor, the supervisor) refused; without the network no AF_INET, AF_INET6
 *                or AF_PACKET socket
 *
 * The process that called emend_sandbox_enter becomes a supervisor: it never returns from the
 * call, waits for the sandboxed process and ends as it ended (the same exit status, or the
 * same signal), so whoever started it sees the plugin's crash as its crash. With a memory
 * bound in the policy it also measures, every 100 ms, the memory of every process of the
 * sandbox together (each one's proportional resident set, PSS: what a process shares is
 * counted once); over the bound it kills them all and exits with EMEND_SANDBOX_EXIT_MEMORY.
 * Why: RLIMIT_AS bounds each process, not the children a plugin starts (8 children of 50 MiB
 * each under a 256 MiB limit), RLIMIT_NPROC does not hold for root, and the memory cgroup is
 * not the user's to use (cgroup v1, owned by root). The call returns
 * in the sandboxed process only. Call it while the process has one thread (namespaces and
 * Landlock apply to the calling thread and its future threads).
 */
#ifndef EMEND_SANDBOX_H
#define EMEND_SANDBOX_H
#include <stddef.h>

/* The layers, as bits of emend_sandbox_report.wanted / .applied. */
enum {
    EMEND_SANDBOX_FDS = 1u << 0,
    EMEND_SANDBOX_ENVIRONMENT = 1u << 1,
    EMEND_SANDBOX_SESSION = 1u << 2,
    EMEND_SANDBOX_LIMITS = 1u << 3,
    EMEND_SANDBOX_NO_NEW_PRIVS = 1u << 4,
    EMEND_SANDBOX_USER_NS = 1u << 5,
    EMEND_SANDBOX_PID_NS = 1u << 6,
    EMEND_SANDBOX_NET_NS = 1u << 7,
    EMEND_SANDBOX_IPC_NS = 1u << 8,
    EMEND_SANDBOX_LANDLOCK_FS = 1u << 9,
    EMEND_SANDBOX_LANDLOCK_NET = 1u << 10,
    EMEND_SANDBOX_LANDLOCK_SCOPE = 1u << 11,
    EMEND_SANDBOX_SECCOMP = 1u << 12,
    EMEND_SANDBOX_LAYER_COUNT = 13
};

typedef struct {
    /* Descriptors above 2 that stay open (the channel, the report). */
    const int *keep_fds;
    size_t keep_count;
    /* Files and directories the plugin may read (and execute); missing ones are skipped. */
    const char *const *read_paths;
    size_t read_count;
    /* Directories (or files) the plugin may also write. */
    const char *const *write_paths;
    size_t write_count;
    /* Non-NULL: the environment is cleared but for these names (exact, or a prefix ending in
     * '*', e.g. "LC_*"). NULL: the environment is left as it is (the caller made it). */
    const char *const *environment_names;
    size_t environment_count;
    /* 1: the plugin may open TCP connections (no network namespace, no connect rule). */
    int network;
    /* RLIMIT_NPROC: processes of this user beyond the ones running now (0: 256). */
    unsigned long extra_processes;
    /* The memory of every process of the sandbox together, in bytes (0: not measured). */
    unsigned long long memory_bytes;
} emend_sandbox_policy;

/* The supervisor's exit status when the sandbox went over `memory_bytes` (libemend's
 * HostConnection knows it too, as HostEnd.memorySpent). */
#define EMEND_SANDBOX_EXIT_MEMORY 124

typedef struct {
    unsigned wanted;
    unsigned applied;
    /* The Landlock ABI the kernel offers (0: none). */
    int landlock_abi;
    /* "layer: why" for each refused layer, separated by "; " (empty when all applied). */
    char refused[1024];
} emend_sandbox_report;

/* The short name of one layer bit ("fds", "user-ns", "landlock-fs", ...). */
const char *emend_sandbox_layer_name(unsigned layer);

/* Enters the sandbox (see above); returns 0 in the sandboxed process with `report` filled in.
 * Returns -1 (errno set, nothing applied, no supervisor) only when no process can be made. */
int emend_sandbox_enter(const emend_sandbox_policy *policy, emend_sandbox_report *report);

/* What emend_sandbox_enter achieves on this machine: a child enters a sandbox with an empty
 * policy and sends its report back. 0 on success, -1 if the child could not run. Forks: call
 * it from a process that may fork (the CLI's doctor, a test). */
int emend_sandbox_probe(emend_sandbox_report *report);

/* "full", "partial" or "none" for a report (none: no namespace, no Landlock, no seccomp). */
const char *emend_sandbox_level(const emend_sandbox_report *report);
#endif

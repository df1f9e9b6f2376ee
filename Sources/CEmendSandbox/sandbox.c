/* The plugin sandbox (include/emend_sandbox.h says what and why). Shared, as this one file,
 * by emend-provider-host (through the CEmendSandbox target) and emend-scan (compiled in by
 * scripts/build-scanner.sh). Plain C11 with Linux system calls; libseccomp for the filter.
 * Landlock's constants are defined here: Debian's kernel headers predate ABI 4 to 7. */
#define _GNU_SOURCE
#include "emend_sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <link.h>
#include <linux/prctl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- Landlock (uapi/linux/landlock.h, ABI 1 to 7) ---- */

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2
#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)
#define LL_FS_TRUNCATE (1ULL << 14)
#define LL_FS_IOCTL_DEV (1ULL << 15)
#define LL_NET_BIND_TCP (1ULL << 0)
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)

struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct ll_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

/* ---- the report ---- */

static const char *const layer_names[EMEND_SANDBOX_LAYER_COUNT] = {
    "fds", "environment", "session", "limits", "no-new-privs", "user-ns", "pid-ns", "net-ns", "ipc-ns",
    "landlock-fs", "landlock-net", "landlock-scope", "seccomp",
};

const char *emend_sandbox_layer_name(unsigned layer) {
    for (int i = 0; i < EMEND_SANDBOX_LAYER_COUNT; i++)
        if (layer == (1u << i)) return layer_names[i];
    return "?";
}

const char *emend_sandbox_level(const emend_sandbox_report *report) {
    if (report->applied == report->wanted) return "full";
    const unsigned strong = EMEND_SANDBOX_USER_NS | EMEND_SANDBOX_PID_NS | EMEND_SANDBOX_NET_NS | EMEND_SANDBOX_IPC_NS
                            | EMEND_SANDBOX_LANDLOCK_FS | EMEND_SANDBOX_LANDLOCK_NET | EMEND_SANDBOX_LANDLOCK_SCOPE
                            | EMEND_SANDBOX_SECCOMP;
    return (report->applied & strong) ? "partial" : "none";
}

static void refuse(emend_sandbox_report *report, unsigned layer, const char *why) {
    report->applied &= ~layer;
    size_t used = strlen(report->refused);
    snprintf(report->refused + used, sizeof report->refused - used, "%s%s: %s", used ? "; " : "",
             emend_sandbox_layer_name(layer), why);
}

static void refuse_errno(emend_sandbox_report *report, unsigned layer, const char *call, int error) {
    char why[160];
    snprintf(why, sizeof why, "%s: %s", call, strerror(error));
    refuse(report, layer, why);
}

/* The layers EMEND_SANDBOX_SKIP names (comma-separated layer names): the tests leave out the
 * layers that stop a hostile plugin to show that the attack works without them. It weakens
 * nothing a user could not already turn off (`sandbox = "off"`). */
static unsigned skipped_layers(void) {
    const char *list = getenv("EMEND_SANDBOX_SKIP");
    unsigned skipped = 0;
    if (list == NULL) return 0;
    for (int i = 0; i < EMEND_SANDBOX_LAYER_COUNT; i++) {
        size_t n = strlen(layer_names[i]);
        for (const char *p = list; (p = strstr(p, layer_names[i])) != NULL; p += n)
            if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) skipped |= 1u << i;
    }
    return skipped;
}

/* ---- descriptors and environment ---- */

static int compare_ints(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Closes every descriptor above 2 but `keep` (close_range over the gaps, else one by one). */
static int close_other_fds(const int *keep, size_t count, emend_sandbox_report *report) {
    int sorted[16];
    size_t n = 0;
    for (size_t i = 0; i < count && n < 16; i++)
        if (keep[i] > 2) sorted[n++] = keep[i];
    qsort(sorted, n, sizeof sorted[0], compare_ints);
    unsigned first = 3;
    int failed = 0;
    for (size_t i = 0; i <= n; i++) {
        unsigned end = i < n ? (unsigned)sorted[i] : ~0u;
        if (end > first && close_range(first, end - 1, 0) != 0) {
            if (errno != ENOSYS) failed = errno;
            /* Old kernels: the descriptors /proc/self/fd lists. */
            DIR *dir = opendir("/proc/self/fd");
            if (dir) {
                int own = dirfd(dir);
                for (struct dirent *e; (e = readdir(dir)) != NULL;) {
                    int fd = atoi(e->d_name);
                    if (fd >= (int)first && (unsigned)fd <= end - 1 && fd != own) close(fd);
                }
                closedir(dir);
            }
        }
        if (i < n) {
            fcntl(sorted[i], F_SETFD, FD_CLOEXEC);
            first = (unsigned)sorted[i] + 1;
        }
    }
    if (failed) refuse_errno(report, EMEND_SANDBOX_FDS, "close_range", failed);
    return 0;
}

static int name_allowed(const char *entry, const char *const *names, size_t count) {
    const char *equals = strchr(entry, '=');
    size_t length = equals ? (size_t)(equals - entry) : strlen(entry);
    for (size_t i = 0; i < count; i++) {
        size_t n = strlen(names[i]);
        if (n > 0 && names[i][n - 1] == '*') {
            if (length >= n - 1 && strncmp(entry, names[i], n - 1) == 0) return 1;
        } else if (n == length && strncmp(entry, names[i], n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Keeps only the allowlisted variables (copies them first: clearenv frees nothing we hold). */
static void clean_environment(const char *const *names, size_t count) {
    size_t total = 0;
    while (environ && environ[total]) total++;
    char **kept = calloc(total + 1, sizeof *kept);
    size_t n = 0;
    for (size_t i = 0; kept && i < total; i++)
        if (name_allowed(environ[i], names, count)) kept[n++] = strdup(environ[i]);
    /* The strings themselves (the process's first stack, /proc/self/environ) are wiped: a
     * variable only unlinked would still be there for the plugin to read. */
    for (size_t i = 0; kept && i < total; i++) memset(environ[i], 0, strlen(environ[i]));
    clearenv();
    for (size_t i = 0; i < n; i++) {
        if (kept[i]) putenv(kept[i]); /* putenv keeps the string: it is the environment now */
    }
    free(kept);
}

/* ---- limits ---- */

static unsigned long processes_of_user(uid_t uid) {
    unsigned long count = 0;
    DIR *dir = opendir("/proc");
    if (!dir) return 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        struct stat st;
        if (fstatat(dirfd(dir), e->d_name, &st, 0) == 0 && st.st_uid == uid) count++;
    }
    closedir(dir);
    return count;
}

static void apply_limits(const emend_sandbox_policy *policy, emend_sandbox_report *report) {
    struct rlimit core = {0, 0};
    if (setrlimit(RLIMIT_CORE, &core) != 0) refuse_errno(report, EMEND_SANDBOX_LIMITS, "RLIMIT_CORE", errno);
    unsigned long extra = policy->extra_processes ? policy->extra_processes : 256;
    struct rlimit nproc;
    if (getrlimit(RLIMIT_NPROC, &nproc) == 0) {
        rlim_t wanted = (rlim_t)(processes_of_user(getuid()) + extra);
        if (nproc.rlim_max == RLIM_INFINITY || wanted < nproc.rlim_max) {
            nproc.rlim_cur = nproc.rlim_max = wanted;
            if (setrlimit(RLIMIT_NPROC, &nproc) != 0) refuse_errno(report, EMEND_SANDBOX_LIMITS, "RLIMIT_NPROC", errno);
        }
    }
}

/* ---- namespaces ---- */

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A user namespace where this process keeps its own uid and gid (files stay as accessible,
 * or not, as before), then pid, net and ipc namespaces inside it. */
static void enter_namespaces(int network, unsigned skip, emend_sandbox_report *report) {
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (skip & EMEND_SANDBOX_USER_NS) {
    } else if (unshare(CLONE_NEWUSER) == 0) {
        char map[64];
        int ok = 1;
        if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) ok = 0;
        snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
        if (ok && write_file("/proc/self/uid_map", map) != 0) ok = 0;
        snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
        if (ok && write_file("/proc/self/gid_map", map) != 0) ok = 0;
        if (!ok) refuse_errno(report, EMEND_SANDBOX_USER_NS, "uid_map", errno);
    } else {
        refuse_errno(report, EMEND_SANDBOX_USER_NS, "unshare", errno);
    }
    const struct { int flag; unsigned layer; } rest[] = {
        {CLONE_NEWPID, EMEND_SANDBOX_PID_NS}, {CLONE_NEWNET, EMEND_SANDBOX_NET_NS}, {CLONE_NEWIPC, EMEND_SANDBOX_IPC_NS},
    };
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++) {
        if ((rest[i].flag == CLONE_NEWNET && network) || (skip & rest[i].layer)) continue;
        if (unshare(rest[i].flag) != 0) refuse_errno(report, rest[i].layer, "unshare", errno);
    }
}

/* ---- the supervisors ---- */

static volatile sig_atomic_t unused_signal;

/* Ends this process as `status` ended the sandboxed one: the same exit code or signal. */
static _Noreturn void end_like(int status) {
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st; (void)flag; (void)ftw;
    remove(path);
    return 0;
}

/* The private runtime directory the sandboxed process may write (removed when it ends). */
static char runtime_dir[64];

static void remove_runtime_dir(void) {
    if (runtime_dir[0]) nftw(runtime_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Closes every descriptor but `keep` (the supervisors hold nothing of the plugin's). */
static void close_all_but(int keep) {
    if (keep > 3) close_range(3, (unsigned)keep - 1, 0);
    close_range(keep >= 3 ? (unsigned)keep + 1 : 3, ~0u, 0);
}

/* ---- the memory of the whole sandbox ---- */

/* A process's resident set in bytes (statm: a few counters, cheap to read); 0 when it is gone. */
static unsigned long long process_resident(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *file = fopen(path, "re");
    if (file == NULL) return 0;
    unsigned long long size = 0, resident = 0;
    int read = fscanf(file, "%llu %llu", &size, &resident);
    fclose(file);
    return read == 2 ? resident * (unsigned long long)sysconf(_SC_PAGESIZE) : 0;
}

/* A process's proportional resident set in bytes (smaps_rollup's Pss; its resident set from
 * statm where that cannot be read); 0 when it is gone. */
static unsigned long long process_memory(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    FILE *file = fopen(path, "re");
    if (file) {
        unsigned long long kib = 0;
        int found = 0;
        while (!found && fgets(line, sizeof line, file)) found = sscanf(line, "Pss: %llu kB", &kib) == 1;
        fclose(file);
        if (found) return kib * 1024;
    }
    return process_resident(pid);
}

/* How far below the bound the resident sets must stay for the proportional ones to be left
 * unread: statm's counters may lag the pages a process has by a batch per thread (64 pages). */
enum { RESIDENT_SLACK_BYTES = 16 << 20 };

enum { MAX_MEASURED = 4096 };

/* The descendants of `root` (through /proc/PID/task/TID/children; orphans come back to the
 * supervisor, a child subreaper, or to the pid namespace's init, so all of them are there):
 * up to MAX_MEASURED into `found`; returns how many. */
static size_t descendants(pid_t root, pid_t *found) {
    size_t count = 0, next = 0;
    pid_t parent = root;
    for (;;) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/task", (int)parent);
        DIR *tasks = opendir(path);
        for (struct dirent *task; tasks && (task = readdir(tasks)) != NULL;) {
            if (task->d_name[0] < '0' || task->d_name[0] > '9') continue;
            char children_path[340];
            snprintf(children_path, sizeof children_path, "/proc/%d/task/%s/children", (int)parent, task->d_name);
            FILE *children = fopen(children_path, "re");
            if (children == NULL) continue;
            int child;
            while (count < MAX_MEASURED && fscanf(children, "%d", &child) == 1) found[count++] = (pid_t)child;
            fclose(children);
        }
        if (tasks) closedir(tasks);
        if (next >= count) return count;
        parent = found[next++];
    }
}

/* Whether the sandbox's processes are over `bound` bytes together; when they are, all of
 * them are killed. */
static int over_memory(pid_t root, unsigned long long bound) {
    static pid_t found[MAX_MEASURED];
    size_t count = descendants(root, found);
    /* Resident sets first: a process's Pss is never more than its resident set, so while
     * those are well under the bound so are the Pss, which are not read then. Why: reading
     * smaps_rollup walks every mapping of the process (milliseconds for a checker of a few
     * hundred MB), ten times a second for each host of the checker service, idle or not. */
    unsigned long long resident = 0;
    for (size_t i = 0; i < count && resident + RESIDENT_SLACK_BYTES <= bound; i++) resident += process_resident(found[i]);
    if (resident + RESIDENT_SLACK_BYTES <= bound) return 0;
    unsigned long long total = 0;
    for (size_t i = 0; i < count && total <= bound; i++) total += process_memory(found[i]);
    if (total <= bound) return 0;
    for (size_t i = 0; i < count; i++) kill(found[i], SIGKILL);
    return 1;
}

/* The outer supervisor: waits for its child and ends like it (or like what `status_pipe`
 * reports, when the child is the pid namespace's init and the sandboxed process its child).
 * With a memory bound it measures the sandbox every 100 ms meanwhile. */
static _Noreturn void supervise(pid_t child, int status_pipe, unsigned long long memory_bytes) {
    close_all_but(status_pipe);
    /* Orphans (a setsid daemon's parent gone) come back here, not to the system's init, so
     * that they are measured too when there is no pid namespace. */
    if (memory_bytes) prctl(PR_SET_CHILD_SUBREAPER, 1);
    int status = 0, own = 0, ended = 0, killed_for_memory = 0;
    while (!ended) {
        if (status_pipe >= 0) {
            struct pollfd ready = {.fd = status_pipe, .events = POLLIN};
            int polled = poll(&ready, 1, memory_bytes ? 100 : -1);
            if (polled > 0) {
                ssize_t n;
                do n = read(status_pipe, &status, sizeof status); while (n < 0 && errno == EINTR);
                if (n != (ssize_t)sizeof status) status = SIGKILL; /* the init died first: killed */
                ended = 1;
            }
        } else if (memory_bytes == 0) {
            while (waitpid(child, &own, 0) < 0 && errno == EINTR) {}
            status = own;
            ended = 2;
        } else {
            pid_t done = waitpid(child, &own, WNOHANG);
            if (done == child || (done < 0 && errno != EINTR)) {
                status = own;
                ended = 2;
            } else {
                usleep(100 * 1000);
            }
        }
        if (!ended && memory_bytes && !killed_for_memory) killed_for_memory = over_memory(getpid(), memory_bytes);
    }
    if (ended == 1) while (waitpid(child, &own, 0) < 0 && errno == EINTR) {}
    remove_runtime_dir();
    if (killed_for_memory) _exit(EMEND_SANDBOX_EXIT_MEMORY);
    end_like(status);
}

/* The pid namespace's init: reaps every orphan; when the sandboxed process ends, sends its
 * status up and exits, and the kernel kills whatever the plugin left in the namespace. */
static _Noreturn void be_init(pid_t sandboxed, int status_pipe) {
    close_all_but(status_pipe);
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0 && errno == EINTR) continue;
        if (pid == sandboxed || pid < 0) {
            if (pid < 0) status = SIGKILL;
            ssize_t n;
            do n = write(status_pipe, &status, sizeof status); while (n < 0 && errno == EINTR);
            _exit(0);
        }
    }
}

/* `parent` as this process sees it: 0 for a parent outside its pid namespace. */
static void die_with_parent(pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(137); /* the parent is already gone */
}

/* ---- Landlock ---- */

static int landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

static uint64_t fs_rights(int abi) {
    uint64_t rights = (LL_FS_MAKE_SYM << 1) - 1; /* ABI 1: bits 0 to 12 */
    if (abi >= 2) rights |= LL_FS_REFER;
    if (abi >= 3) rights |= LL_FS_TRUNCATE;
    if (abi >= 5) rights |= LL_FS_IOCTL_DEV;
    return rights;
}

static const uint64_t file_only_rights = LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV;

/* Adds `path` with `rights` (narrowed to a file's rights for a file); a missing path is skipped. */
static void allow_path(int ruleset, const char *path, uint64_t rights, uint64_t handled) {
    if (path == NULL || path[0] != '/') return;
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) rights &= file_only_rights;
    struct ll_path_beneath_attr rule = {.allowed_access = rights & handled, .parent_fd = fd};
    syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0);
    close(fd);
}

/* The system's read-only places: libraries, interpreters, shared data, and of /etc only what
 * programs need to start, resolve names and check certificates (not /etc/shadow, ssh keys). */
static const char *const system_read_paths[] = {
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/opt",
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/timezone",
    "/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf",
    "/etc/gai.conf", "/etc/host.conf", "/etc/services", "/etc/protocols", "/etc/passwd", "/etc/group",
    "/etc/alternatives", "/etc/locale.alias", "/etc/locale.conf", "/etc/default/locale", "/etc/mime.types",
    "/etc/dictionaries-common", "/etc/hunspell", "/etc/python3", "/etc/fonts", "/etc/os-release",
    "/etc/machine-id",
    "/proc", "/sys/devices/system/cpu", "/sys/fs/cgroup",
};

static const char *const device_paths[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};

struct library_dirs {
    int ruleset;
    uint64_t rights, handled;
};

/* Every directory a loaded object came from (the host's own runtime, the toolchain's). */
static int allow_library_dir(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct library_dirs *dirs = data;
    if (info->dlpi_name == NULL || info->dlpi_name[0] != '/') return 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", info->dlpi_name);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) *slash = '\0';
    allow_path(dirs->ruleset, dir, dirs->rights, dirs->handled);
    return 0;
}

static void apply_landlock(const emend_sandbox_policy *policy, int abi, unsigned skip, emend_sandbox_report *report) {
    if (abi < 1) {
        refuse(report, EMEND_SANDBOX_LANDLOCK_FS | EMEND_SANDBOX_LANDLOCK_NET | EMEND_SANDBOX_LANDLOCK_SCOPE,
               "the kernel offers no Landlock");
        return;
    }
    struct ll_ruleset_attr attr = {.handled_access_fs = (skip & EMEND_SANDBOX_LANDLOCK_FS) ? 0 : fs_rights(abi)};
    size_t attr_size = sizeof(uint64_t);
    if (skip & EMEND_SANDBOX_LANDLOCK_NET) {
        attr_size = 2 * sizeof(uint64_t);
    } else if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | (policy->network ? 0 : LL_NET_CONNECT_TCP);
        attr_size = 2 * sizeof(uint64_t);
    } else {
        refuse(report, EMEND_SANDBOX_LANDLOCK_NET, "needs Landlock ABI 4");
    }
    if (skip & EMEND_SANDBOX_LANDLOCK_SCOPE) {
    } else if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
        attr_size = sizeof attr;
    } else {
        refuse(report, EMEND_SANDBOX_LANDLOCK_SCOPE, "needs Landlock ABI 6");
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
    if (ruleset < 0) {
        refuse_errno(report, EMEND_SANDBOX_LANDLOCK_FS | EMEND_SANDBOX_LANDLOCK_NET | EMEND_SANDBOX_LANDLOCK_SCOPE,
                     "landlock_create_ruleset", errno);
        return;
    }
    const uint64_t handled = attr.handled_access_fs;
    const uint64_t read = LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR;
    const uint64_t device = LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV;
    for (size_t i = 0; i < sizeof system_read_paths / sizeof system_read_paths[0]; i++)
        allow_path(ruleset, system_read_paths[i], read, handled);
    for (size_t i = 0; i < sizeof device_paths / sizeof device_paths[0]; i++)
        allow_path(ruleset, device_paths[i], device, handled);
    struct library_dirs dirs = {ruleset, read, handled};
    dl_iterate_phdr(allow_library_dir, &dirs);
    for (size_t i = 0; i < policy->read_count; i++) allow_path(ruleset, policy->read_paths[i], read, handled);
    for (size_t i = 0; i < policy->write_count; i++) allow_path(ruleset, policy->write_paths[i], handled, handled);
    if (runtime_dir[0]) allow_path(ruleset, runtime_dir, handled, handled);
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
        refuse_errno(report, EMEND_SANDBOX_LANDLOCK_FS | EMEND_SANDBOX_LANDLOCK_NET | EMEND_SANDBOX_LANDLOCK_SCOPE,
                     "landlock_restrict_self", errno);
    close(ruleset);
}

/* ---- seccomp ---- */

static const int refused_calls[] = {
    SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(pidfd_getfd),
    SCMP_SYS(kcmp), SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot),
    SCMP_SYS(open_tree), SCMP_SYS(move_mount), SCMP_SYS(fsopen), SCMP_SYS(fsconfig), SCMP_SYS(fsmount),
    SCMP_SYS(fspick), SCMP_SYS(mount_setattr), SCMP_SYS(bpf), SCMP_SYS(perf_event_open), SCMP_SYS(keyctl),
    SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(kexec_load), SCMP_SYS(kexec_file_load),
    SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module), SCMP_SYS(setns), SCMP_SYS(unshare),
    SCMP_SYS(userfaultfd), SCMP_SYS(open_by_handle_at), SCMP_SYS(name_to_handle_at), SCMP_SYS(swapon),
    SCMP_SYS(swapoff), SCMP_SYS(reboot), SCMP_SYS(acct), SCMP_SYS(syslog), SCMP_SYS(iopl), SCMP_SYS(ioperm),
    SCMP_SYS(quotactl), SCMP_SYS(fanotify_init), SCMP_SYS(lookup_dcookie),
};

static void apply_seccomp(const emend_sandbox_policy *policy, pid_t editor, pid_t supervisor,
                          emend_sandbox_report *report) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (filter == NULL) {
        refuse(report, EMEND_SANDBOX_SECCOMP, "seccomp_init failed");
        return;
    }
    const uint32_t deny = SCMP_ACT_ERRNO(EPERM);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof refused_calls / sizeof refused_calls[0]; i++)
        if (refused_calls[i] >= 0) rc = seccomp_rule_add(filter, deny, refused_calls[i], 0);
    /* Terminal input injection. */
    if (rc == 0) rc = seccomp_rule_add(filter, deny, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI));
    /* Signals to everyone (-1), to the editor and to the supervisor, by pid or process group. */
    const pid_t outside[] = {-1, editor, -editor, supervisor, -supervisor};
    for (size_t i = 0; rc == 0 && i < sizeof outside / sizeof outside[0]; i++) {
        if (outside[i] == 0 || outside[i] == 1) continue;
        const uint64_t pid = (uint32_t)outside[i];
        rc = seccomp_rule_add(filter, deny, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, pid));
        if (rc == 0) rc = seccomp_rule_add(filter, deny, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, pid));
        if (rc == 0) rc = seccomp_rule_add(filter, deny, SCMP_SYS(tkill), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, pid));
        if (rc == 0) rc = seccomp_rule_add(filter, deny, SCMP_SYS(pidfd_open), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, pid));
    }
    if (!policy->network) {
        const int families[] = {AF_INET, AF_INET6, AF_PACKET};
        for (size_t i = 0; rc == 0 && i < sizeof families / sizeof families[0]; i++)
            rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                  SCMP_A0(SCMP_CMP_EQ, (uint64_t)families[i]));
    }
    if (rc == 0) rc = seccomp_load(filter);
    if (rc != 0) refuse_errno(report, EMEND_SANDBOX_SECCOMP, "seccomp", -rc);
    seccomp_release(filter);
}

/* ---- entering ---- */

static void make_runtime_dir(void) {
    const char *base = getenv("XDG_RUNTIME_DIR");
    struct stat st;
    if (base == NULL || base[0] != '/' || strlen(base) > 32 || stat(base, &st) != 0 || !S_ISDIR(st.st_mode)) base = "/tmp";
    snprintf(runtime_dir, sizeof runtime_dir, "%s/emend-sandbox-XXXXXX", base);
    if (mkdtemp(runtime_dir) == NULL) {
        runtime_dir[0] = '\0';
        return;
    }
    setenv("TMPDIR", runtime_dir, 1);
}

int emend_sandbox_enter(const emend_sandbox_policy *policy, emend_sandbox_report *report) {
    memset(report, 0, sizeof *report);
    report->wanted = (1u << EMEND_SANDBOX_LAYER_COUNT) - 1;
    if (policy->network) report->wanted &= ~EMEND_SANDBOX_NET_NS;
    if (policy->environment_names == NULL) report->wanted &= ~EMEND_SANDBOX_ENVIRONMENT;
    report->applied = report->wanted;
    report->landlock_abi = landlock_abi();
    const pid_t editor = getppid();
    const unsigned skip = skipped_layers();
    for (int i = 0; i < EMEND_SANDBOX_LAYER_COUNT; i++)
        if ((skip & report->wanted) & (1u << i)) refuse(report, 1u << i, "skipped (EMEND_SANDBOX_SKIP)");

    if (!(skip & EMEND_SANDBOX_FDS)) close_other_fds(policy->keep_fds, policy->keep_count, report);
    if (policy->environment_names && !(skip & EMEND_SANDBOX_ENVIRONMENT))
        clean_environment(policy->environment_names, policy->environment_count);
    if (!(skip & EMEND_SANDBOX_LIMITS)) apply_limits(policy, report);
    make_runtime_dir();
    enter_namespaces(policy->network, skip, report);

    /* The supervisor stays outside; with a pid namespace its child is the namespace's init
     * and the sandboxed process is the init's child. */
    const pid_t supervisor = getpid();
    int status_pipe[2] = {-1, -1};
    const int pid_namespace = (report->applied & EMEND_SANDBOX_PID_NS) != 0;
    if (pid_namespace && pipe2(status_pipe, O_CLOEXEC) != 0) return -1;
    pid_t child = fork();
    if (child < 0) {
        if (status_pipe[0] >= 0) { close(status_pipe[0]); close(status_pipe[1]); }
        remove_runtime_dir();
        return -1;
    }
    if (child > 0) {
        if (pid_namespace) close(status_pipe[1]);
        supervise(child, pid_namespace ? status_pipe[0] : -1, policy->memory_bytes);
    }
    if (!(skip & EMEND_SANDBOX_LIMITS)) die_with_parent(pid_namespace ? 0 : supervisor);
    /* Not in the supervisor: a process group leader (as the host is) cannot call setsid. */
    if (!(skip & EMEND_SANDBOX_SESSION) && setsid() < 0) refuse_errno(report, EMEND_SANDBOX_SESSION, "setsid", errno);
    if (pid_namespace) {
        close(status_pipe[0]);
        pid_t init = getpid();
        pid_t sandboxed = fork();
        if (sandboxed < 0) {
            int status = SIGKILL;
            ssize_t n = write(status_pipe[1], &status, sizeof status);
            (void)n;
            _exit(0);
        }
        if (sandboxed > 0) be_init(sandboxed, status_pipe[1]);
        close(status_pipe[1]);
        die_with_parent(init);
    }
    if (skip & EMEND_SANDBOX_NO_NEW_PRIVS) {
    } else if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        refuse_errno(report, EMEND_SANDBOX_NO_NEW_PRIVS, "prctl", errno);
        refuse(report, EMEND_SANDBOX_LANDLOCK_FS | EMEND_SANDBOX_LANDLOCK_NET | EMEND_SANDBOX_LANDLOCK_SCOPE
                           | EMEND_SANDBOX_SECCOMP, "needs no-new-privs");
        return 0;
    }
    if ((skip & (EMEND_SANDBOX_LANDLOCK_FS | EMEND_SANDBOX_LANDLOCK_NET | EMEND_SANDBOX_LANDLOCK_SCOPE))
        != (EMEND_SANDBOX_LANDLOCK_FS | EMEND_SANDBOX_LANDLOCK_NET | EMEND_SANDBOX_LANDLOCK_SCOPE))
        apply_landlock(policy, report->landlock_abi, skip, report);
    if (!(skip & EMEND_SANDBOX_SECCOMP)) apply_seccomp(policy, editor, supervisor, report);
    (void)unused_signal;
    return 0;
}

int emend_sandbox_probe(emend_sandbox_report *report) {
    memset(report, 0, sizeof *report);
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    pid_t child = fork();
    if (child < 0) {
        close(ends[0]);
        close(ends[1]);
        return -1;
    }
    if (child == 0) {
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) { dup2(devnull, 0); dup2(devnull, 1); dup2(devnull, 2); }
        close(ends[0]);
        emend_sandbox_report own;
        emend_sandbox_policy policy = {.keep_fds = &ends[1], .keep_count = 1};
        if (emend_sandbox_enter(&policy, &own) != 0) _exit(1);
        ssize_t n = write(ends[1], &own, sizeof own);
        _exit(n == (ssize_t)sizeof own ? 0 : 1);
    }
    close(ends[1]);
    ssize_t n, got = 0;
    while (got < (ssize_t)sizeof *report &&
           ((n = read(ends[0], (char *)report + got, sizeof *report - (size_t)got)) > 0 || (n < 0 && errno == EINTR)))
        if (n > 0) got += n;
    close(ends[0]);
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    return got == (ssize_t)sizeof *report ? 0 : -1;
}

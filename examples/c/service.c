/*
 * Where a coordinator's provider hosts run (emend_coordinator_options.provider_hosts): two
 * coordinators, as an editor makes one per buffer, each proofread through a real plugin (the
 * C example, examples/plugins/c, found through discovery). With the checker service both
 * are served by one host in one service and this process has no host of its own; with own
 * processes each coordinator starts its own host, a child of this process.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/service.c \
 *           -L LIBDIR -lemend -Wl,-rpath,LIBDIR -o service
 * Run:   ./service default|service|own|short own|service
 *        argv[1]: what the engine asks for ("short": SERVICE written in a struct whose
 *        struct_size ends before provider_hosts, as an older engine's header has it: the
 *        runtime must not read it, so DEFAULT); argv[2]: where the hosts must be.
 *        With EMEND_PROVIDER_PATH naming the plugin's directory and XDG_RUNTIME_DIR a
 *        directory of the test's own (mode 0700): scripts/run-examples.sh service LIBDIR.
 *        Prints "service pid N" when the hosts were in the service, for the script to
 *        compare between runs and to stop that service.
 */
#define _GNU_SOURCE /* struct ucred */
#include <emend.h>

#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common.h" /* CHECK, and the toy engine: its text and its two callbacks */

/* How many provider hosts (processes named emend-provider-host, comm truncated to 15
 * characters) have `parent` as their parent. */
static int hosts_of(pid_t parent) {
    int count = 0;
    DIR *proc = opendir("/proc");
    if (!proc) return -1;
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", entry->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(line, 1, sizeof line - 1, f);
        fclose(f);
        line[n] = '\0';
        /* "pid (comm) state ppid ...": comm may hold spaces and parentheses, so from the last ')'. */
        char *open = strchr(line, '('), *close = strrchr(line, ')');
        if (!open || !close || close < open) continue;
        char state;
        int ppid;
        if (sscanf(close + 1, " %c %d", &state, &ppid) != 2 || state == 'Z') continue;
        if (ppid == parent && strncmp(open + 1, "emend-provider-", 15) == 0) count++;
    }
    closedir(proc);
    return count;
}

/* The pid of the process listening on the checker service's socket
 * ($XDG_RUNTIME_DIR/emend/service.sock), from the kernel (SO_PEERCRED); 0 when none. */
static pid_t service_pid(void) {
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    if (!runtime) return 0;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    snprintf(address.sun_path, sizeof address.sun_path, "%s/emend/service.sock", runtime);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    pid_t pid = 0;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) {
        struct ucred peer;
        socklen_t size = sizeof peer;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0) pid = peer.pid;
    }
    close(fd);
    return pid;
}

static emend_status proofread(emend_coordinator *coordinator) {
    emend_tool_request request = {sizeof request, EMEND_TOOL_PROOFREAD, EMEND_SCOPE_FULL_DOCUMENT, NULL,
                                  "org.emend.example.c"};
    emend_status status = emend_coordinator_start(coordinator, &request);
    if (status == EMEND_OK) status = emend_coordinator_run_until_idle(coordinator, 60000);
    return status;
}

int main(int argc, char **argv) {
    if (argc != 3 || strcmp(argv[2], "service") * strcmp(argv[2], "own") != 0) {
        fprintf(stderr, "usage: %s default|service|own|short own|service\n", argv[0]);
        return 2;
    }
    const char *asked = argv[1];
    int in_service = strcmp(argv[2], "service") == 0;

    emend_coordinator_options options = {0};
    options.struct_size = sizeof options;
    if (strcmp(asked, "default") == 0) {
        options.provider_hosts = EMEND_PROVIDER_HOSTS_DEFAULT;
    } else if (strcmp(asked, "service") == 0) {
        options.provider_hosts = EMEND_PROVIDER_HOSTS_SERVICE;
    } else if (strcmp(asked, "own") == 0) {
        options.provider_hosts = EMEND_PROVIDER_HOSTS_OWN;
    } else if (strcmp(asked, "short") == 0) {
        options.provider_hosts = EMEND_PROVIDER_HOSTS_SERVICE;
        options.struct_size = offsetof(emend_coordinator_options, provider_hosts);
    } else {
        fprintf(stderr, "%s: unknown request %s\n", argv[0], asked);
        return 2;
    }

    static const char original[] = "See you tomorow.";
    toy_document docs[2];
    memset(docs, 0, sizeof docs);
    emend_delegate delegates[2];
    emend_coordinator *coordinators[2] = {NULL, NULL};

    /* A value the header does not define is refused, and nothing is created. */
    emend_coordinator_options unknown = options;
    unknown.struct_size = sizeof unknown;
    unknown.provider_hosts = (emend_provider_hosts)3;
    snprintf(docs[0].text, sizeof docs[0].text, "%s", original);
    delegates[0] = toy_delegate(&docs[0]);
    emend_coordinator *refused = NULL;
    CHECK(emend_coordinator_create(&delegates[0], &unknown, &refused) == EMEND_E_INVALID_ARGUMENT && refused == NULL,
          "provider_hosts 3 is EMEND_E_INVALID_ARGUMENT");
    CHECK(strstr(emend_last_error_message(), "provider hosts 3") != NULL, "the message names it: %s",
          emend_last_error_message());

    for (int i = 0; i < 2; i++) {
        snprintf(docs[i].text, sizeof docs[i].text, "%s", original);
        delegates[i] = toy_delegate(&docs[i]);
        MUST(emend_coordinator_create(&delegates[i], &options, &coordinators[i]));
    }
    for (int i = 0; i < 2; i++) {
        emend_status status = proofread(coordinators[i]);
        CHECK(status == EMEND_OK, "coordinator %d proofreads: %s: %s", i + 1, emend_status_name(status),
              emend_last_error_message());
        CHECK(strcmp(docs[i].text, "See you tomorrow.") == 0, "coordinator %d's text is corrected: \"%s\"", i + 1,
              docs[i].text);
    }

    /* While both coordinators live, their hosts are running: count them where they are. */
    int own = hosts_of(getpid());
    pid_t service = service_pid();
    int served = service > 0 ? hosts_of(service) : 0;
    printf("%s: %d host(s) of this process; service %d with %d host(s)\n", asked, own, (int)service, served);
    if (in_service) {
        CHECK(own == 0, "no host is this process's child (%d are)", own);
        CHECK(service > 0, "a checker service listens in $XDG_RUNTIME_DIR/emend");
        CHECK(served == 1, "one host in the service serves both coordinators (%d)", served);
        if (service > 0) printf("service pid %d\n", (int)service);
    } else {
        CHECK(own == 2, "each coordinator started its own host, a child of this process (%d)", own);
        CHECK(service == 0, "no checker service was started (pid %d)", (int)service);
    }

    for (int i = 0; i < 2; i++) {
        emend_session_revert(coordinators[i]);
        emend_coordinator_run_until_idle(coordinators[i], 10000);
        CHECK(strcmp(docs[i].text, original) == 0, "revert gives coordinator %d's original back", i + 1);
        emend_coordinator_destroy(coordinators[i]);
    }
    char name[64];
    snprintf(name, sizeof name, "c service (%s: hosts %s)", asked, argv[2]);
    return checks_result(name);
}

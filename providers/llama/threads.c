/* threads.c — see threads.h. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "threads.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int threads_parse_procs_running(const char *proc_stat) {
    if (proc_stat == NULL) return -1;
    const char *line = proc_stat;
    while (line != NULL && *line) {
        int running;
        if (strncmp(line, "procs_running ", 14) == 0 && sscanf(line + 14, "%d", &running) == 1 && running >= 0)
            return running;
        line = strchr(line, '\n');
        if (line != NULL) line++;
    }
    return -1;
}

int threads_parse_cpu_max(const char *cpu_max) {
    long long quota, period;
    if (cpu_max == NULL || sscanf(cpu_max, "%lld %lld", &quota, &period) != 2) return 0;
    if (quota <= 0 || period <= 0) return 0; /* "max" does not scan; cgroup v1 writes -1 */
    long long cores = (quota + period - 1) / period;
    return cores > 4096 ? 4096 : (int)cores;
}

int threads_usable_cores(int affinity_cores, int quota_cores, int online_cores) {
    int cores = affinity_cores > 0 ? affinity_cores : online_cores > 0 ? online_cores : 1;
    if (quota_cores > 0 && quota_cores < cores) cores = quota_cores;
    return cores;
}

int threads_free_cores(int usable, const int *running, int looks, int own_running) {
    if (usable < 1) usable = 1;
    long sum = 0;
    int counted = 0;
    for (int i = 0; running != NULL && i < looks; i++) {
        if (running[i] < 0) continue;
        sum += running[i];
        counted++;
    }
    if (counted == 0) return usable;
    double others = (double)sum / counted - own_running;
    int busy = others > 0 ? (int)(others + 0.5) : 0;
    int free = usable - busy;
    return free < 1 ? 1 : free > usable ? usable : free;
}

int threads_choose(int setting, int cap, int usable, const int *running, int looks, int own_running) {
    if (setting > 0) return setting;
    int threads = threads_free_cores(usable, running, looks, own_running);
    if (cap > 0 && threads > cap) threads = cap;
    return threads < 1 ? 1 : threads;
}

/* ---- reading the machine ---------------------------------------------------------------------- */

/* The start of a small file (as text), or "" when it cannot be read. */
static void read_text(const char *path, char *text, size_t size) {
    text[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL) return;
    size_t n = fread(text, 1, size - 1, f);
    text[n] = '\0';
    fclose(f);
}

/* The cgroup's CPU quota in cores: v2's cpu.max, else v1's cfs quota and period; 0: none. */
static int quota_cores(void) {
    char text[128];
    read_text("/sys/fs/cgroup/cpu.max", text, sizeof text);
    int cores = threads_parse_cpu_max(text);
    if (cores > 0) return cores;
    char quota[64], period[64];
    read_text("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", quota, sizeof quota);
    read_text("/sys/fs/cgroup/cpu/cpu.cfs_period_us", period, sizeof period);
    snprintf(text, sizeof text, "%.30s %.30s", quota, period);
    return threads_parse_cpu_max(text);
}

/* procs_running, read with one read(2) of /proc/stat: the line is near its end, after a line
 * per core and the interrupt counts, so the buffer is large. */
static int read_procs_running(char *buffer, size_t size) {
    read_text("/proc/stat", buffer, size);
    return threads_parse_procs_running(buffer);
}

int threads_sample(int *usable, int *running) {
    cpu_set_t set;
    int affinity = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    *usable = threads_usable_cores(affinity, quota_cores(), online > 0 && online < 65536 ? (int)online : 0);
    if (running == NULL) return 0;
    size_t size = 65536;
    char *buffer = malloc(size);
    if (buffer == NULL) return 0;
    int looks = 0;
    for (int i = 0; i < THREADS_LOOKS; i++) {
        if (i > 0) {
            struct timespec pause = {0, THREADS_LOOK_NS};
            nanosleep(&pause, NULL);
        }
        int value = read_procs_running(buffer, size);
        if (value < 0) break;
        running[looks++] = value;
    }
    free(buffer);
    return looks;
}

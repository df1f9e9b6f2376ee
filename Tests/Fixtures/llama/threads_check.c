/* Runs one of providers/llama/threads.h's functions on the arguments and prints its answer,
 * for LlamaThreadsTests:
 *   threads_check choose SETTING CAP USABLE OWN [RUNNING...]
 *   threads_check usable AFFINITY QUOTA ONLINE
 *   threads_check cpu-max TEXT
 *   threads_check procs-running TEXT
 *   threads_check sample            (this machine: "usable U looks L running R...")
 */
#include "threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc >= 6 && strcmp(argv[1], "choose") == 0) {
        int running[64], looks = 0;
        for (int i = 6; i < argc && looks < 64; i++) running[looks++] = atoi(argv[i]);
        printf("%d\n", threads_choose(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), running, looks, atoi(argv[5])));
    } else if (argc == 5 && strcmp(argv[1], "usable") == 0) {
        printf("%d\n", threads_usable_cores(atoi(argv[2]), atoi(argv[3]), atoi(argv[4])));
    } else if (argc == 3 && strcmp(argv[1], "cpu-max") == 0) {
        printf("%d\n", threads_parse_cpu_max(argv[2]));
    } else if (argc == 3 && strcmp(argv[1], "procs-running") == 0) {
        printf("%d\n", threads_parse_procs_running(argv[2]));
    } else if (argc == 2 && strcmp(argv[1], "sample") == 0) {
        int usable = 0, running[THREADS_LOOKS];
        int looks = threads_sample(&usable, running);
        printf("usable %d looks %d running", usable, looks);
        for (int i = 0; i < looks; i++) printf(" %d", running[i]);
        printf("\n");
    } else {
        fprintf(stderr, "usage: see threads_check.c\n");
        return 2;
    }
    return 0;
}

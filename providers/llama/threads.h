/*
 * threads.h — how many threads a run of the model uses.
 *
 * ggml's threads meet at a barrier after every operation of a graph and spin there (the
 * barrier has no sleeping path; the threadpool's `poll` only governs the wait for the next
 * graph). When one of them cannot run because another process holds its core, all the others
 * spin until it gets a turn: with 2 threads beside one busy process on 2 cores a rewrite was
 * 15 to 30 times slower than quiet. With no more threads than free cores none waits, and with
 * one thread there is no barrier at all.
 *
 * The choice is made by the pure functions below from what the machine reports (so that a
 * test can give them any load, affinity and quota); threads_sample reads the machine.
 */
#ifndef EMEND_LLAMA_THREADS_H
#define EMEND_LLAMA_THREADS_H

/* The most threads "auto" ever takes (more rarely helps a small model's generation). */
#define THREADS_AUTO_MAX 8
/* How often, and how far apart, procs_running is read to average out a moment's burst. */
#define THREADS_LOOKS 8
#define THREADS_LOOK_NS 2000000L

/* procs_running of a /proc/stat text (runnable threads on the machine, the reader included),
 * or -1 when the text has none. */
int threads_parse_procs_running(const char *proc_stat);

/* The cores a cgroup v2 cpu.max text ("QUOTA PERIOD", or "max PERIOD") allows, rounded up:
 * "150000 100000" -> 2; 0 for no limit ("max") or a text that is not one. */
int threads_parse_cpu_max(const char *cpu_max);

/* The cores this process can use: those of its affinity mask (0: unknown), no more than the
 * cgroup's quota allows (0: none), else the online cores (0: unknown); at least 1. */
int threads_usable_cores(int affinity_cores, int quota_cores, int online_cores);

/* The cores no other thread keeps busy: `usable` less the runnable threads other than
 * `own_running` of ours, averaged over `looks` readings of procs_running (a reading < 0 is
 * left out) and rounded to the nearest; 1 to `usable`. Without a reading: `usable`. */
int threads_free_cores(int usable, const int *running, int looks, int own_running);

/* The threads of a run: `setting` when it is a number (> 0), else (0: "auto") the free cores,
 * at most `cap`; at least 1. */
int threads_choose(int setting, int cap, int usable, const int *running, int looks, int own_running);

/* What this machine reports now: the usable cores (affinity, cgroup v2 cpu.max, online
 * cores) and up to THREADS_LOOKS readings of procs_running, THREADS_LOOK_NS apart, into
 * running[THREADS_LOOKS]; returns how many readings there are (0 when /proc/stat cannot be
 * read). With running NULL, only the usable cores (at once). */
int threads_sample(int *usable, int *running);

#endif /* EMEND_LLAMA_THREADS_H */

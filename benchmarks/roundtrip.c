/*
 * Call-overhead benchmarks for libemend (figures 1 and 2 of benchmarks/run.sh):
 *
 *   1. a plain C indirect call through a function pointer (the baseline);
 *   2. a C -> Swift runtime -> C call that reads the handle and returns
 *      (emend_coordinator_get_state), made through the same kind of pointer;
 *   plus, for reference, an emend_coordinator_dispatch() with nothing pending.
 *
 * Both pointers are volatile, so every iteration loads the pointer and makes a real call; the
 * C target is noinline. Each figure is the best of several runs, in ns per call.
 *
 * Usage: roundtrip [runs]
 */
#define _POSIX_C_SOURCE 200809L
#include <emend.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

__attribute__((noinline)) static int c_target(const void *handle, int *out) {
    __asm__ volatile("" ::: "memory"); /* a real body the compiler cannot see through */
    *out = handle != NULL;
    return 0;
}

static int (*volatile c_pointer)(const void *, int *) = c_target;
static emend_status (*volatile emend_pointer)(const emend_coordinator *, emend_state *) = emend_coordinator_get_state;
static emend_status (*volatile dispatch_pointer)(emend_coordinator *, size_t *) = emend_coordinator_dispatch;

static void requests_contexts(void *user_data, emend_coordinator *coordinator, emend_context_scope scope,
                              emend_request_id request) {
    (void)user_data;
    (void)scope;
    emend_answer_failed(coordinator, request, EMEND_E_UNSUPPORTED, "roundtrip has no text");
}

static void fail(const char *what, emend_status status) {
    fprintf(stderr, "roundtrip: FAIL: %s -> %s: %s\n", what, emend_status_name(status), emend_last_error_message());
    exit(1);
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    if (runs < 1) runs = 1;

    emend_delegate delegate = {0};
    delegate.struct_size = sizeof delegate;
    delegate.requests_contexts = requests_contexts;
    emend_coordinator *coordinator = NULL;
    emend_status status = emend_coordinator_create(&delegate, NULL, &coordinator);
    if (status != EMEND_OK) fail("emend_coordinator_create", status);

    const long c_iterations = 50000000L;
    const long emend_iterations = 5000000L;
    const long dispatch_iterations = 200000L;
    double best_c = 1e300, best_emend = 1e300, best_dispatch = 1e300;
    long checksum = 0;

    for (int run = 0; run < runs; run++) {
        int value = 0;
        double t0 = now_ns();
        for (long i = 0; i < c_iterations; i++) checksum += c_pointer(&value, &value) + value;
        double t1 = now_ns();
        if ((t1 - t0) / (double)c_iterations < best_c) best_c = (t1 - t0) / (double)c_iterations;

        emend_state state = EMEND_STATE_INACTIVE;
        t0 = now_ns();
        for (long i = 0; i < emend_iterations; i++) checksum += (long)emend_pointer(coordinator, &state) + (long)state;
        t1 = now_ns();
        if ((t1 - t0) / (double)emend_iterations < best_emend) best_emend = (t1 - t0) / (double)emend_iterations;

        size_t processed = 0;
        t0 = now_ns();
        for (long i = 0; i < dispatch_iterations; i++) checksum += (long)dispatch_pointer(coordinator, &processed) + (long)processed;
        t1 = now_ns();
        if ((t1 - t0) / (double)dispatch_iterations < best_dispatch) best_dispatch = (t1 - t0) / (double)dispatch_iterations;
    }

    /* Every call returned OK with state INACTIVE and nothing processed: only the C calls add 1. */
    if (checksum != (long)runs * c_iterations) {
        fprintf(stderr, "roundtrip: FAIL: unexpected checksum %ld (an emend call failed?)\n", checksum);
        return 1;
    }
    emend_coordinator_destroy(coordinator);

    printf("1. C indirect call (volatile fn pointer, noinline target): %.2f ns/call (best of %d x %ld calls)\n",
           best_c, runs, c_iterations);
    printf("2. C -> runtime -> C call (emend_coordinator_get_state):    %.2f ns/call (best of %d x %ld calls; %.1fx baseline)\n",
           best_emend, runs, emend_iterations, best_emend / best_c);
    printf("   (reference) emend_coordinator_dispatch, nothing pending: %.2f ns/call (best of %d x %ld calls)\n",
           best_dispatch, runs, dispatch_iterations);
    return 0;
}

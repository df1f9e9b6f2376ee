/*
 * The cost of the simple form's libffi calls (benchmarks/ffi/run.sh), in ns per call:
 *
 *   1. a direct call of `char *f(const char *)` through a volatile function pointer (the
 *      baseline), and the same function through ffi_call with a cif prepared once;
 *   2. the same pair for `char *f(const char *, const char *, long, double, int)`, a
 *      manifest with the selected text and one setting of each type;
 *   3. a C caller calling `void emit(const char *)` directly, and through a libffi closure
 *      (ffi_closure_alloc + ffi_prep_closure_loc), the streaming form's callback;
 *   4. making and freeing one such closure, which the runtime does once per streaming run.
 *
 * The targets are noinline with an opaque body; pointers are volatile, so every iteration
 * loads the pointer and makes a real call. Each figure is the best of several runs.
 *
 * Usage: ffi_call [runs]
 */
#define _POSIX_C_SOURCE 200809L
#include <ffi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

__attribute__((noinline)) static char *one(const char *text) {
    __asm__ volatile("" ::: "memory");
    return (char *)text + 1;
}

__attribute__((noinline)) static char *five(const char *text, const char *s, long i, double d, int b) {
    __asm__ volatile("" ::: "memory");
    return (char *)text + (s != NULL) + i + (long)d + b;
}

static long emitted = 0;
__attribute__((noinline)) static void emit_direct(const char *chunk) {
    __asm__ volatile("" ::: "memory");
    emitted += chunk != NULL;
}

/* The closure's handler: what SimpleEmitClosure's trampoline does, minus the Swift side. */
static void emit_handler(ffi_cif *cif, void *result, void **arguments, void *user_data) {
    (void)cif;
    (void)result;
    const char *chunk = *(const char **)arguments[0];
    *(long *)user_data += chunk != NULL;
}

static char *(*volatile one_pointer)(const char *) = one;
static char *(*volatile five_pointer)(const char *, const char *, long, double, int) = five;
static void (*volatile emit_pointer)(const char *) = emit_direct;

static void fail(const char *what) {
    fprintf(stderr, "ffi_call: FAIL: %s\n", what);
    exit(1);
}

#define BEST(best, iterations, body)                                  \
    do {                                                              \
        double t0_ = now_ns();                                        \
        for (long i_ = 0; i_ < (iterations); i_++) { body; }          \
        double per_ = (now_ns() - t0_) / (double)(iterations);        \
        if (per_ < (best)) (best) = per_;                             \
    } while (0)

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    if (runs < 1) runs = 1;
    const long direct_iterations = 50000000L;
    const long ffi_iterations = 10000000L;
    const long closure_make_iterations = 1000000L;

    static const char text[] = "text";
    const char *text_pointer = text;
    const char *setting = "!";
    long level = 2;
    double weight = 1.0;
    int flag = 1;

    /* The cifs, built once like the runtime's (the type arrays outlive the calls). */
    ffi_cif one_cif, five_cif, emit_cif;
    ffi_type *one_types[1] = {&ffi_type_pointer};
    ffi_type *five_types[5] = {&ffi_type_pointer, &ffi_type_pointer, &ffi_type_slong, &ffi_type_double, &ffi_type_sint};
    ffi_type *emit_types[1] = {&ffi_type_pointer};
    if (ffi_prep_cif(&one_cif, FFI_DEFAULT_ABI, 1, &ffi_type_pointer, one_types) != FFI_OK) fail("ffi_prep_cif one");
    if (ffi_prep_cif(&five_cif, FFI_DEFAULT_ABI, 5, &ffi_type_pointer, five_types) != FFI_OK) fail("ffi_prep_cif five");
    if (ffi_prep_cif(&emit_cif, FFI_DEFAULT_ABI, 1, &ffi_type_void, emit_types) != FFI_OK) fail("ffi_prep_cif emit");
    void *one_values[1] = {&text_pointer};
    void *five_values[5] = {&text_pointer, &setting, &level, &weight, &flag};

    void *code = NULL;
    ffi_closure *closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
    long closure_count = 0;
    if (closure == NULL || ffi_prep_closure_loc(closure, &emit_cif, emit_handler, &closure_count, code) != FFI_OK) {
        fail("closure");
    }
    void (*volatile closure_pointer)(const char *) = (void (*)(const char *))code;

    double direct_one = 1e300, ffi_one = 1e300, direct_five = 1e300, ffi_five = 1e300;
    double direct_emit = 1e300, closure_emit = 1e300, closure_make = 1e300;
    long checksum = 0;
    ffi_arg result = 0;
    for (int run = 0; run < runs; run++) {
        BEST(direct_one, direct_iterations, checksum += one_pointer(text) - text);
        BEST(ffi_one, ffi_iterations, {
            ffi_call(&one_cif, FFI_FN(one), &result, one_values);
            checksum += (char *)(uintptr_t)result - text;
        });
        BEST(direct_five, direct_iterations, checksum += five_pointer(text, setting, level, weight, flag) - text);
        BEST(ffi_five, ffi_iterations, {
            ffi_call(&five_cif, FFI_FN(five), &result, five_values);
            checksum += (char *)(uintptr_t)result - text;
        });
        BEST(direct_emit, direct_iterations, emit_pointer(text));
        BEST(closure_emit, ffi_iterations, closure_pointer(text));
        BEST(closure_make, closure_make_iterations, {
            void *made_code = NULL;
            ffi_closure *made = ffi_closure_alloc(sizeof(ffi_closure), &made_code);
            if (made == NULL || ffi_prep_closure_loc(made, &emit_cif, emit_handler, &closure_count, made_code) != FFI_OK) {
                fail("closure in the loop");
            }
            ffi_closure_free(made);
        });
    }
    ffi_closure_free(closure);

    /* one adds 1 per call, five adds 1 + 2 + 1 + 1 = 5; every emit counts 1. */
    long expected = (long)runs * (direct_iterations + ffi_iterations + 5 * (direct_iterations + ffi_iterations));
    if (checksum != expected || emitted != (long)runs * direct_iterations || closure_count != (long)runs * ffi_iterations) {
        fprintf(stderr, "ffi_call: FAIL: checksums %ld/%ld, %ld, %ld (a call went wrong)\n", checksum, expected, emitted,
                closure_count);
        return 1;
    }

    printf("1. char *f(const char *)      direct: %6.2f ns/call   ffi_call: %6.2f ns/call  (+%.2f ns, %.1fx)\n",
           direct_one, ffi_one, ffi_one - direct_one, ffi_one / direct_one);
    printf("2. char *f(text, s, long, double, int)\n"
           "                               direct: %6.2f ns/call   ffi_call: %6.2f ns/call  (+%.2f ns, %.1fx)\n",
           direct_five, ffi_five, ffi_five - direct_five, ffi_five / direct_five);
    printf("3. void emit(const char *) from C\n"
           "                               direct: %6.2f ns/call   closure:  %6.2f ns/call  (+%.2f ns, %.1fx)\n",
           direct_emit, closure_emit, closure_emit - direct_emit, closure_emit / direct_emit);
    printf("4. closure alloc + prep + free (once per streaming run): %.2f ns\n", closure_make);
    printf("   (best of %d runs: %ld direct calls, %ld ffi calls, %ld closures each)\n", runs, direct_iterations,
           ffi_iterations, closure_make_iterations);
    return 0;
}

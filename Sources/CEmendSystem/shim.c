/* Small C helpers for the runtime: things Swift's Glibc module hides behind _GNU_SOURCE. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emend_system.h"

const char *emendsys_image_path(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0 || info.dli_fname == NULL) return NULL;
    return info.dli_fname;
}

const void *emendsys_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    if (haystack == NULL || needle == NULL) return NULL;
    return memmem(haystack, haystack_length, needle, needle_length);
}

int emendsys_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

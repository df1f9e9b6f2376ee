/* Linux interfaces the runtime needs that Swift's Glibc module does not bring in. */
#ifndef EMEND_SYSTEM_H
#define EMEND_SYSTEM_H
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

/* The path of the shared object (or executable) that contains `address`, or NULL. The
 * string belongs to the dynamic loader. */
const char *emendsys_image_path(const void *address);

/* memmem (a GNU extension the Glibc module does not declare): where `needle` first occurs in
 * `haystack`, or NULL. Byte counts; neither needs a terminating NUL. */
const void *emendsys_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/* pidfd_open(2): a descriptor that becomes readable when process `pid` ends (-1 with errno
 * when the kernel has none: before 5.3). Close-on-exec. */
int emendsys_pidfd_open(int pid);

/* The uid of the process at the other end of the Unix socket `fd` (SO_PEERCRED: who
 * connected, as the kernel recorded it at connect time), or -1 with errno. */
long emendsys_peer_uid(int fd);

/* A close-on-exec Unix stream socket connected to `path` (-1 with errno; ENAMETOOLONG when
 * the path does not fit sockaddr_un). */
int emendsys_unix_connect(const char *path);

/* A close-on-exec Unix stream socket bound to `path` and listening (-1 with errno). */
int emendsys_unix_listen(const char *path, int backlog);

/* accept4(fd, NULL, NULL, SOCK_CLOEXEC): a connection that no child started meanwhile inherits. */
int emendsys_accept_cloexec(int fd);

/* malloc_trim(0) (malloc.h, which the Glibc module does not bring in): gives the pages of
 * every arena's free blocks back to the kernel; 1 when it gave any back. On the thread that
 * calls it, which waits for each arena's lock in turn. */
int emendsys_trim_heap(void);
#endif

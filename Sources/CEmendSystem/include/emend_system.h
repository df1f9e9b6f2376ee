/* Linux interfaces the runtime needs that Swift's Glibc module does not bring in. */
#ifndef EMEND_SYSTEM_H
#define EMEND_SYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

/* The path of the shared object (or executable) that contains `address`, or NULL. The
 * string belongs to the dynamic loader. */
const char *emendsys_image_path(const void *address);
#endif

/* Linux interfaces the runtime needs that Swift's Glibc module does not bring in. */
#ifndef EMEND_SYSTEM_H
#define EMEND_SYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif

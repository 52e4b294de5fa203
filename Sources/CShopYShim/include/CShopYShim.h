#ifndef CSHOPYSHIM_H
#define CSHOPYSHIM_H
// System definitions that Swift's Glibc module does not export, and the few helpers that must
// be C (a signal handler has to be async-signal-safe, which Swift code cannot promise).

#include <stdint.h>
#include <signal.h>
#include <pthread.h>
#include "CShopYCurl.h"
#include "CShopYImage.h"
#include "CShopYCrypto.h"
#include "CShopYSignals.h"

/// Which of descriptors 0, 1 and 2 were closed when the process started (bit `1 << fd`); each is
/// /dev/null now (filled by a constructor, before anything else could take its number).
int cshopy_closed_standard_descriptors(void);

#ifdef __linux__
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/// The rtnetlink multicast groups a path monitor needs: links, IPv4/IPv6 addresses and routes.
/// (Macros in the kernel headers; spelled out as a function so the set is defined in one place.)
static inline uint32_t cshopy_rtnetlink_path_groups(void) {
    return RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE;
}

/// Opens a NETLINK_ROUTE socket (non-blocking, close-on-exec) bound to the multicast `groups`,
/// with a receive buffer of at least `receive_buffer` bytes. Returns the descriptor, or -1 with
/// errno set (the socket is closed then).
int cshopy_netlink_open(uint32_t groups, int receive_buffer);
#endif

/// Installs a handler for `signo` that forwards the signal to `target` with pthread_kill.
///
/// Used together with sigwait: threads created after pthread_sigmask inherit the block, but a
/// thread that predates it (the runtime's main thread, parked in sigsuspend with an empty mask)
/// could still take a process-directed signal and, with the default action, end the process.
/// The handler turns such a delivery into a thread-directed signal for the sigwait thread.
/// Returns 0, or -1 with errno set.
int cshopy_forward_signal(int signo, pthread_t target);

#endif

#ifndef CSHOPYSIGNALS_H
#define CSHOPYSIGNALS_H
// Signal facts that are macros or unions in C, which Swift's Glibc module does not import.

#include <signal.h>

/// Whether `signo` is ignored now (SIG_IGN): such a signal ends nothing, and a program that
/// takes over the others should leave it ignored, as whoever started it asked.
static inline int cshopy_signal_is_ignored(int signo) {
    struct sigaction current;
    if (sigaction(signo, NULL, &current) != 0) return 1;
    return !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN;
}

/// The real-time signals free for programs (glibc keeps the first few for itself); none
/// (0, -1) where there are none.
static inline int cshopy_sigrtmin(void) {
#ifdef SIGRTMIN
    return SIGRTMIN;
#else
    return 0;
#endif
}

static inline int cshopy_sigrtmax(void) {
#ifdef SIGRTMAX
    return SIGRTMAX;
#else
    return -1;
#endif
}

#endif

// An LD_PRELOAD shim that lets valgrind (3.19) follow a Swift program with top-level `await` to
// its end. Such a program parks its main thread in libdispatch's _dispatch_sigsuspend
// (`for (;;) sigsuspend(&empty_mask)`, after dispatch_main has blocked every signal it can);
// valgrind crashes there with an internal SIGSEGV, so callgrind and massif lose the command's
// own work. This sigsuspend parks the thread in pause() instead; the process still ends with
// exit() from the task that finishes the program. For profiling only, never for shipping.
//
//   cc -shared -fPIC -O2 -o /tmp/vg-shim.so Scripts/valgrind-sigsuspend-shim.c
//   LD_PRELOAD=/tmp/vg-shim.so valgrind --tool=callgrind .build/release/shopy likes
#include <signal.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    (void)mask;
    for (;;) pause();
    return -1;
}

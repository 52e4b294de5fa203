#include "CShopYShim.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__
int cshopy_netlink_open(uint32_t groups, int receive_buffer) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
    if (fd < 0) return -1;
    // A burst of events (an interface with many addresses going down) must not overflow the
    // default buffer; overflow is survivable (ENOBUFS triggers a full re-evaluation) but rare.
    if (receive_buffer > 0) {
        (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    }
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = groups;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
#endif

static pthread_t cshopy_signal_target;
static volatile sig_atomic_t cshopy_signal_target_set = 0;

static void cshopy_forwarding_handler(int signo) {
    int saved = errno;
    if (cshopy_signal_target_set && !pthread_equal(pthread_self(), cshopy_signal_target)) {
        pthread_kill(cshopy_signal_target, signo);
    }
    errno = saved;
}

int cshopy_forward_signal(int signo, pthread_t target) {
    cshopy_signal_target = target;
    cshopy_signal_target_set = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cshopy_forwarding_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signo, &action, NULL);
}

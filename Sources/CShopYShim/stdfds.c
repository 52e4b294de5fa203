#include "CShopYShim.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* Descriptors 0, 1 and 2 that were closed when the process started, a bit each (1 << fd). */
static int cshopy_closed_standard = 0;

/* Runs before the Swift runtime, Dispatch or libcurl open anything. A closed 0, 1 or 2 would be
   given to the next file opened (an event descriptor, a lock, a store file's temporary copy),
   and what shopy writes to stdout or stderr would land there. Each is filled with /dev/null and
   noted, so that output meant for it can be reported as unwritable instead. */
__attribute__((constructor)) static void cshopy_fill_standard_descriptors(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int opened = open("/dev/null", O_RDWR);
        if (opened == fd) {
            cshopy_closed_standard |= 1 << fd;
        } else if (opened >= 0) {
            close(opened);
        }
    }
}

int cshopy_closed_standard_descriptors(void) { return cshopy_closed_standard; }

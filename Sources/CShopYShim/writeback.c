// sync_file_range needs _GNU_SOURCE before any system header, so it lives in its own file.
#define _GNU_SOURCE
#include "CShopYShim.h"

#ifdef __linux__
#include <fcntl.h>

int cshopy_start_writeback(int fd, int64_t offset, int64_t count) {
    return sync_file_range(fd, (off64_t)offset, (off64_t)count, SYNC_FILE_RANGE_WRITE);
}
#else
int cshopy_start_writeback(int fd, int64_t offset, int64_t count) {
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
}
#endif

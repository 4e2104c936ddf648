/* u-sandbox-read.c - attention_param_count right, but it first tries to
 * read the repository's Makefile and to create a file in /tmp, with system
 * calls made directly (no symbol for the vetting to see). The plain driver
 * refuses every open (EPERM, -1); the sanitizer's may open files to read
 * (its reports need /proc/self/maps) and read the Makefile before the
 * sandbox: now it is not there (ENOENT, -2), and writing is refused (EACCES, -13).
 * expect-exit: 0
 * expect-re@plain: ^        \| Makefile: -1, /tmp: -1$
 * expect-re@sanitize: ^        \| Makefile: -2, /tmp: -13$
 * expect-re: ^attention_param_count +0 +9 +0$ */
#include <stdio.h>
#define MUTANT_attention_param_count
#include "base.h"
#include "hostile.h"

enum { RAW_OPEN = 2, RAW_CLOSE = 3, O_WRITE_CREATE = 01 | 0100 };

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    static int once;
    if (!once++) {
        long fd = raw_syscall(RAW_OPEN, (long)"Makefile", 0, 0, 0);
        long tmp = raw_syscall(RAW_OPEN, (long)"/tmp/lab-u-sandbox-read", O_WRITE_CREATE, 0600, 0);
        printf("Makefile: %ld, /tmp: %ld\n", fd < 0 ? fd : 0, tmp < 0 ? tmp : 0);
        if (fd >= 0) raw_syscall(RAW_CLOSE, fd, 0, 0, 0);
        if (tmp >= 0) raw_syscall(RAW_CLOSE, tmp, 0, 0, 0);
    }
    COUNT_CHECK_ARGS();
    COUNT_RIGHT_RETURN();
}

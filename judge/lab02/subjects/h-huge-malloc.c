/* h-huge-malloc.c - sdpa right (full.h), but its first call asks for
 * 1.5 GiB and writes all of it: the learner's process has 1 GiB of address
 * space (plain build), so malloc returns NULL and the function's own
 * MM_ENOMEM shows, instead of the machine's memory going to one learner.
 * (The sanitizer build keeps its own limits: there the block is had, and
 * may take longer than the deadline.) The argument checks are left out,
 * so the bad-argument checks fail in both.
 * run-only: sdpa
 * expect-exit@plain: 1
 * expect@plain: returned MM_ENOMEM (2) for valid arguments; expected MM_OK (0); mm_last_error() says: sdpa: no memory for 1.5 GiB
 * expect-exit@sanitize: 1
 * expect-re@sanitize: ^sdpa +0 +[0-9]+ +[1-9]
 */
#define MUTANT_sdpa
#include "base.h"
#include <string.h>
static mm_status hog(void)
{
    static int done;
    if (done++) return MM_OK;
    size_t n = (size_t)3 << 29;
    char *p = malloc(n);
    if (p == NULL) return mm_fail(MM_ENOMEM, "sdpa: no memory for 1.5 GiB");
    memset(p, 1, n);
    free(p);
    return MM_OK;
}
#undef SDPA_CHECK_ARGS
#define SDPA_CHECK_ARGS() MM_TRY(hog())
#include "full.h"

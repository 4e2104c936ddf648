/* m-forward-writes-first.c - mha_forward clears out before it checks its
 * arguments: a refused call has written out.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: FAIL  mha_forward, case 'x = NULL': mha_forward refused the call for x = NULL, as it should, but wrote out first
 * expect: hint: check every argument - the pointers, T, the overlaps, the values of x and of the bias - before the first write to out or weights
 */
#define FW_PROLOGUE() do {                                                        \
    if (out && layer && T > 0 && T < 100)                                         \
        memset(out, 0, (size_t)T * layer->d_model * sizeof *out);                 \
} while (0)
#include "base.h"

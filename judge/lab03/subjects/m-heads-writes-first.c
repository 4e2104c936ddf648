/* m-heads-writes-first.c - mha_split_heads and mha_merge_heads clear the
 * first element of their output before they check their arguments: a
 * refused call has written.
 * run-only: mha_split_heads mha_merge_heads
 * expect-exit: 1
 * expect: FAIL  mha_split_heads, case 'm = NULL': mha_split_heads refused the call for m = NULL, as it should, but wrote heads first (element 0 is 0)
 * expect: FAIL  mha_merge_heads, case 'T = 2^30, n_heads = d_k = 2^15': mha_merge_heads refused the call for T = 2^30, n_heads = d_k = 2^15: m would hold 2^60 doubles, as it should, but wrote m first
 * expect: hint: check every argument before the first write
 */
#define HEADS_PROLOGUE(out) do { if (out && T > 0 && n_heads > 0 && d_k > 0) out[0] = 0.0; } while (0)
#include "base.h"

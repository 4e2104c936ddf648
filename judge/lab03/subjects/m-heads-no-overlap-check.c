/* m-heads-no-overlap-check.c - mha_split_heads and mha_merge_heads do not
 * refuse an output that shares memory with their input: they return MM_OK,
 * having copied over values still to be read.
 * run-only: mha_split_heads mha_merge_heads
 * expect-exit: 1
 * expect: FAIL  mha_split_heads, case 'heads = m': returned MM_OK (0) for heads and m the same buffer; expected MM_EINVAL (1)
 * expect: FAIL  mha_merge_heads, case 'm = heads + 1': returned MM_OK (0) for m starting 1 element(s) into heads; expected MM_EINVAL (1)
 * expect: hint: heads and m must not share memory
 * expect-re: ^mha_merge_heads +0 +13 +2$
 */
#define ARGS_HEADS_NO_OVERLAP
#include "base.h"

/* m-split-reshape.c - mha_split_heads copies m as it is: the (T, d_model)
 * buffer read as if it were already (n_heads, T, d_k), a reshape without the
 * transpose. Right for one row and for one head, wrong elsewhere; and the
 * chapter's mha_forward, which calls it on [Q | K | V], is blamed on it.
 * The heads it gives are shown head by head.
 * expect-exit: 1
 * expect: hint: you copied m as it is, reading the (T, d_model) buffer as if it were already (n_heads, T, d_k)
 * expect: hint: your mha_split_heads does not give the right heads for this case's [Q | K | V] = X W_QKV
 * expect-re: ^ +expected heads \(6, 2\) +got heads$
 * expect-re: ^ +head 0 +head 0$
 * expect-re: ^ +head 1 +head 1$
 */
#define SPLIT_M(h, t, c) (((size_t)(h) * T + (t)) * d_k + (c))
#include "base.h"

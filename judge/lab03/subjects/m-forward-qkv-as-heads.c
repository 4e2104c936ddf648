/* m-forward-qkv-as-heads.c - mha_forward never splits: it uses X W_QKV,
 * (T, 3 d_model), as if it were already the 3 n_heads heads (3 n_heads, T,
 * d_k). Right only with one token.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: you used X W_QKV, (T, 3 d_model)
 */
#define FW_SPLIT(heads, qkv) (memcpy(heads, qkv, n * sizeof *heads), MM_OK)
#include "base.h"

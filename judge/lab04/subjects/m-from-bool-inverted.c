/* m-from-bool-inverted.c - mask_from_bool reads true as hidden: PyTorch's
 * nn.MultiheadAttention convention.
 * run-only: mask_from_bool
 * expect-exit: 1
 * expect: hint: your true hides and your false shows: that is the convention of PyTorch's nn.MultiheadAttention
 */
#define BOOL_SEES(i, j) (!allowed[(size_t)(i) * T_k + (j)])
#include "base.h"

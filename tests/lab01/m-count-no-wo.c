/* m-count-no-wo.c - attention_param_count leaves out W_O: 12288 for (64, 4).
 * expect-filter: attention_param_count
 * expect-exit: nonzero
 * expect: attention_param_count, case 'd_model=64 n_heads=4': attention_param_count(64, 4) returned 12288; expected 16384
 * expect: hint: you left out W_O
 */
#define MUTANT_attention_param_count
#include "base.h"

long attention_param_count(int d_model, int n_heads)
{
    if (d_model <= 0 || n_heads <= 0 || d_model % n_heads != 0) return -1;
    long d = d_model, d_k = d_model / n_heads;
    return n_heads * 3 * d * d_k;
}

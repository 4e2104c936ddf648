/* r-input.c - qkv_split clears qkv once it has read it (casting away const).
 * run-only: qkv_split
 * expect-exit: nonzero
 * expect: qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': changed its input qkv: element (0, 0) was
 * expect-re: ^qkv_split +0 +2 +7$
 */
#include <string.h>
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v)
{
    if (!q || !k || !v || !qkv) return MM_EINVAL;
    if (T <= 0 || d_k <= 0 || d_v <= 0) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++) {
        for (int j = 0; j < d_k; j++) q[t * d_k + j] = qkv[t * width + j];
        for (int j = 0; j < d_k; j++) k[t * d_k + j] = qkv[t * width + d_k + j];
        for (int j = 0; j < d_v; j++) v[t * d_v + j] = qkv[t * width + 2 * d_k + j];
    }
    memset((double *)qkv, 0, (size_t)T * width * sizeof *qkv);
    return MM_OK;
}

/* h-redefine-memcmp.c - qkv_split clears its input qkv after reading it,
 * and memcmp is redefined to call everything equal, which blinded the old
 * checker's "changed its input" test. Refused (u-redefine-memcmp.c: linked
 * anyway, the judge compares in its own process and sees the change).
 * expect-exit: 1
 * expect: defines memcmp, which is not one of the lab's functions */
#include <stddef.h>
#include <string.h>
#define MUTANT_qkv_split
#include "base.h"

int memcmp(const void *a, const void *b, size_t n) { (void)a; (void)b; (void)n; return 0; }

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    if (SPLIT_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++)
        for (int j = 0; j < width; j++) {
            double x = qkv[t * width + j];
            if (j < d_k) q[t * d_k + j] = x;
            else if (j < 2 * d_k) k[t * d_k + j - d_k] = x;
            else v[t * d_v + j - 2 * d_k] = x;
            ((double *)qkv)[t * width + j] = 0.0;      /* "done with it" */
        }
    return MM_OK;
}

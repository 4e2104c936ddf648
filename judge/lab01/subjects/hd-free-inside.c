/* hd-free-inside.c - qkv_project_fused keeps a pointer to the k part of its
 * scratch block, and frees that instead of the block: a free of a pointer
 * malloc never returned (and a leak of the block). The judge tells it from
 * a double free and from a buffer freed: a pointer inside the learner's own
 * block. (The old judge said only "memory it did not allocate (a buffer
 * belongs to whoever allocated it)".)
 * run-only: qkv_project_fused
 * expect-exit: 1
 * expect: qkv_project_fused called free or realloc 1 time on memory it did not allocate: a pointer 32 bytes inside a block of 96 bytes that it allocated (free takes the pointer malloc returned)
 * expect: leaked memory: qkv_project_fused allocated 1 block (96 bytes)
 * expect-not: a buffer it was given
 * expect-re: ^qkv_project_fused +0 +[0-9] +[1-7]$
 */
#include <stdlib.h>
#include <string.h>
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v)
{
    if (!q || !k || !v || !qkv || !x || !w_qkv) return MM_EINVAL;
    if (T <= 0 || d_model <= 0 || d_k <= 0 || d_v <= 0) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    double *scratch = malloc((size_t)T * width * sizeof *scratch);
    if (!scratch) return MM_ENOMEM;
    double *k_part = scratch + 2 * T;        /* where "k" starts, wrongly */
    mm_status s = mm_matmul(scratch, x, w_qkv, T, d_model, width, false);
    if (s == MM_OK) {
        memcpy(qkv, scratch, (size_t)T * width * sizeof *qkv);
        s = qkv_split(q, k, v, qkv, T, d_k, d_v);
    }
    free(k_part);
    return s;
}

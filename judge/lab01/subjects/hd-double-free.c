/* hd-double-free.c - qkv_project_fused frees its scratch block after the
 * split, and once more in its cleanup at the end. The harness, which keeps
 * a record of the blocks the learner freed, refuses the second free and
 * says so, in both builds (the old judge: "called free or realloc 1 time on
 * memory it did not allocate", as if the block had never been the learner's).
 * run-only: qkv_project_fused
 * expect-exit: 1
 * expect: FAIL  qkv_project_fused, case 'worked example of chapter 01
 * expect: qkv_project_fused freed a block twice: a block of 96 bytes that it allocated (in this call) and had already freed (in this call; free, or realloc when it moves a block, frees it); the second free is refused
 * expect-not: memory it did not allocate
 * expect-re: ^qkv_project_fused +0 +[0-9] +[1-7]$ */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (FUSED_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    double *scratch = malloc((size_t)T * width * sizeof *scratch);
    if (!scratch) return MM_ENOMEM;
    mm_status s = mm_matmul(scratch, x, w_qkv, T, d_model, width, false);
    if (s == MM_OK) {
        memcpy(qkv, scratch, (size_t)T * width * sizeof *qkv);
        free(scratch);
        s = qkv_split(q, k, v, qkv, T, d_k, d_v);
    }
    free(scratch);                           /* the cleanup, once more */
    return s;
}

/* r-heap-canary.c - qkv_project_fused writes two elements past the end of
 * its scratch, frees it, and returns the right answer. The canary after
 * the learner's blocks (plain build) shows the write after the call, the
 * learner's, and LAB_SANITIZE=1 (AddressSanitizer stops it) is suggested.
 * run-only: qkv_project_fused
 * expect-exit: 1
 * expect@plain: FAIL  qkv_project_fused, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': qkv_project_fused wrote past the end of a block it allocated (96 bytes, with malloc/calloc/realloc): found after the call, and the damage is yours; make lab NN=01 LAB_SANITIZE=1 shows the line that does it
 * expect-re@sanitize: CRASH qkv_project_fused, case 'worked example .*': AddressSanitizer: heap-buffer-overflow, WRITE of size 8 at judge/lab01/subjects/r-heap-canary.c:[0-9]+ \(in qkv_project_fused\)
 * expect-re: ^qkv_project_fused +0 +2 +7$ */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (FUSED_BAD_ARGS) return MM_EINVAL;
    int n = T * (2 * d_k + d_v);
    double *scratch = malloc((size_t)n * sizeof *scratch);
    if (!scratch) return MM_ENOMEM;
    MM_TRY(mm_matmul(scratch, x, w_qkv, T, d_model, 2 * d_k + d_v, false));
    memcpy(qkv, scratch, (size_t)n * sizeof *qkv);
    scratch[n] = scratch[n + 1] = 0.0;       /* "the end marker" */
    free(scratch);
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}

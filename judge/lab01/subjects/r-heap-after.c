/* r-heap-after.c - qkv_project_fused marks its scratch "unused" (-1) with
 * d_model rows instead of T: when d_model > T it writes past the end of its
 * block, into the allocator's records, then frees it and returns the right
 * answer (cases with d_model <= T pass). The damage shows after the call
 * (the old checker called the crash that followed "a harness problem"): a
 * canary after the block, or the allocator stopping the harness's code -
 * which, depends on the allocator's layout, and the statements hold for
 * either; the report says the damage is the learner's and suggests
 * LAB_SANITIZE=1, where AddressSanitizer names the line.
 * run-only: qkv_project_fused
 * expect-exit: 1
 * expect-re@plain: ^  (FAIL |CRASH) qkv_project_fused, case 'non-square T=3 d_model=4 d_k=2 d_v=3': 
 * expect-re@plain: wrote past the end of a block (it allocated|of [0-9]+ bytes that it allocated)
 * expect-re@plain: [Tt]he damage is yours
 * expect-re@sanitize: CRASH qkv_project_fused, case 'non-square T=3 d_model=4 d_k=2 d_v=3': AddressSanitizer: heap-buffer-overflow, WRITE of size 8 at judge/lab01/subjects/r-heap-after.c:[0-9]+ \(in qkv_project_fused\)
 * expect@sanitize: (next to a block of 168 bytes that your code allocated)
 * expect-re: ^qkv_project_fused +0 +[4-8] +[1-5]$ */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (FUSED_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    double *scratch = malloc((size_t)T * width * sizeof *scratch);
    if (!scratch) return MM_ENOMEM;
    for (int i = 0; i < d_model * width; i++) scratch[i] = -1.0;     /* d_model rows */
    MM_TRY(mm_matmul(scratch, x, w_qkv, T, d_model, width, false));
    memcpy(qkv, scratch, (size_t)T * width * sizeof *qkv);
    free(scratch);
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}

/* hd-heap-before.c - qkv_project_fused clears its scratch block from the
 * end with an off-by-one (scratch[i - 1] for i down to 0): it writes the
 * double just before the block, where the C library's allocator keeps the
 * block's size, and its free of the block makes the C library print
 * "free(): invalid pointer" and abort. The judge quotes that message as the
 * C library's and says what it means (the old judge showed it as "your code
 * printed this", the crash as "a failed assert() or a damaged heap"). In
 * the sanitizer build AddressSanitizer stops the write and names the line.
 * run-only: qkv_project_fused
 * expect-exit: 1
 * expect@plain: CRASH qkv_project_fused, case 'worked example of chapter 01
 * expect@plain: was stopped by the C library (signal 6, Aborted), which printed "free(): invalid pointer": its memory allocator found its records of the heap damaged: your code wrote outside a block from malloc (before its start or past its end)
 * expect@plain: make lab NN=01 LAB_SANITIZE=1 shows the line that does it.
 * expect-not@plain: | free(): invalid pointer
 * expect-not@plain: your code printed this
 * expect-re@sanitize: CRASH qkv_project_fused, case 'worked example of chapter 01[^']*': AddressSanitizer: heap-buffer-overflow, WRITE of size 8 at judge/lab01/subjects/hd-heap-before.c:[0-9]+ \(in qkv_project_fused\)
 * expect@sanitize: (next to a block of 96 bytes that your code allocated)
 * expect-re: ^qkv_project_fused +0 +[0-6] +[1-7]$ */
#define MUTANT_qkv_project_fused
#include "base.h"

mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    if (FUSED_BAD_ARGS) return MM_EINVAL;
    int width = 2 * d_k + d_v;
    double *scratch = malloc((size_t)T * width * sizeof *scratch);
    if (!scratch) return MM_ENOMEM;
    for (int i = T * width; i >= 0; i--) scratch[i - 1] = 0.0;     /* one too far */
    mm_status s = mm_matmul(scratch, x, w_qkv, T, d_model, width, false);
    if (s == MM_OK) {
        memcpy(qkv, scratch, (size_t)T * width * sizeof *qkv);
        s = qkv_split(q, k, v, qkv, T, d_k, d_v);
    }
    free(scratch);
    return s;
}

/* s-already-split.c - qkv_split remembers that it "already split" and
 * returns at once on later calls: their outputs are never written. The
 * harness says so, and that the case passes alone.
 * run-only: qkv_split
 * expect-exit: 1
 * expect: FAIL  qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': q is wrong (k and v are wrong too)
 * expect: hint: 6 elements of q were never written
 * expect: hint: this case passes when it is the first call in a fresh process
 * expect-re: ^qkv_split +0 +3 +6$ */
#define MUTANT_qkv_split
#include "base.h"

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    static int done;
    SPLIT_CHECK_ARGS();
    if (done) return MM_OK;
    split_rows(q, k, v, qkv, T, d_k, d_v);
    done = 1;
    return MM_OK;
}

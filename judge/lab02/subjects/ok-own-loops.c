/* ok-own-loops.c - both functions with loops of their own (no mm_matmul, a
 * softmax written inside sdpa, one scratch row on the stack when weights is
 * NULL and T_k is small, else malloc'd), the checks of the arguments
 * written out too (address ranges compared by hand): every check passes.
 * A dot product that overflows (inf, -inf, or NaN from inf - inf) is
 * MM_ERANGE here, as the library's mm_matmul reports it.
 * expect-exit: 0
 * expect: All 39 checks pass
 */
#define MUTANT_sdpa
#include "base.h"

mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
{
    if (!out || !q || !k || !v) return mm_fail(MM_EINVAL, "sdpa: a NULL buffer");
    if (T_q <= 0 || T_k <= 0 || d_k <= 0 || d_v <= 0)
        return mm_fail(MM_EINVAL, "sdpa: a size is not positive");
    const long big = 1L << 40;                 /* far below MM_MAX_ELEMENTS, far above any test */
    if ((long)T_q * d_k > big || (long)T_k * d_k > big || (long)T_k * d_v > big ||
        (long)T_q * d_v > big || (long)T_q * T_k > big)
        return mm_fail(MM_EINVAL, "sdpa: too large");
    /* the outputs' ranges of addresses against every other buffer's */
    const double *lo[6] = { out, weights, q, k, v, bias };
    long len[6] = { (long)T_q * d_v, weights ? (long)T_q * T_k : 0, (long)T_q * d_k,
                    (long)T_k * d_k, (long)T_k * d_v, bias ? (long)T_q * T_k : 0 };
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 6; b++)
            if (a != b && len[a] && len[b] && lo[a] < lo[b] + len[b] && lo[b] < lo[a] + len[a])
                return mm_fail(MM_EINVAL, "sdpa: buffers %d and %d overlap", a, b);
    for (long e = 0; e < len[2]; e++) if (!isfinite(q[e])) return mm_fail(MM_EINVAL, "q");
    for (long e = 0; e < len[3]; e++) if (!isfinite(k[e])) return mm_fail(MM_EINVAL, "k");
    for (long e = 0; e < len[4]; e++) if (!isfinite(v[e])) return mm_fail(MM_EINVAL, "v");
    for (long e = 0; e < len[5]; e++)
        if (isnan(bias[e]) || bias[e] == INFINITY) return mm_fail(MM_EINVAL, "bias");
    double small[16], *row = weights ? NULL : T_k <= 16 ? small : malloc(T_k * sizeof *row);
    if (!weights && !row) return mm_fail(MM_ENOMEM, "sdpa: no memory");
    mm_status st = MM_OK;
    for (int i = 0; i < T_q && st == MM_OK; i++) {
        double *a = weights ? weights + i * T_k : row, m = -INFINITY, sum = 0.0;
        for (int j = 0; j < T_k; j++) {
            double dot = 0.0;
            for (int p = 0; p < d_k; p++) dot += q[i * d_k + p] * k[j * d_k + p];
            if (isfinite(dot)) a[j] = dot / sqrt(d_k) + (bias ? bias[i * T_k + j] : 0.0);
            if (!isfinite(dot) || a[j] == INFINITY) {
                st = mm_fail(MM_ERANGE, "sdpa: score (%d, %d) overflows", i, j);
                break;
            }
            if (a[j] > m) m = a[j];
        }
        if (st != MM_OK) break;
        for (int j = 0; j < T_k; j++) sum += a[j] = m == -INFINITY ? 0.0 : exp(a[j] - m);
        for (int x = 0; x < d_v; x++) out[i * d_v + x] = 0.0;
        for (int j = 0; j < T_k; j++) {
            if (sum > 0) a[j] /= sum;
            for (int x = 0; x < d_v; x++) out[i * d_v + x] += a[j] * v[j * d_v + x];
        }
    }
    if (row != small) free(row);
    return st;
}

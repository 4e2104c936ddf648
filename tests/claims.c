/* claims.c - recompute, with the library, every number the chapters state.
 * Prints "key value" lines; check_claims.py compares them with the prose. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include "minimodel/attention/qkv.h"

/* worked_example - chapter 01's T = d = 2 example, with the given W_V */
static int worked_example(double out[4], double w[4], const double w_v[4])
{
    const double x[4] = { 1, 0, 0, 1 }, w_q[4] = { 1, 0, 0, 1 }, w_k[4] = { 0, 1, 1, 0 };
    double q[4], k[4], v[4];
    if (qkv_project(q, k, v, x, w_q, w_k, w_v, 2, 2, 2, 2) != MM_OK ||
        qkv_attend_unscaled(out, w, q, k, v, 2, 2, 2) != MM_OK) {
        fprintf(stderr, "claims: %s\n", mm_last_error());
        return 1;
    }
    return 0;
}

/* underflow_threshold - about the largest x with exp(x) == 0, by bisection */
static double underflow_threshold(void)
{
    double lo = -1000.0, hi = 0.0;             /* exp(lo) == 0 < exp(hi) */
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (exp(mid) == 0.0) lo = mid; else hi = mid;
    }
    return lo;
}

int main(void)
{
    double out[4], w[4];
    const double w_v[4] = { 2, 0, 0, 3 }, identity[4] = { 1, 0, 0, 1 };
    if (worked_example(out, w, w_v)) return 1;
    printf("ch01.worked.w00 %.17g\nch01.worked.w01 %.17g\n", w[0], w[1]);
    printf("ch01.worked.out00 %.17g\nch01.worked.out01 %.17g\n", out[0], out[1]);
    /* the same blend from the weights rounded to four decimals, as in the prose */
    double w00 = round(w[0] * 1e4) / 1e4, w01 = round(w[1] * 1e4) / 1e4;
    printf("ch01.worked.rounded.out00 %.17g\n", w00 * w_v[0] + w01 * w_v[2]);
    printf("ch01.worked.rounded.out01 %.17g\n", w00 * w_v[1] + w01 * w_v[3]);
    if (worked_example(out, w, identity)) return 1;
    printf("ch01.identity.out00 %.17g\nch01.identity.out01 %.17g\n", out[0], out[1]);

    int d_model = 64, n_heads = 4, d_k = d_model / n_heads;
    long total = attention_param_count(d_model, n_heads);
    if (total < 0) { fprintf(stderr, "claims: %s\n", mm_last_error()); return 1; }
    printf("ch01.mini.d_k %d\n", d_k);
    printf("ch01.mini.per_head %ld\n", 3L * d_model * d_k);
    printf("ch01.mini.qkv %ld\n", total - (long)d_model * d_model);
    printf("ch01.mini.w_o %ld\n", (long)d_model * d_model);
    printf("ch01.mini.total %ld\n", total);
    printf("ch01.mini.w_qkv_cols %d\n", 3 * d_model);
    printf("ch01.init.std %.17g\n", MM_INIT_STD);
    printf("ch01.plain.overflow_score %.17g\n", log(DBL_MAX));
    printf("ch01.plain.underflow_score_abs %.17g\n", -underflow_threshold());
    return 0;
}

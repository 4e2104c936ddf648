/* sdpa-variance.c - data of the figure "sdpa-variance": the variance of the
 * score q k^T of random q, k against the head width d_k, before and after
 * the scale 1/sqrt(d_k).
 *   one stream, of SEED; in it, for d_k = 1, 2, 4, ..., 1024 in turn,
 *   N_PAIRS pairs, each q (1, d_k) then k (1, d_k), N(0, 1) entries;
 *     score = q k^T (mm_matmul), scaled score = score / sqrt(d_k)
 *   the sample variance of the N_PAIRS scores (mean removed, divided by
 *   N_PAIRS - 1), computed in two passes.
 * Theory: Var(q k^T) = d_k, Var(q k^T / sqrt(d_k)) = 1. A sample variance
 * of n draws has a relative standard error of sqrt((2 + kappa) / n), where
 * kappa = 6 / d_k is the excess kurtosis of q k^T; --facts prints it.
 * Output (stdout), one line per d_k:
 *   d_k  variance of q k^T  variance of q k^T / sqrt(d_k)
 * With --facts: the rule, the counts, and per d_k both variances, their
 * ratio to the theory, and the relative standard error. */
#include <math.h>
#include <stdbool.h>
#include "figdata.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"

enum { N_PAIRS = 4000, N_DK = 11, D_K_MAX = 1024 };
#define SEED 2u

/* sample_variance - of x (n), n > 1: mean removed, divided by n - 1 */
static double sample_variance(const double *x, int n)
{
    double mean = 0.0, ss = 0.0;
    for (int i = 0; i < n; i++) mean += x[i];
    mean /= n;
    for (int i = 0; i < n; i++) ss += (x[i] - mean) * (x[i] - mean);
    return ss / (n - 1);
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    static double score[N_PAIRS], scaled[N_PAIRS];
    double q[D_K_MAX], k[D_K_MAX], var[N_DK], var_scaled[N_DK];
    int d_k[N_DK];
    mm_rng r;

    mm_rng_seed(&r, SEED);
    for (int p = 0; p < N_DK; p++) {
        int d = d_k[p] = 1 << p;
        for (int i = 0; i < N_PAIRS; i++) {
            need_ok(mm_fill_normal(q, (size_t)d, 1.0, &r), "mm_fill_normal (q)");
            need_ok(mm_fill_normal(k, (size_t)d, 1.0, &r), "mm_fill_normal (k)");
            need_ok(mm_matmul(&score[i], q, k, 1, d, 1, true), "mm_matmul (q k^T)");
            scaled[i] = score[i] / sqrt((double)d);
        }
        var[p] = sample_variance(score, N_PAIRS);
        var_scaled[p] = sample_variance(scaled, N_PAIRS);
    }

    if (facts) {
        printf("rule=one stream, of seed %u; in it, for d_k = 1, 2, ..., %d in turn, "
               "%d pairs, each q (d_k) then k (d_k), N(0, 1) entries\n",
               SEED, D_K_MAX, N_PAIRS);
        printf("seed=%u\npairs=%d\nd_k_min=%d\nd_k_max=%d\nd_k_count=%d\n",
               SEED, N_PAIRS, d_k[0], d_k[N_DK - 1], N_DK);
        double worst = 0.0, worst_se = 0.0;    /* largest |ratio - 1|, in SEs */
        for (int p = 0; p < N_DK; p++) {
            double ratio = var[p] / d_k[p];
            double se = sqrt((2.0 + 6.0 / d_k[p]) / N_PAIRS);
            printf("var_%d=%.10f\nvar_scaled_%d=%.10f\nratio_%d=%.10f\nrel_se_%d=%.10f\n",
                   d_k[p], var[p], d_k[p], var_scaled[p], d_k[p], ratio, d_k[p], se);
            worst = fmax(worst, fabs(ratio - 1.0));
            worst_se = fmax(worst_se, fabs(ratio - 1.0) / se);
        }
        printf("max_rel_dev=%.10f\nmax_dev_in_se=%.10f\n", worst, worst_se);
        printf("std_unscaled_1024=%.10f\n", sqrt(var[N_DK - 1]));
        return 0;
    }
    printf("# sdpa-variance: sample variance of %d scores per d_k, seed %u\n",
           N_PAIRS, SEED);
    printf("# d_k  Var(q k^T)  Var(q k^T / sqrt(d_k))\n");
    for (int p = 0; p < N_DK; p++)
        printf("%d %.10f %.10f\n", d_k[p], var[p], var_scaled[p]);
    return 0;
}

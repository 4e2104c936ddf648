/* sdpa-saturation.c - data of the figure "sdpa-saturation": the largest
 * weight of a softmax row of T_K = 16 keys, for random q and k, as the head
 * width d_k grows from 1 to 1024, with and without the scale 1/sqrt(d_k).
 *   for seed = 1 .. N_SEEDS, one stream per seed, and in it, for
 *   d_k = 1, 2, 4, ..., 1024 in turn:
 *     q (1, d_k)     N(0, 1) entries
 *     K (T_K, d_k)   N(0, 1) entries, row by row, then from the same stream
 *     unscaled: softmax_row(q K^T)          (mm_matmul, the stable softmax)
 *     scaled:   sdpa's weights, softmax(q K^T / sqrt(d_k))
 *   the largest weight of each row; both use the same draws.
 * Over the seeds: the mean, and the 10th and 90th percentiles, each the
 * linear interpolation between order statistics at rank (n - 1) p (NumPy's
 * default); the uniform row's largest weight is 1 / T_K; a row counts as
 * one-hot when its largest weight exceeds NEAR_ONE.
 * Output (stdout), one line per d_k:
 *   d_k  mean p10 p90 (unscaled)  mean p10 p90 (scaled)
 * With --facts: the rule, the counts, and at every d_k those numbers and
 * the number of rows (of N_SEEDS) near one-hot. */
#include <math.h>
#include <stdbool.h>
#include "figdata.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"
#include "minimodel/attention/sdpa.h"

enum { T_K = 16, N_SEEDS = 200, N_DK = 11, D_K_MAX = 1024 };
#define P_LOW 0.10
#define P_HIGH 0.90
#define NEAR_ONE 0.99        /* a row counts as one-hot above this weight */

typedef struct { double mean, p_low, p_high; int above; } summary;

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* percentile - of sorted x (n), at p in [0, 1]: linear between order
 * statistics at rank (n - 1) p */
static double percentile(const double *x, int n, double p)
{
    double h = (n - 1) * p;
    int i = (int)floor(h);
    if (i + 1 >= n) return x[n - 1];
    return x[i] + (h - i) * (x[i + 1] - x[i]);
}

/* summarise - mean, percentiles and count above NEAR_ONE of x (n); sorts x */
static summary summarise(double *x, int n)
{
    summary s = { 0 };
    for (int i = 0; i < n; i++) {
        s.mean += x[i] / n;
        s.above += x[i] > NEAR_ONE;
    }
    qsort(x, (size_t)n, sizeof *x, by_value);
    s.p_low = percentile(x, n, P_LOW);
    s.p_high = percentile(x, n, P_HIGH);
    return s;
}

static int d_k[N_DK];                  /* 1, 2, 4, ..., D_K_MAX */
/* (N_DK, N_SEEDS): the largest weight of each row, without and with the scale */
static double top_unscaled[N_DK][N_SEEDS], top_scaled[N_DK][N_SEEDS];
static summary un[N_DK], sc[N_DK];      /* per d_k: unscaled, scaled */

/* draw_the_rows - in the stream of seed, at every d_k in turn: the largest
 * weight of softmax(q K^T) (unscaled) and of sdpa's row (scaled) */
static void draw_the_rows(int seed)
{
    static double q[D_K_MAX], k[T_K * D_K_MAX];
    double a[T_K], w[T_K], v[T_K] = { 0 }, out[1];
    mm_rng r;
    mm_rng_seed(&r, (uint64_t)seed);
    for (int p = 0; p < N_DK; p++) {
        int d = d_k[p];
        need_ok(mm_fill_normal(q, (size_t)d, 1.0, &r), "mm_fill_normal (q)");
        need_ok(mm_fill_normal(k, (size_t)T_K * d, 1.0, &r), "mm_fill_normal (K)");
        need_ok(mm_matmul(a, q, k, 1, d, T_K, true), "mm_matmul (q K^T)");
        need_ok(softmax_row(a, T_K), "softmax_row");
        need_ok(sdpa(out, w, q, k, v, NULL, 1, T_K, d, 1), "sdpa");
        top_unscaled[p][seed - 1] = a[argmax(a, T_K)];
        top_scaled[p][seed - 1] = w[argmax(w, T_K)];
    }
}

/* summarise_the_seeds - every seed's rows, summarised per d_k */
static void summarise_the_seeds(void)
{
    for (int p = 0; p < N_DK; p++) d_k[p] = 1 << p;
    for (int seed = 1; seed <= N_SEEDS; seed++) draw_the_rows(seed);
    for (int p = 0; p < N_DK; p++) {
        un[p] = summarise(top_unscaled[p], N_SEEDS);
        sc[p] = summarise(top_scaled[p], N_SEEDS);
    }
}

/* print_the_setting - the rule, the counts, the percentiles */
static void print_the_setting(void)
{
    printf("rule=for seed 1..%d, one stream per seed; in it, for d_k = 1, 2, "
           "..., %d in turn: q (d_k), then K (%d, d_k), N(0, 1) entries\n",
           N_SEEDS, D_K_MAX, T_K);
    printf("percentile_rule=linear between order statistics at rank (n - 1) p\n");
    printf("T_k=%d\nseeds=%d\nseed_first=1\nseed_last=%d\n", T_K, N_SEEDS, N_SEEDS);
    printf("d_k_min=%d\nd_k_max=%d\nd_k_count=%d\n", d_k[0], d_k[N_DK - 1], N_DK);
    printf("percentile_low=%g\npercentile_high=%g\nuniform=%.10f\nnear_one=%g\n",
           100 * P_LOW, 100 * P_HIGH, 1.0 / T_K, NEAR_ONE);
}

/* print_the_summaries - at every d_k, both summaries; then the range of
 * the scaled means over all d_k */
static void print_the_summaries(void)
{
    const char *name[2] = { "unscaled", "scaled" };
    double lo = 1.0, hi = 0.0;
    for (int p = 0; p < N_DK; p++) {
        const summary *s[2] = { &un[p], &sc[p] };
        for (int c = 0; c < 2; c++)
            printf("%s_mean_%d=%.10f\n%s_p10_%d=%.10f\n%s_p90_%d=%.10f\n"
                   "%s_rows_near_one_%d=%d\n",
                   name[c], d_k[p], s[c]->mean, name[c], d_k[p], s[c]->p_low,
                   name[c], d_k[p], s[c]->p_high, name[c], d_k[p], s[c]->above);
        lo = fmin(lo, sc[p].mean);
        hi = fmax(hi, sc[p].mean);
    }
    printf("scaled_mean_min=%.10f\nscaled_mean_max=%.10f\n", lo, hi);
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    summarise_the_seeds();
    if (facts) {
        print_the_setting();
        print_the_summaries();
        return 0;
    }
    printf("# sdpa-saturation: largest of %d softmax weights, %d seeds, "
           "percentiles %g and %g\n", T_K, N_SEEDS, 100 * P_LOW, 100 * P_HIGH);
    printf("# d_k  unscaled: mean p10 p90  scaled: mean p10 p90\n");
    for (int p = 0; p < N_DK; p++)
        printf("%d %.10f %.10f %.10f %.10f %.10f %.10f\n", d_k[p], un[p].mean,
               un[p].p_low, un[p].p_high, sc[p].mean, sc[p].p_low, sc[p].p_high);
    return 0;
}

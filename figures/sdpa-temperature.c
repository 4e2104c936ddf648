/* sdpa-temperature.c - data of the figure "sdpa-temperature": one row of
 * scaled scores and its softmax at the temperatures tau = 0.25, 1, 4, 16.
 * The row stands for the blank's query in the 8-token example: query 7
 * against keys 0..7, with random queries and keys (not the chapter's
 * embeddings, whose scores at initialisation are too small to show this):
 *   Q (T, d_k)  N(0, 1), stream of SEED, row by row,
 *   K (T, d_k)  N(0, 1), then from the same stream;   T = 8, d_k = 16
 *   s_j = q_7 k_j^T / sqrt(d_k)            (mm_matmul, then the scale)
 *   a(tau) = softmax_row(s / tau)          (the library's stable softmax)
 * At tau = 1 the row is what sdpa gives for query 7 (checked in --facts).
 * SEED was chosen, among the first 60, for a row with one clear largest
 * score and a second one below it, so that every temperature looks
 * different.
 * Output (stdout), two gnuplot data blocks:
 *   index 0  key j, score s_j
 *   index 1  key j, then the weight a_j at each tau, in the order of TAUS
 * With --facts: the rule, the scores, and per tau the largest and smallest
 * weight, the key of the largest, and the distance from the uniform 1/T. */
#include <math.h>
#include <stdbool.h>
#include "figdata.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"
#include "minimodel/attention/sdpa.h"

enum { T = 8, D_K = 16, QUERY = 7, N_TAU = 4 };
#define SEED 20u
static const double TAUS[N_TAU] = { 0.25, 1, 4, 16 };
static const char *const TAU_NAMES[N_TAU] = { "0.25", "1", "4", "16" };

static double q[T * D_K], k[T * D_K];  /* Q, K (T, d_k) */
static double s[T];                     /* the scaled scores of query QUERY */
static double a[N_TAU][T];              /* softmax(s / tau), one row per tau */

/* compute_the_weights - Q, K, the scaled scores s of query QUERY, and
 * their softmax at each tau */
static void compute_the_weights(void)
{
    mm_rng r;
    mm_rng_seed(&r, SEED);
    need_ok(mm_fill_normal(q, T * D_K, 1.0, &r), "mm_fill_normal (Q)");
    need_ok(mm_fill_normal(k, T * D_K, 1.0, &r), "mm_fill_normal (K)");
    /* row QUERY of Q K^T, scaled: s (T) */
    need_ok(mm_matmul(s, q + QUERY * D_K, k, 1, D_K, T, true), "mm_matmul (q_7 K^T)");
    for (int j = 0; j < T; j++) s[j] /= sqrt((double)D_K);
    for (int t = 0; t < N_TAU; t++) {
        for (int j = 0; j < T; j++) a[t][j] = s[j] / TAUS[t];
        need_ok(softmax_row(a[t], T), "softmax_row");
    }
}

/* print_the_setting - the rule, the sizes, the scale, the temperatures */
static void print_the_setting(void)
{
    printf("rule=Q (T, d_k) then K (T, d_k), N(0, 1) entries, row by row "
           "from the stream of seed %u; s = q_%d K^T / sqrt(d_k)\n", SEED, QUERY);
    printf("seed=%u\nT=%d\nd_k=%d\nquery=%d\nscale=%.10f\nuniform=%.10f\n",
           SEED, T, D_K, QUERY, 1.0 / sqrt((double)D_K), 1.0 / T);
    printf("tau_coldest=%g\ntau_hottest=%g\n", TAUS[0], TAUS[N_TAU - 1]);
}

/* print_the_scores - every s_j, the largest, the smallest, the second */
static void print_the_scores(void)
{
    int top = argmax(s, T), second = -1, low = 0;
    for (int j = 0; j < T; j++) {
        printf("s%d=%.10f\n", j, s[j]);
        if (s[j] < s[low]) low = j;
        if (j != top && (second < 0 || s[j] > s[second])) second = j;
    }
    printf("score_max=%.10f\nscore_min=%.10f\nscore_argmax=%d\n"
           "score_second=%.10f\nscore_second_key=%d\nscore_gap=%.10f\n",
           s[top], s[low], top, s[second], second, s[top] - s[second]);
}

/* print_the_weights - at temperature number t: every weight, the largest
 * and where, the smallest, the distance from 1/T, the sum */
static void print_the_weights(int t)
{
    const char *tau = TAU_NAMES[t];
    double lo = 1.0, dev = 0.0, sum = 0.0;
    int arg = argmax(a[t], T);
    for (int j = 0; j < T; j++) {
        printf("w_tau%s_%d=%.10f\n", tau, j, a[t][j]);
        lo = fmin(lo, a[t][j]);
        dev = fmax(dev, fabs(a[t][j] - 1.0 / T));
        sum += a[t][j];
    }
    printf("max_w_tau%s=%.10f\nargmax_tau%s=%d\nmin_w_tau%s=%.10f\n"
           "max_dev_uniform_tau%s=%.10f\nrowsum_tau%s=%.17g\n",
           tau, a[t][arg], tau, arg, tau, lo, tau, dev, tau, sum);
}

/* print_the_sdpa_check - how far a at tau = 1 is from sdpa's weights of
 * query QUERY (V = 0, d_v = 1: only the weights count) */
static void print_the_sdpa_check(void)
{
    double v[T] = { 0 }, out[T], w_sdpa[T * T], diff = 0.0;
    need_ok(sdpa(out, w_sdpa, q, k, v, NULL, T, T, D_K, 1), "sdpa");
    for (int j = 0; j < T; j++)
        diff = fmax(diff, fabs(w_sdpa[QUERY * T + j] - a[1][j]));
    printf("tau1_vs_sdpa_maxdiff=%.3g\n", diff);
}

/* print_the_gnuplot_blocks - the scores, then the weights at every tau */
static void print_the_gnuplot_blocks(void)
{
    printf("# sdpa-temperature: s = q_%d K^T / sqrt(%d), Q, K ~ N(0, 1), seed %u\n",
           QUERY, D_K, SEED);
    printf("# index 0: key j, score s_j\n");
    for (int j = 0; j < T; j++) printf("%d %.10f\n", j, s[j]);
    printf("\n\n# index 1: key j, softmax(s / tau)_j for tau =");
    for (int t = 0; t < N_TAU; t++) printf(" %s", TAU_NAMES[t]);
    printf("\n");
    for (int j = 0; j < T; j++) {
        printf("%d", j);
        for (int t = 0; t < N_TAU; t++) printf(" %.10f", a[t][j]);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    compute_the_weights();
    if (!facts) {
        print_the_gnuplot_blocks();
        return 0;
    }
    print_the_setting();
    print_the_scores();
    for (int t = 0; t < N_TAU; t++) print_the_weights(t);
    print_the_sdpa_check();
    return 0;
}

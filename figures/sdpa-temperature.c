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

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    double q[T * D_K], k[T * D_K], v[T] = { 0 }, out[T], w_sdpa[T * T];
    double s[T], a[N_TAU][T];
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

    if (facts) {
        /* the same row through sdpa (V = 0, d_v = 1: only the weights count) */
        need_ok(sdpa(out, w_sdpa, q, k, v, NULL, T, T, D_K, 1), "sdpa");
        double diff = 0.0;
        for (int j = 0; j < T; j++)
            diff = fmax(diff, fabs(w_sdpa[QUERY * T + j] - a[1][j]));
        printf("rule=Q (T, d_k) then K (T, d_k), N(0, 1) entries, row by row "
               "from the stream of seed %u; s = q_%d K^T / sqrt(d_k)\n", SEED, QUERY);
        printf("seed=%u\nT=%d\nd_k=%d\nquery=%d\nscale=%.10f\nuniform=%.10f\n",
               SEED, T, D_K, QUERY, 1.0 / sqrt((double)D_K), 1.0 / T);
        printf("tau_coldest=%g\ntau_hottest=%g\n", TAUS[0], TAUS[N_TAU - 1]);
        int top = 0, second = -1, low = 0;
        for (int j = 0; j < T; j++) {
            printf("s%d=%.10f\n", j, s[j]);
            if (s[j] > s[top]) top = j;
            if (s[j] < s[low]) low = j;
        }
        for (int j = 0; j < T; j++)
            if (j != top && (second < 0 || s[j] > s[second])) second = j;
        printf("score_max=%.10f\nscore_min=%.10f\nscore_argmax=%d\n"
               "score_second=%.10f\nscore_second_key=%d\nscore_gap=%.10f\n",
               s[top], s[low], top, s[second], second, s[top] - s[second]);
        for (int t = 0; t < N_TAU; t++) {
            double hi = 0.0, lo = 1.0, dev = 0.0, sum = 0.0;
            int arg = 0;
            for (int j = 0; j < T; j++) {
                printf("w_tau%s_%d=%.10f\n", TAU_NAMES[t], j, a[t][j]);
                if (a[t][j] > hi) { hi = a[t][j]; arg = j; }
                lo = fmin(lo, a[t][j]);
                dev = fmax(dev, fabs(a[t][j] - 1.0 / T));
                sum += a[t][j];
            }
            printf("max_w_tau%s=%.10f\nargmax_tau%s=%d\nmin_w_tau%s=%.10f\n"
                   "max_dev_uniform_tau%s=%.10f\nrowsum_tau%s=%.17g\n",
                   TAU_NAMES[t], hi, TAU_NAMES[t], arg, TAU_NAMES[t], lo,
                   TAU_NAMES[t], dev, TAU_NAMES[t], sum);
        }
        printf("tau1_vs_sdpa_maxdiff=%.3g\n", diff);
        return 0;
    }
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
    return 0;
}

/* mha-heads-drawn.c - data of the figure "mha-heads-drawn": the weights of
 * the four heads of MultiHeadAttention(64, 4, 1) at its initial (drawn)
 * weights, nothing planted, on chapter 03's eight tokens
 * "I work , you work , he ___" with the hand-made features of
 * tangled/examples/ch03-planted.h:
 *   mha_new(64, 4, seed 1); mha_forward(X) -> (4, 8, 8)
 * The figure draws them on the same colour scale 0..1 as the planted heads
 * (figure "mha-heads-planted"): at initialisation every head is close to
 * the plain average 1/8.
 * Output (stdout), four gnuplot matrix blocks, index h = head h, row i =
 * query (token i), column j = key (token j).
 * With --facts: the sizes, the seed, the largest |w - 1/8| over all heads
 * and per head, each head's smallest and largest weight, every weight as
 * drawn.h<h>.w<i><j>. */
#include <math.h>
#include "figdata.h"
#include "minimodel/attention/mha.h"
#include "examples/ch03-planted.h"

enum { T = P_T, D_MODEL = P_D, N_HEADS = P_H, D_K = P_DK };
#define SEED 1u

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    static double x[T * D_MODEL], out[T * D_MODEL], w[N_HEADS * T * T];
    mha *layer;

    (void)planted_layer;        /* the header's plants: figure mha-heads-planted */
    planted_x(x);
    need_ok(mha_new(&layer, D_MODEL, N_HEADS, SEED), "mha_new");
    need_ok(mha_forward(out, w, layer, x, NULL, T), "mha_forward");
    mha_free(layer);

    if (facts) {
        printf("T=%d\nd_model=%d\nn_heads=%d\nd_k=%d\nseed=%u\nuniform=%.10f\n",
               T, D_MODEL, N_HEADS, D_K, SEED, 1.0 / T);
        double dev = 0.0, lo_all = 1.0, hi_all = 0.0, rowsum_err = 0.0;
        for (int h = 0; h < N_HEADS; h++) {
            const double *wh = w + (size_t)h * T * T;
            double dev_h = 0.0, lo = 1.0, hi = 0.0;
            for (int i = 0; i < T; i++) {
                double sum = 0.0;
                for (int j = 0; j < T; j++) {
                    double v = wh[i * T + j];
                    printf("drawn.h%d.w%d%d=%.10f\n", h, i, j, v);
                    dev_h = fmax(dev_h, fabs(v - 1.0 / T));
                    lo = fmin(lo, v);
                    hi = fmax(hi, v);
                    sum += v;
                }
                rowsum_err = fmax(rowsum_err, fabs(sum - 1.0));
            }
            printf("drawn.h%d.max_dev_from_uniform=%.10f\n"
                   "drawn.h%d.min_w=%.10f\ndrawn.h%d.max_w=%.10f\n",
                   h, dev_h, h, lo, h, hi);
            dev = fmax(dev, dev_h);
            lo_all = fmin(lo_all, lo);
            hi_all = fmax(hi_all, hi);
        }
        printf("drawn.max_dev_from_uniform=%.10f\n", dev);
        printf("drawn.min_w=%.10f\ndrawn.max_w=%.10f\n", lo_all, hi_all);
        printf("drawn.max_rowsum_err=%.3g\n", rowsum_err);
        printf("color_min=0\ncolor_max=1\n");
        return 0;
    }
    printf("# mha-heads-drawn: the weights of the four heads at their initial "
           "weights on \"I work , you work , he ___\"\n");
    print_heads(w, N_HEADS, T);
    return 0;
}

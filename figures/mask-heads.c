/* mask-heads.c - data of the figure "mask-heads": chapter 04's causal mask
 * of the eight tokens "I work , you work , he ___", and the weights of the
 * four heads planted by hand (tangled/examples/ch03-planted.h) in
 * MultiHeadAttention(64, 4, 1) through the causal layer:
 *   mask_causal(B, 8); mha_new(64, 4, seed 1); planted_layer;
 *   mha_forward_causal(X) -> (4, 8, 8)
 * Row i (query i) sees keys j <= i; every weight above the diagonal is
 * exactly 0. Every planted score is 0, 5 or 10, so each weight has a closed
 * form e^s / sum over the visible keys of e^s_j; --facts prints those of the
 * cells chapter 04 names beside the library's values.
 * Output (stdout), five gnuplot matrix blocks, row i = query, column j = key:
 *   index 0      the mask: 1 where B_ij = -inf (key hidden), 0 where B_ij = 0
 *   index 1 + h  head h's weights, %.17g, so that a weight is printed as 0
 *                only if it is exactly 0 (the figure greys those cells)
 * With --facts: the sizes, the tokens, the mask as mask.b<i><j> (0 or -inf),
 * every weight as causal.h<h>.w<i><j>, each row's sum and largest weight,
 * the largest weight above the diagonal (exactly 0), the smallest below or
 * on it, the closed forms, and head 2's w[4][3] without the mask. */
#include <math.h>
#include "figdata.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "examples/ch03-planted.h"

enum { T = P_T, D_MODEL = P_D, N_HEADS = P_H, D_K = P_DK };
#define SEED 1u
static const char *const TOKENS[T] = { "I", "work", ",", "you", "work", ",",
                                       "he", "___" };

static double w[N_HEADS * T * T];
#define W(h, i, j) w[((size_t)(h) * T + (i)) * T + (j)]

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    static double x[T * D_MODEL], out[T * D_MODEL], bias[T * T], w_full[N_HEADS * T * T];
    mha *layer;

    need_ok(mask_causal(bias, T), "mask_causal");
    for (int e = 0; e < T * T; e++)
        if (bias[e] != 0.0 && bias[e] != -INFINITY) {
            fprintf(stderr, "mask_causal wrote %g at (%d, %d): neither 0 nor -inf\n",
                    bias[e], e / T, e % T);
            return EXIT_FAILURE;
        }
    planted_x(x);
    need_ok(mha_new(&layer, D_MODEL, N_HEADS, SEED), "mha_new");
    need_ok(planted_layer(layer), "planted_layer");
    need_ok(mha_forward_causal(out, w, layer, x, T), "mha_forward_causal");
    need_ok(mha_forward(out, w_full, layer, x, NULL, T), "mha_forward");
    mha_free(layer);

    if (!facts) {
        printf("# mask-heads: the causal mask of \"I work , you work , he ___\" and "
               "the planted heads through it\n");
        printf("# index 0: the mask, 1 = hidden (B_ij = -inf), 0 = visible (B_ij = 0); "
               "row i = query, column j = key\n");
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++)
                printf("%d%c", bias[i * T + j] == -INFINITY, j + 1 < T ? ' ' : '\n');
        for (int h = 0; h < N_HEADS; h++) {
            printf("\n\n# index %d: head %d's weights through mha_forward_causal\n", h + 1, h);
            for (int i = 0; i < T; i++)
                for (int j = 0; j < T; j++)
                    printf("%.17g%c", W(h, i, j), j + 1 < T ? ' ' : '\n');
        }
        return 0;
    }

    double e5 = exp(5.0), e10 = exp(10.0);
    printf("T=%d\nd_model=%d\nn_heads=%d\nd_k=%d\nseed=%u\n", T, D_MODEL, N_HEADS, D_K, SEED);
    printf("tokens=");
    for (int t = 0; t < T; t++) printf("%s%s", TOKENS[t], t + 1 < T ? " " : "\n");
    printf("plant_score=%g\n", 4.0 * 5.0 / sqrt((double)D_K));
    int hidden = 0, visible = 0;
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) {
            double b = bias[i * T + j];
            printf("mask.b%d%d=%g\n", i, j, b);
            hidden += b == -INFINITY;
            visible += b == 0.0;
        }
    printf("mask.hidden_cells=%d\nmask.visible_cells=%d\n", hidden, visible);

    double above_max = 0.0, visible_min = INFINITY, rowsum_err = 0.0;
    int zero_hidden = 0, zero_visible = 0;
    for (int h = 0; h < N_HEADS; h++)
        for (int i = 0; i < T; i++) {
            double sum = 0.0;
            int arg = 0;
            for (int j = 0; j < T; j++) {
                double v = W(h, i, j);
                printf("causal.h%d.w%d%d=%.17g\n", h, i, j, v);
                sum += v;
                if (v > W(h, i, arg)) arg = j;
                if (bias[i * T + j] == -INFINITY) {
                    above_max = fmax(above_max, v);
                    zero_hidden += v == 0.0;
                } else {
                    visible_min = fmin(visible_min, v);
                    zero_visible += v == 0.0;
                }
            }
            rowsum_err = fmax(rowsum_err, fabs(sum - 1.0));
            printf("causal.h%d.rowsum%d=%.17g\ncausal.h%d.argmax%d=%d\ncausal.h%d.max%d=%.17g\n",
                   h, i, sum, h, i, arg, h, i, W(h, i, arg));
        }
    /* every head's cells: above the diagonal exactly 0, on and below it not */
    printf("causal.max_above_diag=%g\ncausal.zero_hidden_cells=%d\n"
           "causal.zero_visible_cells=%d\ncausal.min_visible=%.17g\n"
           "causal.max_rowsum_err=%.3g\n",
           above_max, zero_hidden, zero_visible, visible_min, rowsum_err);
    /* the closed forms of the cells chapter 04 names, from the planted
     * scores of the keys each row may see */
    printf("closed.h0.w10=%.17g\n", e5 / (e5 + 1));            /* keys 0, 1 */
    printf("closed.h0.w76=%.17g\n", e5 / (e5 + 7));            /* all eight */
    printf("closed.h1.w11=%.17g\n", e5 / (e5 + 1));            /* work sees I, itself */
    printf("closed.h1.w41=%.17g\n", e5 / (2 * e5 + 3));        /* two works of five */
    printf("closed.h2.w43=%.17g\n", e10 / (e10 + 2 * e5 + 2)); /* I 5, you 10, work 5 */
    for (int t = 0; t < T; t++)
        printf("closed.h3.w%d0=%.17g\n", t, 1.0 / (t + 1));   /* the past's average */
    printf("unmasked.h2.w43=%.17g\n", w_full[((size_t)2 * T + 4) * T + 3]);
    return 0;
}

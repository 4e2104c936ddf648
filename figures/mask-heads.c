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

static double bias[T * T];                /* the mask B (T, T): 0 or -inf */
static double w[N_HEADS * T * T];         /* (n_heads, T, T) through the mask */
static double w_full[N_HEADS * T * T];    /* (n_heads, T, T) without it */
#define ROW(a, h, i) ((a) + ((size_t)(h) * T + (i)) * T)  /* row i of head h */


/* compute_the_weights - the planted layer on X (T, d_model), causal (w)
 * and unmasked (w_full) */
static void compute_the_weights(void)
{
    static double x[T * D_MODEL], out[T * D_MODEL];
    mha *layer;
    planted_x(x);
    need_ok(mha_new(&layer, D_MODEL, N_HEADS, SEED), "mha_new");
    need_ok(planted_layer(layer), "planted_layer");
    need_ok(mha_forward_causal(out, w, layer, x, T), "mha_forward_causal");
    need_ok(mha_forward(out, w_full, layer, x, NULL, T), "mha_forward");
    mha_free(layer);
}

/* print_the_gnuplot_blocks - the mask as 1 (hidden) or 0, then each head */
static void print_the_gnuplot_blocks(void)
{
    double hidden[T * T];
    for (int e = 0; e < T * T; e++) hidden[e] = bias[e] == -INFINITY;
    printf("# mask-heads: the causal mask of \"I work , you work , he ___\" and "
           "the planted heads through it\n");
    printf("# index 0: the mask, 1 = hidden (B_ij = -inf), 0 = visible (B_ij = 0); "
           "row i = query, column j = key\n");
    print_matrix_exact(hidden, T, T);
    for (int h = 0; h < N_HEADS; h++) {
        printf("\n\n# index %d: head %d's weights through mha_forward_causal\n", h + 1, h);
        print_matrix_exact(ROW(w, h, 0), T, T);
    }
}

/* print_the_setting - the sizes, the seed, the tokens, a plant's score */
static void print_the_setting(void)
{
    printf("T=%d\nd_model=%d\nn_heads=%d\nd_k=%d\nseed=%u\n", T, D_MODEL, N_HEADS, D_K, SEED);
    print_words("tokens", TOKENS, T);
    printf("plant_score=%g\n", 4.0 * 5.0 / sqrt((double)D_K));
}

/* print_the_mask - every B_ij, and how many cells are hidden and visible */
static void print_the_mask(void)
{
    int hidden = 0, visible = 0;
    for (int e = 0; e < T * T; e++) {
        printf("mask.b%d%d=%g\n", e / T, e % T, bias[e]);
        hidden += bias[e] == -INFINITY;
        visible += bias[e] == 0.0;
    }
    printf("mask.hidden_cells=%d\nmask.visible_cells=%d\n", hidden, visible);
}

/* what the weights' facts gather over every head's cells */
typedef struct {
    double above_max, visible_min, rowsum_err;
    int zero_hidden, zero_visible;
} cells;

/* print_the_row - row i of head h's weights, its sum and its largest;
 * its cells counted into c */
static void print_the_row(int h, int i, cells *c)
{
    const double *row = ROW(w, h, i);          /* (T) */
    double sum = 0.0;
    for (int j = 0; j < T; j++) {
        printf("causal.h%d.w%d%d=%.17g\n", h, i, j, row[j]);
        sum += row[j];
        if (bias[i * T + j] == -INFINITY) {
            c->above_max = fmax(c->above_max, row[j]);
            c->zero_hidden += row[j] == 0.0;
        } else {
            c->visible_min = fmin(c->visible_min, row[j]);
            c->zero_visible += row[j] == 0.0;
        }
    }
    c->rowsum_err = fmax(c->rowsum_err, fabs(sum - 1.0));
    int arg = argmax(row, T);
    printf("causal.h%d.rowsum%d=%.17g\ncausal.h%d.argmax%d=%d\ncausal.h%d.max%d=%.17g\n",
           h, i, sum, h, i, arg, h, i, row[arg]);
}

/* print_the_weights - every row of every head, then what the cells show:
 * above the diagonal exactly 0, on and below it not */
static void print_the_weights(void)
{
    cells c = { .above_max = 0.0, .visible_min = INFINITY, .rowsum_err = 0.0 };
    for (int h = 0; h < N_HEADS; h++)
        for (int i = 0; i < T; i++) print_the_row(h, i, &c);
    printf("causal.max_above_diag=%g\ncausal.zero_hidden_cells=%d\n"
           "causal.zero_visible_cells=%d\ncausal.min_visible=%.17g\n"
           "causal.max_rowsum_err=%.3g\n",
           c.above_max, c.zero_hidden, c.zero_visible, c.visible_min, c.rowsum_err);
}

/* print_the_closed_forms - the cells chapter 04 names, from the planted
 * scores of the keys each row may see; and one cell without the mask */
static void print_the_closed_forms(void)
{
    double e5 = exp(5.0), e10 = exp(10.0);
    printf("closed.h0.w10=%.17g\n", e5 / (e5 + 1));            /* keys 0, 1 */
    printf("closed.h0.w76=%.17g\n", e5 / (e5 + 7));            /* all eight */
    printf("closed.h1.w11=%.17g\n", e5 / (e5 + 1));            /* work sees I, itself */
    printf("closed.h1.w41=%.17g\n", e5 / (2 * e5 + 3));        /* two works of five */
    printf("closed.h2.w43=%.17g\n", e10 / (e10 + 2 * e5 + 2)); /* I 5, you 10, work 5 */
    for (int t = 0; t < T; t++)
        printf("closed.h3.w%d0=%.17g\n", t, 1.0 / (t + 1));   /* the past's average */
    printf("unmasked.h2.w43=%.17g\n", ROW(w_full, 2, 4)[3]);
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    causal_mask_checked(bias, T);
    compute_the_weights();
    if (!facts) {
        print_the_gnuplot_blocks();
        return 0;
    }
    print_the_setting();
    print_the_mask();
    print_the_weights();
    print_the_closed_forms();
    return 0;
}

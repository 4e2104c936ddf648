/* mha-heads-planted.c - data of the figure "mha-heads-planted": the weights
 * of the four heads planted by hand (tangled/examples/ch03-planted.h) in
 * MultiHeadAttention(64, 4, 1), on chapter 03's eight tokens
 * "I work , you work , he ___" with their hand-made features:
 *   mha_new(64, 4, seed 1); planted_layer; mha_forward(X) -> (4, 8, 8)
 * Head 0 attends to the previous token, head 1 to the same word, head 2
 * from a verb (and the blank) to the subject of its clause; head 3 has
 * nothing planted (every score 0, every weight 1/8).
 * Every planted score is 0, 5 or 10 (a plant adds 4 * 5 / sqrt(16) = 5),
 * so each weight has a closed form e^s / sum_j e^s_j; --facts prints the
 * closed forms of the cells a caption names beside the library's values.
 * Output (stdout), four gnuplot matrix blocks, index h = head h, row i =
 * query (token i), column j = key (token j).
 * With --facts: the sizes, the tokens, every weight as planted.h<h>.w<i><j>,
 * each head's largest weight per row and where, and the closed forms. */
#include <math.h>
#include "figdata.h"
#include "minimodel/attention/mha.h"
#include "examples/ch03-planted.h"

enum { T = P_T, D_MODEL = P_D, N_HEADS = P_H, D_K = P_DK };
#define SEED 1u
static const char *const TOKENS[T] = { "I", "work", ",", "you", "work", ",",
                                       "he", "___" };

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    static double x[T * D_MODEL], out[T * D_MODEL], w[N_HEADS * T * T];
    mha *layer;

    planted_x(x);
    need_ok(mha_new(&layer, D_MODEL, N_HEADS, SEED), "mha_new");
    need_ok(planted_layer(layer), "planted_layer");
    need_ok(mha_forward(out, w, layer, x, NULL, T), "mha_forward");
    mha_free(layer);

    if (facts) {
        double e5 = exp(5.0), e10 = exp(10.0);
        printf("T=%d\nd_model=%d\nn_heads=%d\nd_k=%d\nseed=%u\n",
               T, D_MODEL, N_HEADS, D_K, SEED);
        print_words("tokens", TOKENS, T);
        printf("plant_score=%g\nuniform=%.10f\n", 4.0 * 5.0 / sqrt((double)D_K),
               1.0 / T);
        for (int h = 0; h < N_HEADS; h++)
            for (int i = 0; i < T; i++)
                for (int j = 0; j < T; j++)
                    printf("planted.h%d.w%d%d=%.10f\n", h, i, j,
                           w[((size_t)h * T + i) * T + j]);
        double rowsum_err = 0.0, h3_dev = 0.0;
        for (int h = 0; h < N_HEADS; h++)
            for (int i = 0; i < T; i++) {
                double sum = 0.0;
                for (int j = 0; j < T; j++) {
                    double v = w[((size_t)h * T + i) * T + j];
                    sum += v;
                    if (h == 3) h3_dev = fmax(h3_dev, fabs(v - 1.0 / T));
                }
                rowsum_err = fmax(rowsum_err, fabs(sum - 1.0));
                int a = argmax(w + ((size_t)h * T + i) * T, T);
                printf("planted.h%d.argmax%d=%d\nplanted.h%d.max%d=%.10f\n",
                       h, i, a, h, i, w[((size_t)h * T + i) * T + a]);
            }
        printf("planted.max_rowsum_err=%.3g\nplanted.h3.max_dev_from_uniform=%.3g\n",
               rowsum_err, h3_dev);
        /* the closed forms, from the scores the plants give */
        printf("closed.prev=%.10f\n", e5 / (e5 + 7));              /* h0 w[t][t-1] */
        printf("closed.same_word_once=%.10f\n", e5 / (e5 + 7));    /* h1: I, you, he, ___ */
        printf("closed.same_word_twice=%.10f\n", e5 / (2 * e5 + 6)); /* h1: work, "," */
        printf("closed.subject_clause0=%.10f\n", e10 / (e10 + 4 * e5 + 3)); /* h2 w[1][0] */
        printf("closed.subject_clause1=%.10f\n", e10 / (e10 + 4 * e5 + 3)); /* h2 w[4][3] */
        printf("closed.subject_clause2=%.10f\n", e10 / (e10 + 3 * e5 + 4)); /* h2 w[7][6] */
        return 0;
    }
    printf("# mha-heads-planted: the weights of the four planted heads on "
           "\"I work , you work , he ___\"\n");
    print_heads(w, N_HEADS, T);
    return 0;
}

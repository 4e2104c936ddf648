/* mha-split.c - data of the figure "mha-split": how Q (T, d_model) is cut
 * into heads (n_heads, T, d_k), and what a reshape without the transpose
 * takes instead, on chapter 03's worked example (tangled/examples/
 * ch03-worked.h): T = 3, d_model = 4, two heads of d_k = 2, and
 * Q = X W_Q = X (W_Q = I).
 *   split:   heads[h][t][c] = Q[t][h d_k + c]     (mha_split_heads)
 *   reshape: "head h" = the h-th run of T d_k numbers of Q's memory, read
 *            as (T, d_k): whole rows, pieces of different tokens
 * Where each number comes from is found by running the same split on a
 * matrix holding its own memory index (t d_model + c) instead of X.
 * Output (stdout), three gnuplot data blocks:
 *   index 0  Q:       t c value block           (block = c / d_k: its head)
 *   index 1  split:   h t c value src_t src_c    (Q[src_t][src_c] went here)
 *   index 2  reshape: h t c value src_t src_c
 * With --facts: the sizes, Q, both results, and for each result row the
 * token and the column block it came from. */
#include "figdata.h"
#include "minimodel/attention/mha.h"
#include "examples/ch03-worked.h"

enum { T = CH03_T, D = CH03_D, H = CH03_H, DK = D / H };

/* print_stack - one (n_heads, T, d_k) stack with each number's origin, or
 * with facts its key=value lines under prefix */
static void print_stack(const double *v, const double *where, int facts,
                        const char *prefix)
{
    for (int h = 0; h < H; h++)
        for (int t = 0; t < T; t++) {
            const double *row = v + (h * T + t) * DK, *src = where + (h * T + t) * DK;
            int st = (int)src[0] / D, block = (int)src[0] % D / DK;
            for (int c = 0; c < DK; c++) {
                if (facts)
                    printf("%s.h%d.%d%d=%g\n", prefix, h, t, c, row[c]);
                else
                    printf("%d %d %d %g %d %d\n", h, t, c, row[c],
                           (int)src[c] / D, (int)src[c] % D);
            }
            if (facts)
                printf("%s.h%d.row%d=token %d, columns %d-%d (block %d)\n", prefix,
                       h, t, st, block * DK, block * DK + DK - 1, block);
        }
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    const double *q = ch03_x;                  /* Q = X W_Q with W_Q = I */
    double index[T * D], split[T * D], split_src[T * D];
    for (int e = 0; e < T * D; e++) index[e] = e;     /* each number's address */
    need_ok(mha_split_heads(split, q, T, H, DK), "mha_split_heads (Q)");
    need_ok(mha_split_heads(split_src, index, T, H, DK), "mha_split_heads (index)");
    const double *reshape = q, *reshape_src = index;   /* the same memory, reread */

    if (facts) {
        printf("T=%d\nd_model=%d\nn_heads=%d\nd_k=%d\nhead_numbers=%d\n",
               T, D, H, DK, T * DK);
        printf("rule=Q = X of ch03-worked.h (W_Q = I); split by mha_split_heads; "
               "reshape = Q's memory read as (n_heads, T, d_k)\n");
        for (int e = 0; e < T * D; e++) printf("q%d%d=%g\n", e / D, e % D, q[e]);
        print_stack(split, split_src, 1, "split");
        print_stack(reshape, reshape_src, 1, "reshape");
        for (int h = 0; h < H; h++) {             /* the tokens of each head's rows */
            printf("split.h%d.tokens=", h);
            for (int t = 0; t < T; t++)
                printf("%d%s", (int)split_src[(h * T + t) * DK] / D, t + 1 < T ? " " : "\n");
            printf("reshape.h%d.tokens=", h);
            for (int t = 0; t < T; t++)
                printf("%d%s", (int)reshape_src[(h * T + t) * DK] / D, t + 1 < T ? " " : "\n");
        }
        return 0;
    }
    printf("# mha-split: Q (T=%d, d_model=%d) into %d heads of d_k=%d; "
           "Q = X of chapter 03's worked example\n", T, D, H, DK);
    printf("# index 0: Q: t c value block(head of column c)\n");
    for (int e = 0; e < T * D; e++)
        printf("%d %d %g %d\n", e / D, e % D, q[e], e % D / DK);
    printf("\n\n# index 1: split (mha_split_heads): h t c value src_t src_c\n");
    print_stack(split, split_src, 0, "split");
    printf("\n\n# index 2: reshape without transpose: h t c value src_t src_c\n");
    print_stack(reshape, reshape_src, 0, "reshape");
    return 0;
}

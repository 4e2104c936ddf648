/* mask-after.c - data of the figure "mask-after": chapter 04's argument 1,
 * mask before the softmax, not after. Row 1 of head 0 of chapter 03's
 * worked example has the scaled scores (0, 1, 1) / sqrt 2; key 2 is in
 * the future of query 1 and is hidden. Computed with the library's
 * softmax_row (chapter 02), in three ways:
 *   before    key 2's score set to -inf, then softmax_row: (0.3302, 0.6698, 0)
 *   after f1  softmax_row of the three scores, then key 2's weight set to
 *             0: the rest no longer sums to 1
 *   after f3  the same with the future score 3 / sqrt 2: the visible
 *             weights change with a key they must not see
 * Output (stdout):
 *   index 0, one line per bar: group (0 before, 1 after f1, 2 after f3),
 *     key j, weight a_1j as the row ends up, and for key 2 of an "after"
 *     group the weight it had before it was set to 0 (NaN otherwise)
 *   index 1, one line per group: group, the row's sum, the future score
 *     in units of 1/sqrt 2
 * With --facts: the scores, every weight and sum, the weights cut, and the
 * closed forms e^s_j / sum of e^s_k; "before" for both future scores. */
#include <math.h>
#include "figdata.h"
#include "minimodel/attention/sdpa.h"

enum { N = 3, HIDDEN = 2, GROUPS = 3 };

/* the row of scores (0, 1, f) / sqrt 2 */
static void scores(double *s, int f)
{
    s[0] = 0.0;
    s[1] = 1.0 / sqrt(2.0);
    s[2] = f / sqrt(2.0);
}

/* masked before: the hidden key's score is -inf, then the softmax */
static void before(double *w, int f)
{
    scores(w, f);
    w[HIDDEN] = -INFINITY;
    need_ok(softmax_row(w, N), "softmax_row (before)");
}

/* masked after: the softmax of all scores, then the hidden weight set to
 * 0; *cut gets the weight it had */
static void after(double *w, double *cut, int f)
{
    scores(w, f);
    need_ok(softmax_row(w, N), "softmax_row (after)");
    *cut = w[HIDDEN];
    w[HIDDEN] = 0.0;
}

static double sum(const double *w)
{
    double s = 0.0;
    for (int j = 0; j < N; j++) s += w[j];
    return s;
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    /* the three groups of the figure: before (f = 1), after f = 1, f = 3 */
    double w[GROUPS][N], cut[GROUPS] = { NAN, 0.0, 0.0 }, b3[N];
    const int future[GROUPS] = { 1, 1, 3 };
    before(w[0], 1);
    after(w[1], &cut[1], 1);
    after(w[2], &cut[2], 3);
    before(b3, 3);                     /* before, with the other future */

    if (!facts) {
        printf("# mask-after: row 1 of head 0 of chapter 03's worked example, "
               "scores (0, 1, f) / sqrt 2, key 2 hidden\n");
        printf("# index 0: group (0 masked before the softmax, 1 after, f = 1; "
               "2 after, f = 3), key j, weight a_1j, weight before it was set to 0\n");
        for (int g = 0; g < GROUPS; g++)
            for (int j = 0; j < N; j++)
                printf("%d %d %.10f %.10f\n", g, j, w[g][j],
                       (j == HIDDEN) ? cut[g] : NAN);
        printf("\n\n# index 1: group, the row's sum, the future score f "
               "(times 1/sqrt 2)\n");
        for (int g = 0; g < GROUPS; g++)
            printf("%d %.10f %d\n", g, sum(w[g]), future[g]);
        return 0;
    }

    double s1[N], s3[N];
    scores(s1, 1);
    scores(s3, 3);
    printf("d_k=2\nscale=%.17g\nquery=1\nhidden_key=%d\n", 1 / sqrt(2.0), HIDDEN);
    for (int j = 0; j < N; j++)
        printf("f1.s%d=%.17g\nf3.s%d=%.17g\n", j, s1[j], j, s3[j]);
    for (int j = 0; j < N; j++)
        printf("before.w%d=%.17g\n", j, w[0][j]);
    printf("before.sum=%.17g\n", sum(w[0]));
    /* masked before the softmax, the future score does not matter at all */
    printf("before.f3_same=%d\n", memcmp(b3, w[0], sizeof b3) == 0);
    for (int g = 1; g < GROUPS; g++) {
        for (int j = 0; j < N; j++)
            printf("after.f%d.w%d=%.17g\n", future[g], j, w[g][j]);
        printf("after.f%d.cut%d=%.17g\nafter.f%d.sum=%.17g\n",
               future[g], HIDDEN, cut[g], future[g], sum(w[g]));
    }
    /* the closed forms: e^s_j over the visible keys, or over all three */
    double e1 = exp(1 / sqrt(2.0)), e3 = exp(3 / sqrt(2.0));
    printf("closed.before.w0=%.17g\nclosed.before.w1=%.17g\n", 1 / (1 + e1), e1 / (1 + e1));
    printf("closed.after.f1.w0=%.17g\nclosed.after.f1.w1=%.17g\n",
           1 / (1 + 2 * e1), e1 / (1 + 2 * e1));
    printf("closed.after.f3.w0=%.17g\nclosed.after.f3.w1=%.17g\n",
           1 / (1 + e1 + e3), e1 / (1 + e1 + e3));
    return 0;
}

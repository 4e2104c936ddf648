/* scores-tied.c - data of the figure "scores-tied": the score matrix
 * S = Q K^T with separate W_Q, W_K, beside the one with tied weights
 * W_Q = W_K = W, where S = X W W^T X^T is symmetric.
 *   X   (T, d_model)   std_x * N(0, 1), stream of seed_x, row by row
 *   W_Q (d_model, d_k) std_w * N(0, 1), stream of seed_w, row by row,
 *   W_K (d_model, d_k) then from the same stream; the tied W is W_Q
 * Output (stdout), two gnuplot matrix blocks, row i = query, column j = key:
 *   index 0  S with separate W_Q, W_K
 *   index 1  S with W_Q = W_K = W_Q
 * With --facts: the sizes, seeds and the numbers a caption or the text may
 * state, among them two weights of the tied scores' row-wise softmax. */
#include <math.h>
#include <stdbool.h>
#include "figdata.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"
#include "minimodel/attention/qkv.h"

enum { T = 8, D_MODEL = 16, D_K = 4, D_V = 1 };
#define SEED_X 1u
#define SEED_W 2u
#define STD_X 1.0
#define STD_W 0.25          /* 1 / sqrt(d_model): entries of Q, K near N(0, 1) */

/* asymmetry - ||S - S^T||_F / ||S||_F of a (n, n) matrix */
static double asymmetry(const double *s, int n)
{
    double diff = 0.0, norm = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double d = s[i * n + j] - s[j * n + i];
            diff += d * d;
            norm += s[i * n + j] * s[i * n + j];
        }
    return sqrt(diff) / sqrt(norm);
}

/* unequal_pairs - number of pairs i < j with s[i][j] != s[j][i], bit for bit */
static int unequal_pairs(const double *s, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            count += s[i * n + j] != s[j * n + i];
    return count;
}

/* diagonal_row_maxima - rows i whose largest entry is the diagonal s[i][i] */
static int diagonal_row_maxima(const double *s, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        int is_max = 1;
        for (int j = 0; j < n; j++)
            if (s[i * n + j] > s[i * n + i]) is_max = 0;
        count += is_max;
    }
    return count;
}

/* rotate - one Jacobi rotation of the symmetric (n, n) matrix a in the
 * plane (p, r), the one that makes a[p][r] 0: A <- J^T A J */
static void rotate(double *a, int n, int p, int r)
{
    double apr = a[p * n + r];
    if (apr == 0.0) return;
    double theta = (a[r * n + r] - a[p * n + p]) / (2.0 * apr);
    double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
    double c = 1.0 / sqrt(t * t + 1.0), sn = t * c;
    for (int m = 0; m < n; m++) {     /* columns p, r: A J */
        double amp = a[m * n + p], amr = a[m * n + r];
        a[m * n + p] = c * amp - sn * amr;
        a[m * n + r] = sn * amp + c * amr;
    }
    for (int m = 0; m < n; m++) {     /* rows p, r: J^T A */
        double apm = a[p * n + m], arm = a[r * n + m];
        a[p * n + m] = c * apm - sn * arm;
        a[r * n + m] = sn * apm + c * arm;
    }
}

/* symmetric_eigenvalues - eig[0..n) = the eigenvalues, in increasing order,
 * of the symmetric part (S + S^T) / 2 of a (n, n) matrix, n <= T, by cyclic
 * Jacobi rotations (the diagonal of the rotated matrix) */
static void symmetric_eigenvalues(double *eig, const double *s, int n)
{
    double a[T * T], norm2 = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i * n + j] = 0.5 * (s[i * n + j] + s[j * n + i]);
            norm2 += a[i * n + j] * a[i * n + j];
        }
    for (int sweep = 0; sweep < 100; sweep++) {
        double off = 0.0;                  /* squared off-diagonal mass */
        for (int p = 0; p < n; p++)
            for (int r = p + 1; r < n; r++) off += a[p * n + r] * a[p * n + r];
        if (off <= 1e-30 * norm2) break;
        for (int p = 0; p < n; p++)
            for (int r = p + 1; r < n; r++) rotate(a, n, p, r);
    }
    for (int i = 0; i < n; i++) {                 /* insertion sort */
        double e = a[i * n + i];
        int j = i;
        for (; j > 0 && eig[j - 1] > e; j--) eig[j] = eig[j - 1];
        eig[j] = e;
    }
}

/* max_abs - largest |a[i]| of n values */
static double max_abs(const double *a, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; i++)
        if (fabs(a[i]) > m) m = fabs(a[i]);
    return m;
}

/* numerical_rank - eigenvalues of magnitude above 1e-9 times the largest */
static int numerical_rank(const double *eig, int n)
{
    double top = max_abs(eig, n);
    int rank = 0;
    for (int i = 0; i < n; i++) rank += fabs(eig[i]) > 1e-9 * top;
    return rank;
}

/* negatives - eigenvalues below -1e-9 times the largest magnitude */
static int negatives(const double *eig, int n)
{
    double top = max_abs(eig, n);
    int count = 0;
    for (int i = 0; i < n; i++) count += eig[i] < -1e-9 * top;
    return count;
}

static double q[T * D_K], k[T * D_K], v[T * D_V];  /* Q, K, V: the tied ones */
static double s_sep[T * T], s_tied[T * T];          /* S (T, T), both ways */

/* compute_the_scores - X, W_Q, W_K; S = Q K^T with W_Q, W_K separate,
 * then tied (Q = K = X W_Q, S = Q Q^T) */
static void compute_the_scores(void)
{
    double x[T * D_MODEL], w_q[D_MODEL * D_K], w_k[D_MODEL * D_K];
    double w_v[D_MODEL * D_V] = { 0 };          /* V is not plotted */
    mm_rng r;
    mm_rng_seed(&r, SEED_X);
    need_ok(mm_fill_normal(x, T * D_MODEL, STD_X, &r), "mm_fill_normal (X)");
    mm_rng_seed(&r, SEED_W);
    need_ok(mm_fill_normal(w_q, D_MODEL * D_K, STD_W, &r), "mm_fill_normal (W_Q)");
    need_ok(mm_fill_normal(w_k, D_MODEL * D_K, STD_W, &r), "mm_fill_normal (W_K)");
    need_ok(qkv_project(q, k, v, x, w_q, w_k, w_v, T, D_MODEL, D_K, D_V),
            "qkv_project (separate)");
    need_ok(mm_matmul(s_sep, q, k, T, D_K, T, true), "mm_matmul (separate)");
    need_ok(qkv_project(q, k, v, x, w_q, w_q, w_v, T, D_MODEL, D_K, D_V),
            "qkv_project (tied)");
    need_ok(mm_matmul(s_tied, q, k, T, D_K, T, true), "mm_matmul (tied)");
}

/* print_the_symmetry - the sizes, the seeds, how far each S is from S^T */
static void print_the_symmetry(void)
{
    printf("T=%d\nd_model=%d\nd_k=%d\n", T, D_MODEL, D_K);
    printf("seed_x=%u\nseed_w=%u\nstd_x=%g\nstd_w=%g\n",
           SEED_X, SEED_W, STD_X, STD_W);
    printf("asym_separate=%.10f\n", asymmetry(s_sep, T));
    printf("asym_tied=%.10g\n", asymmetry(s_tied, T));
    printf("unequal_pairs_separate=%d\n", unequal_pairs(s_sep, T));
    printf("unequal_pairs_tied=%d\n", unequal_pairs(s_tied, T));
    printf("pairs=%d\n", T * (T - 1) / 2);
}

/* print_the_eigenvalues - of (S + S^T)/2; for the tied S that is S itself */
static void print_the_eigenvalues(void)
{
    double eig_sep[T], eig_tied[T];
    symmetric_eigenvalues(eig_sep, s_sep, T);
    symmetric_eigenvalues(eig_tied, s_tied, T);
    printf("min_eig_sym_separate=%.10f\nmax_eig_sym_separate=%.10f\n",
           eig_sep[0], eig_sep[T - 1]);
    printf("negative_eigs_sym_separate=%d\n", negatives(eig_sep, T));
    printf("min_eig_tied=%.3g\nmax_eig_tied=%.10f\n", eig_tied[0], eig_tied[T - 1]);
    printf("negative_eigs_tied=%d\n", negatives(eig_tied, T));
    printf("rank_separate_sym=%d\nrank_tied=%d\n",
           numerical_rank(eig_sep, T), numerical_rank(eig_tied, T));
}

/* print_the_diagonals - the tied S's smallest diagonal entry, the rows
 * whose largest entry is on the diagonal, the largest |S_ij| */
static void print_the_diagonals(void)
{
    double diag_min_tied = s_tied[0];
    for (int i = 1; i < T; i++)
        if (s_tied[i * T + i] < diag_min_tied) diag_min_tied = s_tied[i * T + i];
    printf("diag_min_tied=%.10f\n", diag_min_tied);
    printf("diag_rowmax_separate=%d\ndiag_rowmax_tied=%d\n",
           diagonal_row_maxima(s_sep, T), diagonal_row_maxima(s_tied, T));
    printf("absmax_separate=%.10f\nabsmax_tied=%.10f\n",
           max_abs(s_sep, T * T), max_abs(s_tied, T * T));
}

/* print_the_tied_weights - symmetric scores, rows normalised separately:
 * two weights that differ; then the colour scale that holds both S */
static void print_the_tied_weights(void)
{
    double w_tied[T * T], out_tied[T * D_V];
    double m_sep = max_abs(s_sep, T * T), m_tied = max_abs(s_tied, T * T);
    need_ok(qkv_attend_unscaled(out_tied, w_tied, q, k, v, T, D_K, D_V),
            "qkv_attend_unscaled (tied)");
    printf("tied_w62=%.10f\ntied_w26=%.10f\n", w_tied[6 * T + 2],
           w_tied[2 * T + 6]);
    printf("color_limit=%g\n", ceil(m_sep > m_tied ? m_sep : m_tied));
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    compute_the_scores();
    if (facts) {
        print_the_symmetry();
        print_the_eigenvalues();
        print_the_diagonals();
        print_the_tied_weights();
        return 0;
    }
    printf("# scores-tied: S = Q K^T, T=%d d_model=%d d_k=%d seed_x=%u seed_w=%u\n",
           T, D_MODEL, D_K, SEED_X, SEED_W);
    printf("# index 0: separate W_Q, W_K; row i = query, column j = key\n");
    print_matrix(s_sep, T, T);
    printf("\n\n# index 1: tied W_Q = W_K\n");
    print_matrix(s_tied, T, T);
    return 0;
}

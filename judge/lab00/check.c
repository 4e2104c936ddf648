/* check.c - the checker of lab 00, attention by hand.
 *
 * Reads the learner's answers file (answers.txt: ten titled blocks, one per
 * step, cells written as numbers or `?`), recomputes every step with the
 * minimodel reference (mm_matmul for the three products, exp for the
 * softmax) and prints one line per step: ok, WRONG or pending. For the
 * first step that differs it names the cell, the exact value and the value
 * written, and, when the table matches a mistake it knows, what was most
 * likely done. Each step is judged against the exact values and against
 * what the learner's own earlier tables give, so an error is blamed on the
 * step that made it, not on every step after it.
 *
 * Usage: check [--lang=en|es] [--brief | --summary] ANSWERS
 *        check --reference-json [ANSWERS] | --self-test
 * The messages are in Spanish with --lang=es, or with LAB_LANG=es (which
 * make sets from a Spanish locale: judge/harness/lang.sh). --brief prints one line unless a step is
 * wrong. --summary prints only one line per step, `KEY<TAB>pending<TAB>
 * passed<TAB>failed` (each 0 or 1), for `make progress`; problems reading
 * the file then go to stderr, and stdout stays empty. --reference-json
 * prints, for the NumPy part's checker (numpy_check.py) and the self-test
 * (lab00.py), the sizes, tolerance, inputs and exact tables of the example
 * and of its probe (X times LARGE), and, given ANSWERS, the learner's hand
 * tables and the verdict of each step (see print_json). --self-test checks
 * that the example meets its requirements (see self_test). How the file is
 * read (titles, spaces, signs, decimal commas, what is named once) opens
 * "the learner's answers" below.
 * Exit:  0  every filled step is right (untouched or deleted steps are pending)
 *        1  a filled step is wrong (or, with --self-test, the example fails
 *           one of its own requirements)
 *        2  the file cannot be read or does not have the expected layout,
 *           or the command line is wrong
 *
 * Rows and columns are counted from 0, as in the book. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"

/* ---- the example ---------------------------------------------------------- */

#include "example.h"               /* T, D_MODEL, D_K, D_V, X, W_Q, W_K, W_V */

enum { MAX_CELLS = 12 };

/* tolerance for hand work: |written - exact| <= ATOL + RTOL * |exact| */
#define ATOL 0.01
#define RTOL 0.01

/* ---- the steps ------------------------------------------------------------ */

enum step { ST_Q, ST_K, ST_V, ST_S, ST_Z, ST_M, ST_E, ST_R, ST_A, ST_O, N_STEPS };

#define BIT(s) (1u << (s))

struct step_info {
    const char *key;       /* the block title, [key] */
    const char *formula;   /* what the block holds */
    int rows, cols;
    unsigned deps;         /* the learner's tables this step is computed from */
};

static const struct step_info STEPS[N_STEPS] = {
    [ST_Q] = {"Q",      "Q = X W_Q",                    T, D_K, 0},
    [ST_K] = {"K",      "K = X W_K",                    T, D_K, 0},
    [ST_V] = {"V",      "V = X W_V",                    T, D_V, 0},
    [ST_S] = {"S",      "S = Q K^T",                    T, T,   BIT(ST_Q) | BIT(ST_K)},
    [ST_Z] = {"scaled", "S / sqrt(d_k) = S / 2",        T, T,   BIT(ST_S)},
    [ST_M] = {"max",    "m_i = max_j scaled_ij",        T, 1,   BIT(ST_Z)},
    [ST_E] = {"E",      "E_ij = exp(scaled_ij - m_i)",  T, T,   BIT(ST_Z) | BIT(ST_M)},
    [ST_R] = {"sum",    "r_i = sum_j E_ij",             T, 1,   BIT(ST_E)},
    [ST_A] = {"A",      "A_ij = E_ij / r_i",            T, T,   BIT(ST_E) | BIT(ST_R)},
    [ST_O] = {"O",      "O = A V",                      T, D_V, BIT(ST_A) | BIT(ST_V)},
};

/* n_cells - how many values step s holds */
static int n_cells(int s) { return STEPS[s].rows * STEPS[s].cols; }

/* tables - one value per cell of every step, row-major */
typedef struct { double v[N_STEPS][MAX_CELLS]; } tables;

/* ---- language -------------------------------------------------------------- */

static bool lang_es = false;
#define L(en, es) (lang_es ? (es) : (en))

/* ---- small matrix helpers ---------------------------------------------------- */

/* matmul - c = a b (or a b^T), through the library; an internal failure is fatal */
static void matmul(double *c, const double *a, const double *b,
                   int n, int k, int m, bool b_transposed)
{
    if (mm_matmul(c, a, b, n, k, m, b_transposed) != MM_OK) {
        fprintf(stderr, "lab00 check: internal error: %s\n", mm_last_error());
        exit(2);
    }
}

/* transpose - out (m, n) = a^T for a (n, m) */
static void transpose(double *out, const double *a, int n, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) out[j * n + i] = a[i * m + j];
}

/* fold - out (T) = the largest value, the smallest or the sum of each row of
 * z (T, T), or of each column (by_column), taken from index 0 up */
enum fold_op { LARGEST, SMALLEST, SUM };
static void fold(double *out, const double *z, bool by_column, enum fold_op op)
{
    for (int i = 0; i < T; i++) {
        out[i] = op == SUM ? 0.0 : op == LARGEST ? -INFINITY : INFINITY;
        for (int j = 0; j < T; j++) {
            double x = by_column ? z[j * T + i] : z[i * T + j];
            if (op == SUM) out[i] += x;
            else if (op == LARGEST ? x > out[i] : x < out[i]) out[i] = x;
        }
    }
}
/* each_cell - o (T, T) from a (T, T) and v (T), cell by cell: exp(a_ij - v_i)
 * (the softmax's exponentials), a_ij / v_i (its division), exp(v_i - a_ij)
 * or a_ij - v_i (two slips); v_j instead of v_i by_column */
enum cell_op { EXP_MINUS, DIVIDE, EXP_REVERSED, MINUS };
static void each_cell(double *o, const double *a, const double *v, bool by_column, enum cell_op op)
{
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) {
            double x = a[i * T + j], y = v[by_column ? j : i];
            o[i * T + j] = op == EXP_MINUS ? exp(x - y) : op == DIVIDE ? x / y
                         : op == EXP_REVERSED ? exp(y - x) : x - y;
        }
}
#define row_max(m, z) fold(m, z, false, LARGEST)
#define col_max(m, z) fold(m, z, true, LARGEST)
#define row_sum(r, e) fold(r, e, false, SUM)
#define col_sum(r, e) fold(r, e, true, SUM)

/* softmax_rows - a (T, T) = row-wise softmax of z * scale (max subtracted) */
static void softmax_rows(double *a, const double *z, double scale)
{
    for (int i = 0; i < T; i++) {
        double m = -INFINITY, sum = 0.0;
        for (int j = 0; j < T; j++) if (z[i * T + j] * scale > m) m = z[i * T + j] * scale;
        for (int j = 0; j < T; j++) sum += a[i * T + j] = exp(z[i * T + j] * scale - m);
        for (int j = 0; j < T; j++) a[i * T + j] /= sum;
    }
}

/* ---- the reference: one step from the tables it depends on ------------------- */

/* the X the reference starts from: the example's, or the probe's (compute_all_from) */
static const double *x_in = X;

/* compute_step - out = step s computed from in's values of its dependencies */
static void compute_step(int s, const tables *in, double *out)
{
    const double scale = 1.0 / sqrt((double)D_K);
    switch (s) {
    case ST_Q: matmul(out, x_in, W_Q, T, D_MODEL, D_K, false); break;
    case ST_K: matmul(out, x_in, W_K, T, D_MODEL, D_K, false); break;
    case ST_V: matmul(out, x_in, W_V, T, D_MODEL, D_V, false); break;
    case ST_S: matmul(out, in->v[ST_Q], in->v[ST_K], T, D_K, T, true); break;
    case ST_Z:
        for (int c = 0; c < T * T; c++) out[c] = in->v[ST_S][c] * scale;
        break;
    case ST_M: row_max(out, in->v[ST_Z]); break;
    case ST_E: each_cell(out, in->v[ST_Z], in->v[ST_M], false, EXP_MINUS); break;
    case ST_R: row_sum(out, in->v[ST_E]); break;
    case ST_A: each_cell(out, in->v[ST_E], in->v[ST_R], false, DIVIDE); break;
    case ST_O: matmul(out, in->v[ST_A], in->v[ST_V], T, T, D_V, false); break;
    default: break;
    }
}

/* compute_all - every step of the example, exactly */
static void compute_all(tables *t)
{
    for (int s = 0; s < N_STEPS; s++) compute_step(s, t, t->v[s]);
}

/* large_x - the probe's X: the example's times LARGE */
static void large_x(double *x)
{
    for (int c = 0; c < T * D_MODEL; c++) x[c] = X[c] * LARGE;
}

/* compute_all_from - every step, exactly, from x instead of the example's X */
static void compute_all_from(const double *x, tables *t)
{
    x_in = x;
    compute_all(t);
    x_in = X;
}

/* ---- the catalogue of mistakes ------------------------------------------------- */
/* Each mistake computes the table a learner would write after making it,
 * from the tables the step depends on (the exact ones, or the learner's).
 * slip_<step>_<what>: the step's letter (q k v s z m e r a o), then the slip. */

static void slip_q_wk(const tables *in, double *o) { (void)in; matmul(o, X, W_K, T, D_MODEL, D_K, false); }
static void slip_k_wq(const tables *in, double *o) { (void)in; matmul(o, X, W_Q, T, D_MODEL, D_K, false); }
/* xt_times - o = X^T w, w (D_MODEL, cols): X is square (T = D_MODEL), so this runs */
static void xt_times(double *o, const double *w, int cols)
{
    double xt[T * D_MODEL];
    transpose(xt, X, T, D_MODEL);
    matmul(o, xt, w, T, D_MODEL, cols, false);
}
static void slip_q_xt(const tables *in, double *o) { (void)in; xt_times(o, W_Q, D_K); }
static void slip_k_xt(const tables *in, double *o) { (void)in; xt_times(o, W_K, D_K); }
static void slip_v_xt(const tables *in, double *o) { (void)in; xt_times(o, W_V, D_V); }
static void slip_s_kq(const tables *in, double *o) { matmul(o, in->v[ST_K], in->v[ST_Q], T, D_K, T, true); }
static void slip_s_qq(const tables *in, double *o) { matmul(o, in->v[ST_Q], in->v[ST_Q], T, D_K, T, true); }
static void slip_s_kk(const tables *in, double *o) { matmul(o, in->v[ST_K], in->v[ST_K], T, D_K, T, true); }

static void scale_s(const tables *in, double *o, double f)
{
    for (int c = 0; c < T * T; c++) o[c] = in->v[ST_S][c] * f;
}
static void slip_z_times(const tables *in, double *o) { scale_s(in, o, sqrt((double)D_K)); }
static void slip_z_none(const tables *in, double *o) { scale_s(in, o, 1.0); }
static void slip_z_dk(const tables *in, double *o) { scale_s(in, o, 1.0 / D_K); }
static void slip_z_dmodel(const tables *in, double *o) { scale_s(in, o, 1.0 / sqrt((double)D_MODEL)); }
static void slip_z_dv(const tables *in, double *o) { scale_s(in, o, 1.0 / sqrt((double)D_V)); }

static void slip_m_col(const tables *in, double *o) { col_max(o, in->v[ST_Z]); }
static void slip_m_unscaled(const tables *in, double *o) { row_max(o, in->v[ST_S]); }
static void slip_m_global(const tables *in, double *o)
{
    double m[T]; row_max(m, in->v[ST_Z]);
    double g = fmax(m[0], fmax(m[1], m[2]));
    for (int i = 0; i < T; i++) o[i] = g;
}
static void slip_m_min(const tables *in, double *o) { fold(o, in->v[ST_Z], false, SMALLEST); }

static void slip_e_nomax(const tables *in, double *o)
{
    for (int c = 0; c < T * T; c++) o[c] = exp(in->v[ST_Z][c]);
}
static void slip_e_col(const tables *in, double *o)
{
    double m[T]; col_max(m, in->v[ST_Z]);
    each_cell(o, in->v[ST_Z], m, true, EXP_MINUS);
}
static void slip_e_sign(const tables *in, double *o) { each_cell(o, in->v[ST_Z], in->v[ST_M], false, EXP_REVERSED); }
static void slip_e_unscaled(const tables *in, double *o)
{
    double m[T]; row_max(m, in->v[ST_S]);
    each_cell(o, in->v[ST_S], m, false, EXP_MINUS);
}
static void slip_e_noexp(const tables *in, double *o) { each_cell(o, in->v[ST_Z], in->v[ST_M], false, MINUS); }

static void slip_r_col(const tables *in, double *o) { col_sum(o, in->v[ST_E]); }
static void slip_r_scaled(const tables *in, double *o) { row_sum(o, in->v[ST_Z]); }
static void slip_r_nomax(const tables *in, double *o)
{
    double e[T * T];
    slip_e_nomax(in, e);
    row_sum(o, e);
}

static void slip_a_col(const tables *in, double *o)
{
    double r[T]; col_sum(r, in->v[ST_E]);
    each_cell(o, in->v[ST_E], r, true, DIVIDE);
}
static void slip_a_t(const tables *in, double *o)
{
    double a[T * T];
    compute_step(ST_A, in, a);
    transpose(o, a, T, T);
}
static void slip_a_unnorm(const tables *in, double *o)
{
    memcpy(o, in->v[ST_E], sizeof(double) * T * T);
}
static void slip_a_unscaled(const tables *in, double *o) { softmax_rows(o, in->v[ST_S], 1.0); }
static void slip_a_total(const tables *in, double *o)
{
    double total = 0.0;
    for (int c = 0; c < T * T; c++) total += in->v[ST_E][c];
    for (int c = 0; c < T * T; c++) o[c] = in->v[ST_E][c] / total;
}

static void slip_o_at(const tables *in, double *o)
{
    double at[T * T];
    transpose(at, in->v[ST_A], T, T);
    matmul(o, at, in->v[ST_V], T, T, D_V, false);
}
static void slip_o_e(const tables *in, double *o) { matmul(o, in->v[ST_E], in->v[ST_V], T, T, D_V, false); }
static void slip_o_z(const tables *in, double *o) { matmul(o, in->v[ST_Z], in->v[ST_V], T, T, D_V, false); }

struct mistake {
    int step;
    const char *id;
    void (*fn)(const tables *in, double *out);
    const char *hint_en, *hint_es;
};

static const struct mistake MISTAKES[] = {
    {ST_Q, "q-uses-wk", slip_q_wk,
     "your Q is X W_K: Q and K swapped? Q is made with W_Q, K with W_K.",
     "tu Q es X W_K: ¿Q y K intercambiadas? Q se calcula con W_Q y K con W_K."},
    {ST_Q, "q-xt", slip_q_xt,
     "your Q is X^T W_Q: row i of Q is row i of X (token i) times W_Q, Q_ij = sum_k X_ik (W_Q)_kj; you took the columns of X.",
     "tu Q es X^T W_Q: la fila i de Q es la fila i de X (el token i) por W_Q, Q_ij = sum_k X_ik (W_Q)_kj; tomaste las columnas de X."},
    {ST_K, "k-uses-wq", slip_k_wq,
     "your K is X W_Q: Q and K swapped? K is made with W_K, Q with W_Q.",
     "tu K es X W_Q: ¿Q y K intercambiadas? K se calcula con W_K y Q con W_Q."},
    {ST_K, "k-xt", slip_k_xt,
     "your K is X^T W_K: row i of K is row i of X (token i) times W_K; you took the columns of X.",
     "tu K es X^T W_K: la fila i de K es la fila i de X (el token i) por W_K; tomaste las columnas de X."},
    {ST_V, "v-xt", slip_v_xt,
     "your V is X^T W_V: row i of V is row i of X (token i) times W_V; you took the columns of X.",
     "tu V es X^T W_V: la fila i de V es la fila i de X (el token i) por W_V; tomaste las columnas de X."},
    {ST_S, "s-kq", slip_s_kq,
     "your scores look like K Q^T: row i of S is query i against every key, S_ij = Q_i . K_j (row i of Q times row j of K).",
     "tus puntuaciones parecen K Q^T: la fila i de S es la query i frente a cada key, S_ij = Q_i . K_j (fila i de Q por fila j de K)."},
    {ST_S, "s-qq", slip_s_qq,
     "your scores are Q Q^T: the queries were compared with the queries; compare them with the keys, S_ij = Q_i . K_j.",
     "tus puntuaciones son Q Q^T: comparaste las queries con las queries; compáralas con las keys, S_ij = Q_i . K_j."},
    {ST_S, "s-kk", slip_s_kk,
     "your scores are K K^T: the keys were compared with the keys; row i must use query i, S_ij = Q_i . K_j.",
     "tus puntuaciones son K K^T: comparaste las keys con las keys; la fila i usa la query i, S_ij = Q_i . K_j."},
    {ST_Z, "z-times-sqrt", slip_z_times,
     "you multiplied by sqrt(d_k) = 2; the scores are divided by it: scaled = S / sqrt(d_k) = S / 2.",
     "multiplicaste por sqrt(d_k) = 2; las puntuaciones se dividen por ella: scaled = S / sqrt(d_k) = S / 2."},
    {ST_Z, "z-no-scale", slip_z_none,
     "the scale is missing: your table is S itself; divide every score by sqrt(d_k) = sqrt(4) = 2.",
     "falta la escala: tu tabla es la propia S; divide cada puntuación por sqrt(d_k) = sqrt(4) = 2."},
    {ST_Z, "z-by-dk", slip_z_dk,
     "you divided by d_k = 4; the scale is 1/sqrt(d_k): divide by sqrt(4) = 2.",
     "dividiste por d_k = 4; la escala es 1/sqrt(d_k): divide por sqrt(4) = 2."},
    {ST_Z, "z-by-dmodel", slip_z_dmodel,
     "you divided by sqrt(d_model) = sqrt(3); the scale uses d_k = 4, the width of Q and K: divide by 2.",
     "dividiste por sqrt(d_model) = sqrt(3); la escala usa d_k = 4, el ancho de Q y K: divide por 2."},
    {ST_Z, "z-by-dv", slip_z_dv,
     "you divided by sqrt(d_v) = sqrt(2); the scale uses d_k = 4, the width of Q and K: divide by 2.",
     "dividiste por sqrt(d_v) = sqrt(2); la escala usa d_k = 4, el ancho de Q y K: divide por 2."},
    {ST_M, "m-columns", slip_m_col,
     "these are the maxima of the columns; m_i is the largest value of row i of the scaled scores.",
     "estos son los máximos de las columnas; m_i es el mayor valor de la fila i de las puntuaciones escaladas."},
    {ST_M, "m-unscaled", slip_m_unscaled,
     "these are the maxima of the unscaled S; take them from the scaled scores.",
     "estos son los máximos de S sin escalar; tómalos de las puntuaciones escaladas."},
    {ST_M, "m-global", slip_m_global,
     "you wrote the largest value of the whole table in every row; m_i is the largest value of row i alone.",
     "escribiste el mayor valor de toda la tabla en cada fila; m_i es el mayor valor de la fila i sola."},
    {ST_M, "m-min", slip_m_min,
     "these are the row minima; m_i is the largest value of row i.",
     "estos son los mínimos de las filas; m_i es el mayor valor de la fila i."},
    {ST_E, "e-no-max", slip_e_nomax,
     "the maximum was not subtracted: your E is exp(scaled); E_ij = exp(scaled_ij - m_i), so each row has a 1 where its maximum is.",
     "no se restó el máximo: tu E es exp(scaled); E_ij = exp(scaled_ij - m_i), así cada fila tiene un 1 donde está su máximo."},
    {ST_E, "e-col-max", slip_e_col,
     "you subtracted the maximum of each column; subtract m_i, the maximum of row i, from every value of row i.",
     "restaste el máximo de cada columna; resta m_i, el máximo de la fila i, a cada valor de la fila i."},
    {ST_E, "e-sign", slip_e_sign,
     "the subtraction is reversed: you took exp(m_i - scaled_ij); it is exp(scaled_ij - m_i), never above 1.",
     "la resta está al revés: calculaste exp(m_i - scaled_ij); es exp(scaled_ij - m_i), nunca mayor que 1."},
    {ST_E, "e-unscaled", slip_e_unscaled,
     "your E comes from the unscaled S; use the scaled scores: E_ij = exp(scaled_ij - m_i).",
     "tu E sale de S sin escalar; usa las puntuaciones escaladas: E_ij = exp(scaled_ij - m_i)."},
    {ST_E, "e-no-exp", slip_e_noexp,
     "you subtracted the maximum but did not take the exponential: E_ij = exp(scaled_ij - m_i).",
     "restaste el máximo pero no tomaste la exponencial: E_ij = exp(scaled_ij - m_i)."},
    {ST_R, "r-columns", slip_r_col,
     "these are the sums of the columns of E; r_i is the sum of row i.",
     "estas son las sumas de las columnas de E; r_i es la suma de la fila i."},
    {ST_R, "r-scaled", slip_r_scaled,
     "you added the scaled scores; r_i is the sum of row i of E.",
     "sumaste las puntuaciones escaladas; r_i es la suma de la fila i de E."},
    {ST_R, "r-no-max", slip_r_nomax,
     "you added exp(scaled) without the maximum subtracted; add the values of E you wrote.",
     "sumaste exp(scaled) sin restar el máximo; suma los valores de E que escribiste."},
    {ST_A, "a-columns", slip_a_col,
     "each row of weights must sum to 1; your columns do: divide row i of E by r_i, the sum of that row.",
     "cada fila de pesos debe sumar 1; en tu tabla suman 1 las columnas: divide la fila i de E por r_i, la suma de esa fila."},
    {ST_A, "a-transposed", slip_a_t,
     "each row of weights must sum to 1; your columns do: your table is the transpose, row i holds the weights of query i.",
     "cada fila de pesos debe sumar 1; en tu tabla suman 1 las columnas: es la traspuesta, la fila i contiene los pesos de la query i."},
    {ST_A, "a-not-divided", slip_a_unnorm,
     "your weights are E itself: divide each row of E by its sum r_i so that the row sums to 1.",
     "tus pesos son la propia E: divide cada fila de E por su suma r_i para que la fila sume 1."},
    {ST_A, "a-unscaled", slip_a_unscaled,
     "your weights are the softmax of the unscaled S; they come from the scaled scores, through E and r.",
     "tus pesos son el softmax de S sin escalar; salen de las puntuaciones escaladas, a través de E y r."},
    {ST_A, "a-total", slip_a_total,
     "you divided by the sum of the whole table; divide row i by r_i, the sum of row i alone.",
     "dividiste por la suma de toda la tabla; divide la fila i por r_i, la suma de la fila i sola."},
    {ST_O, "o-at", slip_o_at,
     "your output is A^T V: row i of O mixes the rows of V with the weights of row i of A, O_i = sum_j A_ij V_j.",
     "tu salida es A^T V: la fila i de O mezcla las filas de V con los pesos de la fila i de A, O_i = sum_j A_ij V_j."},
    {ST_O, "o-e", slip_o_e,
     "your output is E V: mix the values with the weights A (each row sums to 1), not with E.",
     "tu salida es E V: mezcla los values con los pesos A (cada fila suma 1), no con E."},
    {ST_O, "o-scores", slip_o_z,
     "your output mixes V with the scaled scores; use the weights A: O = A V.",
     "tu salida mezcla V con las puntuaciones escaladas; usa los pesos A: O = A V."},
};
enum { N_MISTAKES = sizeof MISTAKES / sizeof MISTAKES[0] };

/* the rule of each step, said once more when no known mistake matches (EN, ES) */
static const char *const RULES[N_STEPS][2] = {
    [ST_Q] = {"row i of Q is row i of X times W_Q: Q_ij = sum_k X_ik (W_Q)_kj.",
              "la fila i de Q es la fila i de X por W_Q: Q_ij = sum_k X_ik (W_Q)_kj."},
    [ST_K] = {"row i of K is row i of X times W_K: K_ij = sum_k X_ik (W_K)_kj.",
              "la fila i de K es la fila i de X por W_K: K_ij = sum_k X_ik (W_K)_kj."},
    [ST_V] = {"row i of V is row i of X times W_V: V_ij = sum_k X_ik (W_V)_kj.",
              "la fila i de V es la fila i de X por W_V: V_ij = sum_k X_ik (W_V)_kj."},
    [ST_S] = {"S_ij is the dot product of row i of Q and row j of K (4 products, added).",
              "S_ij es el producto escalar de la fila i de Q y la fila j de K (4 productos, sumados)."},
    [ST_Z] = {"every score divided by sqrt(d_k) = 2.",
              "cada puntuación dividida por sqrt(d_k) = 2."},
    [ST_M] = {"m_i is the largest value of row i of the scaled scores.",
              "m_i es el mayor valor de la fila i de las puntuaciones escaladas."},
    [ST_E] = {"E_ij = exp(scaled_ij - m_i): every exponent is <= 0, so every value lies in (0, 1], with a 1 in each row.",
              "E_ij = exp(scaled_ij - m_i): cada exponente es <= 0, así que cada valor está en (0, 1], con un 1 en cada fila."},
    [ST_R] = {"r_i is the sum of the three values of row i of E.",
              "r_i es la suma de los tres valores de la fila i de E."},
    [ST_A] = {"A_ij = E_ij / r_i: every weight lies in (0, 1) and each row sums to 1.",
              "A_ij = E_ij / r_i: cada peso está en (0, 1) y cada fila suma 1."},
    [ST_O] = {"row i of O is the blend of the rows of V with the weights of row i of A: O_i = sum_j A_ij V_j.",
              "la fila i de O es la mezcla de las filas de V con los pesos de la fila i de A: O_i = sum_j A_ij V_j."},
};

/* ---- the learner's answers ---------------------------------------------------- */
/* The rules of the file, as both READMEs state them:
 *   - a block starts at a title: [KEY] and anything after it; the key in any
 *     case, with the Spanish or English names of ALIASES, and Markdown
 *     decoration around it (**`[Q]`**, a list number); or KEY followed by
 *     `:` or `=` (Q:, Q = X W_Q), or the step's formula alone. A comment
 *     line that is a heading (## Q, # [Q]) is a title only for a step that
 *     has no other title in the file;
 *   - numbers are separated by spaces: any kind of space (tab, no-break,
 *     thin) counts. Commas, semicolons and brackets between numbers are
 *     named once for the whole file;
 *   - a number has a point or a decimal comma between digits (0.61, 0,61),
 *     one of them; a minus may be typographic (U+2212, U+2010 to U+2014);
 *     e-notation (6.07e-1) is a number; a percent (63%) is named once;
 *   - `?` is a cell not done yet; `#` starts a comment;
 *   - a block not in the file is pending, as long as the file has a block. */

enum { TOKEN_MAX = 32, MAX_ERRORS = 20, LINE_MAX_LEN = 1024, MAX_ROWS = 64 };

struct answers {
    bool present[N_STEPS];
    int title_line[N_STEPS];
    int end_line[N_STEPS];     /* last line of the block (its title if it has no rows) */
    bool filled[N_STEPS][MAX_CELLS];
    double val[N_STEPS][MAX_CELLS];
    int decimals[N_STEPS][MAX_CELLS];
    char text[N_STEPS][MAX_CELLS][TOKEN_MAX];
    int line[N_STEPS][MAX_CELLS];
};

static int n_errors = 0;
static FILE *msg_out;          /* where messages about the file go: stdout (stderr with --summary) */

/* parse_error - print one message about the file (with its line), count it */
__attribute__((format(printf, 4, 5)))
static void parse_error(const char *path, int line, int step, const char *fmt, ...)
{
    n_errors++;
    if (n_errors > MAX_ERRORS) return;
    if (line > 0) fprintf(msg_out, "%s:%d: ", path, line);
    else fprintf(msg_out, "%s: ", path);
    if (step >= 0) fprintf(msg_out, "[%s] ", STEPS[step].key);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(msg_out, fmt, ap);
    va_end(ap);
    fputc('\n', msg_out);
}

/* once - a problem said once for the whole file, with how often it occurs */
struct once {
    int count;
    int line, step;            /* where it first occurs */
    char text[48];             /* what was written there */
};
static struct once separators, percents;
static bool file_separates;    /* some row of the file separates numbers with commas, ... */

/* note_once - count one occurrence of o, remembering the first */
static void note_once(struct once *o, int line, int step, const char *text)
{
    if (o->count++ == 0) {
        o->line = line;
        o->step = step;
        snprintf(o->text, sizeof o->text, "%.40s%s", text, strlen(text) > 40 ? "..." : "");
    }
}

/* ---- characters ---------------------------------------------------------------- */

/* is_space_seq - the length of the space character at p (an ASCII space or
 * tab, a no-break space U+00A0, U+2000 to U+200B, U+202F, U+205F, U+3000,
 * U+FEFF), or 0 */
static int is_space_seq(const unsigned char *p)
{
    if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f') return 1;
    if (p[0] == 0xC2 && p[1] == 0xA0) return 2;
    if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] <= 0x8B || p[2] == 0xAF)) return 3;
    if (p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) return 3;
    if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) return 3;
    if (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) return 3;
    return 0;
}

/* spaces_to_ascii - every space character of line becomes plain spaces, in place */
static void spaces_to_ascii(char *line)
{
    for (unsigned char *p = (unsigned char *)line; *p; ) {
        int n = is_space_seq(p);
        if (n == 0) { p++; continue; }
        for (int i = 0; i < n; i++) *p++ = ' ';
    }
}

/* is_dash_seq - the length of a typographic minus at p (U+2010 to U+2014,
 * U+2212, U+FE63, U+FF0D), or 0 */
static int is_dash_seq(const unsigned char *p)
{
    if (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0x90 && p[2] <= 0x94) return 3;
    if (p[0] == 0xE2 && p[1] == 0x88 && p[2] == 0x92) return 3;
    if (p[0] == 0xEF && p[1] == 0xB9 && p[2] == 0xA3) return 3;
    if (p[0] == 0xEF && p[1] == 0xBC && p[2] == 0x8D) return 3;
    return 0;
}

/* has_non_ascii - s holds a byte outside ASCII */
static bool has_non_ascii(const char *s)
{
    for (; *s; s++) if ((unsigned char)*s >= 0x80) return true;
    return false;
}

/* ---- numbers --------------------------------------------------------------------- */

/* is_decimal_comma - the comma at s[i] stands between two digits */
static bool is_decimal_comma(const char *s, size_t i)
{
    return i > 0 && isdigit((unsigned char)s[i - 1]) && isdigit((unsigned char)s[i + 1]);
}

/* separates - tok uses commas, semicolons or brackets to separate numbers:
 * `1,0,1`, `1,`, `;`, `[1`, `(0.5)`, `1.5,2`: anything but one decimal comma
 * between digits in a number without a point */
static bool separates(const char *tok)
{
    int commas = 0;
    bool point = false, lone_comma = false;
    for (size_t i = 0; tok[i]; i++) {
        char c = tok[i];
        if (strchr(";|[](){}", c)) return true;
        if (c == '.') point = true;
        if (c == ',') {
            commas++;
            if (!is_decimal_comma(tok, i)) lone_comma = true;
        }
    }
    return commas > 1 || lone_comma || (commas == 1 && point);
}

/* parse_number - a number: an optional sign (or a typographic minus), digits
 * with one decimal point or decimal comma, an optional exponent (e-notation);
 * writes the value and its count of decimals (those the exponent leaves:
 * 6.07e-1 has 3); false if tok is not a finite number */
static bool parse_number(const char *tok, double *value, int *decimals)
{
    char buf[TOKEN_MAX + 2];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)tok; *p; ) {   /* dashes -> '-' */
        if (n >= TOKEN_MAX) return false;
        int d = is_dash_seq(p);
        if (d) { buf[n++] = '-'; p += d; }
        else buf[n++] = (char)*p++;
    }
    buf[n] = '\0';
    char *p = buf;
    if (*p == '-' || *p == '+') p++;
    int digits = 0, dec = -1;
    for (; isdigit((unsigned char)*p) || *p == '.' || *p == ','; p++) {
        if (isdigit((unsigned char)*p)) { digits++; if (dec >= 0) dec++; }
        else if (dec >= 0) return false;
        else { dec = 0; *p = '.'; }
    }
    if (digits == 0) return false;
    int exponent = 0;
    if (*p == 'e' || *p == 'E') {
        char *q = p + 1;
        if (*q == '-' || *q == '+') q++;
        if (!isdigit((unsigned char)*q)) return false;
        exponent = atoi(p + 1);
        for (p = q; isdigit((unsigned char)*p); p++) {}
    }
    if (*p != '\0') return false;
    *value = strtod(buf, NULL);
    int d = (dec < 0 ? 0 : dec) - (exponent < -99 ? -99 : exponent > 99 ? 99 : exponent);
    *decimals = d < 0 ? 0 : d;
    return isfinite(*value);
}

/* is_percent - tok is a number followed by %: 63% */
static bool is_percent(const char *tok)
{
    size_t n = strlen(tok);
    char buf[TOKEN_MAX];
    double v; int d;
    if (n < 2 || n >= TOKEN_MAX || tok[n - 1] != '%') return false;
    memcpy(buf, tok, n - 1);
    buf[n - 1] = '\0';
    return parse_number(buf, &v, &d);
}

/* ---- block titles ------------------------------------------------------------- */

/* the names a title may give a block besides its key (compared in lower case) */
static const struct { const char *name; int step; } ALIASES[] = {
    {"queries", ST_Q}, {"keys", ST_K}, {"values", ST_V},
    {"scores", ST_S}, {"puntuaciones", ST_S},
    {"escalado", ST_Z}, {"escalada", ST_Z}, {"escalados", ST_Z}, {"escaladas", ST_Z},
    {"m", ST_M}, {"m_i", ST_M}, {"máx", ST_M}, {"maximo", ST_M}, {"máximo", ST_M},
    {"maximos", ST_M}, {"máximos", ST_M}, {"maxima", ST_M}, {"maximum", ST_M},
    {"e_ij", ST_E}, {"exp", ST_E},
    {"r", ST_R}, {"r_i", ST_R}, {"sums", ST_R}, {"suma", ST_R}, {"sumas", ST_R},
    {"a_ij", ST_A}, {"weights", ST_A}, {"pesos", ST_A},
    {"output", ST_O}, {"salida", ST_O},
};

/* lower - s in lower case (ASCII, and the accented capitals of UTF-8's Latin-1 range) */
static void lower(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p; p++) {
        if (*p >= 'A' && *p <= 'Z') *p = (unsigned char)(*p - 'A' + 'a');
        else if (p[0] == 0xC3 && p[1] >= 0x80 && p[1] <= 0x9E && p[1] != 0x97) { p[1] += 0x20; p++; }
    }
}

/* find_step - the step a title's name stands for (its key or an alias, any case), or -1 */
static int find_step(const char *name)
{
    char key[32];
    snprintf(key, sizeof key, "%s", name);
    lower(key);
    for (int s = 0; s < N_STEPS; s++) {
        char k[16];
        snprintf(k, sizeof k, "%s", STEPS[s].key);
        lower(k);
        if (strcmp(k, key) == 0) return s;
    }
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (strcmp(ALIASES[i].name, key) == 0) return ALIASES[i].step;
    return -1;
}

/* skip_decoration - past spaces, Markdown marks (* ` _ > |) and a list number (6. or 6)) */
static const char *skip_decoration(const char *p)
{
    for (;;) {
        while (*p != '\0' && strchr(" *`_>|", *p)) p++;
        const char *q = p;
        while (isdigit((unsigned char)*q)) q++;
        if (q > p && (*q == '.' || *q == ')') && q[1] == ' ') { p = q + 1; continue; }
        if ((*p == '-' || *p == '+') && p[1] == ' ') { p++; continue; }
        return p;
    }
}

/* squeeze - s in lower case without spaces, into out */
static void squeeze(char *out, size_t size, const char *s)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++) if (*s != ' ') out[n++] = *s;
    out[n] = '\0';
    lower(out);
}

enum { NOT_TITLE = -1, TITLE_UNKNOWN = -2, TITLE_NO_BRACKET = -3 };

/* title_of - the step whose title text is (a line without its comment, or the
 * text of a comment line when heading is true), or NOT_TITLE; for a bracket
 * that names no step TITLE_UNKNOWN (the name copied into name), for a bracket
 * never closed TITLE_NO_BRACKET (neither for a heading) */
static int title_of(const char *text, bool heading, char *name, size_t size)
{
    const char *p = text;
    if (heading) while (*p == '#') p++;
    p = skip_decoration(p);
    if (*p == '[') {                                   /* [KEY] ... */
        const char *k = p + 1;
        while (*k == ' ') k++;
        if (isdigit((unsigned char)*k) || strchr("-+.?,", *k) || is_dash_seq((const unsigned char *)k))
            return NOT_TITLE;                          /* numbers in brackets: a row */
        const char *close = strchr(k, ']');
        if (!close) return heading ? NOT_TITLE : TITLE_NO_BRACKET;
        size_t n = (size_t)(close - k);
        while (n > 0 && k[n - 1] == ' ') n--;
        snprintf(name, size, "%.*s", (int)(n < 40 ? n : 40), k);
        int s = find_step(name);
        return s >= 0 ? s : heading ? NOT_TITLE : TITLE_UNKNOWN;
    }
    /* KEY followed by :, =, ( or nothing: Q:, Q = X W_Q, max (3 values), ## Q */
    char word[32];
    size_t n = 0;
    const char *w = p;
    while ((isalnum((unsigned char)*w) || *w == '_' || (unsigned char)*w >= 0x80) && n + 1 < sizeof word)
        word[n++] = *w++;
    word[n] = '\0';
    w = skip_decoration(w);
    if (n > 0 && (*w == ':' || *w == '=' || *w == '(' || *w == '\0')) {
        int s = find_step(word);
        if (s >= 0) return s;
    }
    /* a step's formula alone: S / sqrt(d_k) = S / 2 */
    char line[80], formula[48];
    squeeze(line, sizeof line, p);
    for (int s = 0; s < N_STEPS; s++) {
        squeeze(formula, sizeof formula, STEPS[s].formula);
        if (strncmp(line, formula, strlen(formula)) == 0) return s;
    }
    return NOT_TITLE;
}

/* ---- blocks ------------------------------------------------------------------- */

/* shape_hint - what a wrong count of numbers in a block usually means */
static const char *shape_hint(int s, int found_cols)
{
    if (s == ST_O && found_cols == T)
        return L("O has one column per column of V (d_v = 2); three columns suggest the weights A alone, or A X: the output mixes the rows of V, O = A V.",
                 "O tiene una columna por cada columna de V (d_v = 2); tres columnas sugieren los pesos A solos, o A X: la salida mezcla las filas de V, O = A V.");
    if (s == ST_O && found_cols == D_K)
        return L("O has one column per column of V (d_v = 2); four columns suggest Q or K where V belongs.",
                 "O tiene una columna por cada columna de V (d_v = 2); cuatro columnas sugieren Q o K donde va V.");
    if ((s == ST_Q || s == ST_K) && found_cols == D_MODEL)
        return L("Q and K have d_k = 4 columns, one per column of W_Q (or W_K).",
                 "Q y K tienen d_k = 4 columnas, una por cada columna de W_Q (o W_K).");
    if (s == ST_S && found_cols == D_K)
        return L("S has one column per key (T = 3): S_ij = Q_i . K_j is a single number.",
                 "S tiene una columna por key (T = 3): S_ij = Q_i . K_j es un solo número.");
    if (s == ST_M || s == ST_R)
        return L("one value per row: write them as three lines of one number, or one line of three.",
                 "un valor por fila: escríbelos en tres líneas de un número, o en una línea de tres.");
    return NULL;
}

/* block_rows - the data rows of the block being read */
struct block_rows {
    int step;
    int n;
    int line[MAX_ROWS];
    int count[MAX_ROWS];
    bool separated[MAX_ROWS];  /* the row uses commas, semicolons or brackets between numbers */
    char tok[MAX_ROWS][MAX_CELLS][TOKEN_MAX];
};

/* comma_token - the first token of row r written with a decimal comma, or NULL */
static const char *comma_token(const struct block_rows *b, int r)
{
    for (int k = 0; k < b->count[r] && k < MAX_CELLS; k++)
        if (strchr(b->tok[r][k], ',')) return b->tok[r][k];
    return NULL;
}

/* transposed_layout - the rows of b are the transpose of step s's shape (a
 * table that is not square, written column by column); says so, and whether
 * the numbers are the right ones */
static bool transposed_layout(const char *path, const struct answers *ans, const struct block_rows *b)
{
    int s = b->step;
    const struct step_info *st = &STEPS[s];
    if (st->rows == st->cols || st->cols == 1 || b->n != st->cols) return false;
    for (int r = 0; r < b->n; r++) if (b->count[r] != st->rows || b->separated[r]) return false;
    tables exact;
    compute_all(&exact);
    bool right = true;
    int numbers = 0;
    for (int r = 0; r < b->n; r++)
        for (int k = 0; k < b->count[r]; k++) {
            double v; int dec;
            if (!parse_number(b->tok[r][k], &v, &dec)) continue;
            numbers++;
            double want = exact.v[s][k * st->cols + r];
            if (fabs(v - want) > ATOL + RTOL * fabs(want)) right = false;
        }
    parse_error(path, ans->title_line[s], s,
                L("the block is written transposed: %d rows of %d numbers, but %s is %d x %d, one row per token (line i holds row i, %d numbers)%s",
                  "el bloque está escrito traspuesto: %d filas de %d números, pero %s es %d x %d, una fila por token (la línea i tiene la fila i, %d números)%s"),
                b->n, st->rows, st->key, st->rows, st->cols, st->cols,
                numbers > 0 && right ? L("; your numbers are right: write column i of your block as line i",
                                         "; tus números están bien: escribe la columna i de tu bloque como línea i")
                                     : "");
    return true;
}

/* bad_row - row r of b does not hold one number per column of its step:
 * say why (a row that separates with commas is said once, at the end);
 * *hinted: a hint was given already in this block */
static bool bad_row(const char *path, struct block_rows *b, int r, bool *hinted)
{
    int s = b->step;
    const struct step_info *st = &STEPS[s];
    if (b->separated[r]) return true;
    if (b->count[r] == st->cols) return false;
    const char *comma = b->count[r] < st->cols ? comma_token(b, r) : NULL;
    if (comma && file_separates) {     /* 1,1 among 1,0,1: said once, at the end */
        note_once(&separators, b->line[r], s, comma);
        return true;
    }
    char comma_hint[160] = "";
    if (comma)
        snprintf(comma_hint, sizeof comma_hint,
                 L("'%s' is one number with a decimal comma; to write two numbers, separate them with a space",
                   "'%s' es un número con coma decimal; para escribir dos números, sepáralos con un espacio"),
                 comma);
    const char *h = *hinted ? NULL : comma ? comma_hint : shape_hint(s, b->count[r]);
    if (h) *hinted = true;
    parse_error(path, b->line[r], s,
                L("row %d has %d %s, expected %d (%s is %d x %d)%s%s",
                  "la fila %d tiene %d %s, se esperaban %d (%s es %d x %d)%s%s"),
                r, b->count[r], b->count[r] == 1 ? L("number", "número") : L("numbers", "números"),
                st->cols, st->key, st->rows, st->cols, h ? L("\n  hint: ", "\n  pista: ") : "", h ? h : "");
    return true;
}

/* bad_row_count - b has more or fewer rows than its step: say so */
static bool bad_row_count(const char *path, const struct answers *ans, const struct block_rows *b)
{
    int s = b->step;
    const struct step_info *st = &STEPS[s];
    if (b->n > st->rows)
        parse_error(path, b->line[st->rows], s,
                    L("a row %d, but %s has %d rows (rows 0 to %d); is a block title like [%s] missing above this line?",
                      "una fila %d, pero %s tiene %d filas (de la 0 a la %d); ¿falta encima de esta línea un título de bloque como [%s]?"),
                    st->rows, st->key, st->rows, st->rows - 1, s + 1 < N_STEPS ? STEPS[s + 1].key : st->key);
    else if (b->n < st->rows)
        parse_error(path, b->n ? b->line[b->n - 1] : ans->title_line[s], s,
                    L("%d %s, expected %d (%s is %d x %d); write ? for a cell not done yet",
                      "%d %s, se esperaban %d (%s es %d x %d); escribe ? en una celda aún sin hacer"),
                    b->n, b->n == 1 ? L("row", "fila") : L("rows", "filas"), st->rows, st->key, st->rows, st->cols);
    return b->n != st->rows;
}

/* store_cell - cell c of step s, token tok at (row, col) of line: written,
 * `?`, a percent (said once) or not a number (said) */
static void store_cell(const char *path, struct answers *ans, int s, int c, const char *tok,
                       int line, int row, int col)
{
    double v; int dec;
    ans->line[s][c] = line;
    snprintf(ans->text[s][c], TOKEN_MAX, "%s", tok);
    if (strcmp(tok, "?") == 0) { ans->filled[s][c] = false; return; }
    if (is_percent(tok)) { note_once(&percents, line, s, tok); return; }
    if (!parse_number(tok, &v, &dec)) {
        parse_error(path, line, s,
                    L("row %d, column %d: '%s' is not a number (write numbers like 0.61 or -1.50, or ? for a cell not done yet)%s",
                      "fila %d, columna %d: '%s' no es un número (escribe números como 0.61 o -1.50, o ? en una celda aún sin hacer)%s"),
                    row, col, tok,
                    has_non_ascii(tok) ? L("; it holds a character that is not part of a number, perhaps pasted from a word processor: type it again",
                                           "; tiene un carácter que no forma parte de un número, quizá pegado desde un procesador de textos: escríbelo de nuevo")
                                       : "");
        return;
    }
    ans->filled[s][c] = true;
    ans->val[s][c] = v;
    ans->decimals[s][c] = dec;
}

/* finish_block - check the shape of the rows read for a block and store its
 * cells; a vector (max, sum) may be written as one line */
static void finish_block(const char *path, struct answers *ans, struct block_rows *b)
{
    int s = b->step;
    if (s < 0) return;
    ans->end_line[s] = b->n ? b->line[b->n - 1] : ans->title_line[s];
    const struct step_info *st = &STEPS[s];
    bool as_one_line = st->cols == 1 && b->n == 1 && b->count[0] == st->rows && !b->separated[0];
    if (transposed_layout(path, ans, b)) return;
    if (!as_one_line) {
        bool bad = false, hinted = false;
        for (int r = 0; r < b->n && r < st->rows; r++) bad = bad_row(path, b, r, &hinted) || bad;
        if (bad_row_count(path, ans, b) || bad) return;
    }
    for (int c = 0; c < n_cells(s); c++) {
        int r = as_one_line ? 0 : c / st->cols, k = as_one_line ? c : c % st->cols;
        store_cell(path, ans, s, c, b->tok[r][k], b->line[r], as_one_line ? c : r, as_one_line ? 0 : k);
    }
}

/* ---- the file ----------------------------------------------------------------- */

/* struct line - one line of the file: its text without the comment, or the
 * comment's text for a line that is only a comment */
struct line {
    int number;
    bool too_long;
    bool comment;              /* the line is a comment (it starts with #) */
    char *text;                /* trimmed, spaces made plain */
};

/* next_line - read the next line of f into buf; false at the end of the file */
static bool next_line(FILE *f, char *buf, size_t size, struct line *ln)
{
    if (!fgets(buf, (int)size, f)) return false;
    ln->number++;
    ln->too_long = false;
    size_t len = strlen(buf);
    if (len == size - 1 && buf[len - 1] != '\n' && !feof(f)) {
        int ch;
        while ((ch = fgetc(f)) != EOF && ch != '\n') {}
        ln->too_long = true;
    }
    spaces_to_ascii(buf);                          /* a UTF-8 BOM too */
    char *p = buf;
    while (*p == ' ' || *p == '\n') p++;
    ln->comment = *p == '#';
    if (ln->comment) p++;
    else { char *hash = strchr(p, '#'); if (hash) *hash = '\0'; }
    while (*p == ' ') p++;
    char *end = p + strlen(p);
    while (end > p && isspace((unsigned char)end[-1])) *--end = '\0';
    ln->text = p;
    return true;
}

/* is_rule - a line of Markdown marks only, with a run of three (```, ---,
 * | --- | --- |, ***): nothing to read */
static bool is_rule(const char *p)
{
    bool run = false;
    for (const char *q = p; *q; q++) {
        if (!strchr("`-_*=|:~ ", *q)) return false;
        if (*q != ' ' && q[1] == *q && q[2] == *q) run = true;
    }
    return run;
}

/* prescan - which steps have a title in the file that is not a comment (a
 * heading comment is a title only for the others), and whether any row
 * separates its numbers with commas, semicolons or brackets (then `1,1` in a
 * row short of numbers is two numbers, not a decimal comma) */
static void prescan(FILE *f, bool titled[N_STEPS])
{
    char buf[LINE_MAX_LEN + 2], name[48];
    struct line ln = {0};
    while (next_line(f, buf, sizeof buf, &ln)) {
        if (ln.too_long || ln.comment) continue;
        int s = title_of(ln.text, false, name, sizeof name);
        if (s >= 0) { titled[s] = true; continue; }
        if (s != NOT_TITLE) continue;
        for (char *tok = strtok(ln.text, " "); tok; tok = strtok(NULL, " "))
            if (separates(tok)) file_separates = true;
    }
    rewind(f);
}

/* open_block - a title line of step s (or TITLE_NO_BRACKET, TITLE_UNKNOWN,
 * name its text) at line: the block being read (b) ends, this one starts;
 * false, after saying why, if its rows are not to be read */
static bool open_block(const char *path, struct answers *ans, struct block_rows *b, int s,
                       const char *name, int line)
{
    finish_block(path, ans, b);
    b->step = -1; b->n = 0;
    if (s == TITLE_NO_BRACKET) {
        parse_error(path, line, -1, L("a block title looks like [Q] ... ; the ] is missing",
                                      "un título de bloque tiene la forma [Q] ... ; falta el ]"));
        return false;
    }
    if (s == TITLE_UNKNOWN) {
        char keys[160] = "";
        for (int k = 0; k < N_STEPS; k++)
            snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s[%s]", k ? " " : "", STEPS[k].key);
        parse_error(path, line, -1, L("unknown block [%s]; the blocks are %s",
                                      "bloque desconocido [%s]; los bloques son %s"), name, keys);
        return false;
    }
    if (ans->present[s]) {
        parse_error(path, line, s, L("this block appears twice (first at line %d)",
                                     "este bloque aparece dos veces (la primera en la línea %d)"),
                    ans->title_line[s]);
        return false;
    }
    ans->present[s] = true;
    ans->title_line[s] = line;
    b->step = s;
    return true;
}

/* add_row - the numbers of text, at line, as the next row of b */
static void add_row(struct block_rows *b, char *text, int line)
{
    if (b->n >= MAX_ROWS) return;
    int r = b->n++;
    b->line[r] = line;
    b->count[r] = 0;
    b->separated[r] = false;
    char row[LINE_MAX_LEN + 2];
    snprintf(row, sizeof row, "%s", text);
    for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " ")) {
        if (separates(tok)) b->separated[r] = true;
        if (b->count[r] < MAX_CELLS) {               /* a token too long to be a number stays one */
            if (strlen(tok) < TOKEN_MAX) snprintf(b->tok[r][b->count[r]], TOKEN_MAX, "%s", tok);
            else snprintf(b->tok[r][b->count[r]], TOKEN_MAX, "%.20s...", tok);
        }
        b->count[r]++;
    }
    if (b->separated[r]) note_once(&separators, line, b->step, row);
}

/* read_blocks - every line of f into the blocks of ans, every problem said */
static void read_blocks(FILE *f, const char *path, struct answers *ans, const bool titled[N_STEPS])
{
    static struct block_rows b;
    memset(&b, 0, sizeof b);
    b.step = -1;
    char buf[LINE_MAX_LEN + 2], name[48];
    struct line ln = {0};
    bool skipping = false;             /* the rows of a block already reported */
    while (next_line(f, buf, sizeof buf, &ln)) {
        char *p = ln.text;
        if (ln.too_long) {
            parse_error(path, ln.number, b.step, L("line longer than %d characters", "línea de más de %d caracteres"),
                        LINE_MAX_LEN);
            continue;
        }
        if (ln.comment) {                               /* a heading: ## Q, # [Q] */
            int s = title_of(p, true, name, sizeof name);
            if (s < 0 || titled[s] || ans->present[s]) continue;
        } else if (*p == '\0' || is_rule(p)) {
            continue;
        }
        int s = title_of(p, ln.comment, name, sizeof name);
        if (s != NOT_TITLE) skipping = !open_block(path, ans, &b, s, name, ln.number);
        else if (skipping) continue;
        else if (b.step >= 0) add_row(&b, p, ln.number);
        else {
            parse_error(path, ln.number, -1, L("numbers before the first block title (such as [Q]); comments start with #",
                                               "números antes del primer título de bloque (como [Q]); los comentarios empiezan con #"));
            skipping = true;
        }
    }
    finish_block(path, ans, &b);
}

/* say_once_problems - the problems said once for the whole file */
static void say_once_problems(const char *path)
{
    char more[64] = "";
    if (separators.count > 1)
        snprintf(more, sizeof more, L(", and %d more lines like it", ", y %d líneas más como esta"), separators.count - 1);
    if (separators.count)
        parse_error(path, separators.line, separators.step,
                    L("separate numbers with spaces, not commas, semicolons or brackets: `%s`%s (a decimal comma between digits, 0,61, is fine)",
                      "separa los números con espacios, no con comas, puntos y comas ni corchetes: `%s`%s (la coma decimal entre cifras, 0,61, vale)"),
                    separators.text, more);
    if (percents.count)
        parse_error(path, percents.line, percents.step,
                    L("'%s' is a percent (%d %s like it): write values as plain numbers, 0.63 for 63%%; a row of weights adds up to 1, not 100",
                      "'%s' es un porcentaje (%d %s así): escribe los valores como números, 0.63 para 63%%; una fila de pesos suma 1, no 100"),
                    percents.text, percents.count,
                    percents.count == 1 ? L("cell", "celda") : L("cells", "celdas"));
}

/* say_missing_block - block s is not in the file (it is pending): where it
 * belongs, said only to explain other problems */
static void say_missing_block(const char *path, const struct answers *ans, int s)
{
    int prev = -1, next = -1;
    for (int k = s - 1; k >= 0 && prev < 0; k--) if (ans->present[k]) prev = k;
    for (int k = s + 1; k < N_STEPS && next < 0; k++) if (ans->present[k]) next = k;
    char where[96] = "";
    if (prev >= 0)
        snprintf(where, sizeof where, L("; expected after [%s] (lines %d to %d)", "; se esperaba después de [%s] (líneas %d a %d)"),
                 STEPS[prev].key, ans->title_line[prev], ans->end_line[prev]);
    else if (next >= 0)
        snprintf(where, sizeof where, L("; expected before [%s] (line %d)", "; se esperaba antes de [%s] (línea %d)"),
                 STEPS[next].key, ans->title_line[next]);
    parse_error(path, prev >= 0 ? ans->end_line[prev] + 1 : next >= 0 ? ans->title_line[next] : 0, s,
                L("the block is missing: a title line [%s] %s (%d x %d), then %d %s of %d%s",
                  "falta el bloque: una línea de título [%s] %s (%d x %d), y luego %d %s de %d%s"),
                STEPS[s].key, STEPS[s].formula, STEPS[s].rows, STEPS[s].cols,
                STEPS[s].rows, STEPS[s].rows == 1 ? L("row", "fila") : L("rows", "filas"),
                STEPS[s].cols, where);
    n_errors--;                        /* not a problem of its own */
}

/* read_answers - parse the answers file; false (after printing every
 * problem) if it cannot be read or its layout is wrong */
static bool read_answers(const char *path, struct answers *ans)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(msg_out, L("%s: cannot open the answers file\n",
                           "%s: no se puede abrir el archivo de respuestas\n"), path);
        return false;
    }
    memset(ans, 0, sizeof *ans);
    bool titled[N_STEPS] = {false};
    prescan(f, titled);
    read_blocks(f, path, ans, titled);
    if (ferror(f)) parse_error(path, 0, -1, L("read error", "error de lectura"));
    fclose(f);
    say_once_problems(path);
    int n_present = 0;
    for (int s = 0; s < N_STEPS; s++) n_present += ans->present[s];
    if (n_present == 0 && n_errors == 0)
        parse_error(path, 0, -1, L("no block title such as [Q]: this is not an answers file (make lab-reset NN=00 restores the untouched one)",
                                   "ningún título de bloque como [Q]: esto no es un archivo de respuestas (make lab-reset NN=00 recupera el original)"));
    for (int s = 0; s < N_STEPS && n_errors > 0 && n_present > 0; s++)
        if (!ans->present[s]) say_missing_block(path, ans, s);
    if (n_errors > MAX_ERRORS)
        fprintf(msg_out, L("... and %d more problems\n", "... y %d problemas más\n"), n_errors - MAX_ERRORS);
    return n_errors == 0;
}

/* ---- judging ---------------------------------------------------------------------- */

/* within - written is right for exact, within the tolerance of hand work */
static bool within(double written, double exact)
{
    return fabs(written - exact) <= ATOL + RTOL * fabs(exact);
}

enum status { PENDING, OK, WRONG };

struct verdict {
    enum status status;
    int filled;           /* cells written */
    bool follows;         /* wrong only because an earlier step is */
    int root;             /* the earliest wrong step this one comes from */
    int bad_cell;         /* first wrong cell */
    int n_bad;
    double expected;      /* at bad_cell: exact, or from the learner's own tables */
    bool against_own;     /* expected comes from the learner's own earlier tables */
};

/* count_bad - how many filled cells of step s are off table t; *first (if
 * not NULL): the first of them, or -1 */
static int count_bad(const struct answers *ans, int s, const double *t, int *first)
{
    int n = 0;
    if (first) *first = -1;
    for (int c = 0; c < n_cells(s); c++)
        if (ans->filled[s][c] && !within(ans->val[s][c], t[c]) && n++ == 0 && first) *first = c;
    return n;
}

/* matches - every filled cell of step s is within tolerance of table t */
static bool matches(const struct answers *ans, int s, const double *t) { return count_bad(ans, s, t, NULL) == 0; }

/* judge - the verdict of every step; own = each step computed from the
 * learner's earlier tables (exact values where a cell is `?`) */
static void judge(const struct answers *ans, const tables *exact, const tables *own,
                  struct verdict *v)
{
    for (int s = 0; s < N_STEPS; s++) {
        struct verdict *w = &v[s];
        memset(w, 0, sizeof *w);
        w->root = s;
        w->bad_cell = -1;
        bool deps_ok = true;
        int wrong_root = N_STEPS;
        for (int d = 0; d < N_STEPS; d++)
            if ((STEPS[s].deps & BIT(d)) && v[d].status == WRONG) {
                deps_ok = false;
                if (v[d].root < wrong_root) wrong_root = v[d].root;
            }
        for (int c = 0; c < n_cells(s); c++) {
            if (!ans->filled[s][c]) continue;
            w->filled++;
            double x = ans->val[s][c];
            bool ok = within(x, exact->v[s][c]) || (deps_ok && within(x, own->v[s][c]));
            if (!ok) {
                if (w->bad_cell < 0) w->bad_cell = c;
                w->n_bad++;
            }
        }
        if (w->n_bad == 0) {
            w->status = w->filled == n_cells(s) ? OK : PENDING;
            continue;
        }
        w->status = WRONG;
        if (!deps_ok && matches(ans, s, own->v[s])) {
            w->follows = true;
            w->root = wrong_root;
        }
        if (deps_ok) {
            w->expected = exact->v[s][w->bad_cell];
        } else {                       /* judge it on the learner's own tables */
            w->against_own = true;
            w->n_bad = count_bad(ans, s, own->v[s], &w->bad_cell);
            if (w->bad_cell < 0) {     /* follows: show the first cell off the exact value */
                count_bad(ans, s, exact->v[s], &w->bad_cell);
                w->against_own = false;
                w->expected = exact->v[s][w->bad_cell];
            } else {
                w->expected = own->v[s][w->bad_cell];
            }
        }
    }
}

/* judge_answers - the verdict of every step of ans; mine = the learner's
 * tables (exact values where a cell is `?`), own = each step computed from mine */
static void judge_answers(const struct answers *ans, const tables *exact, tables *mine, tables *own,
                          struct verdict *v)
{
    for (int s = 0; s < N_STEPS; s++)
        for (int c = 0; c < n_cells(s); c++)
            mine->v[s][c] = ans->filled[s][c] ? ans->val[s][c] : exact->v[s][c];
    for (int s = 0; s < N_STEPS; s++) compute_step(s, mine, own->v[s]);
    judge(ans, exact, own, v);
}

/* ---- hints ----------------------------------------------------------------------- */

/* print_hint - one hint line; returns 1 (the count printed) */
static int print_hint(const char *text)
{
    printf(L("  hint: %s\n", "  pista: %s\n"), text);
    return 1;
}

/* rounded_from - written is want rounded to d decimals, and d is fewer than two */
static bool rounded_from(double written, int d, double want)
{
    if (d >= 2) return false;
    double p = pow(10.0, d);
    return fabs(round(want * p) / p - written) < 1e-9;
}

/* too_coarse - every wrong cell of step s is a right value (exact, or from
 * the learner's own tables) rounded to fewer than two decimals; *cell is the
 * first such cell and *want its right value */
static bool too_coarse(const struct answers *ans, int s, const tables *exact, const tables *own,
                       int *cell, double *want)
{
    *cell = -1;
    for (int c = 0; c < n_cells(s); c++) {
        double x = ans->val[s][c];
        int d = ans->decimals[s][c];
        if (!ans->filled[s][c] || within(x, exact->v[s][c]) || within(x, own->v[s][c])) continue;
        double right = rounded_from(x, d, exact->v[s][c]) ? exact->v[s][c]
                     : rounded_from(x, d, own->v[s][c]) ? own->v[s][c] : NAN;
        if (isnan(right)) return false;
        if (*cell < 0) { *cell = c; *want = right; }
    }
    return *cell >= 0;
}

/* in_percent - every written cell of step s is a right value times 100 */
static bool in_percent(const struct answers *ans, int s, const tables *exact, const tables *own)
{
    int n = 0;
    for (int c = 0; c < n_cells(s); c++) {
        if (!ans->filled[s][c]) continue;
        double x = ans->val[s][c] / 100.0;
        if (!within(x, exact->v[s][c]) && !within(x, own->v[s][c])) return false;
        n++;
    }
    return n > 0;
}

/* a cell outside the range its step allows, and what that says (one per step) */
static bool outside_share(double x, int c, const tables *mine) { (void)c; (void)mine; return x < 0.0 || x > 1.0; }
static bool outside_exp(double x, int c, const tables *mine) { (void)c; (void)mine; return x > 1.0 + ATOL || x <= 0.0; }
/* outside_v - x, in column c % D_V of O, outside that column's range in the learner's V */
static bool outside_v(double x, int c, const tables *mine)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j < T; j++) {
        lo = fmin(lo, mine->v[ST_V][j * D_V + c % D_V]);
        hi = fmax(hi, mine->v[ST_V][j * D_V + c % D_V]);
    }
    return x < lo - ATOL || x > hi + ATOL;
}
static const struct {
    int step;
    bool (*outside)(double x, int c, const tables *mine);
    const char *en, *es;
} BOUNDS[] = {
    {ST_A, outside_share, "a weight is a share: every weight lies between 0 and 1.",
     "un peso es una proporción: cada peso está entre 0 y 1."},
    {ST_E, outside_exp, "after the maximum is subtracted every exponent is <= 0, so every value of E lies in (0, 1].",
     "tras restar el máximo cada exponente es <= 0, así que cada valor de E está en (0, 1]."},
    {ST_O, outside_v, "each row of O is a weighted average of the rows of V (weights >= 0 that sum to 1), so column c of O lies between the smallest and the largest value of column c of V.",
     "cada fila de O es una media ponderada de las filas de V (pesos >= 0 que suman 1), así que la columna c de O está entre el menor y el mayor valor de la columna c de V."},
};

/* notation_hint - a table otherwise right but rounded to fewer than two
 * decimals, or weights written as percents: print the hint, return 1 */
static int notation_hint(const struct answers *ans, int s, const tables *exact, const tables *own)
{
    int cc;
    double want;
    char buf[320];
    if (too_coarse(ans, s, exact, own, &cc, &want)) {
        int d = ans->decimals[s][cc];
        snprintf(buf, sizeof buf,
                 L("write at least two decimals: your %s is %.4f rounded to %d %s, and a value is right only within %.2f + %.2f |exact| (%.4f here); with two decimals it is %.2f.",
                   "escribe al menos dos decimales: tu %s es %.4f redondeado a %d %s, y un valor solo está bien dentro de %.2f + %.2f |exacto| (%.4f aquí); con dos decimales es %.2f."),
                 ans->text[s][cc], want, d, d == 1 ? L("decimal", "decimal") : L("decimals", "decimales"),
                 ATOL, RTOL, ATOL + RTOL * fabs(want), want);
        return print_hint(buf);
    }
    if (s == ST_A && in_percent(ans, s, exact, own))
        return print_hint(L("weights are fractions, not percents: write 0.63, not 63; each row of A sums to 1, not 100.",
                            "los pesos son fracciones, no porcentajes: escribe 0.63, no 63; cada fila de A suma 1, no 100."));
    return 0;
}

/* mistake_hints - the hint of every catalogued mistake of step s whose table
 * (from the exact tables or the learner's) the learner wrote; the count */
static int mistake_hints(const struct answers *ans, int s, const tables *exact, const tables *mine)
{
    int n = 0;
    double t[MAX_CELLS];
    for (int k = 0; k < N_MISTAKES; k++) {
        const struct mistake *m = &MISTAKES[k];
        if (m->step != s) continue;
        m->fn(exact, t);
        bool hit = matches(ans, s, t);
        m->fn(mine, t);
        if (hit || matches(ans, s, t)) n += print_hint(L(m->hint_en, m->hint_es));
    }
    return n;
}

/* transposed - the square step s is written as the transpose of the exact table or of own's */
static bool transposed(const struct answers *ans, int s, const tables *exact, const tables *own)
{
    double tt[MAX_CELLS];
    if (STEPS[s].rows != STEPS[s].cols) return false;
    transpose(tt, exact->v[s], T, T);
    bool hit = matches(ans, s, tt);
    transpose(tt, own->v[s], T, T);
    return hit || matches(ans, s, tt);
}

/* row_sum_hints - weights A, all written, whose rows do not sum to 1; the count */
static int row_sum_hints(const struct answers *ans)
{
    const double *a = ans->val[ST_A];
    double r[T], cs[T];
    bool cols_one = true, rows_one = true;
    char buf[320];
    for (int c = 0; c < T * T; c++) if (!ans->filled[ST_A][c]) return 0;
    row_sum(r, a); col_sum(cs, a);
    for (int i = 0; i < T; i++) {
        if (fabs(cs[i] - 1.0) > 0.02) cols_one = false;
        if (fabs(r[i] - 1.0) > 0.02) rows_one = false;
    }
    if (cols_one && !rows_one)
        return print_hint(L("each row of weights must sum to 1; your columns do.",
                            "cada fila de pesos debe sumar 1; en tu tabla suman 1 las columnas."));
    int n = 0;
    for (int i = 0; i < T; i++)
        if (fabs(r[i] - 1.0) > 0.02) {
            snprintf(buf, sizeof buf,
                     L("row %d of your weights sums to %.2f, not 1: divide row %d of E by its own sum r_%d.",
                       "la fila %d de tus pesos suma %.2f, no 1: divide la fila %d de E por su propia suma r_%d."),
                     i, r[i], i, i);
            n += print_hint(buf);
        }
    return n;
}

/* bound_hint - a written cell of step s outside the range BOUNDS gives it: its hint, once */
static int bound_hint(const struct answers *ans, int s, const tables *mine)
{
    for (size_t b = 0; b < sizeof BOUNDS / sizeof BOUNDS[0]; b++)
        for (int c = 0; c < n_cells(s) && BOUNDS[b].step == s; c++)
            if (ans->filled[s][c] && BOUNDS[b].outside(ans->val[s][c], c, mine))
                return print_hint(L(BOUNDS[b].en, BOUNDS[b].es));
    return 0;
}

/* hints - print what the learner most likely did in step s; returns the count.
 * Rounding and percents first: they explain a table that is otherwise right.
 * One odd cell says little about how a table was made: name a mistake (or a
 * transpose) only when two or more cells differ, or the whole block is written. */
static int hints(const struct answers *ans, int s, const tables *exact, const tables *mine,
                 const tables *own, const struct verdict *w)
{
    int n = notation_hint(ans, s, exact, own);
    if (n > 0) return n;
    bool enough = w->n_bad >= 2 || w->filled == n_cells(s);
    if (enough && (n = mistake_hints(ans, s, exact, mine)) > 0) return n;
    if (enough && transposed(ans, s, exact, own))
        n += print_hint(L("your table is the transpose of the expected one: row i and column i are swapped.",
                          "tu tabla es la traspuesta de la esperada: la fila i y la columna i están intercambiadas."));
    if (s == ST_A) n += row_sum_hints(ans);
    n += bound_hint(ans, s, mine);
    return n > 0 ? n : print_hint(L(RULES[s][0], RULES[s][1]));
}

/* ---- reporting --------------------------------------------------------------------- */

/* cell_name - "row r, column c" of cell c of step s (just "row r" for a vector) */
static void cell_name(char *buf, size_t size, int s, int c)
{
    if (STEPS[s].cols == 1) snprintf(buf, size, L("row %d", "fila %d"), c);
    else snprintf(buf, size, L("row %d, column %d", "fila %d, columna %d"),
                  c / STEPS[s].cols, c % STEPS[s].cols);
}

/* status_word - the word shown in the status column */
static const char *status_word(enum status st)
{
    return st == OK ? "ok" : st == WRONG ? L("WRONG", "MAL") : L("pending", "pendiente");
}

/* print_step_table - the header, then one line per step and its status */
static void print_step_table(const char *path, const struct answers *ans, const struct verdict *v)
{
    printf(L("Lab 00, attention by hand: %s\n", "Lab 00, atención a mano: %s\n"), path);
    printf(L("A value is right when |written - exact| <= %.2f + %.2f |exact|; rows and columns count from 0.\n\n",
             "Un valor está bien si |escrito - exacto| <= %.2f + %.2f |exacto|; filas y columnas se cuentan desde 0.\n\n"),
           ATOL, RTOL);
    printf("  %-9s %-28s %-6s %s\n", L("step", "paso"), L("computes", "calcula"), L("shape", "forma"),
           L("status", "estado"));
    for (int s = 0; s < N_STEPS; s++) {
        char key[16], shape[16], note[128] = "";
        snprintf(key, sizeof key, "[%s]", STEPS[s].key);
        snprintf(shape, sizeof shape, "%dx%d", STEPS[s].rows, STEPS[s].cols);
        if (!ans->present[s])
            snprintf(note, sizeof note, L("  (the block is not in the file)", "  (el bloque no está en el archivo)"));
        else if (v[s].status == PENDING && v[s].filled > 0)
            snprintf(note, sizeof note, L("  (%d of %d cells written)", "  (%d de %d celdas escritas)"),
                     v[s].filled, n_cells(s));
        if (v[s].status == WRONG && v[s].follows)
            snprintf(note, sizeof note, L("  follows from your [%s]", "  viene de tu [%s]"),
                     STEPS[v[s].root].key);
        printf("  %-9s %-28s %-6s %s%s\n", key, STEPS[s].formula, shape, status_word(v[s].status), note);
    }
}

/* print_wrong_step - where wrong step s differs first (first: the first wrong
 * step), by how many cells, and the hints */
static void print_wrong_step(const struct answers *ans, int s, bool first, const tables *exact,
                             const tables *mine, const tables *own, const struct verdict *w)
{
    char cell[48];
    cell_name(cell, sizeof cell, s, w->bad_cell);
    printf(first ? L("\nFirst step that differs: [%s] %s, %s (line %d):\n",
                     "\nPrimer paso que difiere: [%s] %s, %s (línea %d):\n")
                 : L("\nAlso wrong on its own: [%s] %s, %s (line %d):\n",
                     "\nTambién está mal por sí mismo: [%s] %s, %s (línea %d):\n"),
           STEPS[s].key, STEPS[s].formula, cell, ans->line[s][w->bad_cell]);
    printf(w->against_own ? L("  from your own earlier tables it is %.4f; you wrote %s",
                              "  con tus propias tablas anteriores es %.4f; escribiste %s")
                          : L("  expected %.4f, you wrote %s", "  se esperaba %.4f, escribiste %s"),
           w->expected, ans->text[s][w->bad_cell]);
    printf(L(" (%d of %d written cells differ).\n", " (%d de %d celdas escritas difieren).\n"),
           w->n_bad, w->filled);
    hints(ans, s, exact, mine, own, w);
}

/* report - the step table, then the detail of the wrong steps; returns the exit status */
static int report(const char *path, const struct answers *ans, const tables *exact,
                  const tables *mine, const tables *own, const struct verdict *v, bool brief)
{
    int n[3] = {0}, first_wrong = -1, next = -1;      /* n: PENDING, OK, WRONG */
    bool any_follow = false;
    for (int s = N_STEPS - 1; s >= 0; s--) {
        n[v[s].status]++;
        if (v[s].status == WRONG) first_wrong = s;
        if (v[s].status == PENDING) next = s;
        if (v[s].status == WRONG && v[s].follows) any_follow = true;
    }
    if (brief && n[WRONG] == 0) {
        printf(L("lab00 (%s): %d of %d steps right, %d pending, none wrong\n",
                 "lab00 (%s): %d de %d pasos bien, %d pendientes, ninguno mal\n"),
               path, n[OK], N_STEPS, n[PENDING]);
        return 0;
    }
    print_step_table(path, ans, v);
    printf(L("\n%d of %d steps right, %d wrong, %d pending.\n", "\n%d de %d pasos bien, %d mal, %d pendientes.\n"),
           n[OK], N_STEPS, n[WRONG], n[PENDING]);
    for (int s = first_wrong; s >= 0 && s < N_STEPS; s++)
        if (v[s].status == WRONG && !v[s].follows) print_wrong_step(ans, s, s == first_wrong, exact, mine, own, &v[s]);
    if (any_follow)
        printf(L("\nSteps marked \"follows from\" are right for the tables you wrote before them: fix the earlier step first.\n",
                 "\nLos pasos marcados \"viene de\" están bien para las tablas que escribiste antes: corrige primero el paso anterior.\n"));
    if (first_wrong >= 0) return 1;
    if (next < 0)
        printf(L("\nEvery step is right: you have computed attention by hand.\n",
                 "\nTodos los pasos están bien: has calculado la atención a mano.\n"));
    else
        printf(L("\nNext: [%s] %s.\n", "\nSiguiente: [%s] %s.\n"), STEPS[next].key, STEPS[next].formula);
    return 0;
}

/* ---- the other modes ----------------------------------------------------------------- */

/* the example's inputs: X, then the three weight matrices */
static const struct { const char *name; const double *a; int rows, cols; } INPUTS[] = {
    {"X", X, T, D_MODEL}, {"W_Q", W_Q, D_MODEL, D_K}, {"W_K", W_K, D_MODEL, D_K}, {"W_V", W_V, D_MODEL, D_V},
};

/* json_string - s as a JSON string */
static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

/* json_matrix - a table (rows x cols, row-major) as a JSON array of rows;
 * a cell not written (filled[c] false) is null */
static void json_matrix(const double *a, const bool *filled, int rows, int cols)
{
    putchar('[');
    for (int i = 0; i < rows; i++) {
        printf("%s[", i ? ", " : "");
        for (int j = 0; j < cols; j++) {
            int c = i * cols + j;
            if (filled && !filled[c]) printf("%snull", j ? ", " : "");
            else printf("%s%.17g", j ? ", " : "", a[c]);
        }
        putchar(']');
    }
    putchar(']');
}

/* json_inputs - "name": {"X": x, "W_Q": ..., "W_K": ..., "W_V": ...} */
static void json_inputs(const char *name, const double *x)
{
    printf("  \"%s\": {", name);
    for (int k = 0; k < 4; k++) {
        printf("%s\"%s\": ", k ? ", " : "", INPUTS[k].name);
        json_matrix(k ? INPUTS[k].a : x, NULL, INPUTS[k].rows, INPUTS[k].cols);
    }
    printf("},\n");
}

/* json_tables - "name": {"Q": ..., ..., "O": ...} */
static void json_tables(const char *name, const tables *t, const char *end)
{
    printf("  \"%s\": {", name);
    for (int s = 0; s < N_STEPS; s++) {
        printf("%s\"%s\": ", s ? ", " : "", STEPS[s].key);
        json_matrix(t->v[s], NULL, STEPS[s].rows, STEPS[s].cols);
    }
    printf("}%s\n", end);
}

/* print_json - what numpy_check.py needs, as one JSON object: the sizes and
 * the hand tolerance; the steps (key, formula, shape); the inputs and exact
 * tables of the example ("inputs", "exact") and of the probe, X times LARGE
 * ("large_inputs", "large_exact"); and "hand": null without ANSWERS, else
 * {"path", "readable"} and, when readable, "steps": KEY -> {"status": "ok" |
 * "wrong" | "pending", "follows": KEY of the earlier step it follows from
 * or null, "cells": the table written, null for a `?`}. Problems reading
 * ANSWERS go to stderr (msg_out). Exit 0, or 2 when ANSWERS cannot be read. */
static int print_json(const char *path)
{
    tables exact, large;
    double xl[T * D_MODEL];
    compute_all(&exact);
    large_x(xl);
    compute_all_from(xl, &large);
    printf("{\n  \"T\": %d, \"d_model\": %d, \"d_k\": %d, \"d_v\": %d, \"atol\": %.17g, \"rtol\": %.17g, "
           "\"large\": %d,\n  \"steps\": [", T, D_MODEL, D_K, D_V, ATOL, RTOL, LARGE);
    for (int s = 0; s < N_STEPS; s++)
        printf("%s{\"key\": \"%s\", \"formula\": \"%s\", \"rows\": %d, \"cols\": %d}", s ? ", " : "",
               STEPS[s].key, STEPS[s].formula, STEPS[s].rows, STEPS[s].cols);
    printf("],\n");
    json_inputs("inputs", X);
    json_tables("exact", &exact, ",");
    json_inputs("large_inputs", xl);
    json_tables("large_exact", &large, ",");
    static struct answers ans;
    printf("  \"hand\": ");
    if (!path) {
        printf("null\n}\n");
        return 0;
    }
    printf("{\"path\": ");
    json_string(path);
    if (!read_answers(path, &ans)) {
        printf(", \"readable\": false}\n}\n");
        return 2;
    }
    tables mine, own;
    struct verdict v[N_STEPS];
    judge_answers(&ans, &exact, &mine, &own, v);
    printf(", \"readable\": true, \"steps\": {\n");
    for (int s = 0; s < N_STEPS; s++) {
        printf("    \"%s\": {\"status\": \"%s\", \"follows\": ", STEPS[s].key,
               v[s].status == OK ? "ok" : v[s].status == WRONG ? "wrong" : "pending");
        if (v[s].status == WRONG && v[s].follows) printf("\"%s\"", STEPS[v[s].root].key);
        else printf("null");
        printf(", \"cells\": ");
        json_matrix(ans.val[s], ans.filled[s], STEPS[s].rows, STEPS[s].cols);
        printf("}%s\n", s + 1 < N_STEPS ? "," : "");
    }
    printf("  }}\n}\n");
    return 0;
}

/* far - tables a and b differ by more than 3 tolerances in at least one cell */
static bool far(const double *a, const double *b, int n)
{
    for (int c = 0; c < n; c++)
        if (fabs(a[c] - b[c]) > 3.0 * (ATOL + RTOL * fabs(b[c]))) return true;
    return false;
}

/* require - print one requirement of the example, ok or FAIL; count the failures */
static int fails;
#define require(cond, ...) do { bool ok_ = (cond); printf("%s ", ok_ ? "ok  " : "FAIL"); \
                                printf(__VA_ARGS__); printf("\n"); fails += !ok_; } while (0)

/* probe_requirements - the probe (X times LARGE) overflows a softmax without
 * the maximum in one row, not in another, and its exact tables are finite */
static void probe_requirements(const tables *e)
{
    tables l;
    double xl[T * D_MODEL], zmax = -INFINITY, zmin_rowmax = INFINITY;
    large_x(xl);
    compute_all_from(xl, &l);
    for (int i = 0; i < T; i++) {
        zmax = fmax(zmax, l.v[ST_M][i]);
        zmin_rowmax = fmin(zmin_rowmax, l.v[ST_M][i]);
    }
    bool finite = true;
    for (int s = 0; s < N_STEPS; s++)
        for (int c = 0; c < n_cells(s); c++) finite = finite && isfinite(l.v[s][c]);
    require(finite, "the probe (X times %d): every exact table is finite", LARGE);
    require(!isfinite(exp(zmax)), "the probe: exp of its largest scaled score (%g) overflows", zmax);
    require(isfinite(exp(zmin_rowmax)), "the probe: some row's largest scaled score (%g) does not overflow, "
            "so a softmax without the maximum is right in that row and wrong in another", zmin_rowmax);
    require(far(l.v[ST_A], e->v[ST_A], T * T), "the probe's weights differ from the example's");
}

/* mistake_requirements - each mistake differs from the exact table, and from
 * every other mistake of its step */
static void mistake_requirements(const tables *e)
{
    for (int k = 0; k < N_MISTAKES; k++) {
        double t[MAX_CELLS];
        MISTAKES[k].fn(e, t);
        require(far(t, e->v[MISTAKES[k].step], n_cells(MISTAKES[k].step)),
                "mistake %-14s differs from the exact [%s]", MISTAKES[k].id, STEPS[MISTAKES[k].step].key);
        for (int j = k + 1; j < N_MISTAKES; j++) {
            if (MISTAKES[j].step != MISTAKES[k].step) continue;
            double u[MAX_CELLS];
            MISTAKES[j].fn(e, u);
            require(far(t, u, n_cells(MISTAKES[k].step)), "mistakes %s and %s are told apart",
                    MISTAKES[k].id, MISTAKES[j].id);
        }
    }
}

/* self_test - the example meets its own requirements; prints each check */
static int self_test(void)
{
    tables e;
    compute_all(&e);
    double st[T * T];
    transpose(st, e.v[ST_S], T, T);
    require(far(st, e.v[ST_S], T * T), "S = Q K^T is not symmetric (K Q^T differs)");
    const double *m = e.v[ST_M];
    require(m[0] != m[1] && m[0] != m[2] && m[1] != m[2], "the rows of the scaled scores have different maxima");
    require(m[0] != 0 && m[1] != 0 && m[2] != 0, "no row maximum is 0 (so forgetting it changes E)");
    bool distinct = true;
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++)
            for (int k = j + 1; k < T; k++)
                if (!far(&e.v[ST_A][i * T + j], &e.v[ST_A][i * T + k], 1)) distinct = false;
    require(distinct, "no two weights of a row are within 3 tolerances of each other");
    double r[T];
    row_sum(r, e.v[ST_A]);
    require(fabs(r[0] - 1) < 1e-12 && fabs(r[1] - 1) < 1e-12 && fabs(r[2] - 1) < 1e-12, "each row of A sums to 1");
    double amin = 1.0;
    for (int c = 0; c < T * T; c++) amin = fmin(amin, e.v[ST_A][c]);
    require(amin >= 0.05, "every weight is at least 0.05 (two decimals show it)");
    require(fabs(1.0 / sqrt((double)D_K) - 0.5) < 1e-15, "1/sqrt(d_k) is exactly 1/2");
    probe_requirements(&e);
    mistake_requirements(&e);
    printf("%s: %d requirement%s failed\n", fails ? "FAIL" : "ok", fails, fails == 1 ? "" : "s");
    return fails ? 1 : 0;
}

/* ---- main ------------------------------------------------------------------------------ */

/* usage - the command line, on stderr */
static void usage(void)
{
    fprintf(stderr, "usage: check [--lang=en|es] [--brief | --summary] ANSWERS\n"
                    "       check [--lang=en|es] --reference-json [ANSWERS]\n"
                    "       check --self-test\n");
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    bool brief = false, summary = false, json = false;
    msg_out = stdout;
    /* LAB_LANG=es: make and the self-tests set it from the locale (judge/harness/lang.sh) */
    const char *env_lang = getenv("LAB_LANG");
    lang_es = env_lang && strcmp(env_lang, "es") == 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--lang=es") == 0) lang_es = true;
        else if (strcmp(a, "--lang=en") == 0) lang_es = false;
        else if (strcmp(a, "--lang=") == 0) {}             /* empty: keep the environment's */
        else if (strcmp(a, "--brief") == 0) brief = true;
        else if (strcmp(a, "--summary") == 0) { summary = true; msg_out = stderr; }
        else if (strcmp(a, "--self-test") == 0) return self_test();
        else if (strcmp(a, "--reference-json") == 0) { json = true; msg_out = stderr; }
        else if (a[0] == '-' && a[1] != '\0') { usage(); return 2; }
        else if (path) { usage(); return 2; }
        else path = a;
    }
    if (json) return print_json(path);
    if (!path) { usage(); return 2; }

    static struct answers ans;
    if (!read_answers(path, &ans)) {
        fprintf(msg_out, L("\nThe file could not be checked: fix the lines above (the layout is explained at the top of answers.txt).\n",
                 "\nNo se pudo revisar el archivo: corrige las líneas de arriba (el formato se explica al principio de answers.txt).\n"));
        return 2;
    }
    tables exact, mine, own;
    struct verdict v[N_STEPS];
    compute_all(&exact);
    judge_answers(&ans, &exact, &mine, &own, v);
    if (summary) {
        for (int s = 0; s < N_STEPS; s++)
            printf("%s\t%d\t%d\t%d\n", STEPS[s].key, v[s].status == PENDING, v[s].status == OK,
                   v[s].status == WRONG);
        for (int s = 0; s < N_STEPS; s++) if (v[s].status == WRONG) return 1;
        return 0;
    }
    return report(path, &ans, &exact, &mine, &own, v, brief);
}

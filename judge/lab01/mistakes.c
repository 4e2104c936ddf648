/* mistakes.c - the common mistakes of lab 01, each computed on the failing
 * case's input: when one reproduces the learner's output (and differs from
 * the right answer there), its hint is printed. The mistakes of a function
 * are tried most likely first, and the first that fits is the one named
 * (on a symmetric input two of them can give the same output). The hints
 * that say the same whatever the input are tables of their function, in
 * English and Spanish. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lab01.h"

/* explains - the outputs m[] of a mistake (n of len[] elements) explain
 * the learner's got[]: then its hint (English, Spanish) is said */
static bool explains(int n, const double *const got[], const double *const want[],
                     double *const m[], const size_t len[], double scale,
                     const char *const hint[2])
{
    if (!lab_explained(n, got, want, (const double *const *)m, len, scale)) return false;
    lab_hint("%s", hint[lab_es()]);
    return true;
}

/* scratch_qkv - zeroed q, k, v in m[0..2], each (T, width[i]) of len[i]
 * elements: where a mistake's outputs are computed */
static void scratch_qkv(double *m[3], size_t len[3], int T, const int width[3])
{
    for (int i = 0; i < 3; i++) {
        len[i] = (size_t)T * width[i];
        m[i] = lab_fresh(len[i], NULL);
    }
}

/* WIDTHS(c) - the widths of Q, K, V: d_k, d_k, d_v; WEIGHTS(c) - their matrices */
#define WIDTHS(c) { (c)->d_k, (c)->d_k, (c)->d_v }
#define WEIGHTS(c) { (c)->w_q, (c)->w_k, (c)->w_v }

/* product - c (n, m) = a (n, k) b (k, m); with b_read_transposed, element
 * (p, j) of b is taken from b[j * k + p], as if b were stored (m, k) */
static void product(double *c, const double *a, const double *b, int n, int k, int m,
                    bool b_read_transposed)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double dot = 0.0;
            for (int p = 0; p < k; p++)
                dot += a[(size_t)i * k + p] *
                       (b_read_transposed ? b[(size_t)j * k + p] : b[(size_t)p * m + j]);
            c[(size_t)i * m + j] = dot;
        }
}

/* the orders of Q, K, V: the right one, then the five wrong ones (the blocks
 * of W_QKV or qkv in a wrong order; the matrices given to the wrong outputs) */
static const int orders[6][3] = {
    { 0, 1, 2 }, { 1, 0, 2 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 2, 0 }, { 2, 0, 1 }
};
static const char *const block_name[3] = { "Q", "K", "V" };
static const char *const out_name[3] = { "q", "k", "v" };
static const char *const w_name[3] = { "W_Q", "W_K", "W_V" };

/* block_offset - the column where block b starts when the blocks go in order o */
static int block_offset(const int o[3], int b, const int width[3])
{
    int off = 0;
    for (int i = 0; o[i] != b; i++) off += width[o[i]];
    return off;
}

/* order_hint - name the first block out of place in order o */
static void order_hint(const char *what, const int o[3])
{
    int pos = 0;
    while (o[pos] == pos) pos++;
    lab_hint(EN_ES("your %s has the %s block where %s belongs (your order is %s | %s | %s): "
                   "the blocks are Q | K | V, left to right",
                   "tu %s tiene el bloque %s donde va %s (tu orden es %s | %s | %s): "
                   "los bloques son Q | K | V, de izquierda a derecha"),
             what, block_name[o[pos]], block_name[pos], block_name[o[0]], block_name[o[1]],
             block_name[o[2]]);
}

/* ---- qkv_project --------------------------------------------------------------------- */

static const char *const project_transposed[2] = {
    "you read the weight matrices transposed: W_Q is (d_model, d_k), stored row by row, so "
    "its element (i, j) is w_q[i * d_k + j]; Q = X W_Q combines row t of X with column j of "
    "W_Q",
    "leíste las matrices de pesos traspuestas: W_Q es (d_model, d_k), guardada por filas, "
    "así que su elemento (i, j) es w_q[i * d_k + j]; Q = X W_Q combina la fila t de X con "
    "la columna j de W_Q"
};

/* matrices_hint - name the outputs that were projected with another one's
 * matrix: output o with w[uses[o]] */
static void matrices_hint(const int uses[3])
{
    char yours[128] = "";
    int len = 0, n_wrong = 0;
    for (int o = 0; o < 3; o++) n_wrong += uses[o] != o;
    for (int o = 0, k = 0; o < 3; o++) {
        if (uses[o] == o) continue;
        k++;
        len += snprintf(yours + len, sizeof yours - len,
                        EN_ES("%syour %s is X %s", "%stu %s es X %s"),
                        k == 1 ? "" : k == n_wrong ? EN_ES(" and ", " y ") : ", ", out_name[o],
                        w_name[uses[o]]);
    }
    lab_hint(EN_ES("you %s the matrices: %s; Q = X W_Q, K = X W_K, V = X W_V (each "
                   "projection has its own matrix)",
                   "%s las matrices: %s; Q = X W_Q, K = X W_K, V = X W_V (cada "
                   "proyección tiene su propia matriz)"),
             n_wrong == 2 ? EN_ES("swapped", "intercambiaste") : EN_ES("mixed up", "mezclaste"),
             yours);
}

void diagnose_project(const double *const got[], const double *const want[], double scale,
                      void *ctx)
{
    const qkv_case *c = ctx;
    int T = c->T, d_model = c->d_model, width[3] = WIDTHS(c);
    const double *w[3] = WEIGHTS(c);
    size_t len[3];
    double *m[3];
    scratch_qkv(m, len, T, width);

    /* the weights read transposed */
    for (int i = 0; i < 3; i++) product(m[i], c->x, w[i], T, d_model, width[i], true);
    if (explains(3, got, want, m, len, scale, project_transposed)) return;

    /* one output projected with another output's matrix (tried before the
     * swaps below, which would explain it too: lab_explained lets an output
     * be right) */
    for (int o = 0; o < 3; o++)
        for (int s = 0; s < 3; s++) {
            if (s == o || width[s] != width[o]) continue;
            for (int i = 0; i < 3; i++) memcpy(m[i], want[i], len[i] * sizeof *m[i]);
            product(m[o], c->x, w[s], T, d_model, width[o], false);
            if (lab_explained(3, got, want, (const double **)m, len, scale)) {
                lab_hint(EN_ES("your %s is X %s: %s = X %s (each projection has its own "
                               "matrix)",
                               "tu %s es X %s: %s = X %s (cada proyección tiene su propia "
                               "matriz)"),
                         out_name[o], w_name[s], block_name[o], w_name[o]);
                return;
            }
        }

    /* the matrices swapped (q = X W_K, k = X W_Q) or mixed up: output o
     * projected with the matrix orders[p][o] */
    for (int p = 1; p < 6; p++) {
        const int *uses = orders[p];
        bool fits = true;
        for (int o = 0; o < 3; o++) fits &= width[uses[o]] == width[o];
        if (!fits) continue;
        for (int o = 0; o < 3; o++) product(m[o], c->x, w[uses[o]], T, d_model, width[o], false);
        if (lab_explained(3, got, want, (const double **)m, len, scale)) {
            matrices_hint(uses);
            return;
        }
    }
}

/* ---- qkv_pack -------------------------------------------------------------------------- */

enum { STACKED, TRANSPOSED, ROW_STRIDE };
static const char *const pack_hints[][2] = {
    [STACKED] = {
        "you copied W_Q, W_K and W_V one after another, as if stacked: their blocks sit side "
        "by side, so row i of W_QKV is row i of W_Q, then row i of W_K, then row i of W_V "
        "(2 d_k + d_v numbers)",
        "copiaste W_Q, W_K y W_V una detrás de otra, como apiladas: sus bloques van uno al "
        "lado de otro, así que la fila i de W_QKV es la fila i de W_Q, luego la fila i de W_K "
        "y luego la fila i de W_V (2 d_k + d_v números)" },
    [TRANSPOSED] = {
        "you stored W_QKV transposed: it is (d_model, 2 d_k + d_v), one row per input "
        "feature, so its element (i, j) is w_qkv[i * (2 d_k + d_v) + j]",
        "guardaste W_QKV traspuesta: es (d_model, 2 d_k + d_v), una fila por rasgo de "
        "entrada, así que su elemento (i, j) es w_qkv[i * (2 d_k + d_v) + j]" },
    [ROW_STRIDE] = {
        "you stepped through the rows of W_QKV with the width of one block: a row of W_QKV "
        "holds 2 d_k + d_v numbers (Q, K and V side by side), so row i starts at "
        "i * (2 d_k + d_v)",
        "recorriste las filas de W_QKV con el ancho de un solo bloque: una fila de W_QKV "
        "tiene 2 d_k + d_v números (Q, K y V uno al lado de otro), así que la fila i empieza "
        "en i * (2 d_k + d_v)" },
};

void diagnose_pack(const double *const got[], const double *const want[], double scale,
                   void *ctx)
{
    const qkv_case *c = ctx;
    int d_model = c->d_model, d_qkv = 2 * c->d_k + c->d_v, width[3] = WIDTHS(c);
    const double *w[3] = WEIGHTS(c);
    size_t len = (size_t)d_model * d_qkv;
    double *m = lab_fresh(len, NULL);

    /* the blocks side by side, in a wrong order */
    for (int o = 1; o < 6; o++) {
        for (int b = 0; b < 3; b++) {
            int off = block_offset(orders[o], b, width);
            for (int i = 0; i < d_model; i++)
                for (int j = 0; j < width[b]; j++)
                    m[(size_t)i * d_qkv + off + j] = w[b][(size_t)i * width[b] + j];
        }
        if (lab_explained(1, got, want, (const double **)&m, &len, scale)) {
            order_hint("W_QKV", orders[o]);
            return;
        }
    }

    /* the three matrices one after another, as if stacked */
    size_t at = 0;
    for (int b = 0; b < 3; b++)
        for (size_t i = 0; i < (size_t)d_model * width[b]; i++) m[at++] = w[b][i];
    if (explains(1, got, want, &m, &len, scale, pack_hints[STACKED])) return;

    /* W_QKV stored transposed */
    for (int i = 0; i < d_model; i++)
        for (int j = 0; j < d_qkv; j++)
            m[(size_t)j * d_model + i] = want[0][(size_t)i * d_qkv + j];
    if (explains(1, got, want, &m, &len, scale, pack_hints[TRANSPOSED])) return;

    /* rows of W_QKV stepped through with the width of one block */
    for (size_t i = 0; i < len; i++) m[i] = LAB_UNWRITTEN;
    for (int i = 0; i < d_model; i++)
        for (int b = 0; b < 3; b++) {
            int off = block_offset(orders[0], b, width);
            for (int j = 0; j < width[b]; j++)
                m[off + (size_t)i * width[b] + j] = w[b][(size_t)i * width[b] + j];
        }
    explains(1, got, want, &m, &len, scale, pack_hints[ROW_STRIDE]);
}

/* ---- qkv_split --------------------------------------------------------------------------- */

static const char *const split_hints[][2] = {
    [ROW_STRIDE] = {
        "you stepped through the rows of qkv with the width of one block (d_k or d_v): a row "
        "of qkv holds 2 d_k + d_v numbers (its q, k and v side by side), so row t starts at "
        "t * (2 d_k + d_v)",
        "recorriste las filas de qkv con el ancho de un solo bloque (d_k o d_v): una fila de "
        "qkv tiene 2 d_k + d_v números (su q, su k y su v uno al lado de otro), así que la "
        "fila t empieza en t * (2 d_k + d_v)" },
    [STACKED] = {
        "you read qkv as Q, then K, then V, one whole matrix after another: each row of qkv "
        "holds that row's q, k and v side by side",
        "leíste qkv como Q, luego K y luego V, una matriz entera detrás de otra: cada fila de "
        "qkv tiene la q, la k y la v de esa fila una al lado de otra" },
};

void diagnose_split(const double *const got[], const double *const want[], double scale,
                    void *ctx)
{
    const qkv_case *c = ctx;
    const double *qkv = c->qkv;
    int T = c->T, d_qkv = 2 * c->d_k + c->d_v, width[3] = WIDTHS(c);
    size_t len[3];
    double *m[3];
    scratch_qkv(m, len, T, width);

    /* the blocks cut in a wrong order */
    for (int o = 1; o < 6; o++) {
        for (int b = 0; b < 3; b++) {
            int off = block_offset(orders[o], b, width);
            for (int t = 0; t < T; t++)
                for (int j = 0; j < width[b]; j++)
                    m[b][(size_t)t * width[b] + j] = qkv[(size_t)t * d_qkv + off + j];
        }
        if (lab_explained(3, got, want, (const double **)m, len, scale)) {
            order_hint("qkv_split", orders[o]);
            return;
        }
    }

    /* the rows of qkv stepped through with the width of one block */
    for (int b = 0; b < 3; b++) {
        int off = block_offset(orders[0], b, width);
        for (int t = 0; t < T; t++)
            for (int j = 0; j < width[b]; j++)
                m[b][(size_t)t * width[b] + j] = qkv[off + (size_t)t * width[b] + j];
    }
    if (explains(3, got, want, m, len, scale, split_hints[ROW_STRIDE])) return;

    /* qkv read as three whole matrices, one after another */
    size_t at = 0;
    for (int b = 0; b < 3; b++)
        for (size_t i = 0; i < len[b]; i++) m[b][i] = qkv[at++];
    explains(3, got, want, m, len, scale, split_hints[STACKED]);
}

/* ---- qkv_project_fused ------------------------------------------------------------------ */

static const char *const fused_transposed[2] = {
    "you read W_QKV transposed: it is (d_model, 2 d_k + d_v), stored row by row, so its "
    "element (i, j) is w_qkv[i * (2 d_k + d_v) + j]",
    "leíste W_QKV traspuesta: es (d_model, 2 d_k + d_v), guardada por filas, así que su "
    "elemento (i, j) es w_qkv[i * (2 d_k + d_v) + j]"
};

/* the hints of a right qkv cut wrong, by what the learner's qkv_split does
 * with it: still LAB_TODO(), right, wrong */
static const char *const cut_hints[3][2] = {
    { "qkv holds X W_QKV as it should, but q, k and v are not cut out of it right; your "
      "qkv_split, which does that cut, still calls LAB_TODO(): write it, then call it here",
      "qkv tiene X W_QKV como debe, pero q, k y v no están bien cortadas de ella; tu "
      "qkv_split, que hace ese corte, aún llama a LAB_TODO(): escríbela y luego llámala aquí" },
    { "qkv holds X W_QKV as it should, but q, k and v are not cut out of it the way your "
      "qkv_split does (it gets this case right): call qkv_split(q, k, v, qkv, T, d_k, d_v)",
      "qkv tiene X W_QKV como debe, pero q, k y v no están cortadas de ella como lo hace tu "
      "qkv_split (que acierta en este caso): llama a qkv_split(q, k, v, qkv, T, d_k, d_v)" },
    { "qkv holds X W_QKV as it should, but your qkv_split cuts it wrong on this input (see "
      "the checks of qkv_split): fix qkv_split first",
      "qkv tiene X W_QKV como debe, pero tu qkv_split la corta mal con esta entrada (mira "
      "las comprobaciones de qkv_split): arregla primero qkv_split" },
};

/* blame_split - qkv is right, q, k, v were cut wrong: is the learner's
 * qkv_split to blame? It is called on the right qkv (want[3]) to see */
static void blame_split(const qkv_case *c, const double *const want[], double scale)
{
    int T = c->T, d_k = c->d_k, d_v = c->d_v;
    lab_mat *out[3] = { lab_out("q", T, d_k), lab_out("k", T, d_k), lab_out("v", T, d_v) };
    lab_mat *in = lab_in("qkv", T, 2 * d_k + d_v, want[3]);
    mm_status status = MM_OK;
    bool todo = false;
    if (!lab_probe(&status, &todo, "qkv_split", LAB_BUFS(out[0], out[1], out[2], in),
                   LAB_INTS(T, d_k, d_v))) {
        if (todo) lab_hint("%s", cut_hints[0][lab_es()]);
        return;
    }
    bool split_right = status == MM_OK;
    for (int i = 0; i < 3; i++) split_right &= lab_close(out[i]->p, want[i], out[i]->n, scale);
    lab_hint("%s", cut_hints[split_right ? 1 : 2][lab_es()]);
}

void diagnose_fused(const double *const got[], const double *const want[], double scale,
                    void *ctx)
{
    const qkv_case *c = ctx;
    int T = c->T, d_k = c->d_k, d_v = c->d_v;
    size_t len[4] = { (size_t)T * d_k, (size_t)T * d_k, (size_t)T * d_v,
                      (size_t)T * (2 * d_k + d_v) };
    if (lab_close(got[3], want[3], len[3], scale)) {
        blame_split(c, want, scale);
        diagnose_split(got, want, scale, ctx);
        return;
    }
    bool qkv_vs_right = true;
    for (int i = 0; i < 3; i++) qkv_vs_right &= lab_close(got[i], want[i], len[i], scale);
    if (qkv_vs_right)
        lab_hint("%s", EN_ES("q, k and v are right but qkv is not X W_QKV: qkv is the caller's "
                             "scratch, and qkv_project_fused leaves the product X W_QKV in it",
                             "q, k y v están bien pero qkv no es X W_QKV: qkv es el búfer "
                             "auxiliar de quien llama, y qkv_project_fused deja en él el "
                             "producto X W_QKV"));
    double *m[4];
    for (int i = 0; i < 4; i++) m[i] = lab_fresh(len[i], NULL);
    product(m[3], c->x, c->w_qkv, T, c->d_model, 2 * d_k + d_v, true);
    LAB_REF(qkv_split(m[0], m[1], m[2], m[3], T, d_k, d_v));
    explains(4, got, want, m, len, scale, fused_transposed);
}

/* ---- attention_param_count ------------------------------------------------------------------ */

/* status_hint - why the status was wrong, if it was (true) */
static bool status_hint(int d_model, int n_heads, mm_status status, mm_status want_status,
                        long want)
{
    if (want_status == MM_EINVAL && status != MM_EINVAL) {
        if (d_model <= 0 || n_heads <= 0)
            lab_hint(EN_ES("check the sizes first: MM_NEED_POSITIVE(d_model) and "
                           "MM_NEED_POSITIVE(n_heads) return MM_EINVAL from your function "
                           "and record why",
                           "comprueba antes los tamaños: MM_NEED_POSITIVE(d_model) y "
                           "MM_NEED_POSITIVE(n_heads) devuelven MM_EINVAL desde tu función "
                           "y anotan el motivo"));
        else
            lab_hint(EN_ES("%d is not divisible by %d: d_k = d_model / n_heads must be a "
                           "whole number, so return MM_EINVAL (mm_fail records why)",
                           "%d no es divisible entre %d: d_k = d_model / n_heads tiene que "
                           "ser un número entero, así que devuelve MM_EINVAL (mm_fail anota "
                           "el motivo)"),
                     d_model, n_heads);
    } else if (want_status == MM_ERANGE && status != MM_ERANGE) {
        lab_hint(EN_ES("the count 4 d_model^2 does not fit in a long for d_model = %d: "
                       "before multiplying, check d > LONG_MAX / 4 / d (with d = d_model "
                       "as a long) and return MM_ERANGE",
                       "el recuento 4 d_model^2 no cabe en un long con d_model = %d: antes "
                       "de multiplicar, comprueba d > LONG_MAX / 4 / d (con d = d_model "
                       "como long) y devuelve MM_ERANGE"),
                 d_model);
    } else if (want_status != MM_OK) {
        if (status == want_status)        /* the status is right: count was changed */
            lab_hint(EN_ES("write *count only once every check has passed: the caller "
                           "keeps its value when the call fails",
                           "escribe *count solo cuando todas las comprobaciones han pasado: "
                           "quien llama conserva su valor si la llamada falla"));
    } else if (status != MM_OK) {
        if (d_model > 65536)
            lab_hint(EN_ES("the count for d_model = %d fits in a long (it is %ld): "
                           "do the check in long arithmetic, d > LONG_MAX / 4 / d",
                           "el recuento con d_model = %d cabe en un long (es %ld): haz la "
                           "comprobación en aritmética long, d > LONG_MAX / 4 / d"),
                     d_model, want);
    } else {
        return false;
    }
    return true;
}

/* count_hint - which wrong count the learner's is, if one */
static void count_hint(int d_model, int n_heads, long count, long want)
{
    /* the mistakes' counts, in unsigned arithmetic: it wraps instead of overflowing */
    unsigned long d = (unsigned long)d_model, h = (unsigned long)n_heads, d_k = d / h;
    const struct { unsigned long count; const char *hint[2]; } mistakes[] = {
        { 3 * d * d, { "you left out W_O: a layer has W_Q, W_K, W_V and the output "
                       "projection W_O (d_model x d_model)",
                       "olvidaste W_O: una capa tiene W_Q, W_K, W_V y la proyección de "
                       "salida W_O (d_model x d_model)" } },
        { h * 3 * d * d + d * d, { "each head's W_Q, W_K and W_V are d_model x d_k, with "
                                   "d_k = d_model / n_heads, not d_model x d_model",
                                   "las W_Q, W_K y W_V de cada cabeza son d_model x d_k, con "
                                   "d_k = d_model / n_heads, no d_model x d_model" } },
        /* one head's d_model x d_k matrices, or - the same number - every head's
         * as d_k x d_k: n_heads d_k^2 = d_model d_k */
        { 3 * d * d_k + d * d, { "your count has 3 d_model d_k weights for W_Q, W_K and W_V: "
                                 "that is one head's (or every head's taken as d_k x d_k). "
                                 "Each head's W_Q, W_K and W_V are d_model x d_k (they read "
                                 "all d_model features of a token) and there are n_heads "
                                 "heads: 3 d_model^2 in all",
                                 "tu recuento tiene 3 d_model d_k pesos para W_Q, W_K y W_V: "
                                 "son los de una cabeza (o los de cada cabeza tomados como "
                                 "d_k x d_k). Las W_Q, W_K y W_V de cada cabeza son d_model x "
                                 "d_k (leen los d_model rasgos de un token) y hay n_heads "
                                 "cabezas: 3 d_model^2 en total" } },
        { h * 4 * d_k * d_k, { "you counted every matrix as d_k x d_k: each head's W_Q, W_K "
                               "and W_V are d_model x d_k, and W_O is d_model x d_model",
                               "contaste cada matriz como d_k x d_k: las W_Q, W_K y W_V de "
                               "cada cabeza son d_model x d_k, y W_O es d_model x d_model" } },
        { h * (3 * d * d_k + d * d), { "W_O is one d_model x d_model matrix for the whole "
                                       "layer, not one per head",
                                       "W_O es una sola matriz d_model x d_model para toda la "
                                       "capa, no una por cabeza" } },
        { 4 * d * d + 4 * d, { "you counted biases: the projections of this workbook have "
                               "none (the bias-free convention of PaLM and LLaMA)",
                               "contaste sesgos: las proyecciones de este cuaderno no "
                               "tienen (la convención sin sesgos de PaLM y LLaMA)" } },
    };
    for (size_t i = 0; i < sizeof mistakes / sizeof mistakes[0]; i++)
        if (mistakes[i].count != (unsigned long)want &&
            (unsigned long)count == mistakes[i].count) {
            lab_hint("%s", mistakes[i].hint[lab_es()]);
            return;
        }
    /* int arithmetic that wrapped: whatever it wrapped, the result agrees
     * with the right count in its low 32 bits */
    if (want > INT_MAX && (((unsigned long)count ^ (unsigned long)want) & 0xffffffffUL) == 0)
        lab_hint(EN_ES("your count, %ld, is the right one, %ld, cut to 32 bits: some of "
                       "your arithmetic is done in int, which holds at most %d (d_model * "
                       "d_model overflows it from d_model = 46341). Convert to long before "
                       "multiplying",
                       "tu recuento, %ld, es el correcto, %ld, recortado a 32 bits: parte "
                       "de tu aritmética se hace en int, que llega como mucho a %d (d_model "
                       "* d_model lo desborda desde d_model = 46341). Convierte a long antes "
                       "de multiplicar"),
                 count, want, INT_MAX);
}

void diagnose_param_count(int d_model, int n_heads, mm_status status, long count,
                          mm_status want_status, long want)
{
    if (!status_hint(d_model, n_heads, status, want_status, want))
        count_hint(d_model, n_heads, count, want);
}

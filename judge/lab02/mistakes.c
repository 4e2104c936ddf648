/* mistakes.c - the common mistakes of lab 02, each computed on the failing
 * case's input: when one reproduces the learner's output (and differs from
 * the right answer there), its hint is printed. Two probes call the
 * learner's own softmax_row again: on the row shifted by its maximum (the
 * weights must not change when every score moves by the same amount), and,
 * when sdpa fails, on the right scores of each query, to tell a mistake of
 * sdpa from one of softmax_row. The mistakes are tried most likely first,
 * and the first that fits is the one named. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lab02.h"

/* ---- softmax_row ----------------------------------------------------------------------- */

/* the ways a row's softmax goes wrong */
typedef enum {
    SM_RIGHT,            /* max subtracted, a row of -inf gives zeros */
    SM_NO_MAX,           /* exp(s_j) / sum: overflows, underflows */
    SM_MAX_FROM_ZERO,    /* the maximum starts at 0: rows far below 0 underflow */
    SM_ALL_HIDDEN_NAN,   /* no case for a row of -inf: -inf - (-inf) = NaN */
    SM_NOT_NORMALISED,   /* exp(s_j - m), never divided by the sum */
    SM_FLOAT_MAX,        /* the maximum kept in a float: +-inf beyond FLT_MAX */
} softmax_way;

/* softmax_as - w (n) = the softmax of s (n) computed the given way */
static void softmax_as(softmax_way way, double *w, const double *s, int n)
{
    double m = way == SM_MAX_FROM_ZERO ? 0.0 : -INFINITY;
    for (int j = 0; j < n; j++)
        if (s[j] > m) m = s[j];
    if (way == SM_NO_MAX) m = 0.0;
    if (way == SM_FLOAT_MAX) m = (float)m;
    if (m == -INFINITY && way != SM_ALL_HIDDEN_NAN) {
        for (int j = 0; j < n; j++) w[j] = 0.0;
        return;
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += w[j] = exp(s[j] - m);
    if (way != SM_NOT_NORMALISED)
        for (int j = 0; j < n; j++) w[j] /= sum;
}

static double row_max(const double *s, int n)
{
    double m = -INFINITY;
    for (int j = 0; j < n; j++)
        if (s[j] > m) m = s[j];
    return m;
}

/* underflow_hint, overflow_hint - the row is too far below 0, or above it,
 * for exp without the shift */
static void underflow_hint(const char *row, double m)
{
    lab_hint(EN_ES("every exp(s_j) of %s underflows to 0 (exp is 0 below -745.13), so "
                   "your weights are 0/0: subtract the row maximum, %g here, before exp "
                   "(not 0: the maximum starts at -INFINITY or s[0]); then the largest "
                   "exp is exp(0) = 1 and the sum is at least 1",
                   "cada exp(s_j) de %s se queda en 0 (exp es 0 por debajo de -745.13), así "
                   "que tus pesos son 0/0: resta el máximo de la fila, aquí %g, antes de exp "
                   "(no 0: el máximo empieza en -INFINITY o en s[0]); así la mayor "
                   "exponencial es exp(0) = 1 y la suma es al menos 1"),
             row, m);
}

static void overflow_hint(const char *row, double m)
{
    lab_hint(EN_ES("exp(s_j) overflows to inf for the scores of %s (exp is inf above "
                   "709.78), so your weights are inf/inf = NaN: subtract the row maximum, "
                   "%g here, before exp - softmax(s - c) = softmax(s) for any c - so that "
                   "no exp exceeds exp(0) = 1",
                   "exp(s_j) desborda a inf con las puntuaciones de %s (exp es inf por "
                   "encima de 709.78), así que tus pesos son inf/inf = NaN: resta el máximo "
                   "de la fila, aquí %g, antes de exp - softmax(s - c) = softmax(s) para "
                   "cualquier c - para que ninguna exponencial pase de exp(0) = 1"),
             row, m);
}

/* shift_probe - the learner's softmax_row on s - max(s): true if it gives
 * the right weights there (so only the size of the scores is the trouble) */
static bool shift_probe(const softmax_case *c, double scale)
{
    double m = row_max(c->s, c->n);
    if (!isfinite(m) || m == 0.0) return false;
    lab_mat *row = lab_out("s", 1, c->n);
    for (int j = 0; j < c->n; j++) row->p[j] = c->s[j] - m;
    mm_status st;
    bool todo;
    if (!lab_probe(&st, &todo, "softmax_row", LAB_BUFS(row), LAB_INTS(c->n))) return false;
    return st == MM_OK && lab_all_same(row->p, c->want, (size_t)c->n, scale);
}

void diagnose_softmax(const double *const got[], const double *const want[], double scale,
                      void *ctx)
{
    const softmax_case *c = ctx;
    int n = c->n;
    size_t len = (size_t)n;
    double *w = lab_fresh(len, NULL);
    const double *mw[1] = { w };
    char row[160];
    row_text(row, sizeof row, c->s, n);
    double m = row_max(c->s, n);

    softmax_as(SM_ALL_HIDDEN_NAN, w, c->s, n);
    if (lab_explained_same(1, got, want, mw, &len, scale)) {
        lab_hint(EN_ES("every score of this row is -inf (every key hidden), so its maximum is "
                       "-inf too, and s_j - max = -inf - (-inf) is NaN: a row that sees no "
                       "key has weights all 0 (check for it once you have the maximum)",
                       "todas las puntuaciones de esta fila son -inf (todas las keys "
                       "ocultas), así que su máximo también es -inf, y s_j - máx = -inf - "
                       "(-inf) es NaN: una fila que no ve ninguna key tiene todos sus pesos "
                       "a 0 (compruébalo en cuanto tengas el máximo)"));
        return;
    }
    /* the exponentials out of range: no shift, or a shift by 0 */
    softmax_as(SM_MAX_FROM_ZERO, w, c->s, n);
    if (lab_explained_same(1, got, want, mw, &len, scale)) {
        underflow_hint(row, m);
        return;
    }
    softmax_as(SM_NO_MAX, w, c->s, n);
    if (lab_explained_same(1, got, want, mw, &len, scale)) {
        if (m > 0) overflow_hint(row, m);
        else underflow_hint(row, m);
        return;
    }
    softmax_as(SM_FLOAT_MAX, w, c->s, n);
    if (lab_explained_same(1, got, want, mw, &len, scale)) {
        lab_hint(EN_ES("you kept the row maximum in a float: a float holds at most FLT_MAX = "
                       "3.4e38, and this row's maximum, %g, %s; keep it in a double, as the "
                       "scores are",
                       "guardaste el máximo de la fila en un float: un float llega como mucho a "
                       "FLT_MAX = 3.4e38, y el máximo de esta fila, %g, %s; guárdalo en un "
                       "double, como las puntuaciones"),
                 m, m > 0 ? EN_ES("becomes +inf there, and every weight 0/0 = NaN",
                                  "se vuelve +inf en él, y cada peso 0/0 = NaN")
                          : EN_ES("becomes -inf there, as if the row saw no key",
                                  "se vuelve -inf en él, como si la fila no viera ninguna "
                                  "key"));
        return;
    }
    softmax_as(SM_NOT_NORMALISED, w, c->s, n);
    if (lab_explained_same(1, got, want, mw, &len, scale)) {
        lab_hint(EN_ES("your weights are exp(s_j - max) without dividing by their sum: the "
                       "weights of a row sum to 1",
                       "tus pesos son exp(s_j - máx) sin dividir entre su suma: los pesos de "
                       "una fila suman 1"));
        return;
    }
    /* however it is written: right on the shifted row, wrong on this one */
    if (shift_probe(c, scale)) {
        char shifted[160];
        double *d = lab_fresh(len, NULL);
        for (int j = 0; j < n; j++) d[j] = c->s[j] - m;
        row_text(shifted, sizeof shifted, d, n);
        lab_hint(EN_ES("your softmax_row gives the right weights for the same row shifted by "
                       "its maximum, s - max(s) = %s (max(s) = %g), and adding a constant to "
                       "every score must not change the weights: your code is thrown by the "
                       "size of the scores (exp overflows above 709.78 and is 0 below "
                       "-745.13); subtract the row maximum before exp",
                       "tu softmax_row da los pesos correctos para la misma fila desplazada "
                       "por su máximo, s - máx(s) = %s (máx(s) = %g), y sumar una constante "
                       "a todas las puntuaciones no debe cambiar los pesos: a tu código le "
                       "afecta el tamaño de las puntuaciones (exp desborda por encima de "
                       "709.78 y es 0 por debajo de -745.13); resta el máximo de la fila "
                       "antes de exp"),
                 shifted, m);
        return;
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += got[0][j];
    if (m == -INFINITY && isfinite(sum) && sum != 0.0) {
        lab_hint(EN_ES("every score of this row is -inf (every key hidden): the row sees no "
                       "key, so its weights are all 0, even when it has one score",
                       "todas las puntuaciones de esta fila son -inf (todas las keys "
                       "ocultas): la fila no ve ninguna key, así que sus pesos son todos 0, "
                       "aunque tenga una sola puntuación"));
        return;
    }
    if (isfinite(sum) && fabs(sum - 1.0) > 1e-6 && m > -INFINITY)
        lab_hint(EN_ES("your weights sum to %.10g: the weights of a row that sees any key "
                       "sum to 1", "tus pesos suman %.10g: los pesos de una fila que ve "
                       "alguna key suman 1"), sum);
}

/* ---- sdpa -------------------------------------------------------------------------------- */

/* the ways sdpa goes wrong */
typedef enum {
    SD_RIGHT,
    SD_K_NOT_TRANSPOSED,   /* key j's component p read at k[p * T_k + j] */
    SD_V_BY_QUERY,         /* out_i blends row i of V (the query's) */
    SD_KEYS_T_Q,           /* T_q keys scored, softmaxed and blended */
    SD_W_STRIDE_T_Q,       /* row i of weights written at i * T_q */
    SD_COLUMNS,            /* the softmax over each column (over the queries) */
    SD_NO_SCALE,           /* softmax(Q K^T + bias) */
    SD_SCALE_D_K,          /* scores / d_k */
    SD_SCALE_D_V,          /* scores / sqrt(d_v): the width of V, not of q and k */
    SD_SCALE_AFTER,        /* softmax(Q K^T + bias) / sqrt(d_k): the weights scaled */
    SD_SCALE_OUT,          /* out scaled, the weights not */
    SD_BIAS_BEFORE_SCALE,  /* (Q K^T + bias) / sqrt(d_k) */
    SD_NO_BIAS,            /* bias ignored */
    SD_GLOBAL_MAX,         /* the maximum of the whole score matrix subtracted */
    SD_NO_MAX,             /* no maximum subtracted */
    SD_HIDDEN_ROW_NAN,     /* a row of -inf scores gives NaN */
    SD_N_WAYS
} sdpa_way;

/* sdpa_as - out (T_q, d_v) and w (T_q, T_k) as sdpa computed the given way
 * writes them (LAB_UNWRITTEN where it writes nothing); false if that way
 * reads or writes outside a buffer on this case (the harness stops such a
 * call, and names the buffer, before any value is compared) */
static bool sdpa_as(sdpa_way way, const sdpa_case *c, double *out, double *w)
{
    int T_q = c->T_q, T_k = c->T_k, d_k = c->d_k, d_v = c->d_v;
    if ((way == SD_V_BY_QUERY || way == SD_KEYS_T_Q || way == SD_W_STRIDE_T_Q) && T_q > T_k)
        return false;
    if (way == SD_W_STRIDE_T_Q && !c->weights) return false;
    if (way == SD_SCALE_D_V && c->d_v == 1) return false;     /* that is SD_NO_SCALE */
    int n_keys = way == SD_KEYS_T_Q ? T_q : T_k;
    double scale = way == SD_NO_SCALE || way == SD_SCALE_AFTER || way == SD_SCALE_OUT ? 1.0
                 : way == SD_SCALE_D_K ? 1.0 / d_k
                 : way == SD_SCALE_D_V ? 1.0 / sqrt((double)c->d_v) : 1.0 / sqrt((double)d_k);
    double *a = lab_fresh((size_t)T_q * T_k, NULL);     /* scores, then weights */
    for (size_t i = 0; i < (size_t)T_q * T_k; i++) a[i] = LAB_UNWRITTEN;
    for (int i = 0; i < T_q; i++)
        for (int j = 0; j < n_keys; j++) {
            double dot = 0.0;
            for (int p = 0; p < d_k; p++)
                dot += c->q[i * d_k + p] *
                       (way == SD_K_NOT_TRANSPOSED ? c->k[p * T_k + j] : c->k[j * d_k + p]);
            double b = c->bias && way != SD_NO_BIAS ? c->bias[i * T_k + j] : 0.0;
            a[i * T_k + j] = way == SD_BIAS_BEFORE_SCALE ? (dot + b) * scale : dot * scale + b;
        }
    if (way == SD_COLUMNS) {
        for (int j = 0; j < T_k; j++) {
            double m = -INFINITY, sum = 0.0;
            for (int i = 0; i < T_q; i++) m = fmax(m, a[i * T_k + j]);
            if (m == -INFINITY) {
                for (int i = 0; i < T_q; i++) a[i * T_k + j] = 0.0;
                continue;
            }
            for (int i = 0; i < T_q; i++) sum += a[i * T_k + j] = exp(a[i * T_k + j] - m);
            for (int i = 0; i < T_q; i++) a[i * T_k + j] /= sum;
        }
    } else {
        double global = -INFINITY;
        for (int i = 0; i < T_q * T_k; i++)
            if (a[i] != LAB_UNWRITTEN) global = fmax(global, a[i]);
        for (int i = 0; i < T_q; i++) {
            double *row = a + (size_t)i * T_k;
            double m = way == SD_NO_MAX ? 0.0
                     : way == SD_GLOBAL_MAX ? global : row_max(row, n_keys);
            bool special = way != SD_NO_MAX && way != SD_GLOBAL_MAX && way != SD_HIDDEN_ROW_NAN;
            if (special && row_max(row, n_keys) == -INFINITY) {
                for (int j = 0; j < n_keys; j++) row[j] = 0.0;
                continue;
            }
            double sum = 0.0;
            for (int j = 0; j < n_keys; j++) sum += row[j] = exp(row[j] - m);
            for (int j = 0; j < n_keys; j++) row[j] /= sum;
            if (way == SD_SCALE_AFTER)
                for (int j = 0; j < n_keys; j++) row[j] /= sqrt((double)d_k);
        }
    }
    for (int i = 0; i < T_q; i++)
        for (int x = 0; x < d_v; x++) {
            double sum = 0.0;
            for (int j = 0; j < n_keys; j++)
                sum += a[i * T_k + j] * c->v[(way == SD_V_BY_QUERY ? i : j) * d_v + x];
            out[i * d_v + x] = way == SD_SCALE_OUT ? sum / sqrt((double)d_k) : sum;
        }
    if (way == SD_W_STRIDE_T_Q) {
        for (int i = 0; i < T_q * T_k; i++) w[i] = LAB_UNWRITTEN;
        for (int i = 0; i < T_q; i++)
            for (int j = 0; j < T_k; j++) w[i * T_q + j] = a[i * T_k + j];
    } else {
        memcpy(w, a, (size_t)T_q * T_k * sizeof *w);
    }
    return true;
}

/* scores_of - the right scores (T_q, T_k): q_i . k_j / sqrt(d_k) + bias_ij */
static double *scores_of(const sdpa_case *c)
{
    int T_q = c->T_q, T_k = c->T_k, d_k = c->d_k;
    double *scores = lab_fresh((size_t)T_q * T_k, NULL), s = 1.0 / sqrt((double)d_k);
    for (int i = 0; i < T_q; i++)
        for (int j = 0; j < T_k; j++) {
            double dot = 0.0;
            for (int p = 0; p < d_k; p++) dot += c->q[i * d_k + p] * c->k[j * d_k + p];
            scores[i * T_k + j] = dot * s + (c->bias ? c->bias[i * T_k + j] : 0.0);
        }
    return scores;
}

/* global_max_hint - name the row that lies farthest below the matrix's maximum */
static void global_max_hint(const sdpa_case *c)
{
    const double *scores = scores_of(c);
    double top = row_max(scores, c->T_q * c->T_k), gap = 0.0;
    int low = 0;
    for (int i = 0; i < c->T_q; i++) {
        double m = row_max(scores + (size_t)i * c->T_k, c->T_k);
        if (m > -INFINITY && top - m > gap) {
            gap = top - m;
            low = i;
        }
    }
    lab_hint(EN_ES("you subtracted the maximum of the whole score matrix (%g), not each "
                   "row's: row %d lies %g below it, so every exp of that row underflows to "
                   "0 (exp is 0 below -745.13) and its weights are 0/0; subtract each "
                   "row's own maximum (your softmax_row does it for one row)",
                   "restaste el máximo de toda la matriz de puntuaciones (%g), no el de cada "
                   "fila: la fila %d queda %g por debajo, así que todas las exponenciales de "
                   "esa fila se quedan en 0 (exp es 0 por debajo de -745.13) y sus pesos son "
                   "0/0; resta el máximo de cada fila (tu softmax_row lo hace para una fila)"),
             top, low, gap);
}

/* way_hint - the hint of one way, on case c */
static void way_hint(sdpa_way way, const sdpa_case *c)
{
    double r = sqrt((double)c->d_k);
    switch (way) {
    case SD_K_NOT_TRANSPOSED:
        lab_hint(EN_ES("you read K as if it were stored transposed, (d_k, T_k): key j is row "
                       "j of K, k[j * d_k + p] for p = 0 .. d_k - 1, and score (i, j) is the "
                       "dot product of row i of Q with row j of K - Q K^T (with mm_matmul: "
                       "b_transposed = true)",
                       "leíste K como si estuviera guardada traspuesta, (d_k, T_k): la key "
                       "j es la fila j de K, k[j * d_k + p] para p = 0 .. d_k - 1, y la "
                       "puntuación (i, j) es el producto escalar de la fila i de Q con la "
                       "fila j de K - Q K^T (con mm_matmul: b_transposed = true)"));
        break;
    case SD_V_BY_QUERY:
        lab_hint(EN_ES("you blended row i of V (the query's index) where row j belongs (the "
                       "key's): out_i = sum over j of a_ij v_j, with v_j = v[j * d_v + c] - "
                       "the value that goes with key j",
                       "mezclaste la fila i de V (el índice de la query) donde va la fila "
                       "j (el de la key): out_i = suma sobre j de a_ij v_j, con v_j = v[j * "
                       "d_v + c] - el value que va con la key j"));
        break;
    case SD_KEYS_T_Q:
        lab_hint(EN_ES("you went over T_q = %d keys where there are T_k = %d: each query is "
                       "scored against every row of K, j = 0 .. T_k - 1 (T_q counts the "
                       "queries, T_k the keys and values; in cross-attention they differ)",
                       "recorriste T_q = %d keys donde hay T_k = %d: cada query se puntúa "
                       "contra todas las filas de K, j = 0 .. T_k - 1 (T_q cuenta las "
                       "queries, T_k las keys y los values; en la atención cruzada "
                       "difieren)"),
                 c->T_q, c->T_k);
        break;
    case SD_W_STRIDE_T_Q:
        lab_hint(EN_ES("you wrote row i of weights at i * T_q: a row holds one weight per "
                       "key, so row i starts at i * T_k (weights is (T_q, T_k) = (%d, %d))",
                       "escribiste la fila i de weights en i * T_q: una fila tiene un peso "
                       "por key, así que la fila i empieza en i * T_k (weights es (T_q, "
                       "T_k) = (%d, %d))"),
                 c->T_q, c->T_k);
        break;
    case SD_COLUMNS:
        lab_hint(EN_ES("you took the softmax over each column (over the queries): each row "
                       "is one query's softmax over all the keys, so that every row of "
                       "weights sums to 1",
                       "hiciste el softmax de cada columna (sobre las queries): cada fila "
                       "es el softmax de una query sobre todas las keys, así que cada "
                       "fila de weights suma 1"));
        break;
    case SD_NO_SCALE:
        lab_hint(EN_ES("the scores are not scaled: divide each q_i . k_j by sqrt(d_k) = "
                       "sqrt(%d) = %.6g before the softmax%s",
                       "las puntuaciones no están escaladas: divide cada q_i . k_j entre "
                       "sqrt(d_k) = sqrt(%d) = %.6g antes del softmax%s"),
                 c->d_k, r, c->d_v == 1 && c->d_k != 1
                 ? EN_ES(" (here d_v = 1: if you divided by sqrt(d_v), that changed nothing; "
                         "the scale takes d_k)",
                         " (aquí d_v = 1: si dividiste entre sqrt(d_v), eso no cambió nada; la "
                         "escala usa d_k)")
                 : "");
        break;
    case SD_SCALE_D_V:
        lab_hint(EN_ES("you divided the scores by sqrt(d_v) = sqrt(%d): the scale is 1/sqrt(d_k) "
                       "= 1/sqrt(%d) = %.6g, with d_k the length of q_i and k_j, whose dot "
                       "product is the score (d_v, the width of V, plays no part in the "
                       "scores)",
                       "dividiste las puntuaciones entre sqrt(d_v) = sqrt(%d): la escala es "
                       "1/sqrt(d_k) = 1/sqrt(%d) = %.6g, con d_k la longitud de q_i y k_j, "
                       "cuyo producto escalar es la puntuación (d_v, el ancho de V, no "
                       "interviene en las puntuaciones)"),
                 c->d_v, c->d_k, 1.0 / r);
        break;
    case SD_SCALE_D_K:
        lab_hint(EN_ES("you divided the scores by d_k = %d: the scale is 1/sqrt(d_k) = "
                       "1/%.6g (it keeps the spread of q . k at 1, whose variance is d_k)",
                       "dividiste las puntuaciones entre d_k = %d: la escala es 1/sqrt(d_k) "
                       "= 1/%.6g (mantiene en 1 la dispersión de q . k, cuya varianza es "
                       "d_k)"),
                 c->d_k, r);
        break;
    case SD_SCALE_AFTER:
        lab_hint(EN_ES("you applied the scale after the softmax: it divides the scores, "
                       "softmax(q_i . k_j / sqrt(d_k)); dividing the weights instead makes a "
                       "row sum to 1/sqrt(d_k) = %.6g, not 1",
                       "aplicaste la escala después del softmax: divide las puntuaciones, "
                       "softmax(q_i . k_j / sqrt(d_k)); dividir los pesos hace que una fila "
                       "sume 1/sqrt(d_k) = %.6g, no 1"),
                 1.0 / r);
        break;
    case SD_SCALE_OUT:
        lab_hint(EN_ES("you divided the output by sqrt(d_k), not the scores: the scale goes "
                       "inside the softmax, softmax(q_i . k_j / sqrt(d_k)), and out is the "
                       "weights times V, unscaled",
                       "dividiste la salida entre sqrt(d_k), no las puntuaciones: la escala "
                       "va dentro del softmax, softmax(q_i . k_j / sqrt(d_k)), y out son los "
                       "pesos por V, sin escalar"));
        break;
    case SD_BIAS_BEFORE_SCALE:
        lab_hint(EN_ES("you added the bias before the scale: it is added to the scaled "
                       "scores, q_i . k_j / sqrt(d_k) + bias_ij, so that a bias means the same "
                       "whatever d_k is",
                       "sumaste el sesgo antes de escalar: se suma a las puntuaciones ya "
                       "escaladas, q_i . k_j / sqrt(d_k) + bias_ij, para que un sesgo "
                       "signifique lo mismo sea cual sea d_k"));
        break;
    case SD_NO_BIAS:
        lab_hint(EN_ES("your sdpa ignores bias: when it is not NULL, add bias[i * T_k + j] "
                       "to score (i, j) after the scale (chapter 04's masks come this way)",
                       "tu sdpa ignora bias: cuando no es NULL, suma bias[i * T_k + j] a la "
                       "puntuación (i, j) después de escalar (las máscaras del capítulo 04 "
                       "llegan así)"));
        break;
    case SD_GLOBAL_MAX:
        global_max_hint(c);
        break;
    case SD_NO_MAX:
        lab_hint(EN_ES("your softmax inside sdpa does not subtract the row maximum: exp "
                       "overflows above 709.78 (inf/inf = NaN) and is 0 below -745.13 (0/0): "
                       "subtract each row's maximum first, or call your softmax_row on each "
                       "row of scores",
                       "tu softmax dentro de sdpa no resta el máximo de la fila: exp desborda "
                       "por encima de 709.78 (inf/inf = NaN) y es 0 por debajo de -745.13 "
                       "(0/0): resta antes el máximo de cada fila, o llama a tu softmax_row "
                       "con cada fila de puntuaciones"));
        break;
    case SD_HIDDEN_ROW_NAN:
        lab_hint(EN_ES("a row whose every key is hidden (all its scores -inf) gives NaN: "
                       "its maximum is -inf, and -inf - (-inf) is NaN; such a row has weights "
                       "0 and an output of 0",
                       "una fila con todas sus keys ocultas (todas sus puntuaciones -inf) "
                       "da NaN: su máximo es -inf, y -inf - (-inf) es NaN; esa fila tiene "
                       "pesos 0 y salida 0"));
        break;
    default:
        break;
    }
}

/* the order the ways are tried in */
static const sdpa_way tried[] = {
    SD_K_NOT_TRANSPOSED, SD_V_BY_QUERY, SD_KEYS_T_Q, SD_W_STRIDE_T_Q, SD_COLUMNS,
    SD_NO_SCALE, SD_SCALE_D_K, SD_SCALE_D_V, SD_SCALE_AFTER, SD_SCALE_OUT, SD_BIAS_BEFORE_SCALE,
    SD_NO_BIAS, SD_HIDDEN_ROW_NAN, SD_GLOBAL_MAX, SD_NO_MAX,
};

/* the outputs a diagnosis compares: out and weights, weights only (sdpa
 * refused the call but wrote its weights), or none (only the error) */
typedef enum { SEE_OUT, SEE_OUT_WEIGHTS, SEE_WEIGHTS, SEE_NOTHING } seen;

/* seen_rows - a copy of w (T_q, T_k) with the rows that got never wrote
 * (sdpa refused the call before them) left unwritten too, so that only
 * the rows it wrote are compared */
static const double *seen_rows(const double *w, const double *got, int T_q, int T_k)
{
    double *m = lab_fresh((size_t)T_q * T_k, NULL);
    memcpy(m, w, (size_t)T_q * T_k * sizeof *m);
    for (int i = 0; i < T_q; i++) {
        bool written = false;
        for (int j = 0; j < T_k; j++) written |= got[i * T_k + j] != LAB_UNWRITTEN;
        if (!written)
            for (int j = 0; j < T_k; j++) m[i * T_k + j] = LAB_UNWRITTEN;
    }
    return m;
}

/* blame_softmax - the learner's softmax_row on the right scores of each
 * query: if it is wrong on one, and sdpa's results (as seen) are what those
 * rows give, the mistake is in softmax_row; true if that was said */
static bool blame_softmax(const double *const got[], const double *const want[],
                          double scale, const sdpa_case *c, seen what)
{
    int T_q = c->T_q, T_k = c->T_k, d_v = c->d_v;
    const double *scores = scores_of(c);
    double *w = lab_fresh((size_t)T_q * T_k, NULL), *out = lab_fresh((size_t)T_q * d_v, NULL);
    int wrong = -1;
    lab_mat *probe = lab_out("s", 1, T_k);       /* one buffer for every query's probe */
    for (int i = 0; i < T_q; i++) {
        memcpy(probe->p, scores + (size_t)i * T_k, (size_t)T_k * sizeof *probe->p);
        mm_status st;
        bool todo;
        if (!lab_probe(&st, &todo, "softmax_row", LAB_BUFS(probe), LAB_INTS(T_k)) || st != MM_OK)
            return false;                 /* pending, refused, or worse: its own checks say */
        memcpy(w + (size_t)i * T_k, probe->p, (size_t)T_k * sizeof *w);
        if (wrong < 0 && !lab_all_same(probe->p, c->want_w + (size_t)i * T_k, (size_t)T_k, scale))
            wrong = i;
    }
    if (wrong < 0) return false;
    for (int i = 0; i < T_q; i++)
        for (int x = 0; x < d_v; x++) {
            double sum = 0.0;
            for (int j = 0; j < T_k; j++) sum += w[i * T_k + j] * c->v[j * d_v + x];
            out[i * d_v + x] = sum;
        }
    char row[200];
    row_text(row, sizeof row, scores + (size_t)wrong * T_k, T_k);
    const double *mine[2] = { what == SEE_WEIGHTS ? seen_rows(w, got[0], T_q, T_k) : out, w };
    size_t len[2] = { what == SEE_WEIGHTS ? (size_t)T_q * T_k : (size_t)T_q * d_v,
                      (size_t)T_q * T_k };
    int n = what == SEE_OUT_WEIGHTS ? 2 : 1;
    if (what == SEE_NOTHING || lab_explained_same(n, got, want, mine, len, scale)) {
        lab_hint(EN_ES("the scores are right, but your softmax_row gets them wrong: on row "
                       "%d, s = %s, it does not give the right weights, and your sdpa's "
                       "results are what its rows give. Fix softmax_row first (see its "
                       "checks)",
                       "las puntuaciones están bien, pero tu softmax_row las convierte mal: "
                       "con la fila %d, s = %s, no da los pesos correctos, y los resultados "
                       "de tu sdpa son los que dan sus filas. Arregla antes softmax_row "
                       "(mira sus comprobaciones)"),
                 wrong, row);
        return true;
    }
    lab_hint(EN_ES("your softmax_row also gets row %d of the right scores wrong, s = %s "
                   "(see its checks)",
                   "tu softmax_row también convierte mal la fila %d de las puntuaciones "
                   "correctas, s = %s (mira sus comprobaciones)"),
             wrong, row);
    return false;
}

/* catalogue - the first way that explains the outputs seen; its hint */
static bool catalogue(const double *const got[], const double *const want[], double scale,
                      const sdpa_case *c, seen what)
{
    size_t len_out = (size_t)c->T_q * c->d_v, len_w = (size_t)c->T_q * c->T_k;
    double *out = lab_fresh(len_out, NULL), *w = lab_fresh(len_w, NULL);
    const double *mine[2] = { out, w };
    size_t len[2] = { what == SEE_WEIGHTS ? len_w : len_out, len_w };
    int n = what == SEE_OUT_WEIGHTS ? 2 : 1;
    for (size_t i = 0; i < sizeof tried / sizeof tried[0]; i++) {
        if (!sdpa_as(tried[i], c, out, w)) continue;
        if (what == SEE_WEIGHTS) mine[0] = seen_rows(w, got[0], c->T_q, c->T_k);
        if (lab_explained_same(n, got, want, mine, len, scale)) {
            way_hint(tried[i], c);
            return true;
        }
    }
    return false;
}

void diagnose_sdpa_refusal(const sdpa_case *c, const lab_mat *weights)
{
    const char *why = lab_learner_error();
    if (!strstr(why, "nan") && !strstr(why, "inf")) return;
    double scale = fmax(lab_scale(c->want_out, (size_t)c->T_q * c->d_v),
                        lab_scale(c->want_w, (size_t)c->T_q * c->T_k));
    if (weights) {
        const double *got[1] = { weights->p };
        const double *want[1] = { seen_rows(c->want_w, weights->p, c->T_q, c->T_k) };
        if (blame_softmax(got, want, scale, c, SEE_WEIGHTS)) return;
        if (catalogue(got, want, scale, c, SEE_WEIGHTS)) return;
    } else if (blame_softmax(NULL, NULL, scale, c, SEE_NOTHING)) {
        return;
    }
    lab_hint(EN_ES("valid arguments, so the value that is not finite is your own: a NaN or "
                   "an infinity in your weights (an exp that overflowed, a 0/0 of a row "
                   "whose exps all underflowed or whose keys are all hidden) reached "
                   "mm_matmul, which refuses it%s",
                   "argumentos válidos, así que el valor no finito es tuyo: un NaN o un "
                   "infinito en tus pesos (una exp que desbordó, un 0/0 de una fila cuyas "
                   "exps se quedaron todas en 0 o cuyas keys están todas ocultas) llegó a "
                   "mm_matmul, que lo rechaza%s"),
             weights ? "" : EN_ES(" (printf your rows of weights to see which one)",
                                  " (imprime tus filas de pesos con printf para ver cuál)"));
}

void diagnose_sdpa(const double *const got[], const double *const want[], double scale,
                   void *ctx)
{
    const sdpa_case *c = ctx;
    seen what = c->weights ? SEE_OUT_WEIGHTS : SEE_OUT;
    if (blame_softmax(got, want, scale, c, what)) return;
    if (catalogue(got, want, scale, c, what)) return;
    size_t len_out = (size_t)c->T_q * c->d_v;
    if (c->weights && lab_all_same(got[0], want[0], len_out, scale))
        lab_hint(EN_ES("out is right but weights is not: when weights is not NULL, row i of "
                       "it holds query i's softmax weights, the ones out_i is made with",
                       "out está bien pero weights no: cuando weights no es NULL, su fila i "
                       "guarda los pesos del softmax de la query i, con los que se hace "
                       "out_i"));
}

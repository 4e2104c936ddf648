/* mistakes.c - every hint of lab 02: the contract's (at the end), and the
 * common mistakes of its values, each computed on the failing
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

/* the ways a row's softmax goes wrong */
typedef enum {
    SM_RIGHT,            /* max subtracted, a row of -inf gives zeros */
    SM_NO_MAX,           /* exp(s_j) / sum: overflows, underflows */
    SM_MAX_FROM_ZERO,    /* the maximum starts at 0: rows far below 0 underflow */
    SM_ALL_HIDDEN_NAN,   /* no case for a row of -inf: -inf - (-inf) = NaN */
    SM_NOT_NORMALISED,   /* exp(s_j - m), never divided by the sum */
    SM_FLOAT_MAX,        /* the maximum kept in a float: +-inf beyond FLT_MAX */
} softmax_way;

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
} sdpa_way;

/* ---- the hints ------------------------------------------------------------------------ */

/* what a hint shows of the failing case, as text (%g for a number) */
typedef enum {
    F_NONE,                                 /* "" */
    F_ROW, F_MAX, F_BEYOND, F_SHIFTED, F_SUM, /* a row of scores, its maximum, ... */
    F_T_Q, F_T_K, F_D_K, F_D_V, F_SQRT_D_K, F_INV_SQRT_D_K, F_D_V_IS_1,   /* sdpa's shape */
    F_TOP, F_LOW, F_GAP,                    /* the scores' maximum, the row farthest below */
    F_WRONG, F_TAIL,                        /* a row softmax_row got wrong; a last remark */
    N_FACTS
} fact;

/* hint - a known mistake: the way that makes it (softmax_way, sdpa_way, or
 * 0), the facts that fill, in order, the %s of its text, and its text */
typedef struct {
    int way;
    fact arg[3];
    const char *text[2];    /* English, Spanish */
} hint;

/* say - print hint h, its %s filled with the facts it names */
static void say(const hint *h, const char *const facts[N_FACTS])
{
    lab_hint(h->text[lab_es()], facts[h->arg[0]], facts[h->arg[1]], facts[h->arg[2]]);
}

/* num - x as printf's fmt shows it, as a fact (it lives until the check ends) */
static const char *num(const char *fmt, double x)
{
    char *s = lab_temp(32);
    snprintf(s, 32, fmt, x);
    return s;
}

/* softmax_row's mistakes, in the order they are tried (without the
 * maximum, a row below 0 underflows: SM_NO_MAX's hint is then SM_MAX_FROM_ZERO's) */
static const hint softmax_hints[] = {
    { SM_ALL_HIDDEN_NAN, { F_NONE },
      { "every score of this row is -inf (every key hidden), so its maximum is -inf too, and "
        "s_j - max = -inf - (-inf) is NaN: a row that sees no key has weights all 0 (check for "
        "it once you have the maximum)",
        "todas las puntuaciones de esta fila son -inf (todas las keys ocultas), así que su "
        "máximo también es -inf, y s_j - máx = -inf - (-inf) es NaN: una fila que no ve "
        "ninguna key tiene todos sus pesos a 0 (compruébalo en cuanto tengas el máximo)" } },
    { SM_MAX_FROM_ZERO, { F_ROW, F_MAX },
      { "every exp(s_j) of %s underflows to 0 (exp is 0 below -745.13), so your weights are "
        "0/0: subtract the row maximum, %s here, before exp (not 0: the maximum starts at "
        "-INFINITY or s[0]); then the largest exp is exp(0) = 1 and the sum is at least 1",
        "cada exp(s_j) de %s se queda en 0 (exp es 0 por debajo de -745.13), así que tus pesos "
        "son 0/0: resta el máximo de la fila, aquí %s, antes de exp (no 0: el máximo empieza "
        "en -INFINITY o en s[0]); así la mayor exponencial es exp(0) = 1 y la suma es al menos "
        "1" } },
    { SM_NO_MAX, { F_ROW, F_MAX },
      { "exp(s_j) overflows to inf for the scores of %s (exp is inf above 709.78), so your "
        "weights are inf/inf = NaN: subtract the row maximum, %s here, before exp - softmax(s "
        "- c) = softmax(s) for any c - so that no exp exceeds exp(0) = 1",
        "exp(s_j) desborda a inf con las puntuaciones de %s (exp es inf por encima de 709.78), "
        "así que tus pesos son inf/inf = NaN: resta el máximo de la fila, aquí %s, antes de "
        "exp - softmax(s - c) = softmax(s) para cualquier c - para que ninguna exponencial "
        "pase de exp(0) = 1" } },
    { SM_FLOAT_MAX, { F_MAX, F_BEYOND },
      { "you kept the row maximum in a float: a float holds at most FLT_MAX = 3.4e38, and this "
        "row's maximum, %s, %s; keep it in a double, as the scores are",
        "guardaste el máximo de la fila en un float: un float llega como mucho a FLT_MAX = "
        "3.4e38, y el máximo de esta fila, %s, %s; guárdalo en un double, como las "
        "puntuaciones" } },
    { SM_NOT_NORMALISED, { F_NONE },
      { "your weights are exp(s_j - max) without dividing by their sum: the weights of a row "
        "sum to 1",
        "tus pesos son exp(s_j - máx) sin dividir entre su suma: los pesos de una fila suman 1" } },
};

/* sdpa's mistakes, in the order they are tried */
static const hint sdpa_hints[] = {
    { SD_K_NOT_TRANSPOSED, { F_NONE },
      { "you read K as if it were stored transposed, (d_k, T_k): key j is row j of K, k[j * "
        "d_k + p] for p = 0 .. d_k - 1, and score (i, j) is the dot product of row i of Q with "
        "row j of K - Q K^T (with mm_matmul: b_transposed = true)",
        "leíste K como si estuviera guardada traspuesta, (d_k, T_k): la key j es la fila j de "
        "K, k[j * d_k + p] para p = 0 .. d_k - 1, y la puntuación (i, j) es el producto "
        "escalar de la fila i de Q con la fila j de K - Q K^T (con mm_matmul: b_transposed = "
        "true)" } },
    { SD_V_BY_QUERY, { F_NONE },
      { "you blended row i of V (the query's index) where row j belongs (the key's): out_i = "
        "sum over j of a_ij v_j, with v_j = v[j * d_v + c] - the value that goes with key j",
        "mezclaste la fila i de V (el índice de la query) donde va la fila j (el de la key): "
        "out_i = suma sobre j de a_ij v_j, con v_j = v[j * d_v + c] - el value que va con la "
        "key j" } },
    { SD_KEYS_T_Q, { F_T_Q, F_T_K },
      { "you went over T_q = %s keys where there are T_k = %s: each query is scored against "
        "every row of K, j = 0 .. T_k - 1 (T_q counts the queries, T_k the keys and values; in "
        "cross-attention they differ)",
        "recorriste T_q = %s keys donde hay T_k = %s: cada query se puntúa contra todas las "
        "filas de K, j = 0 .. T_k - 1 (T_q cuenta las queries, T_k las keys y los values; en "
        "la atención cruzada difieren)" } },
    { SD_W_STRIDE_T_Q, { F_T_Q, F_T_K },
      { "you wrote row i of weights at i * T_q: a row holds one weight per key, so row i "
        "starts at i * T_k (weights is (T_q, T_k) = (%s, %s))",
        "escribiste la fila i de weights en i * T_q: una fila tiene un peso por key, así que "
        "la fila i empieza en i * T_k (weights es (T_q, T_k) = (%s, %s))" } },
    { SD_COLUMNS, { F_NONE },
      { "you took the softmax over each column (over the queries): each row is one query's "
        "softmax over all the keys, so that every row of weights sums to 1",
        "hiciste el softmax de cada columna (sobre las queries): cada fila es el softmax de "
        "una query sobre todas las keys, así que cada fila de weights suma 1" } },
    { SD_NO_SCALE, { F_D_K, F_SQRT_D_K, F_D_V_IS_1 },
      { "the scores are not scaled: divide each q_i . k_j by sqrt(d_k) = sqrt(%s) = %s before "
        "the softmax%s",
        "las puntuaciones no están escaladas: divide cada q_i . k_j entre sqrt(d_k) = sqrt(%s) "
        "= %s antes del softmax%s" } },
    { SD_SCALE_D_K, { F_D_K, F_SQRT_D_K },
      { "you divided the scores by d_k = %s: the scale is 1/sqrt(d_k) = 1/%s (it keeps the "
        "spread of q . k at 1, whose variance is d_k)",
        "dividiste las puntuaciones entre d_k = %s: la escala es 1/sqrt(d_k) = 1/%s (mantiene "
        "en 1 la dispersión de q . k, cuya varianza es d_k)" } },
    { SD_SCALE_D_V, { F_D_V, F_D_K, F_INV_SQRT_D_K },
      { "you divided the scores by sqrt(d_v) = sqrt(%s): the scale is 1/sqrt(d_k) = 1/sqrt(%s) "
        "= %s, with d_k the length of q_i and k_j, whose dot product is the score (d_v, the "
        "width of V, plays no part in the scores)",
        "dividiste las puntuaciones entre sqrt(d_v) = sqrt(%s): la escala es 1/sqrt(d_k) = "
        "1/sqrt(%s) = %s, con d_k la longitud de q_i y k_j, cuyo producto escalar es la "
        "puntuación (d_v, el ancho de V, no interviene en las puntuaciones)" } },
    { SD_SCALE_AFTER, { F_INV_SQRT_D_K },
      { "you applied the scale after the softmax: it divides the scores, softmax(q_i . k_j / "
        "sqrt(d_k)); dividing the weights instead makes a row sum to 1/sqrt(d_k) = %s, not 1",
        "aplicaste la escala después del softmax: divide las puntuaciones, softmax(q_i . k_j / "
        "sqrt(d_k)); dividir los pesos hace que una fila sume 1/sqrt(d_k) = %s, no 1" } },
    { SD_SCALE_OUT, { F_NONE },
      { "you divided the output by sqrt(d_k), not the scores: the scale goes inside the "
        "softmax, softmax(q_i . k_j / sqrt(d_k)), and out is the weights times V, unscaled",
        "dividiste la salida entre sqrt(d_k), no las puntuaciones: la escala va dentro del "
        "softmax, softmax(q_i . k_j / sqrt(d_k)), y out son los pesos por V, sin escalar" } },
    { SD_BIAS_BEFORE_SCALE, { F_NONE },
      { "you added the bias before the scale: it is added to the scaled scores, q_i . k_j / "
        "sqrt(d_k) + bias_ij, so that a bias means the same whatever d_k is",
        "sumaste el sesgo antes de escalar: se suma a las puntuaciones ya escaladas, q_i . k_j "
        "/ sqrt(d_k) + bias_ij, para que un sesgo signifique lo mismo sea cual sea d_k" } },
    { SD_NO_BIAS, { F_NONE },
      { "your sdpa ignores bias: when it is not NULL, add bias[i * T_k + j] to score (i, j) "
        "after the scale (chapter 04's masks come this way)",
        "tu sdpa ignora bias: cuando no es NULL, suma bias[i * T_k + j] a la puntuación (i, j) "
        "después de escalar (las máscaras del capítulo 04 llegan así)" } },
    { SD_HIDDEN_ROW_NAN, { F_NONE },
      { "a row whose every key is hidden (all its scores -inf) gives NaN: its maximum is -inf, "
        "and -inf - (-inf) is NaN; such a row has weights 0 and an output of 0",
        "una fila con todas sus keys ocultas (todas sus puntuaciones -inf) da NaN: su máximo "
        "es -inf, y -inf - (-inf) es NaN; esa fila tiene pesos 0 y salida 0" } },
    { SD_GLOBAL_MAX, { F_TOP, F_LOW, F_GAP },
      { "you subtracted the maximum of the whole score matrix (%s), not each row's: row %s "
        "lies %s below it, so every exp of that row underflows to 0 (exp is 0 below -745.13) "
        "and its weights are 0/0; subtract each row's own maximum (your softmax_row does it "
        "for one row)",
        "restaste el máximo de toda la matriz de puntuaciones (%s), no el de cada fila: la "
        "fila %s queda %s por debajo, así que todas las exponenciales de esa fila se quedan en "
        "0 (exp es 0 por debajo de -745.13) y sus pesos son 0/0; resta el máximo de cada fila "
        "(tu softmax_row lo hace para una fila)" } },
    { SD_NO_MAX, { F_NONE },
      { "your softmax inside sdpa does not subtract the row maximum: exp overflows above "
        "709.78 (inf/inf = NaN) and is 0 below -745.13 (0/0): subtract each row's maximum "
        "first, or call your softmax_row on each row of scores",
        "tu softmax dentro de sdpa no resta el máximo de la fila: exp desborda por encima de "
        "709.78 (inf/inf = NaN) y es 0 por debajo de -745.13 (0/0): resta antes el máximo de "
        "cada fila, o llama a tu softmax_row con cada fila de puntuaciones" } },
};

/* the hints that name no way, in the order the code gives them */
enum { H_SHIFTED, H_ONE_HIDDEN, H_SUM, H_BLAME, H_ALSO, H_REFUSED, H_WEIGHTS_ONLY };
static const hint more_hints[] = {
    [H_SHIFTED] = { 0, { F_SHIFTED, F_MAX },
      { "your softmax_row gives the right weights for the same row shifted by its maximum, s - "
        "max(s) = %s (max(s) = %s), and adding a constant to every score must not change the "
        "weights: your code is thrown by the size of the scores (exp overflows above 709.78 "
        "and is 0 below -745.13); subtract the row maximum before exp",
        "tu softmax_row da los pesos correctos para la misma fila desplazada por su máximo, s "
        "- máx(s) = %s (máx(s) = %s), y sumar una constante a todas las puntuaciones no debe "
        "cambiar los pesos: a tu código le afecta el tamaño de las puntuaciones (exp desborda "
        "por encima de 709.78 y es 0 por debajo de -745.13); resta el máximo de la fila antes "
        "de exp" } },
    [H_ONE_HIDDEN] = { 0, { F_NONE },
      { "every score of this row is -inf (every key hidden): the row sees no key, so its "
        "weights are all 0, even when it has one score",
        "todas las puntuaciones de esta fila son -inf (todas las keys ocultas): la fila no ve "
        "ninguna key, así que sus pesos son todos 0, aunque tenga una sola puntuación" } },
    [H_SUM] = { 0, { F_SUM },
      { "your weights sum to %s: the weights of a row that sees any key sum to 1",
        "tus pesos suman %s: los pesos de una fila que ve alguna key suman 1" } },
    [H_BLAME] = { 0, { F_WRONG, F_ROW },
      { "the scores are right, but your softmax_row gets them wrong: on row %s, s = %s, it "
        "does not give the right weights, and your sdpa's results are what its rows give. Fix "
        "softmax_row first (see its checks)",
        "las puntuaciones están bien, pero tu softmax_row las convierte mal: con la fila %s, s "
        "= %s, no da los pesos correctos, y los resultados de tu sdpa son los que dan sus "
        "filas. Arregla antes softmax_row (mira sus comprobaciones)" } },
    [H_ALSO] = { 0, { F_WRONG, F_ROW },
      { "your softmax_row also gets row %s of the right scores wrong, s = %s (see its checks)",
        "tu softmax_row también convierte mal la fila %s de las puntuaciones correctas, s = %s "
        "(mira sus comprobaciones)" } },
    [H_REFUSED] = { 0, { F_TAIL },
      { "valid arguments, so the value that is not finite is your own: a NaN or an infinity in "
        "your weights (an exp that overflowed, a 0/0 of a row whose exps all underflowed or "
        "whose keys are all hidden) reached mm_matmul, which refuses it%s",
        "argumentos válidos, así que el valor no finito es tuyo: un NaN o un infinito en tus "
        "pesos (una exp que desbordó, un 0/0 de una fila cuyas exps se quedaron todas en 0 o "
        "cuyas keys están todas ocultas) llegó a mm_matmul, que lo rechaza%s" } },
    [H_WEIGHTS_ONLY] = { 0, { F_NONE },
      { "out is right but weights is not: when weights is not NULL, row i of it holds query "
        "i's softmax weights, the ones out_i is made with",
        "out está bien pero weights no: cuando weights no es NULL, su fila i guarda los pesos "
        "del softmax de la query i, con los que se hace out_i" } },
};

/* the pieces some facts are: what a float does to the maximum (below 0,
 * above), the remark for d_v = 1, the remark when weights is NULL */
static const char *const beyond[2][2] = {
    { "becomes -inf there, as if the row saw no key",
      "se vuelve -inf en él, como si la fila no viera ninguna key" },
    { "becomes +inf there, and every weight 0/0 = NaN",
      "se vuelve +inf en él, y cada peso 0/0 = NaN" },
};
static const char *const d_v_is_1[2] = {
    " (here d_v = 1: if you divided by sqrt(d_v), that changed nothing; the scale takes d_k)",
    " (aquí d_v = 1: si dividiste entre sqrt(d_v), eso no cambió nada; la escala usa d_k)" };
static const char *const printf_rows[2] = {
    " (printf your rows of weights to see which one)",
    " (imprime tus filas de pesos con printf para ver cuál)" };

/* ---- softmax_row ----------------------------------------------------------------------- */

static double row_max(const double *s, int n)
{
    double m = -INFINITY;
    for (int j = 0; j < n; j++)
        if (s[j] > m) m = s[j];
    return m;
}

/* exp_normalise - w (n) = exp(s_j - m), divided by their sum if divide (w may be s) */
static void exp_normalise(double *w, const double *s, int n, double m, bool divide)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += w[j] = exp(s[j] - m);
    if (divide)
        for (int j = 0; j < n; j++) w[j] /= sum;
}

/* softmax_as - w (n) = the softmax of s (n) computed the given way (w may be s) */
static void softmax_as(softmax_way way, double *w, const double *s, int n)
{
    double m = row_max(s, n);
    if (way == SM_MAX_FROM_ZERO && !(m > 0)) m = 0.0;
    if (way == SM_NO_MAX) m = 0.0;
    if (way == SM_FLOAT_MAX) m = (float)m;
    if (m == -INFINITY && way != SM_ALL_HIDDEN_NAN)
        for (int j = 0; j < n; j++) w[j] = 0.0;
    else
        exp_normalise(w, s, n, m, way != SM_NOT_NORMALISED);
}

/* shift_probe - the learner's softmax_row on s - max(s): true if it gives
 * the right weights there (so only the size of the scores is the trouble) */
static bool shift_probe(const softmax_case *c, double scale, const double *shifted)
{
    lab_mat *row = lab_out("s", 1, c->n);
    memcpy(row->p, shifted, (size_t)c->n * sizeof *row->p);
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
    double *w = lab_fresh(len, NULL), *shifted = lab_fresh(len, NULL), m = row_max(c->s, n);
    const double *mw[1] = { w };
    for (int j = 0; j < n; j++) shifted[j] = c->s[j] - m;
    const char *facts[N_FACTS] = { "", [F_ROW] = row_text(c->s, n), [F_MAX] = num("%g", m),
                                   [F_BEYOND] = beyond[m > 0][lab_es()],
                                   [F_SHIFTED] = row_text(shifted, n) };
    for (size_t i = 0; i < sizeof softmax_hints / sizeof softmax_hints[0]; i++) {
        const hint *h = &softmax_hints[i];
        softmax_as(h->way, w, c->s, n);
        if (!lab_explained_same(1, got, want, mw, &len, scale)) continue;
        say(h->way == SM_NO_MAX && !(m > 0) ? &softmax_hints[1] : h, facts);
        return;
    }
    /* however it is written: right on the shifted row, wrong on this one */
    if (isfinite(m) && m != 0.0 && shift_probe(c, scale, shifted)) {
        say(&more_hints[H_SHIFTED], facts);
        return;
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += got[0][j];
    facts[F_SUM] = num("%.10g", sum);
    if (m == -INFINITY && isfinite(sum) && sum != 0.0) say(&more_hints[H_ONE_HIDDEN], facts);
    else if (isfinite(sum) && fabs(sum - 1.0) > 1e-6 && m > -INFINITY)
        say(&more_hints[H_SUM], facts);
}

/* ---- sdpa -------------------------------------------------------------------------------- */

/* fits - way can be computed on case c: it reads and writes inside every
 * buffer there (the harness stops a call that does not, and names the
 * buffer, before any value is compared), and is not another way there */
static bool fits(sdpa_way way, const sdpa_case *c)
{
    if ((way == SD_V_BY_QUERY || way == SD_KEYS_T_Q || way == SD_W_STRIDE_T_Q) && c->T_q > c->T_k)
        return false;
    if (way == SD_W_STRIDE_T_Q && !c->weights) return false;
    return way != SD_SCALE_D_V || c->d_v != 1;                /* that is SD_NO_SCALE */
}

/* scores_as - the scores (T_q, T_k) as the given way computes them (right:
 * q_i . k_j / sqrt(d_k) + bias_ij), LAB_UNWRITTEN past the keys it scores */
static double *scores_as(sdpa_way way, const sdpa_case *c)
{
    int T_q = c->T_q, T_k = c->T_k, d_k = c->d_k, n_keys = way == SD_KEYS_T_Q ? T_q : T_k;
    double scale = way == SD_NO_SCALE || way == SD_SCALE_AFTER || way == SD_SCALE_OUT ? 1.0
                 : way == SD_SCALE_D_K ? 1.0 / d_k
                 : way == SD_SCALE_D_V ? 1.0 / sqrt((double)c->d_v) : 1.0 / sqrt((double)d_k);
    double *a = lab_fresh((size_t)T_q * T_k, NULL);
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
    return a;
}

/* weights_as - the scores a (T_q, T_k) made weights in place, the given
 * way, over the first n_keys of each row */
static void weights_as(sdpa_way way, double *a, const sdpa_case *c, int n_keys)
{
    int T_q = c->T_q, T_k = c->T_k;
    if (way == SD_COLUMNS) {                     /* each column through a row's softmax */
        double *col = lab_fresh((size_t)T_q, NULL);
        for (int j = 0; j < T_k; j++) {
            for (int i = 0; i < T_q; i++) col[i] = a[i * T_k + j];
            softmax_as(SM_RIGHT, col, col, T_q);
            for (int i = 0; i < T_q; i++) a[i * T_k + j] = col[i];
        }
        return;
    }
    double top = way == SD_GLOBAL_MAX ? row_max(a, T_q * T_k) : 0.0;
    softmax_way as = way == SD_NO_MAX ? SM_NO_MAX
                   : way == SD_HIDDEN_ROW_NAN ? SM_ALL_HIDDEN_NAN : SM_RIGHT;
    for (int i = 0; i < T_q; i++) {
        double *row = a + (size_t)i * T_k;
        if (way == SD_GLOBAL_MAX) exp_normalise(row, row, n_keys, top, true);
        else softmax_as(as, row, row, n_keys);
        if (way == SD_SCALE_AFTER)
            for (int j = 0; j < n_keys; j++) row[j] /= sqrt((double)c->d_k);
    }
}

/* blend_as - out (T_q, d_v) = the weights a (T_q, T_k) times V, the given
 * way, over the first n_keys of each row */
static void blend_as(sdpa_way way, double *out, const double *a, const sdpa_case *c, int n_keys)
{
    int T_k = c->T_k, d_v = c->d_v;
    for (int i = 0; i < c->T_q; i++)
        for (int x = 0; x < d_v; x++) {
            double sum = 0.0;
            for (int j = 0; j < n_keys; j++)
                sum += a[i * T_k + j] * c->v[(way == SD_V_BY_QUERY ? i : j) * d_v + x];
            out[i * d_v + x] = way == SD_SCALE_OUT ? sum / sqrt((double)c->d_k) : sum;
        }
}

/* sdpa_as - out (T_q, d_v) and w (T_q, T_k) as sdpa computed the given way
 * writes them (LAB_UNWRITTEN where it writes nothing); false if the way
 * does not fit the case */
static bool sdpa_as(sdpa_way way, const sdpa_case *c, double *out, double *w)
{
    if (!fits(way, c)) return false;
    int T_q = c->T_q, T_k = c->T_k, n_keys = way == SD_KEYS_T_Q ? T_q : T_k;
    double *a = scores_as(way, c);
    weights_as(way, a, c, n_keys);
    blend_as(way, out, a, c, n_keys);
    if (way != SD_W_STRIDE_T_Q) {
        memcpy(w, a, (size_t)T_q * T_k * sizeof *w);
        return true;
    }
    for (int i = 0; i < T_q * T_k; i++) w[i] = LAB_UNWRITTEN;
    for (int i = 0; i < T_q; i++)
        for (int j = 0; j < T_k; j++) w[i * T_q + j] = a[i * T_k + j];
    return true;
}

/* way_hint - the hint h of a way, on case c: with the shape's facts and,
 * for a global maximum, the row that lies farthest below it */
static void way_hint(const hint *h, const sdpa_case *c)
{
    double r = sqrt((double)c->d_k), top = 0.0, gap = 0.0;
    int low = 0;
    if (h->way == SD_GLOBAL_MAX) {
        const double *scores = scores_as(SD_RIGHT, c);
        top = row_max(scores, c->T_q * c->T_k);
        for (int i = 0; i < c->T_q; i++) {
            double m = row_max(scores + (size_t)i * c->T_k, c->T_k);
            if (m > -INFINITY && top - m > gap) {
                gap = top - m;
                low = i;
            }
        }
    }
    const char *facts[N_FACTS] = {
        "", [F_T_Q] = num("%g", c->T_q), [F_T_K] = num("%g", c->T_k), [F_D_K] = num("%g", c->d_k),
        [F_D_V] = num("%g", c->d_v), [F_SQRT_D_K] = num("%g", r),
        [F_INV_SQRT_D_K] = num("%g", 1.0 / r), [F_TOP] = num("%g", top),
        [F_LOW] = num("%g", low), [F_GAP] = num("%g", gap),
        [F_D_V_IS_1] = c->d_v == 1 && c->d_k != 1 ? d_v_is_1[lab_es()] : "" };
    say(h, facts);
}

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

/* explains - do out (T_q, d_v) and w (T_q, T_k), as seen, explain got? */
static bool explains(const double *out, const double *w, const double *const got[],
                     const double *const want[], double scale, const sdpa_case *c, seen what)
{
    size_t len_out = (size_t)c->T_q * c->d_v, len_w = (size_t)c->T_q * c->T_k;
    const double *mine[2] = { what == SEE_WEIGHTS ? seen_rows(w, got[0], c->T_q, c->T_k) : out, w };
    size_t len[2] = { what == SEE_WEIGHTS ? len_w : len_out, len_w };
    return lab_explained_same(what == SEE_OUT_WEIGHTS ? 2 : 1, got, want, mine, len, scale);
}

/* blame_softmax - the learner's softmax_row on the right scores of each
 * query: if it is wrong on one, and sdpa's results (as seen) are what those
 * rows give, the mistake is in softmax_row; true if that was said */
static bool blame_softmax(const double *const got[], const double *const want[],
                          double scale, const sdpa_case *c, seen what)
{
    int T_q = c->T_q, T_k = c->T_k;
    const double *scores = scores_as(SD_RIGHT, c);
    double *w = lab_fresh((size_t)T_q * T_k, NULL), *out = lab_fresh((size_t)T_q * c->d_v, NULL);
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
    blend_as(SD_RIGHT, out, w, c, T_k);
    const char *facts[N_FACTS] = { "", [F_WRONG] = num("%g", wrong),
                                   [F_ROW] = row_text(scores + (size_t)wrong * T_k, T_k) };
    bool blamed = what == SEE_NOTHING || explains(out, w, got, want, scale, c, what);
    say(&more_hints[blamed ? H_BLAME : H_ALSO], facts);
    return blamed;
}

/* catalogue - the first way that explains the outputs seen; its hint */
static bool catalogue(const double *const got[], const double *const want[], double scale,
                      const sdpa_case *c, seen what)
{
    double *out = lab_fresh((size_t)c->T_q * c->d_v, NULL);
    double *w = lab_fresh((size_t)c->T_q * c->T_k, NULL);
    for (size_t i = 0; i < sizeof sdpa_hints / sizeof sdpa_hints[0]; i++)
        if (sdpa_as(sdpa_hints[i].way, c, out, w) && explains(out, w, got, want, scale, c, what)) {
            way_hint(&sdpa_hints[i], c);
            return true;
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
    const char *facts[N_FACTS] = { "", [F_TAIL] = weights ? "" : printf_rows[lab_es()] };
    say(&more_hints[H_REFUSED], facts);
}

void diagnose_sdpa(const double *const got[], const double *const want[], double scale,
                   void *ctx)
{
    const sdpa_case *c = ctx;
    seen what = c->weights ? SEE_OUT_WEIGHTS : SEE_OUT;
    if (blame_softmax(got, want, scale, c, what)) return;
    if (catalogue(got, want, scale, c, what)) return;
    const char *facts[N_FACTS] = { "" };
    if (c->weights && lab_all_same(got[0], want[0], (size_t)c->T_q * c->d_v, scale))
        say(&more_hints[H_WEIGHTS_ONLY], facts);
}

/* ---- the contract's hints ---------------------------------------------------------- */

/* what a bad argument handled wrongly most likely means (lab02.h names them) */
static const char *const contract_hints[N_CONTRACT_HINTS][2] = {
    [CH_MINUS_INF_SCORE] = {
      "-inf is not a bad score: it hides a key, whose weight is exactly 0 "
      "(exp(-inf) = 0); only NaN and +inf are refused",
      "-inf no es una puntuación errónea: oculta una key, cuyo peso es "
      "exactamente 0 (exp(-inf) = 0); solo se rechazan NaN y +inf" },
    [CH_SOFTMAX_CHECK_FIRST] = {
      "check every score before you write any: find a NaN or +inf "
      "anywhere in the row first, and return MM_EINVAL before the first "
      "write",
      "comprueba todas las puntuaciones antes de escribir ninguna: busca "
      "primero un NaN o un +inf en toda la fila, y devuelve MM_EINVAL "
      "antes de la primera escritura" },
    [CH_SOFTMAX_BAD_SCORE] = {
      "a score that is NaN or +inf has no weight (with it every weight of "
      "the row would be NaN): look for one (isnan(s[j]), s[j] == INFINITY) "
      "before computing anything, and return mm_fail(MM_EINVAL, ...)",
      "una puntuación NaN o +inf no tiene peso (con ella todos los pesos "
      "de la fila serían NaN): búscala (isnan(s[j]), s[j] == INFINITY) "
      "antes de calcular nada, y devuelve mm_fail(MM_EINVAL, ...)" },
    [CH_MINUS_INF_BIAS] = {
      "a bias of -inf is not an error: it hides a key, whose weight is 0; "
      "a row whose every key is hidden has weights 0 and an output of 0",
      "un sesgo de -inf no es un error: oculta una key, cuyo peso es 0; "
      "una fila con todas sus keys ocultas tiene pesos 0 y salida 0" },
    [CH_SDPA_CHECK_FIRST] = {
      "check every argument - the pointers, the sizes, the "
      "overlaps, the values of q, k, v and bias - before the first "
      "write",
      "comprueba todos los argumentos - los punteros, los tamaños, "
      "los solapamientos, los valores de q, k, v y bias - antes de "
      "la primera escritura" },
    [CH_SIZE_PRODUCT] = {
      "each buffer's size is a product of two sizes, and it must fit: "
      "MM_NEED_SIZE_PRODUCT(T_q, d_k) returns MM_EINVAL unless T_q d_k <= "
      "MM_MAX_ELEMENTS (check every pair that sizes a buffer, after the "
      "sizes themselves)",
      "el tamaño de cada búfer es un producto de dos tamaños, y tiene que "
      "caber: MM_NEED_SIZE_PRODUCT(T_q, d_k) devuelve MM_EINVAL salvo que "
      "T_q d_k <= MM_MAX_ELEMENTS (comprueba cada par que dimensiona un "
      "búfer, después de los propios tamaños)" },
    [CH_SAME_BUFFER] = {
      "an output that shares memory with another buffer is overwritten while "
      "that one is still being read: refuse it with MM_EINVAL, naming both "
      "(weights only when it is not NULL)",
      "una salida que comparte memoria con otro búfer lo sobrescribe mientras "
      "aún se lee: recházala con MM_EINVAL, nombrando ambos (weights solo si "
      "no es NULL)" },
    [CH_OVERLAP] = {
      "two buffers can overlap without starting at the same address: "
      "compare the ranges of bytes, not the pointers - MM_NEED_DISJOINT "
      "(core/error.h) does it for an array of MM_BUFFER(p, n)",
      "dos búferes pueden solaparse sin empezar en la misma dirección: "
      "compara los rangos de bytes, no los punteros - MM_NEED_DISJOINT "
      "(core/error.h) lo hace para un array de MM_BUFFER(p, n)" },
    [CH_NOT_FINITE] = {
      "q, k and v must be finite, and a bias finite or -inf (which hides a key): "
      "MM_NEED_FINITE(q, T_q, d_k) refuses a NaN or an infinity with MM_EINVAL; for bias, "
      "look for a NaN or +inf yourself. Check before computing anything, so that a refused "
      "call writes nothing",
      "q, k y v tienen que ser finitas, y un sesgo finito o -inf (que oculta una key): "
      "MM_NEED_FINITE(q, T_q, d_k) rechaza un NaN o un infinito con MM_EINVAL; en bias, "
      "busca tú un NaN o un +inf. Compruébalo antes de calcular nada, para que una llamada "
      "rechazada no escriba nada" },
    [CH_OVERFLOW] = {
      "finite inputs can still give a score that is not finite: q . k can overflow "
      "(mm_matmul then returns MM_ERANGE), and so can a score plus its bias; look at each "
      "score once the bias is added (== INFINITY) and return mm_fail(MM_ERANGE, ...) "
      "naming the query and the key",
      "unas entradas finitas pueden dar aun así una puntuación no finita: q . k puede "
      "desbordar (mm_matmul devuelve entonces MM_ERANGE), y también una puntuación más su "
      "sesgo; mira cada puntuación tras sumar el sesgo (== INFINITY) y devuelve "
      "mm_fail(MM_ERANGE, ...) nombrando la query y la key" },
};

/* contract_hint, contract_hint_text - lab02.h */
void contract_hint(contract_hint_id h)
{
    lab_hint("%s", contract_hint_text(h));
}

const char *contract_hint_text(contract_hint_id h)
{
    return contract_hints[h][lab_es()];
}

/* mistakes.c - every hint of lab 03: check.c's (at the end), and the
 * common mistakes, each computed on the failing case's input: when one
 * reproduces the learner's output (and differs from the right answer
 * there), its hint is printed. When mha_forward fails, the
 * learner's own mha_split_heads and mha_merge_heads are called again, on
 * the right [Q | K | V] and on the heads' outputs, to tell a mistake of
 * mha_forward from one of the split or the merge it calls (both ways a
 * forward pass may split: the packed (T, 3 d_model) matrix into 3 n_heads
 * heads, or each of Q, K, V into n_heads). The mistakes are tried most
 * likely first, and the first that fits is the one named. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/matrix.h"
#include "lab03.h"

/* ---- the split and the merge -------------------------------------------------------------- */

/* the ways heads are cut out of m (T, n_heads d_k), or put back */
typedef enum {
    HW_RIGHT,            /* heads[h][t][c] = m[t][h d_k + c] */
    HW_RESHAPE,          /* m copied as it is: (T, d_model) read as (n_heads, T, d_k) */
    HW_INTERLEAVED,      /* head h is every n_heads-th column: m[t][c n_heads + h] */
    HW_HEAD_TRANSPOSED,  /* each head stored (d_k, T): heads[h][c][t] */
    HW_REVERSED,         /* the heads in reverse order: head h is block n_heads - 1 - h */
} heads_way;

/* index_pair - for element (h, t, c) of a head: its index in heads and in m */
static void index_pair(heads_way way, int h, int t, int c, int T, int H, int d_k,
                       size_t *in_heads, size_t *in_m)
{
    size_t d = (size_t)H * d_k;
    *in_heads = ((size_t)h * T + t) * d_k + c;
    *in_m = t * d + (size_t)h * d_k + c;
    switch (way) {
    case HW_RESHAPE: *in_m = *in_heads; break;
    case HW_INTERLEAVED: *in_m = t * d + (size_t)c * H + h; break;
    case HW_HEAD_TRANSPOSED: *in_heads = ((size_t)h * d_k + c) * T + t; break;
    case HW_REVERSED: *in_m = t * d + (size_t)(H - 1 - h) * d_k + c; break;
    default: break;
    }
}

/* heads_as - heads from m (merge false), or m from heads (into out, from
 * in), the given way */
static void heads_as(heads_way way, bool merge, double *out, const double *in, int T, int H,
                     int d_k)
{
    for (int h = 0; h < H; h++)
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d_k; c++) {
                size_t ih, im;
                index_pair(way, h, t, c, T, H, d_k, &ih, &im);
                if (merge) out[im] = in[ih];
                else out[ih] = in[im];
            }
}

/* heads_hint - the hint of one way of the split (merge false) or the merge */
static void heads_hint(heads_way way, bool merge, int T, int H, int d_k)
{
    switch (way) {
    case HW_RESHAPE:
        if (merge)
            lab_hint(EN_ES("you copied heads into m as it is, as if (n_heads, T, d_k) were "
                           "already (T, d_model): row t of m is every head's row t side by "
                           "side, head h's in columns h d_k .. h d_k + %d, so element "
                           "(h, t, c) goes to m[t * %d + h * %d + c]",
                           "copiaste heads en m tal cual, como si (n_heads, T, d_k) ya fuera "
                           "(T, d_model): la fila t de m son las filas t de todas las cabezas "
                           "una al lado de otra, la de la cabeza h en las columnas h d_k .. "
                           "h d_k + %d, así que el elemento (h, t, c) va a m[t * %d + h * %d + "
                           "c]"), d_k - 1, H * d_k, d_k);
        else
            lab_hint(EN_ES("you copied m as it is, reading the (T, d_model) buffer as if it "
                           "were already (n_heads, T, d_k) - a reshape without the transpose: "
                           "head h's row t is columns h d_k .. h d_k + %d of row t of m, "
                           "m[t * %d + h * %d + c], and it goes to heads[(h * %d + t) * %d + c]",
                           "copiaste m tal cual, leyendo el búfer (T, d_model) como si ya "
                           "fuera (n_heads, T, d_k) - un reshape sin la trasposición: la fila "
                           "t de la cabeza h son las columnas h d_k .. h d_k + %d de la fila t "
                           "de m, m[t * %d + h * %d + c], y va a heads[(h * %d + t) * %d + c]"),
                     d_k - 1, H * d_k, d_k, T, d_k);
        break;
    case HW_INTERLEAVED:
        lab_hint(EN_ES("you gave head h every n_heads-th column (h, h + %d, h + %d, ...): a "
                       "head owns one block of d_k = %d neighbouring columns, h d_k .. h d_k + "
                       "%d, as its columns of W_Q, W_K and W_V do",
                       "diste a la cabeza h una columna de cada n_heads (h, h + %d, h + %d, "
                       "...): una cabeza tiene un bloque de d_k = %d columnas vecinas, h d_k "
                       ".. h d_k + %d, como sus columnas de W_Q, W_K y W_V"),
                 H, 2 * H, d_k, d_k - 1);
        break;
    case HW_HEAD_TRANSPOSED:
        lab_hint(EN_ES("you %s each head transposed, (d_k, T): a head is a (T, d_k) matrix "
                       "like Q, its row t at heads + (h * T + t) * d_k = heads + (h * %d + t) "
                       "* %d",
                       "%s cada cabeza traspuesta, (d_k, T): una cabeza es una matriz "
                       "(T, d_k) como Q, con su fila t en heads + (h * T + t) * d_k = heads "
                       "+ (h * %d + t) * %d"),
                 merge ? EN_ES("read", "leíste") : EN_ES("stored", "guardaste"), T, d_k);
        break;
    case HW_REVERSED:
        lab_hint(EN_ES("your heads are in reverse order: head 0 is columns 0 .. %d of m, head "
                       "1 the next %d, ..., head h columns h d_k .. h d_k + %d",
                       "tus cabezas están en orden inverso: la cabeza 0 son las columnas 0 .. "
                       "%d de m, la cabeza 1 las %d siguientes, ..., la cabeza h las columnas "
                       "h d_k .. h d_k + %d"), d_k - 1, d_k, d_k - 1);
        break;
    default:
        break;
    }
}

static const heads_way heads_tried[] = { HW_RESHAPE, HW_INTERLEAVED, HW_HEAD_TRANSPOSED,
                                         HW_REVERSED };

/* heads_catalogue - name the way that gives got, for the split or the merge */
static void heads_catalogue(const double *const got[], const double *const want[],
                            double scale, const heads_case *c)
{
    int T = c->T, H = c->n_heads, d_k = c->d_k;
    size_t n = (size_t)T * H * d_k;
    double *mine = lab_fresh(n, NULL);
    const double *mistake[1] = { mine };
    for (size_t i = 0; i < sizeof heads_tried / sizeof heads_tried[0]; i++) {
        for (size_t e = 0; e < n; e++) mine[e] = LAB_UNWRITTEN;
        heads_as(heads_tried[i], c->merge, mine, c->merge ? c->heads : c->m, T, H, d_k);
        if (lab_explained_same(1, got, want, mistake, &n, scale)) {
            heads_hint(heads_tried[i], c->merge, T, H, d_k);
            return;
        }
    }
}

void diagnose_heads(const double *const got[], const double *const want[], double scale,
                    void *ctx)
{
    heads_catalogue(got, want, scale, ctx);
}

void diagnose_round_trip(const heads_case *c, const double *heads, const double *m2)
{
    size_t n = (size_t)c->T * c->n_heads * c->d_k;
    double scale = lab_scale(c->m, n);
    if (!lab_all_same(heads, c->heads, n, scale)) {
        lab_hint(EN_ES("your mha_split_heads does not give the right heads for this m (see "
                       "its checks), and your mha_merge_heads does not undo what it does: "
                       "fix the split first",
                       "tu mha_split_heads no da las cabezas correctas con esta m (mira sus "
                       "comprobaciones), y tu mha_merge_heads no deshace lo que hace: "
                       "arregla antes la división"));
        return;
    }
    const double *got[1] = { m2 }, *want[1] = { c->m };
    heads_case merged = *c;
    merged.merge = true;
    heads_catalogue(got, want, scale, &merged);
}

/* ---- mha_forward ---------------------------------------------------------------------------- */

/* the ways mha_forward goes wrong */
typedef enum {
    FW_RIGHT,
    FW_QKV_AS_HEADS,       /* X W_QKV (T, 3 d_model) used as if it were (3 n_heads, T, d_k) */
    FW_EACH_RESHAPED,      /* Q, K, V each (T, d_model) reshaped to (n_heads, T, d_k) */
    FW_MERGE_RESHAPE,      /* the heads' outputs (n_heads, T, d_k) used as if (T, d_model) */
    FW_HEAD0,              /* head 0's Q, K, V for every head */
    FW_HEAD_OFFSET,        /* head h's Q, K, V h d_k (not h T d_k) into their block */
    FW_K_FROM_V,           /* K taken from the V block of W_QKV */
    FW_ONE_WIDE_HEAD,      /* d_k = d_model: one head over the full width */
    FW_SCALE_D_MODEL,      /* scores scaled by 1/sqrt(d_model) */
    FW_JOINT_SOFTMAX,      /* one softmax over all the heads' scores of a query */
    FW_NO_BIAS,            /* the bias not passed on */
    FW_NO_W_O,             /* out = the heads' outputs side by side, not times W_O */
    FW_WEIGHTS_ONE_SLOT,   /* every head's weights written at weights + 0 */
} fw_way;

/* joint_attention - o (n_heads, T, d_k) and w (n_heads, T, T) with one
 * softmax per query over all the heads' scores */
static void joint_attention(double *o, double *w, const double *heads, const mha_case *c)
{
    int T = c->T, H = c->n_heads, d_k = c->d_k;
    size_t hs = (size_t)T * d_k;
    double *s = lab_fresh((size_t)H * T, NULL), r = 1.0 / sqrt((double)d_k);
    for (int i = 0; i < T; i++) {
        double top = -INFINITY, sum = 0.0;
        for (int h = 0; h < H; h++)
            for (int j = 0; j < T; j++) {
                const double *q = heads + h * hs + (size_t)i * d_k;
                const double *k = heads + (H + h) * hs + (size_t)j * d_k;
                double dot = 0.0;
                for (int p = 0; p < d_k; p++) dot += q[p] * k[p];
                double b = c->bias ? c->bias[(size_t)i * T + j] : 0.0;
                s[h * T + j] = dot * r + b;
                top = fmax(top, s[h * T + j]);
            }
        for (int e = 0; e < H * T; e++)
            sum += s[e] = top == -INFINITY ? 0.0 : exp(s[e] - top);
        for (int h = 0; h < H; h++) {
            double *w_i = w + ((size_t)h * T + i) * T, *o_i = o + h * hs + (size_t)i * d_k;
            for (int j = 0; j < T; j++) w_i[j] = sum > 0 ? s[h * T + j] / sum : 0.0;
            for (int p = 0; p < d_k; p++) {
                double acc = 0.0;
                for (int j = 0; j < T; j++)
                    acc += w_i[j] * heads[(2 * H + h) * hs + (size_t)j * d_k + p];
                o_i[p] = acc;
            }
        }
    }
}

/* qkv_of - X W_QKV (T, 3 d_model); NULL if it overflows */
static double *qkv_of(const mha_case *c)
{
    double *qkv = lab_fresh((size_t)c->T * 3 * c->d_model, NULL);
    if (mm_matmul(qkv, c->x, c->w_qkv, c->T, c->d_model, 3 * c->d_model, false) != MM_OK)
        return NULL;
    return qkv;
}

/* fw_as - out (T, d_model) and w (n_heads, T, T) as mha_forward computed
 * the given way writes them (LAB_UNWRITTEN where it writes nothing); false
 * if that way cannot be computed on this case */
static bool fw_as(fw_way way, const mha_case *c, double *out, double *w)
{
    int T = c->T, d = c->d_model, H = c->n_heads, d_k = c->d_k;
    size_t hs = (size_t)T * d_k, ww = (size_t)H * T * T;
    const double *qkv = qkv_of(c);
    if (!qkv) return false;
    for (size_t e = 0; e < ww; e++) w[e] = LAB_UNWRITTEN;
    double *concat = lab_fresh((size_t)T * d, NULL);
    if (way == FW_ONE_WIDE_HEAD) {
        double *q = lab_fresh((size_t)T * d, NULL), *k = lab_fresh((size_t)T * d, NULL);
        double *v = lab_fresh((size_t)T * d, NULL);
        if (qkv_split(q, k, v, qkv, T, d, d) != MM_OK ||
            sdpa(concat, w, q, k, v, c->bias, T, T, d, d) != MM_OK)
            return false;
    } else {
        double *heads = lab_fresh(3 * (size_t)H * hs, NULL);
        if (way == FW_QKV_AS_HEADS) {
            memcpy(heads, qkv, 3 * (size_t)H * hs * sizeof *heads);
        } else if (way == FW_EACH_RESHAPED) {
            for (int b = 0; b < 3; b++)                       /* block b, row by row */
                for (int t = 0; t < T; t++)
                    memcpy(heads + b * (size_t)H * hs + (size_t)t * d,
                           qkv + (size_t)t * 3 * d + (size_t)b * d, (size_t)d * sizeof *heads);
        } else {
            heads_as(HW_RIGHT, false, heads, qkv, T, 3 * H, d_k);
        }
        double *o = lab_fresh((size_t)H * hs, NULL);
        if (way == FW_JOINT_SOFTMAX) {
            joint_attention(o, w, heads, c);
        } else {
            double *q_scaled = lab_fresh(hs, NULL);
            for (int h = 0; h < H; h++) {
                int from = way == FW_HEAD0 ? 0 : h;
                const double *q_h = heads + from * hs, *k_h = heads + (H + from) * hs,
                             *v_h = heads + (2 * H + from) * hs;
                if (way == FW_K_FROM_V) k_h = v_h;
                if (way == FW_HEAD_OFFSET) {    /* a column offset, on the stack of heads */
                    q_h = heads + (size_t)h * d_k;
                    k_h = q_h + H * hs;
                    v_h = k_h + H * hs;
                }
                if (way == FW_SCALE_D_MODEL) {   /* (q c) . k / sqrt(d_k) = q . k / sqrt(d) */
                    double f = sqrt((double)d_k / d);
                    for (size_t e = 0; e < hs; e++) q_scaled[e] = q_h[e] * f;
                    q_h = q_scaled;
                }
                double *w_h = w + (way == FW_WEIGHTS_ONE_SLOT ? 0 : (size_t)h * T * T);
                if (sdpa(o + h * hs, w_h, q_h, k_h, v_h, way == FW_NO_BIAS ? NULL : c->bias,
                         T, T, d_k, d_k) != MM_OK)
                    return false;
            }
        }
        if (way == FW_MERGE_RESHAPE) memcpy(concat, o, (size_t)T * d * sizeof *concat);
        else heads_as(HW_RIGHT, true, concat, o, T, H, d_k);
    }
    if (way == FW_NO_W_O) memcpy(out, concat, (size_t)T * d * sizeof *out);
    else if (mm_matmul(out, concat, c->w_o, T, d, d, false) != MM_OK) return false;
    return true;
}

/* the numbers of a case a hint may show (fw_hints' args) */
enum { A_NONE, A_T, A_D, A_2D, A_2D_1, A_3D, A_3D_1, A_H, A_DK, A_DK_1, A_TT, A_SQRT_DK, A_TDK,
       N_ARGS };

/* fw_hints - the hint of each way, in English and Spanish: each %s is
 * filled, in order, with the case's number its row's args name */
static const struct {
    fw_way way;
    unsigned char args[4];
    const char *text[2];
} fw_hints[] = {
    { FW_QKV_AS_HEADS, { A_T, A_3D, A_DK_1, A_D },
      { "you used X W_QKV, (T, 3 d_model) = (%s, %s), as if it were already (3 n_heads, T, d_k) - "
        "a reshape without the transpose: head h's queries are columns h d_k .. h d_k + %s of "
        "every row, its keys the same columns of the K block (from d_model = %s on), its values "
        "of the V block; split [Q | K | V] into heads first",
        "usaste X W_QKV, (T, 3 d_model) = (%s, %s), como si ya fuera (3 n_heads, T, d_k) - un "
        "reshape sin la trasposición: las queries de la cabeza h son las columnas h d_k .. h d_k "
        "+ %s de cada fila, sus keys las mismas columnas del bloque K (desde d_model = %s), sus "
        "values las del bloque V; divide antes [Q | K | V] en cabezas" } },
    { FW_EACH_RESHAPED, { A_DK_1 },
      { "you cut Q, K and V into heads as a plain reshape, (T, d_model) read as (n_heads, T, d_k) "
        "without the transpose: head h's row t is columns h d_k .. h d_k + %s of row t",
        "cortaste Q, K y V en cabezas con un simple reshape, (T, d_model) leída como (n_heads, T, "
        "d_k) sin la trasposición: la fila t de la cabeza h son las columnas h d_k .. h d_k + %s "
        "de la fila t" } },
    { FW_MERGE_RESHAPE, { A_DK_1 },
      { "you used the heads' outputs, (n_heads, T, d_k), as if they were already (T, d_model) - a "
        "reshape without the transpose: row t of the concatenation is every head's row t side by "
        "side, head h's in columns h d_k .. h d_k + %s",
        "usaste las salidas de las cabezas, (n_heads, T, d_k), como si ya fueran (T, d_model) - "
        "un reshape sin la trasposición: la fila t de la concatenación son las filas t de todas "
        "las cabezas una al lado de otra, la de la cabeza h en las columnas h d_k .. h d_k + "
        "%s" } },
    { FW_HEAD0, { A_H, A_DK_1 },
      { "every head used head 0's queries, keys and values, so all %s heads give the same output: "
        "head h's are its own columns, h d_k .. h d_k + %s, of Q, of K and of V",
        "todas las cabezas usaron las queries, keys y values de la cabeza 0, así que las %s "
        "cabezas dan la misma salida: las de la cabeza h son sus propias columnas, h d_k .. h d_k "
        "+ %s, de Q, de K y de V" } },
    { FW_HEAD_OFFSET, { A_DK, A_TDK },
      { "head h's queries, keys and values start h d_k elements into their block of the stack "
        "of heads - where head h's columns start in a row of Q (T, d_model) - so your head h "
        "read head 0's rows from row h on: in the stack (n_heads, T, d_k) each head holds T "
        "rows of d_k = %s, and head h starts h T d_k = h * %s elements in",
        "las queries, keys y values de la cabeza h empiezan h d_k elementos dentro de su bloque "
        "de la pila de cabezas - donde empiezan las columnas de la cabeza h en una fila de Q "
        "(T, d_model) - así que tu cabeza h leyó las filas de la cabeza 0 desde la fila h: en "
        "la pila (n_heads, T, d_k) cada cabeza tiene T filas de d_k = %s, y la cabeza h empieza "
        "h T d_k = h * %s elementos más allá" } },
    { FW_K_FROM_V, { A_D, A_2D_1, A_2D, A_3D_1 },
      { "your keys are the values: X W_QKV is [Q | K | V], the keys are its middle block, columns "
        "%s .. %s, and the values its last, %s .. %s",
        "tus keys son los values: X W_QKV es [Q | K | V], las keys son su bloque central, "
        "columnas %s .. %s, y los values el último, %s .. %s" } },
    { FW_ONE_WIDE_HEAD, { A_D, A_D, A_H, A_DK },
      { "you computed one attention over the whole width (d_k = d_model = %s, a scale of "
        "1/sqrt(%s)): that is single-head attention. Cut Q, K and V into n_heads = %s heads of "
        "d_k = %s columns, and run each head's attention on its own",
        "calculaste una sola atención sobre toda la anchura (d_k = d_model = %s, una escala de "
        "1/sqrt(%s)): eso es atención de una cabeza. Corta Q, K y V en n_heads = %s cabezas de "
        "d_k = %s columnas, y ejecuta la atención de cada cabeza por separado" } },
    { FW_SCALE_D_MODEL, { A_D, A_DK, A_SQRT_DK },
      { "you scaled the scores by 1/sqrt(d_model) = 1/sqrt(%s): each head is attention on its own "
        "d_k = %s columns, so its scale is 1/sqrt(d_k) = 1/%s (sdpa applies it when you give it "
        "d_k)",
        "escalaste las puntuaciones por 1/sqrt(d_model) = 1/sqrt(%s): cada cabeza es atención "
        "sobre sus propias d_k = %s columnas, así que su escala es 1/sqrt(d_k) = 1/%s (sdpa la "
        "aplica si le das d_k)" } },
    { FW_JOINT_SOFTMAX, { A_H, A_T },
      { "you took one softmax over the scores of all the heads of a query (%s x %s at once): each "
        "head has a softmax of its own over the T keys, so that each head's row of weights sums "
        "to 1",
        "hiciste un solo softmax sobre las puntuaciones de todas las cabezas de una query (%s x "
        "%s a la vez): cada cabeza tiene su propio softmax sobre las T keys, así que la fila de "
        "pesos de cada cabeza suma 1" } },
    { FW_NO_BIAS, { 0 },
      { "your mha_forward does not pass the bias on: when it is not NULL, every head adds it to "
        "its scaled scores (sdpa's bias argument) - chapter 04's masks come this way",
        "tu mha_forward no pasa el sesgo: cuando no es NULL, cada cabeza lo suma a sus "
        "puntuaciones escaladas (el argumento bias de sdpa) - las máscaras del capítulo 04 llegan "
        "así" } },
    { FW_NO_W_O, { 0 },
      { "your out is the heads' outputs side by side, not multiplied by W_O: out = concat W_O, "
        "with the layer's w_o (d_model, d_model) - W_O mixes what the heads found",
        "tu out son las salidas de las cabezas una al lado de otra, sin multiplicar por W_O: out "
        "= concat W_O, con el w_o de la capa (d_model, d_model) - W_O mezcla lo que encontraron "
        "las cabezas" } },
    { FW_WEIGHTS_ONE_SLOT, { A_TT },
      { "every head wrote its weights at the start of weights, so only the last head's are there: "
        "head h's (T, T) rows go at weights + h T T = weights + h * %s",
        "cada cabeza escribió sus pesos al principio de weights, así que solo quedan los de la "
        "última: las filas (T, T) de la cabeza h van en weights + h T T = weights + h * %s" } },
};

/* fw_hint - the hint of one way, on case c */
static void fw_hint(fw_way way, const mha_case *c)
{
    int T = c->T, d = c->d_model, H = c->n_heads, d_k = c->d_k;
    const double v[N_ARGS] = { [A_T] = T, [A_D] = d, [A_2D] = 2 * d, [A_2D_1] = 2 * d - 1,
                               [A_3D] = 3 * d, [A_3D_1] = 3 * d - 1, [A_H] = H, [A_DK] = d_k,
                               [A_DK_1] = d_k - 1, [A_TT] = T * T, [A_SQRT_DK] = sqrt(d_k),
                               [A_TDK] = T * d_k };
    for (size_t i = 0; i < sizeof fw_hints / sizeof fw_hints[0]; i++) {
        if (fw_hints[i].way != way) continue;
        char a[4][32];
        for (int k = 0; k < 4; k++)      /* integers as %d writes them, the root as %.6g */
            snprintf(a[k], sizeof a[k], fw_hints[i].args[k] == A_SQRT_DK ? "%.6g" : "%.0f",
                     v[fw_hints[i].args[k]]);
        lab_hint(fw_hints[i].text[lab_es()], a[0], a[1], a[2], a[3]);
    }
}

static const fw_way fw_tried[] = {
    FW_QKV_AS_HEADS, FW_EACH_RESHAPED, FW_MERGE_RESHAPE, FW_HEAD0, FW_HEAD_OFFSET, FW_K_FROM_V,
    FW_ONE_WIDE_HEAD, FW_SCALE_D_MODEL, FW_JOINT_SOFTMAX, FW_NO_BIAS, FW_NO_W_O,
    FW_WEIGHTS_ONE_SLOT,
};

/* ---- mha_forward: blame the split or the merge ---------------------------------------------- */

/* learner_heads - the learner's mha_split_heads on in = m (T, H d_k), or
 * (merge) mha_merge_heads on in = heads (H, T, d_k); NULL if it did not
 * return MM_OK */
static double *learner_heads(bool merge, const double *in, int T, int H, int d_k)
{
    lab_mat *out = merge ? lab_out("m", T, H * d_k) : lab_out("heads", H * T, d_k);
    lab_mat *given = merge ? lab_in("heads", H * T, d_k, in) : lab_in("m", T, H * d_k, in);
    mm_status st;
    bool todo;
    if (!lab_probe(&st, &todo, merge ? "mha_merge_heads" : "mha_split_heads",
                   LAB_BUFS(out, given), LAB_INTS(T, H, d_k)) || st != MM_OK)
        return NULL;
    return lab_fresh(out->n, out->p);
}

/* forward_with - out and w with the given heads (3 n_heads, T, d_k) and
 * the learner's merge; *merge_wrong: it differs from the right merge
 * there. False if it cannot be computed. */
static bool forward_with(const mha_case *c, const double *heads, double *out, double *w,
                         bool *merge_wrong)
{
    int T = c->T, d = c->d_model, H = c->n_heads, d_k = c->d_k;
    size_t hs = (size_t)T * d_k;
    double *o = lab_fresh((size_t)H * hs, NULL);
    for (int h = 0; h < H; h++)
        if (sdpa(o + h * hs, w + (size_t)h * T * T, heads + h * hs, heads + (H + h) * hs,
                 heads + (2 * H + h) * hs, c->bias, T, T, d_k, d_k) != MM_OK)
            return false;
    const double *concat = learner_heads(true, o, T, H, d_k);
    if (!concat) return false;
    double *right = lab_fresh((size_t)T * d, NULL);
    heads_as(HW_RIGHT, true, right, o, T, H, d_k);
    *merge_wrong = !lab_all_same(concat, right, (size_t)T * d, lab_scale(right, (size_t)T * d));
    return mm_matmul(out, concat, c->w_o, T, d, d, false) == MM_OK;
}

/* blame_hint - the learner's split (packed: of [Q | K | V] at once, else
 * of Q, K, V one by one) or merge, or both, is wrong on case c, and
 * mha_forward's results are what they give: say so */
static void blame_hint(bool split_wrong, bool merge_wrong, bool packed, const mha_case *c)
{
    int T = c->T, H = c->n_heads, d_k = c->d_k;
    if (split_wrong)
        lab_hint(EN_ES("your mha_split_heads does not give the right heads %s (T = %d, "
                       "%d heads of d_k = %d), and your mha_forward's results are what "
                       "those heads give. Fix mha_split_heads first (see its checks)",
                       "tu mha_split_heads no da las cabezas correctas %s (T = %d, %d "
                       "cabezas de d_k = %d), y los resultados de tu mha_forward son los "
                       "que dan esas cabezas. Arregla antes mha_split_heads (mira sus "
                       "comprobaciones)"),
                 packed ? EN_ES("for this case's [Q | K | V] = X W_QKV",
                                "con el [Q | K | V] = X W_QKV de este caso")
                        : EN_ES("for this case's Q, K and V",
                                "con las Q, K y V de este caso"),
                 T, packed ? 3 * H : H, d_k);
    if (merge_wrong && split_wrong)
        lab_hint(EN_ES("your mha_merge_heads, too, puts the heads' outputs back in the "
                       "wrong places here (%d heads of d_k = %d): fix it as well (see its "
                       "checks)",
                       "tu mha_merge_heads, además, devuelve las salidas de las cabezas a "
                       "sitios equivocados aquí (%d cabezas de d_k = %d): arréglala también "
                       "(mira sus comprobaciones)"), H, d_k);
    else if (merge_wrong)
        lab_hint(EN_ES("each head's attention is right, but your mha_merge_heads puts the "
                       "heads' outputs back in the wrong places here (T = %d, %d heads of "
                       "d_k = %d), and your mha_forward's results are what it gives. Fix "
                       "mha_merge_heads first (see its checks)",
                       "la atención de cada cabeza está bien, pero tu mha_merge_heads "
                       "devuelve las salidas de las cabezas a sitios equivocados aquí "
                       "(T = %d, %d cabezas de d_k = %d), y los resultados de tu "
                       "mha_forward son los que da. Arregla antes mha_merge_heads (mira sus "
                       "comprobaciones)"), T, H, d_k);
}

/* blame_heads - the learner's split and merge on this case's [Q | K | V]:
 * if either is wrong there, and mha_forward's results are what they give,
 * say so; true if that was said */
static bool blame_heads(const double *const got[], const double *const want[], double scale,
                        const mha_case *c)
{
    int T = c->T, d = c->d_model, H = c->n_heads, d_k = c->d_k;
    size_t hs = (size_t)T * d_k, n_heads3 = 3 * (size_t)H * hs;
    const double *qkv = qkv_of(c);
    if (!qkv) return false;
    double *right = lab_fresh(n_heads3, NULL);
    heads_as(HW_RIGHT, false, right, qkv, T, 3 * H, d_k);
    /* the heads a forward pass may get from the learner's split: of the
     * packed [Q | K | V] at once, or of Q, K, V one by one */
    const double *tried[3] = { right, learner_heads(false, qkv, T, 3 * H, d_k), NULL };
    double *each = lab_fresh(n_heads3, NULL), *block = lab_fresh((size_t)T * d, NULL);
    bool each_ok = true;
    for (int b = 0; b < 3 && each_ok; b++) {
        for (int t = 0; t < T; t++)
            memcpy(block + (size_t)t * d, qkv + (size_t)t * 3 * d + (size_t)b * d,
                   (size_t)d * sizeof *block);
        const double *part = learner_heads(false, block, T, H, d_k);
        if (part) memcpy(each + b * (size_t)H * hs, part, (size_t)H * hs * sizeof *each);
        else each_ok = false;
    }
    if (each_ok) tried[2] = each;
    double *out = lab_fresh((size_t)T * d, NULL), *w = lab_fresh((size_t)H * T * T, NULL);
    const double *mine[2] = { out, w };
    size_t len[2] = { (size_t)T * d, (size_t)H * T * T };
    int n = c->weights ? 2 : 1;
    for (int i = 0; i < 3; i++) {
        if (!tried[i]) continue;
        bool split_wrong = !lab_all_same(tried[i], right, n_heads3, lab_scale(right, n_heads3));
        bool merge_wrong = false;
        if (!forward_with(c, tried[i], out, w, &merge_wrong)) continue;
        if (!split_wrong && !merge_wrong) continue;
        if (!lab_explained_same(n, got, want, mine, len, scale)) continue;
        blame_hint(split_wrong, merge_wrong, i == 1, c);
        return true;
    }
    return false;
}

void diagnose_forward(const double *const got[], const double *const want[], double scale,
                      void *ctx)
{
    mha_case *c = ctx;
    if (blame_heads(got, want, scale, c)) return;
    size_t len[2] = { (size_t)c->T * c->d_model, (size_t)c->n_heads * c->T * c->T };
    double *out = lab_fresh(len[0], NULL), *w = lab_fresh(len[1], NULL);
    const double *mine[2] = { out, w };
    int n = c->weights ? 2 : 1;
    for (size_t i = 0; i < sizeof fw_tried / sizeof fw_tried[0]; i++) {
        if (!fw_as(fw_tried[i], c, out, w)) continue;
        /* one wide head writes one (T, T) block of weights, or copies it: out says it */
        int seen = fw_tried[i] == FW_ONE_WIDE_HEAD ? 1 : n;
        if (lab_explained_same(seen, got, want, mine, len, scale)) {
            fw_hint(fw_tried[i], c);
            return;
        }
    }
    if (c->weights && lab_all_same(got[0], want[0], len[0], scale))
        lab_hint(EN_ES("out is right but weights is not: when weights is not NULL, head h's "
                       "softmax rows, (T, T), go at weights + h T T (sdpa writes them there "
                       "when you give it that pointer)",
                       "out está bien pero weights no: cuando weights no es NULL, las filas "
                       "del softmax de la cabeza h, (T, T), van en weights + h T T (sdpa las "
                       "escribe ahí si le das ese puntero)"));
    else if (c->weights && lab_all_same(got[1], want[1], len[1], scale)) {
        c->said_weights_right = true;
        lab_hint(EN_ES("every head's weights are right, so the mistake comes after the "
                       "softmax: the values each head blends (V's block, head h's columns), "
                       "the merge of the heads' outputs, or W_O",
                       "los pesos de todas las cabezas están bien, así que el error viene "
                       "después del softmax: los values que mezcla cada cabeza (el bloque de "
                       "V, las columnas de la cabeza h), la unión de las salidas de las "
                       "cabezas, o W_O"));
    }
}

/* ---- the hints of check.c ------------------------------------------------------------------ */

/* what a failed check most likely means (lab03.h names them) */
static const char *const check_hints[N_CHECK_HINTS][2] = {
    [CH_MERGE_COPIES] = {
      "a merge only moves values: it copies a NaN or an infinity as it "
      "is, and refuses nothing for its values",
      "una unión solo mueve valores: copia un NaN o un infinito tal "
      "cual, y no rechaza nada por sus valores" },
    [CH_SPLIT_COPIES] = {
      "a split only moves values: it copies a NaN or an infinity as it "
      "is, and refuses nothing for its values (mha_forward checks x "
      "itself)",
      "una división solo mueve valores: copia un NaN o un infinito tal "
      "cual, y no rechaza nada por sus valores (mha_forward comprueba x "
      "él mismo)" },
    [CH_HEADS_CHECK_FIRST] = {
      "check every argument before the first write",
      "comprueba todos los argumentos antes de la primera escritura" },
    [CH_WIDTH_IN_INT] = {
      "n_heads d_k is the width of m, an int: before you multiply, check "
      "that it fits (n_heads > INT_MAX / d_k is too large) and return "
      "mm_fail(MM_EINVAL, ...) naming both",
      "n_heads d_k es la anchura de m, un int: antes de multiplicar, "
      "comprueba que cabe (n_heads > INT_MAX / d_k es demasiado) y devuelve "
      "mm_fail(MM_EINVAL, ...) nombrando ambos" },
    [CH_HEADS_SIZE_PRODUCT] = {
      "the buffers hold T x n_heads d_k doubles, and that must fit: "
      "MM_NEED_SIZE_PRODUCT(T, n_heads * d_k) returns MM_EINVAL unless it is "
      "at most MM_MAX_ELEMENTS (check it once n_heads d_k is known to fit "
      "in an int)",
      "los búferes tienen T x n_heads d_k doubles, y eso tiene que caber: "
      "MM_NEED_SIZE_PRODUCT(T, n_heads * d_k) devuelve MM_EINVAL salvo que "
      "sea como mucho MM_MAX_ELEMENTS (compruébalo cuando ya sepas que "
      "n_heads d_k cabe en un int)" },
    [CH_LARGE_BIAS] = {
      "a bias may hold any finite number, however large or negative: +1e300 "
      "and -1e300 are values to add to the scores (a row all -1e300 is a row "
      "of equal scores: uniform weights), not hidden keys; only a NaN or +inf "
      "is refused",
      "un sesgo puede tener cualquier número finito, por grande o negativo que "
      "sea: +1e300 y -1e300 son valores que sumar a las puntuaciones (una fila "
      "toda -1e300 es una fila de puntuaciones iguales: pesos uniformes), no "
      "keys ocultas; solo se rechaza un NaN o +inf" },
    [CH_LARGE_SCORES] = {
      "scores of about 1e200 are large, but they are doubles: nothing "
      "overflows unless e^score is taken as it is. Subtract each row's largest "
      "score before the exponential (chapter 02's stable softmax; sdpa does it)",
      "unas puntuaciones de unos 1e200 son grandes, pero son doubles: nada "
      "desborda salvo que se tome e^puntuación tal cual. Resta la mayor "
      "puntuación de cada fila antes de la exponencial (el softmax estable del "
      "capítulo 02; sdpa lo hace)" },
    [CH_MINUS_INF_BIAS] = {
      "a bias of -inf is not an error: it hides a key, whose weight is 0; a "
      "row whose every key is hidden has weights 0 and an output of 0 (sdpa "
      "does both)",
      "un sesgo de -inf no es un error: oculta una key, cuyo peso es 0; una "
      "fila con todas sus keys ocultas tiene pesos 0 y salida 0 (sdpa hace "
      "las dos cosas)" },
    [CH_SDPA_REFUSED] = {
      "sdpa refused what your mha_forward gave it: look at its sizes (T, T, "
      "d_k, d_k for one head), its buffers (one head's (T, d_k) blocks, "
      "weights + h T T) and that out and weights of a head do not overlap "
      "its inputs",
      "sdpa rechazó lo que le dio tu mha_forward: mira sus tamaños (T, T, "
      "d_k, d_k para una cabeza), sus búferes (los bloques (T, d_k) de una "
      "cabeza, weights + h T T) y que out y weights de una cabeza no se "
      "solapen con sus entradas" },
    [CH_FORWARD_CHECK_FIRST] = {
      "check every argument - the pointers, T, the overlaps, the "
      "values of x and of the bias - before the first write to out "
      "or weights",
      "comprueba todos los argumentos - los punteros, T, los "
      "solapamientos, los valores de x y del sesgo - antes de la "
      "primera escritura en out o weights" },
    [CH_LAYER_SIZE_PRODUCT] = {
      "every buffer the layer needs is a product of sizes, and it must fit "
      "before you allocate it or hand it on: MM_NEED_SIZE_PRODUCT(T, 3 * "
      "(long)layer->d_model) for X W_QKV, MM_NEED_SIZE_PRODUCT(T, T) for one "
      "head's scores (and n_heads T T for weights)",
      "cada búfer que necesita la capa es un producto de tamaños, y tiene que "
      "caber antes de reservarlo o pasarlo: MM_NEED_SIZE_PRODUCT(T, 3 * "
      "(long)layer->d_model) para X W_QKV, MM_NEED_SIZE_PRODUCT(T, T) para "
      "las puntuaciones de una cabeza (y n_heads T T para weights)" },
    [CH_SAME_BUFFER] = {
      "an output that shares memory with another buffer - x, bias, the "
      "layer's weights, the other output - is overwritten while that one is "
      "still being read: refuse it with MM_EINVAL before anything else is "
      "done (weights only when it is not NULL)",
      "una salida que comparte memoria con otro búfer - x, bias, los pesos de "
      "la capa, la otra salida - lo sobrescribe mientras aún se lee: recházala "
      "con MM_EINVAL antes de hacer nada más (weights solo si no es NULL)" },
    [CH_OVERLAP] = {
      "two buffers can overlap without starting at the same address: "
      "compare the ranges of bytes, not the pointers - MM_NEED_DISJOINT "
      "(core/error.h) does it for an array of MM_BUFFER(p, n), outputs first",
      "dos búferes pueden solaparse sin empezar en la misma dirección: "
      "compara los rangos de bytes, no los punteros - MM_NEED_DISJOINT "
      "(core/error.h) lo hace para un array de MM_BUFFER(p, n), primero las "
      "salidas" },
    [CH_NOT_FINITE] = {
      "x must be finite - MM_NEED_FINITE(x, T, layer->d_model) refuses a NaN "
      "or an infinity with MM_EINVAL - and a bias finite or -inf (sdpa "
      "refuses a NaN or +inf bias with MM_EINVAL before it writes anything: "
      "return its status, MM_TRY). Check before you write out or weights",
      "x tiene que ser finita - MM_NEED_FINITE(x, T, layer->d_model) rechaza "
      "un NaN o un infinito con MM_EINVAL - y el sesgo finito o -inf (sdpa "
      "rechaza un sesgo NaN o +inf con MM_EINVAL antes de escribir nada: "
      "devuelve su estado, MM_TRY). Compruébalo antes de escribir en out o "
      "weights" },
    [CH_OVERFLOW] = {
      "finite inputs can still overflow: mm_matmul returns MM_ERANGE when "
      "X W_QKV or the product with W_O is not finite, and sdpa when a score "
      "overflows. Look at the status of every call and return it (MM_TRY) "
      "- unless your values are wrong (see the checks above): a wrong value "
      "need not overflow where the right one does",
      "unas entradas finitas pueden desbordar aun así: mm_matmul devuelve "
      "MM_ERANGE cuando X W_QKV o el producto por W_O no es finito, y sdpa "
      "cuando desborda una puntuación. Mira el estado de cada llamada y "
      "devuélvelo (MM_TRY) - salvo que tus valores estén mal (mira las "
      "comprobaciones de arriba): un valor erróneo no tiene por qué desbordar "
      "donde lo hace el correcto" },
};

/* check_hint - lab03.h */
void check_hint(check_hint_id h)
{
    lab_hint("%s", check_hints[h][lab_es()]);
}

/* heads_alias_hint - lab03.h */
void heads_alias_hint(const char *out, const char *in)
{
    lab_hint(EN_ES("%s and %s must not share memory: the copy would overwrite values still "
                   "to be read. Refuse it with MM_EINVAL: MM_NEED_DISJOINT (core/error.h) "
                   "compares the ranges of bytes of an array of MM_BUFFER(p, n), outputs "
                   "first",
                   "%s y %s no pueden compartir memoria: la copia sobrescribiría valores "
                   "que aún hay que leer. Recházalo con MM_EINVAL: MM_NEED_DISJOINT "
                   "(core/error.h) compara los rangos de bytes de un array de "
                   "MM_BUFFER(p, n), primero las salidas"), out, in);
}

/* forward_callee_hint - lab03.h */
void forward_callee_hint(const char *why)
{
    lab_hint(EN_ES("the call that failed is your %.15s, from inside your mha_forward: see "
                   "what it is given (the shapes) and its own checks",
                   "la llamada que falló es tu %.15s, desde dentro de tu mha_forward: "
                   "mira qué recibe (las formas) y sus propias comprobaciones"), why);
}

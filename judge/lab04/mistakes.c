/* mistakes.c - every hint of lab 04: check.c's (at the end), and the
 * common mistakes, each computed on the failing case's input: when one
 * reproduces the learner's output (and differs from the right answer
 * there), its hint is printed. A mask can be wrong in its
 * table (which keys a query sees: the diagonal hidden, transposed, length
 * counted wrong, the bools inverted) or in its encoding (0 and -INFINITY
 * swapped, 1 and 0 as numbers, 0 everywhere, a finite number for -INFINITY);
 * mask_combine in its operation (a product, max, min, a copy, one of the
 * two masks read transposed - in its sums, or in the status it returns:
 * an overflow found where the right sums have none, or missed). When
 * mha_forward_causal fails, the learner's own mask_causal is called on the
 * case's T, and if its mask is wrong and explains the layer's results
 * (chapter 03's mha_forward with that mask), the mask is blamed; else the
 * layer's mistakes are tried (no mask, a mask off by one or transposed or
 * flipped, the mask applied after the softmax, the scores multiplied by a
 * 0/1 mask, NaN on a row that sees nothing). The first mistake that fits is
 * the one named. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "minimodel/attention/mha.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"
#include "lab04.h"

/* ---- the masks ---------------------------------------------------------------------------- */

/* the ways a mask goes wrong: its table, its encoding, or (mask_combine) its operation */
typedef enum {
    MK_RIGHT,
    MK_OFF_BY_ONE,       /* causal: j < i visible (the diagonal hidden) */
    MK_TRANSPOSED,       /* causal: j >= i; from_bool: allowed[j][i] */
    MK_LE_LENGTH,        /* padding: j <= length visible */
    MK_FROM_END,         /* padding: j >= T_k - length visible */
    MK_ROWS,             /* padding: queries i < length visible, not keys */
    MK_FLIPPED,          /* -INFINITY where visible, 0 where hidden (from_bool: inverted) */
    MK_NUMBERS,          /* 1 where visible, 0 where hidden */
    MK_ZEROS,            /* 0 everywhere */
    MX_MULTIPLY,         /* combine: bias * other */
    MX_MAX,              /* combine: fmax */
    MX_MIN,              /* combine: fmin */
    MX_OVERWRITE,        /* combine: bias = other */
    MX_UNCHANGED,        /* combine: bias as it was */
    MX_TRANSPOSED,       /* combine: bias[j][i] + other[i][j], bias read as (T_k, T_q) */
    MX_OTHER_TRANSPOSED, /* combine: bias[i][j] + other[j][i] */
} mask_way;

/* visible - whether the case's right table shows key j to query i, or the
 * table of a mistake of the table */
static bool visible(mask_way way, const mask_case *c, int i, int j)
{
    switch (c->fn) {
    case FN_CAUSAL:
        return way == MK_OFF_BY_ONE ? j < i : way == MK_TRANSPOSED ? j >= i : j <= i;
    case FN_PADDING:
        return way == MK_LE_LENGTH ? j <= c->length
             : way == MK_FROM_END ? j >= c->T_k - c->length
             : way == MK_ROWS ? i < c->length : j < c->length;
    case FN_FROM_BOOL:
        return way == MK_TRANSPOSED ? c->allowed[(size_t)j * c->T_q + i] != 0
                                    : c->allowed[(size_t)i * c->T_k + j] != 0;
    default:
        return true;
    }
}

/* mask_as - the mask the given way, into m; false if that way does not
 * apply to this function */
static bool mask_as(mask_way way, const mask_case *c, double *m)
{
    int T_q = c->T_q, T_k = c->T_k;
    size_t n = (size_t)T_q * T_k;
    if (c->fn == FN_COMBINE) {
        for (size_t e = 0; e < n; e++) {
            size_t t = e % T_k * T_q + e / T_k;             /* (i, j) read as (j, i) */
            double b = c->bias0[e], o = c->other[e];
            switch (way) {
            case MX_TRANSPOSED: m[e] = c->bias0[t] + o; break;
            case MX_OTHER_TRANSPOSED: m[e] = b + c->other[t]; break;
            case MX_MULTIPLY: m[e] = b * o; break;
            case MX_MAX: m[e] = fmax(b, o); break;
            case MX_MIN: m[e] = fmin(b, o); break;
            case MX_OVERWRITE: m[e] = o; break;
            case MX_UNCHANGED: m[e] = b; break;
            default: return false;
            }
        }
        return true;
    }
    if (way >= MX_MULTIPLY) return false;
    if (way == MK_OFF_BY_ONE && c->fn != FN_CAUSAL) return false;
    if (way == MK_TRANSPOSED && c->fn == FN_PADDING) return false;
    if ((way == MK_LE_LENGTH || way == MK_FROM_END || way == MK_ROWS) && c->fn != FN_PADDING)
        return false;
    mask_way table = way <= MK_ROWS ? way : MK_RIGHT;
    double on = 0.0, off = -INFINITY;                        /* visible, hidden */
    if (way == MK_FLIPPED) on = -INFINITY, off = 0.0;
    if (way == MK_NUMBERS) on = 1.0, off = 0.0;
    if (way == MK_ZEROS) on = off = 0.0;
    for (int i = 0; i < T_q; i++)
        for (int j = 0; j < T_k; j++) m[(size_t)i * T_k + j] = visible(table, c, i, j) ? on : off;
    return true;
}

/* ---- the hints: one row per mistake ------------------------------------------------------- */

/* when a row applies: always, or only to that function, or to length 0 */
enum { W_ANY, W_CAUSAL, W_FROM_BOOL, W_NO_LENGTH };
/* the values of a case a row's %s may show: none, length, length - 1, the
 * mask read transposed (bias or other), the sum of row 0 of head 0's weights */
enum { A_NONE, A_LENGTH, A_LENGTH_1, A_MATRIX, A_ROW0_SUM, N_ARGS };

/* hint_row - a mistake's hint, and its name in a few words (lab_several_hint),
 * in English and Spanish; each %s of both filled, in order, from args */
typedef struct {
    int way;                    /* a mask_way, or an fc_way */
    unsigned char when;
    unsigned char args[3];
    const char *name[2];
    const char *text[2];
} hint_row;

/* mask_hints - the first row of a way that applies is its hint; "other
 * read transposed" is "bias read transposed"'s row, with "other" for %s */
static const hint_row mask_hints[] = {
    { MK_OFF_BY_ONE, W_ANY, { 0 },
      { "the diagonal hidden (j < i)", "la diagonal oculta (j < i)" },
      { "your mask hides the diagonal: query i sees keys j < i, so a token does not see itself, "
        "and row 0 sees nothing at all. The causal mask is 0 where j <= i: the past and the token "
        "itself",
        "tu máscara oculta la diagonal: la query i ve las keys j < i, así que un token no se ve a "
        "sí mismo, y la fila 0 no ve nada. La máscara causal es 0 donde j <= i: el pasado y el "
        "propio token" } },
    { MK_TRANSPOSED, W_CAUSAL, { 0 },
      { "the mask transposed (j >= i)", "la máscara traspuesta (j >= i)" },
      { "your mask is transposed: query i sees keys j >= i - itself and the future, the very "
        "tokens it must not see. Row i of the causal mask is 0 up to column i and -INFINITY after "
        "it",
        "tu máscara está traspuesta: la query i ve las keys j >= i - ella misma y el futuro, "
        "justo los tokens que no debe ver. La fila i de la máscara causal es 0 hasta la columna i "
        "y -INFINITY después" } },
    { MK_TRANSPOSED, W_ANY, { 0 },
      { "the table read transposed", "la tabla leída traspuesta" },
      { "you read the table transposed, allowed[j][i] (allowed[j * T_q + i]) for element (i, j): "
        "row i of allowed is query i, and its element j is allowed[i * T_k + j], as in bias",
        "leíste la tabla traspuesta, allowed[j][i] (allowed[j * T_q + i]) para el elemento (i, "
        "j): la fila i de allowed es la query i, y su elemento j es allowed[i * T_k + j], como en "
        "bias" } },
    { MK_LE_LENGTH, W_NO_LENGTH, { 0 },
      { "one key too many (j <= length)", "una key de más (j <= length)" },
      { "your mask shows length + 1 keys: key j is real when j < length, not j <= length (here "
        "length = 0: no key is real, key 0 neither)",
        "tu máscara muestra length + 1 keys: la key j es real cuando j < length, no j <= length "
        "(aquí length = 0: ninguna key es real, tampoco la 0)" } },
    { MK_LE_LENGTH, W_ANY, { A_LENGTH, A_LENGTH_1 },
      { "one key too many (j <= length)", "una key de más (j <= length)" },
      { "your mask shows length + 1 keys: key j is real when j < length, not j <= length (here "
        "length = %s: keys 0 .. %s are real, the rest padding)",
        "tu máscara muestra length + 1 keys: la key j es real cuando j < length, no j <= length "
        "(aquí length = %s: las keys 0 .. %s son reales, el resto relleno)" } },
    { MK_FROM_END, W_ANY, { 0 },
      { "the real keys counted from the end",
        "las keys reales contadas desde el final" },
      { "you counted the real keys from the end: the first length keys (j < length) are the real "
        "ones, and the padding comes after them",
        "contaste las keys reales desde el final: las reales son las length primeras (j < "
        "length), y el relleno viene después" } },
    { MK_ROWS, W_ANY, { 0 },
      { "queries hidden instead of keys",
        "queries ocultas en vez de keys" },
      { "your mask hides queries (rows i >= length) instead of keys (columns j >= length): the "
        "padding keys are hidden from every query, so every row of the mask is the same",
        "tu máscara oculta queries (filas i >= length) en vez de keys (columnas j >= length): las "
        "keys de relleno se ocultan a todas las queries, así que todas las filas de la máscara "
        "son iguales" } },
    { MK_FLIPPED, W_FROM_BOOL, { 0 },
      { "true and false swapped (nn.MultiheadAttention's convention)",
        "true y false intercambiados (la convención de nn.MultiheadAttention)" },
      { "your true hides and your false shows: that is the convention of PyTorch's "
        "nn.MultiheadAttention (True = not allowed). Here, as in F.scaled_dot_product_attention, "
        "allowed[i][j] true means that query i sees key j: bias 0; false: -INFINITY",
        "tu true oculta y tu false muestra: esa es la convención de nn.MultiheadAttention de "
        "PyTorch (True = no permitido). Aquí, como en F.scaled_dot_product_attention, "
        "allowed[i][j] true significa que la query i ve la key j: sesgo 0; false: -INFINITY" } },
    { MK_FLIPPED, W_ANY, { 0 },
      { "0 and -INFINITY swapped", "0 y -INFINITY intercambiados" },
      { "your convention is flipped: 0 where a key must be hidden and -INFINITY where it is "
        "visible. In a bias, 0 means visible (nothing is added to the score) and -INFINITY hidden "
        "(e^-inf = 0)",
        "tu convención está al revés: 0 donde una key debe quedar oculta y -INFINITY donde es "
        "visible. En un sesgo, 0 significa visible (no se suma nada a la puntuación) y -INFINITY "
        "oculta (e^-inf = 0)" } },
    { MK_NUMBERS, W_FROM_BOOL, { 0 },
      { "1 and 0 as numbers", "1 y 0 como números" },
      { "you copied the bools as numbers, 1 for true and 0 for false: the bias is 0 where allowed "
        "is true and -INFINITY where it is false",
        "copiaste los bool como números, 1 para true y 0 para false: el sesgo es 0 donde allowed "
        "es true y -INFINITY donde es false" } },
    { MK_NUMBERS, W_ANY, { 0 },
      { "1 and 0 as numbers", "1 y 0 como números" },
      { "you wrote the truth table as numbers, 1 where a key is visible and 0 where it is hidden "
        "- a mask to multiply the scores by. A bias is added to the scores: 0 where visible, "
        "-INFINITY where hidden (a score multiplied by 0 is not hidden: its weight is e^0 / sum)",
        "escribiste la tabla de verdad como números, 1 donde una key es visible y 0 donde está "
        "oculta - una máscara para multiplicar las puntuaciones. Un sesgo se suma a las "
        "puntuaciones: 0 donde es visible, -INFINITY donde está oculta (una puntuación "
        "multiplicada por 0 no queda oculta: su peso es e^0 / suma)" } },
    { MK_ZEROS, W_ANY, { 0 },
      { "0 everywhere", "0 en todas partes" },
      { "your mask is 0 everywhere: it hides nothing. A hidden key needs -INFINITY (a score "
        "multiplied by 0 is not hidden either: its weight is e^0 / sum)",
        "tu máscara es 0 en todas partes: no oculta nada. Una key oculta necesita -INFINITY (una "
        "puntuación multiplicada por 0 tampoco queda oculta: su peso es e^0 / suma)" } },
    { MX_MULTIPLY, W_ANY, { 0 },
      { "the product of the masks", "el producto de las máscaras" },
      { "you multiplied the masks: 0 * -INFINITY is NaN, -INFINITY * -INFINITY is +INFINITY, and "
        "finite biases multiply instead of adding. Masks combine by adding: -INFINITY plus "
        "anything finite is -INFINITY",
        "multiplicaste las máscaras: 0 * -INFINITY es NaN, -INFINITY * -INFINITY es +INFINITY, y "
        "los sesgos finitos se multiplican en vez de sumarse. Las máscaras se combinan sumando: "
        "-INFINITY más cualquier finito es -INFINITY" } },
    { MX_MAX, W_ANY, { 0 },
      { "the larger of the two", "el mayor de los dos" },
      { "you took the larger of the two: max(0, -INFINITY) is 0, so a key hidden by one mask but "
        "not by the other becomes visible - that is \"or\", not \"and\". Masks combine by "
        "adding",
        "tomaste el mayor de los dos: max(0, -INFINITY) es 0, así que una key oculta por una "
        "máscara pero no por la otra se vuelve visible - eso es \"o\", no \"y\". Las "
        "máscaras se combinan sumando" } },
    { MX_MIN, W_ANY, { 0 },
      { "the smaller of the two", "el menor de los dos" },
      { "you took the smaller of the two: for masks of 0 and -INFINITY that is the same as "
        "adding, but finite biases add up (1.5 + (-2) is -0.5, not -2): bias[e] += other[e]",
        "tomaste el menor de los dos: con máscaras de 0 y -INFINITY es lo mismo que sumar, pero "
        "los sesgos finitos se suman (1.5 + (-2) es -0.5, no -2): bias[e] += other[e]" } },
    { MX_OVERWRITE, W_ANY, { 0 },
      { "other copied into bias", "other copiado en bias" },
      { "you copied other into bias: bias is one of the two masks, and the result is their sum, "
        "bias[e] += other[e]",
        "copiaste other en bias: bias es una de las dos máscaras, y el resultado es su suma, "
        "bias[e] += other[e]" } },
    { MX_UNCHANGED, W_ANY, { 0 },
      { "bias left as it was", "bias dejado como estaba" },
      { "bias is as it was: mask_combine writes the sum into bias itself, bias[e] += other[e]",
        "bias está como estaba: mask_combine escribe la suma en el propio bias, bias[e] += "
        "other[e]" } },
    { MX_TRANSPOSED, W_ANY, { A_MATRIX, A_MATRIX, A_MATRIX },
      { "%s read transposed", "%s leída traspuesta" },
      { "you read %s transposed, %s[j][i] (%s[j * T_q + i]) for element (i, j): element (i, j) of "
        "both masks is at the same index, i * T_k + j, and mask_combine adds them there, bias[e] "
        "+= other[e]",
        "leíste %s traspuesta, %s[j][i] (%s[j * T_q + i]) para el elemento (i, j): el elemento "
        "(i, j) de las dos máscaras está en el mismo índice, i * T_k + j, y mask_combine los suma "
        "ahí, bias[e] += other[e]" } },
};

/* row_for - the row of rows[] (of n) for way on a case of fn with length */
static const hint_row *row_for(const hint_row *rows, size_t n, int way, int fn, int length)
{
    for (size_t i = 0; i < n; i++) {
        int when = rows[i].when;
        if (rows[i].way == way && (when == W_ANY || (when == W_CAUSAL && fn == FN_CAUSAL) ||
                                   (when == W_FROM_BOOL && fn == FN_FROM_BOOL) ||
                                   (when == W_NO_LENGTH && length == 0)))
            return &rows[i];
    }
    lab_bug("no hint for mistake %d", way);
}

/* row_say - row r's hint (name false), or its name in a string that lives
 * until the check ends (returned), its %s filled from val[] */
static const char *row_say(const hint_row *r, bool name, const char *const val[N_ARGS])
{
    const char *a = val[r->args[0]], *b = val[r->args[1]], *c = val[r->args[2]];
    if (!name) {
        lab_hint(r->text[lab_es()], a, b, c);
        return NULL;
    }
    char *s = lab_temp(160);
    snprintf(s, 160, r->name[lab_es()], a, b, c);
    return s;
}

/* mask_say - the hint (name false) or the name of one way, on case c */
static const char *mask_say(mask_way way, const mask_case *c, bool name)
{
    char length[24], length_1[24];
    snprintf(length, sizeof length, "%d", c->length);
    snprintf(length_1, sizeof length_1, "%d", c->length - 1);
    const char *val[N_ARGS] = { "", length, length_1, way == MX_OTHER_TRANSPOSED ? "other" : "bias",
                                "" };
    if (way == MX_OTHER_TRANSPOSED) way = MX_TRANSPOSED;
    return row_say(row_for(mask_hints, sizeof mask_hints / sizeof mask_hints[0], way, c->fn,
                           c->length), name, val);
}

static const mask_way mask_tried[] = {
    MK_OFF_BY_ONE, MK_TRANSPOSED, MK_LE_LENGTH, MK_FROM_END, MK_ROWS, MK_FLIPPED, MK_NUMBERS,
    MK_ZEROS, MX_MULTIPLY, MX_MAX, MX_MIN, MX_OVERWRITE, MX_UNCHANGED, MX_TRANSPOSED,
    MX_OTHER_TRANSPOSED,
};

/* finite_hidden - got is the right mask with one finite negative number
 * where each hidden key's -INFINITY goes: that number in *v */
static bool finite_hidden(const double *got, const double *want, size_t n, double *v)
{
    bool any = false;
    for (size_t e = 0; e < n; e++) {
        if (want[e] == -INFINITY) {
            if (!isfinite(got[e]) || got[e] >= 0) return false;
            if (!any) *v = got[e];
            any = true;
        } else if (!lab_same(got[e], want[e], 1.0)) {
            return false;
        }
    }
    return any;
}

/* mask_catalogue - name the mistake that gives got, for the mask of case c
 * (all of them, briefly, when several do) */
static void mask_catalogue(const double *got, const double *want, double scale,
                           const mask_case *c)
{
    size_t n = (size_t)c->T_q * c->T_k;
    double *mine = lab_fresh(n, NULL);
    const double *g[1] = { got }, *w[1] = { want }, *m[1] = { mine };
    enum { N_TRIED = sizeof mask_tried / sizeof mask_tried[0] };
    mask_way fit[N_TRIED];
    const char *names[N_TRIED];
    int n_fit = 0;
    for (size_t i = 0; i < N_TRIED; i++) {
        if (!mask_as(mask_tried[i], c, mine)) continue;
        if (lab_explained_same(1, g, w, m, &n, scale)) {
            fit[n_fit] = mask_tried[i];
            names[n_fit++] = mask_say(mask_tried[i], c, true);
        }
    }
    if (n_fit == 1) mask_say(fit[0], c, false);
    if (n_fit > 1) lab_several_hint(names, n_fit);
    if (n_fit) return;
    double v = 0.0;
    if (c->fn != FN_COMBINE && finite_hidden(got, want, n, &v))
        lab_hint(EN_ES("you wrote %g where a key is hidden, not -INFINITY. In a row that sees "
                       "a key the weights come out %s, but a row that hides every key (padding, "
                       "a query that is itself padding) then attends to those keys as if there "
                       "were no mask - the same number added to every score changes no weight "
                       "- instead of getting weights 0: use -INFINITY (math.h)",
                       "escribiste %g donde una key está oculta, no -INFINITY. En una fila que "
                       "ve alguna key los pesos salen %s, pero una fila que oculta todas sus "
                       "keys (relleno, una query que es ella misma relleno) atiende entonces a "
                       "esas keys como si no hubiera máscara - el mismo número sumado a todas "
                       "las puntuaciones no cambia ningún peso - en vez de recibir pesos 0: usa "
                       "-INFINITY (math.h)"),
                 v, v <= -745 ? EN_ES("the same (e^-745 and below is 0 in a double)",
                                      "iguales (e^-745 o menos es 0 en un double)")
                              : EN_ES("wrong too (e^v is not 0 for this v)",
                                      "también mal (e^v no es 0 con esta v)"));
}

void diagnose_mask(const double *const got[], const double *const want[], double scale,
                   void *ctx)
{
    mask_catalogue(got[0], want[0], scale, ctx);
}

/* combine_status_as - the status mask_combine returns when it reads its
 * pairs the given way (MX_TRANSPOSED, MX_OTHER_TRANSPOSED): MM_EINVAL for a
 * NaN or +inf anywhere, else MM_ERANGE for a finite pair whose sum is not,
 * the first such element (in the order of bias) in *at */
static mm_status combine_status_as(mask_way way, const mask_case *c, size_t *at)
{
    int T_q = c->T_q, T_k = c->T_k;
    mm_status st = MM_OK;
    for (size_t e = 0; e < (size_t)T_q * T_k; e++) {
        size_t t = e % T_k * T_q + e / T_k;
        double b = c->bias0[way == MX_TRANSPOSED ? t : e];
        double o = c->other[way == MX_OTHER_TRANSPOSED ? t : e];
        if (isnan(b) || isnan(o) || b == INFINITY || o == INFINITY) return MM_EINVAL;
        if (st == MM_OK && isfinite(b) && isfinite(o) && isinf(b + o)) st = MM_ERANGE, *at = e;
    }
    return st;
}

/* cell_text - "[i][j]" for element e of a (T_q, T_k) mask, or, read
 * transposed, the element it takes the place of: "[j][i]" if the mask is
 * square, else "[j * T_q + i]" (flat) */
static void cell_text(char *buf, size_t size, size_t e, const mask_case *c, bool transposed)
{
    size_t i = e / c->T_k, j = e % c->T_k;
    if (!transposed) snprintf(buf, size, "[%zu][%zu]", i, j);
    else if (c->T_q == c->T_k) snprintf(buf, size, "[%zu][%zu]", j, i);
    else snprintf(buf, size, "[%zu]", j * c->T_q + i);
}

bool combine_status_hint(const mask_case *c, mm_status want, mm_status got)
{
    static const mask_way ways[2] = { MX_TRANSPOSED, MX_OTHER_TRANSPOSED };
    size_t right_at = 0;
    if (got == want || combine_status_as(MK_RIGHT, c, &right_at) != want) return false;
    for (int w = 0; w < 2; w++) {
        size_t at = 0;
        if (combine_status_as(ways[w], c, &at) != got) continue;
        size_t e = got == MM_ERANGE ? at : right_at, t = e % c->T_k * c->T_q + e / c->T_k;
        char b_at[48], o_at[48], here[48], o_val[48];
        cell_text(b_at, sizeof b_at, e, c, w == 0);
        cell_text(o_at, sizeof o_at, e, c, w == 1);
        cell_text(here, sizeof here, e, c, false);
        double o = c->other[w == 1 ? t : e];
        snprintf(o_val, sizeof o_val, o < 0 ? "(%g)" : "%g", o);
        if (got == MM_ERANGE)
            lab_hint(EN_ES("no sum overflows here: every bias[i][j] + other[i][j] is finite. "
                           "But bias%s + other%s = %g + %s overflows - and that is the sum a "
                           "transposed read makes for element %s",
                           "aquí no desborda ninguna suma: cada bias[i][j] + other[i][j] es "
                           "finita. Pero bias%s + other%s = %g + %s desborda - y esa es la suma "
                           "que una lectura traspuesta hace para el elemento %s"),
                     b_at, o_at, c->bias0[w == 0 ? t : e], o_val, here);
        else
            lab_hint(EN_ES("bias%s + other%s = %g + %g overflows, and your mask_combine did not "
                           "see it: a transposed read never adds those two",
                           "bias%s + other%s = %g + %g desborda, y tu mask_combine no lo vio: "
                           "una lectura traspuesta nunca suma esos dos"),
                     here, here, c->bias0[e], c->other[e]);
        mask_say(ways[w], c, false);
        return true;
    }
    return false;
}

void show_hidden_rows(const double *want, const double *got, int T)
{
    int row = -1;
    for (int i = 0; i < T && row < 0; i++) {
        int j = 0;
        while (j < T && want[(size_t)i * T + j] == -INFINITY) j++;
        if (j == T) row = i;
    }
    if (row < 0) return;
    for (size_t e = 0; e < (size_t)T * T; e++)
        if (isnan(got[e]) || got[e] == INFINITY) return;   /* mha_forward would refuse it */
    enum { D = 4, H = 2 };
    mha *layer = NULL;
    if (mha_new(&layer, D, H, 1) != MM_OK) return;
    double *x = lab_fresh((size_t)T * D, NULL), *out = lab_fresh((size_t)T * D, NULL);
    double *w = lab_fresh((size_t)H * T * T, NULL);
    mm_rng r;
    mm_rng_seed(&r, 61);
    for (size_t e = 0; e < (size_t)T * D; e++) x[e] = mm_rng_normal(&r);
    mm_status st = mha_forward(out, w, layer, x, got, T);
    mha_free(layer);
    if (st != MM_OK) return;
    bool zero = true;
    for (int j = 0; j < T; j++) zero &= w[(size_t)row * T + j] == 0.0;
    if (zero) return;
    char ws[200] = "", os[200] = "";
    int lw = 0, lo = 0;
    for (int j = 0; j < T && lw < 180; j++)
        lw += snprintf(ws + lw, sizeof ws - lw, "%s%.4g", j ? ", " : "", w[(size_t)row * T + j]);
    for (int c = 0; c < D && lo < 180; c++)
        lo += snprintf(os + lo, sizeof os - lo, "%s%.4g", c ? ", " : "", out[(size_t)row * D + c]);
    lab_detail(EN_ES("what your mask does to query %d, which must see no key: through chapter "
                     "03's mha_forward (MultiHeadAttention(4, 2, seed 1), x random, seed 61) its "
                     "weights in head 0 are (%s) and its output row is (%s); with -INFINITY "
                     "they are all 0",
                     "lo que hace tu máscara con la query %d, que no debe ver ninguna key: por "
                     "el mha_forward del capítulo 03 (MultiHeadAttention(4, 2, semilla 1), x "
                     "aleatoria, semilla 61) sus pesos en la cabeza 0 son (%s) y su fila de "
                     "salida es (%s); con -INFINITY son todos 0"), row, ws, os);
}

/* ---- mha_forward_causal ------------------------------------------------------------------ */

/* the ways the causal layer goes wrong */
typedef enum {
    FC_RIGHT,
    FC_NO_MASK,          /* mha_forward with no bias: no mask at all */
    FC_OFF_BY_ONE,       /* the mask j < i: row 0 sees nothing (weights and output 0) */
    FC_OFF_BY_ONE_NAN,   /* the same with a softmax that gives NaN on a row that sees nothing */
    FC_TRANSPOSED,       /* the mask j >= i */
    FC_FLIPPED,          /* 0 and -inf swapped: j > i visible */
    FC_AFTER_SOFTMAX,    /* weights over every key, the hidden ones then set to 0 */
    FC_MULTIPLY,         /* the scores multiplied by the 0/1 table, then the softmax */
} fc_way;

/* own_heads - the layer with each head's attention computed here, the way
 * given (FC_AFTER_SOFTMAX, FC_MULTIPLY): out (T, d_model), w (n_heads, T, T) */
static bool own_heads(fc_way way, const causal_case *c, double *out, double *w)
{
    int T = c->T, d = c->d_model, H = c->n_heads, d_k = c->d_k;
    size_t hs = (size_t)T * d_k;
    double *qkv = lab_fresh((size_t)T * 3 * d, NULL), *heads = lab_fresh((size_t)T * 3 * d, NULL);
    double *o = lab_fresh((size_t)T * d, NULL), *concat = lab_fresh((size_t)T * d, NULL);
    double *s = lab_fresh(T, NULL);
    if (mm_matmul(qkv, c->x, c->w_qkv, T, d, 3 * d, false) != MM_OK ||
        mha_split_heads(heads, qkv, T, 3 * H, d_k) != MM_OK)
        return false;
    double scale = 1.0 / sqrt((double)d_k);
    for (int h = 0; h < H; h++) {
        const double *q = heads + h * hs, *k = heads + (H + h) * hs, *v = heads + (2 * H + h) * hs;
        for (int i = 0; i < T; i++) {
            double top = -INFINITY, sum = 0.0;
            for (int j = 0; j < T; j++) {
                double dot = 0.0;
                for (int p = 0; p < d_k; p++) dot += q[i * d_k + p] * k[j * d_k + p];
                s[j] = dot * scale * (way == FC_MULTIPLY && j > i ? 0.0 : 1.0);
                top = fmax(top, s[j]);
            }
            for (int j = 0; j < T; j++) sum += s[j] = exp(s[j] - top);
            double *w_i = w + ((size_t)h * T + i) * T, *o_i = o + h * hs + (size_t)i * d_k;
            for (int j = 0; j < T; j++)
                w_i[j] = way == FC_AFTER_SOFTMAX && j > i ? 0.0 : s[j] / sum;
            for (int p = 0; p < d_k; p++) {
                double acc = 0.0;
                for (int j = 0; j < T; j++) acc += w_i[j] * v[j * d_k + p];
                o_i[p] = acc;
            }
        }
    }
    return mha_merge_heads(concat, o, T, H, d_k) == MM_OK &&
           mm_matmul(out, concat, c->w_o, T, d, d, false) == MM_OK;
}

/* causal_layer - the library's layer of case c (its own weights, not a copy) */
static mha causal_layer(const causal_case *c)
{
    return (mha){ c->d_model, c->n_heads, c->d_k, (double *)c->w_qkv, (double *)c->w_o };
}

/* fc_as - out and w as mha_forward_causal computed the given way writes
 * them; false if that way cannot be computed on this case */
static bool fc_as(fc_way way, const causal_case *c, double *out, double *w)
{
    int T = c->T;
    if (way == FC_AFTER_SOFTMAX || way == FC_MULTIPLY) return own_heads(way, c, out, w);
    double *bias = NULL;
    if (way != FC_NO_MASK) {
        bias = lab_fresh((size_t)T * T, NULL);
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++) {
                bool vis = way == FC_TRANSPOSED ? j >= i : way == FC_FLIPPED ? j > i : j < i;
                bias[(size_t)i * T + j] = vis ? 0.0 : -INFINITY;
            }
    }
    mha layer = causal_layer(c);
    if (mha_forward(out, w, &layer, c->x, bias, T) != MM_OK) return false;
    if (way == FC_OFF_BY_ONE_NAN) {          /* row 0 sees nothing: NaN everywhere in it */
        for (int e = 0; e < c->d_model; e++) out[e] = NAN;
        for (int h = 0; h < c->n_heads; h++)
            for (int j = 0; j < T; j++) w[(size_t)h * T * T + j] = NAN;
    }
    return true;
}

static const hint_row fc_hints[] = {
    { FC_NO_MASK, W_ANY, { 0 },
      { "no mask at all", "ninguna máscara" },
      { "your mha_forward_causal gives what mha_forward gives with no mask at all (a NULL bias, a "
        "bias of 0, or hidden scores multiplied by 0): every token sees the tokens after it. "
        "Build the causal mask - 0 where j <= i, -INFINITY where j > i - and pass it as "
        "mha_forward's bias",
        "tu mha_forward_causal da lo que da mha_forward sin ninguna máscara (un sesgo NULL, un "
        "sesgo de 0, o las puntuaciones ocultas multiplicadas por 0): cada token ve los tokens "
        "que vienen después. Construye la máscara causal - 0 donde j <= i, -INFINITY donde j > i "
        "- y pásala como el sesgo de mha_forward" } },
    { FC_OFF_BY_ONE, W_ANY, { 0 },
      { "the diagonal hidden (j < i)", "la diagonal oculta (j < i)" },
      { "your causal mask hides the diagonal too (j < i visible instead of j <= i): a token does "
        "not see itself, and token 0 sees nothing - its weights and its output row are 0",
        "tu máscara causal oculta también la diagonal (visibles j < i en vez de j <= i): un token "
        "no se ve a sí mismo, y el token 0 no ve nada - sus pesos y su fila de salida son 0" } },
    { FC_OFF_BY_ONE_NAN, W_ANY, { 0 },
      { "the diagonal hidden and NaN on the row that sees nothing",
        "la diagonal oculta y NaN en la fila que no ve nada" },
      { "row 0 is NaN: your mask hides every key from token 0 (j < i instead of j <= i: a token "
        "must see itself), and your softmax computes -inf - (-inf) = NaN on a row whose every key "
        "is hidden. Fix the mask; and a softmax over a row that sees nothing must give weights 0, "
        "not NaN - chapter 02's softmax_row and sdpa do, and so does mha_forward",
        "la fila 0 es NaN: tu máscara oculta todas las keys al token 0 (j < i en vez de j <= i: "
        "un token tiene que verse a sí mismo), y tu softmax calcula -inf - (-inf) = NaN en una "
        "fila con todas sus keys ocultas. Arregla la máscara; y un softmax sobre una fila que no "
        "ve nada debe dar pesos 0, no NaN - softmax_row y sdpa del capítulo 02 lo hacen, y "
        "mha_forward también" } },
    { FC_TRANSPOSED, W_ANY, { 0 },
      { "the mask transposed (j >= i)", "la máscara traspuesta (j >= i)" },
      { "your causal mask is transposed: token i sees keys j >= i - itself and the future - "
        "instead of j <= i",
        "tu máscara causal está traspuesta: el token i ve las keys j >= i - él mismo y el futuro "
        "- en vez de j <= i" } },
    { FC_FLIPPED, W_ANY, { 0 },
      { "0 and -INFINITY swapped", "0 y -INFINITY intercambiados" },
      { "your mask's convention is flipped: 0 where a key must be hidden and -INFINITY where it "
        "is visible - token i sees only the tokens after it, and the last token sees nothing",
        "la convención de tu máscara está al revés: 0 donde una key debe quedar oculta y "
        "-INFINITY donde es visible - el token i solo ve los tokens posteriores, y el último no "
        "ve nada" } },
    { FC_AFTER_SOFTMAX, W_ANY, { A_ROW0_SUM },
      { "the mask after the softmax", "la máscara después del softmax" },
      { "you masked after the softmax: the weights were computed over every key, the future "
        "included, and the hidden ones then set to 0 - so a row no longer sums to 1 (row 0 of "
        "head 0 sums to %s), and what token t gets still depends on the tokens after it, through "
        "the softmax's denominator. The mask goes into the scores, before the softmax: "
        "mha_forward's bias",
        "aplicaste la máscara después del softmax: los pesos se calcularon sobre todas las keys, "
        "el futuro incluido, y después las ocultas se pusieron a 0 - así que una fila ya no suma "
        "1 (la fila 0 de la cabeza 0 suma %s), y lo que recibe el token t sigue dependiendo de "
        "los tokens posteriores, por el denominador del softmax. La máscara va en las "
        "puntuaciones, antes del softmax: el sesgo de mha_forward" } },
    { FC_MULTIPLY, W_ANY, { 0 },
      { "the hidden scores multiplied by 0",
        "las puntuaciones ocultas multiplicadas por 0" },
      { "you multiplied the hidden scores by 0 (a 0/1 mask times the scores): a score of 0 still "
        "gets the weight e^0 / sum, so every token still sees the future. Hidden means a score of "
        "-INFINITY: add the mask, 0 or -INFINITY, to the scores (mha_forward's bias)",
        "multiplicaste por 0 las puntuaciones ocultas (una máscara de 0 y 1 por las "
        "puntuaciones): una puntuación de 0 sigue recibiendo el peso e^0 / suma, así que cada "
        "token sigue viendo el futuro. Oculta significa una puntuación de -INFINITY: suma la "
        "máscara, 0 o -INFINITY, a las puntuaciones (el sesgo de mha_forward)" } },
};

/* fc_say - the hint (name false) or the name of one way, on case c whose
 * weights w that way gives */
static const char *fc_say(fc_way way, const causal_case *c, const double *w, bool name)
{
    double sum = 0.0;
    for (int j = 0; j < c->T; j++) sum += w[j];
    char row0[32];
    snprintf(row0, sizeof row0, "%.4f", sum);
    const char *val[N_ARGS] = { "", "", "", "", row0 };
    return row_say(row_for(fc_hints, sizeof fc_hints / sizeof fc_hints[0], way, -1, -1), name,
                   val);
}

static const fc_way fc_tried[] = {
    FC_NO_MASK, FC_OFF_BY_ONE, FC_OFF_BY_ONE_NAN, FC_TRANSPOSED, FC_FLIPPED, FC_AFTER_SOFTMAX,
    FC_MULTIPLY,
};

/* blame_mask - the learner's mask_causal on this case's T: if its mask is
 * wrong, and mha_forward with it gives the layer's results, say so (and
 * what is wrong with the mask); true if that was said */
static bool blame_mask(const double *const got[], const double *const want[], double scale,
                       const causal_case *c)
{
    int T = c->T;
    lab_mat *bias = lab_out("bias", T, T);
    mm_status st;
    bool todo;
    if (!lab_probe(&st, &todo, "mask_causal", LAB_BUFS(bias), LAB_INTS(T)) || st != MM_OK)
        return false;
    mask_case mc;
    memset(&mc, 0, sizeof mc);
    mc.fn = FN_CAUSAL;
    mc.T_q = mc.T_k = T;
    mc.want = lab_fresh((size_t)T * T, NULL);
    if (mask_causal(mc.want, T) != MM_OK) return false;
    if (lab_all_same(bias->p, mc.want, (size_t)T * T, 1.0)) return false;
    for (size_t e = 0; e < (size_t)T * T; e++)
        if (isnan(bias->p[e]) || bias->p[e] == INFINITY) return false;
    size_t len[2] = { (size_t)T * c->d_model, (size_t)c->n_heads * T * T };
    double *out = lab_fresh(len[0], NULL), *w = lab_fresh(len[1], NULL);
    mha layer = causal_layer(c);
    if (mha_forward(out, w, &layer, c->x, bias->p, T) != MM_OK) return false;
    const double *mine[2] = { out, w };
    if (!lab_explained_same(c->weights ? 2 : 1, got, want, mine, len, scale)) return false;
    lab_hint(EN_ES("your mask_causal gives a wrong mask for T = %d (see its checks), and your "
                   "mha_forward_causal's results are what mha_forward gives with that mask. Fix "
                   "mask_causal first",
                   "tu mask_causal da una máscara errónea con T = %d (mira sus comprobaciones), "
                   "y los resultados de tu mha_forward_causal son los que da mha_forward con "
                   "esa máscara. Arregla antes mask_causal"), T);
    mask_catalogue(bias->p, mc.want, 1.0, &mc);
    return true;
}

void diagnose_causal(const double *const got[], const double *const want[], double scale,
                     void *ctx)
{
    const causal_case *c = ctx;
    /* the known mistakes show on the short cases, which come first: on a
     * long one (1024 tokens: a dozen layers computed here, a second or
     * more) they are not tried again */
    bool long_case = c->T > 128;
    if (!long_case && blame_mask(got, want, scale, c)) return;
    size_t len[2] = { (size_t)c->T * c->d_model, (size_t)c->n_heads * c->T * c->T };
    double *out = lab_fresh(len[0], NULL), *w = lab_fresh(len[1], NULL);
    const double *mine[2] = { out, w };
    int n = c->weights ? 2 : 1;
    enum { N_TRIED = sizeof fc_tried / sizeof fc_tried[0] };
    const char *names[N_TRIED];
    int n_fit = 0;
    double *first_w = lab_fresh(len[1], NULL);
    fc_way first = FC_RIGHT;
    for (size_t i = 0; i < N_TRIED && !long_case; i++) {
        if (!fc_as(fc_tried[i], c, out, w)) continue;
        if (lab_explained_same(n, got, want, mine, len, scale)) {
            if (n_fit == 0) first = fc_tried[i], memcpy(first_w, w, len[1] * sizeof *w);
            names[n_fit++] = fc_say(fc_tried[i], c, w, true);
        }
    }
    if (n_fit == 1) fc_say(first, c, first_w, false);
    if (n_fit > 1) lab_several_hint(names, n_fit);
    if (n_fit) return;
    if (c->weights && lab_all_same(got[0], want[0], len[0], scale)) {
        bool unwritten = true;
        for (size_t e = 0; e < len[1]; e++) unwritten &= got[1][e] == LAB_UNWRITTEN;
        if (unwritten)
            lab_hint(EN_ES("out is right but weights was never written: when weights is not "
                           "NULL, pass it on to mha_forward, which writes each head's softmax "
                           "rows there",
                           "out está bien pero weights no se escribió nunca: cuando weights no "
                           "es NULL, pásalo a mha_forward, que escribe ahí las filas del "
                           "softmax de cada cabeza"));
    }
}

/* ---- the hints of check.c ------------------------------------------------------------------ */

/* what a failed check most likely means (lab04.h names them) */
static const char *const check_hints[N_CHECK_HINTS][2] = {
    [CH_CHECK_FIRST] = {
      "check every argument - and, in mask_combine, every element of "
      "both masks and every sum - before the first write",
      "comprueba todos los argumentos - y, en mask_combine, cada "
      "elemento de las dos máscaras y cada suma - antes de la primera "
      "escritura" },
    [CH_SELF_NOT_OVERLAP] = {
      "bias and other may be the same buffer - a mask combined with itself, "
      "bias += bias - and that is not an overlap to refuse: only buffers that "
      "share bytes without being the same one are (if (bias != other) "
      "MM_NEED_DISJOINT(...))",
      "bias y other pueden ser el mismo búfer - una máscara combinada consigo "
      "misma, bias += bias - y eso no es un solapamiento que rechazar: solo lo "
      "son los búferes que comparten bytes sin ser el mismo (if (bias != "
      "other) MM_NEED_DISJOINT(...))" },
    [CH_MINUS_INF_MASK] = {
      "-inf is a hidden key, not an error: a mask holds finite values or "
      "-inf, and mask_combine refuses only NaN and +inf (isnan(b) || b == "
      "INFINITY)",
      "-inf es una key oculta, no un error: una máscara tiene valores finitos "
      "o -inf, y mask_combine solo rechaza NaN y +inf (isnan(b) || b == "
      "INFINITY)" },
    [CH_FINITE_SUM] = {
      "only a sum of two finite values that is not finite overflows: -inf + "
      "anything finite is -inf, a hidden key, and 8e307 + 8e307 = 1.6e308 is "
      "still a double (the largest is about 1.8e308): add, then look at the sum "
      "(isinf(b + o))",
      "solo desborda una suma de dos valores finitos que no es finita: -inf + "
      "cualquier finito es -inf, una key oculta, y 8e307 + 8e307 = 1.6e308 "
      "sigue siendo un double (el mayor es 1.8e308, más o menos): suma, y "
      "mira después la suma (isinf(b + o))" },
    [CH_LENGTH_RANGE] = {
      "length may be anything from 0 (no key visible) to T_k (every key "
      "visible), both included: refuse only length < 0 or length > T_k",
      "length puede ser cualquier valor de 0 (ninguna key visible) a T_k "
      "(todas visibles), ambos incluidos: rechaza solo length < 0 o "
      "length > T_k" },
    [CH_MASK_SIZE_PRODUCT] = {
      "a (T_q, T_k) mask holds T_q x T_k doubles, and that must fit before you "
      "write it: MM_NEED_SIZE_PRODUCT(T_q, T_k) returns MM_EINVAL unless the "
      "product is at most MM_MAX_ELEMENTS",
      "una máscara (T_q, T_k) tiene T_q x T_k doubles, y eso tiene que caber "
      "antes de escribirla: MM_NEED_SIZE_PRODUCT(T_q, T_k) devuelve MM_EINVAL "
      "salvo que el producto sea como mucho MM_MAX_ELEMENTS" },
    [CH_LENGTH_REFUSED] = {
      "length counts the real keys: from 0 to T_k. Anything else is refused "
      "with MM_EINVAL (mm_fail(MM_EINVAL, \"...\", ...) with a message naming "
      "length and T_k)",
      "length cuenta las keys reales: de 0 a T_k. Cualquier otro valor se "
      "rechaza con MM_EINVAL (mm_fail(MM_EINVAL, \"...\", ...) con un mensaje "
      "que nombre length y T_k)" },
    [CH_BOOL_OVERLAP] = {
      "bias and allowed must not share memory: writing bias would overwrite "
      "the table still to be read. Refuse it with MM_EINVAL: MM_NEED_DISJOINT "
      "on { MM_BUFFER(bias, n), MM_BUFFER(allowed, n) } compares their ranges "
      "of bytes (n doubles for bias, n bools for allowed)",
      "bias y allowed no pueden compartir memoria: escribir bias "
      "sobrescribiría la tabla que aún hay que leer. Recházalo con MM_EINVAL: "
      "MM_NEED_DISJOINT sobre { MM_BUFFER(bias, n), MM_BUFFER(allowed, n) } "
      "compara sus rangos de bytes (n doubles para bias, n bools para "
      "allowed)" },
    [CH_SUM_OVERFLOW] = {
      "two finite values can add up to an infinity: 1e308 + 1e308 is +inf, "
      "-1e308 + (-1e308) is -inf, which would hide a key that both masks let "
      "through. Refuse it with MM_ERANGE, before anything is written: "
      "isfinite(b) && isfinite(o) && isinf(b + o)",
      "dos valores finitos pueden sumar un infinito: 1e308 + 1e308 es +inf, "
      "-1e308 + (-1e308) es -inf, que ocultaría una key que las dos máscaras "
      "dejan pasar. Recházalo con MM_ERANGE, antes de escribir nada: "
      "isfinite(b) && isfinite(o) && isinf(b + o)" },
    [CH_BAD_MASK_VALUE] = {
      "a mask holds finite values or -inf: a NaN or a +inf in either one is "
      "refused with MM_EINVAL, before anything is written (a NaN would make "
      "the sum NaN, and attention refuses it later; +inf plus -inf is NaN)",
      "una máscara tiene valores finitos o -inf: un NaN o un +inf en "
      "cualquiera de las dos se rechaza con MM_EINVAL, antes de escribir nada "
      "(un NaN haría NaN la suma, y la atención la rechaza después; +inf más "
      "-inf es NaN)" },
    [CH_SUM_OVERFLOW_ANYWHERE] = {
      "two finite values can add up to an infinity, wherever they are in the "
      "masks: refuse it with MM_ERANGE, before anything is written - "
      "isfinite(b) && isfinite(o) && isinf(b + o) for each pair",
      "dos valores finitos pueden sumar un infinito, estén donde estén en las "
      "máscaras: recházalo con MM_ERANGE, antes de escribir nada - "
      "isfinite(b) && isfinite(o) && isinf(b + o) para cada par" },
    [CH_PLUS_INF_MASK] = {
      "+inf is not a mask value, in bias as in other: refuse it with "
      "MM_EINVAL, before anything is written (a mask holds finite values or "
      "-inf; +inf plus -inf would be NaN)",
      "+inf no es un valor de máscara, ni en bias ni en other: recházalo con "
      "MM_EINVAL, antes de escribir nada (una máscara tiene valores finitos o "
      "-inf; +inf más -inf sería NaN)" },
    [CH_COMBINE_OVERLAP] = {
      "bias and other may be the same buffer, but must not overlap otherwise: "
      "writing bias would change elements of other still to be read. Refuse "
      "it with MM_EINVAL: if (bias != other) MM_NEED_DISJOINT(...) on their "
      "ranges of bytes",
      "bias y other pueden ser el mismo búfer, pero no solaparse de otro "
      "modo: escribir bias cambiaría elementos de other que aún hay que leer. "
      "Recházalo con MM_EINVAL: if (bias != other) MM_NEED_DISJOINT(...) "
      "sobre sus rangos de bytes" },
    [CH_FINITE_HIDDEN] = {
      "a hidden key's weight is exactly 0 only if its bias is "
      "-INFINITY (e^-inf = 0); a finite bias, however negative, leaves "
      "it a weight of e^bias - small enough to pass the tolerance, not "
      "small enough to be no weight",
      "el peso de una key oculta es exactamente 0 solo si su sesgo es "
      "-INFINITY (e^-inf = 0); un sesgo finito, por negativo que sea, "
      "le deja un peso de e^sesgo - lo bastante pequeño para pasar la "
      "tolerancia, no para ser ningún peso" },
    [CH_FUTURE_KEY] = {
      "the last token's key, hidden from every earlier query, gives a score that "
      "overflows - and your layer computed it (or added the mask to it: inf + "
      "(-inf) is NaN). A key the mask hides must not matter: with -INFINITY in the "
      "mask, sdpa scores no key after a row's last visible one; a finite mask "
      "(-1e9) gets it scored, and so does attention that scores every key before "
      "it masks (drop a hidden key's score before you look at it)",
      "la key del último token, oculta a todas las queries anteriores, da una "
      "puntuación que desborda - y tu capa la calculó (o le sumó la máscara: inf "
      "+ (-inf) es NaN). Una key que la máscara oculta no debe contar: con "
      "-INFINITY en la máscara, sdpa no puntúa ninguna key después de la última "
      "visible de una fila; una máscara finita (-1e9) hace que se puntúe, y "
      "también una atención que puntúa todas las keys antes de aplicar la máscara "
      "(descarta la puntuación de una key oculta antes de mirarla)" },
    [CH_INNER_NAN] = {
      "a NaN appeared inside your layer, and it refused it: a softmax computes "
      "-inf - (-inf) = NaN on a row whose every key is hidden. With the causal "
      "mask no row is (token t sees itself, j <= i); and a row that sees "
      "nothing must get weights 0, not NaN - as chapter 02's softmax_row does",
      "apareció un NaN dentro de tu capa, y lo rechazó: un softmax calcula "
      "-inf - (-inf) = NaN en una fila con todas sus keys ocultas. Con la "
      "máscara causal ninguna lo está (el token t se ve a sí mismo, j <= i); y "
      "una fila que no ve nada debe recibir pesos 0, no NaN - como hace el "
      "softmax_row del capítulo 02" },
    [CH_MASK_CALL_FAILED] = {
      "the call that failed is your mask_causal, from inside your "
      "mha_forward_causal: see what it is given (T) and its own checks",
      "la llamada que falló es tu mask_causal, desde dentro de tu "
      "mha_forward_causal: mira qué recibe (T) y sus propias comprobaciones" },
    [CH_PREFIX] = {
      "with the causal mask, token t sees tokens 0 .. t and nothing after, "
      "so appending tokens changes nothing before them (prefix invariance, "
      "what the key/value cache relies on): your mask lets a token see "
      "some that come after it",
      "con la máscara causal, el token t ve los tokens 0 .. t y nada más, "
      "así que añadir tokens no cambia nada antes de ellos (invariancia del "
      "prefijo, en la que se apoya la caché de keys y values): tu máscara "
      "deja que un token vea alguno de los que vienen después" },
    [CH_CAUSAL_SIZE_PRODUCT] = {
      "check T x T before you allocate the mask: MM_NEED_SIZE_PRODUCT(T, T) "
      "returns MM_EINVAL unless it is at most MM_MAX_ELEMENTS (else T * T * "
      "sizeof(double) wraps around in a size_t, and malloc gets a wrong size)",
      "comprueba T x T antes de reservar la máscara: MM_NEED_SIZE_PRODUCT(T, T) "
      "devuelve MM_EINVAL salvo que sea como mucho MM_MAX_ELEMENTS (si no, T * "
      "T * sizeof(double) da la vuelta en un size_t, y malloc recibe un tamaño "
      "erróneo)" },
    [CH_PASS_X_STATUS] = {
      "mha_forward refuses x that is not finite, with MM_EINVAL and before "
      "it writes anything: return the status it gives (MM_TRY, or st = "
      "mha_forward(...); ... return st;), after freeing your mask",
      "mha_forward rechaza una x no finita, con MM_EINVAL y antes de escribir "
      "nada: devuelve el estado que da (MM_TRY, o st = mha_forward(...); ... "
      "return st;), después de liberar tu máscara" },
    [CH_PASS_ALIAS_STATUS] = {
      "mha_forward refuses outputs that share memory with each other or with "
      "an input, with MM_EINVAL: return the status it gives",
      "mha_forward rechaza salidas que comparten memoria entre sí o con una "
      "entrada, con MM_EINVAL: devuelve el estado que da" },
    [CH_PASS_RANGE_STATUS] = {
      "mha_forward returns MM_ERANGE when a product overflows: return the "
      "status it gives, whatever it is",
      "mha_forward devuelve MM_ERANGE cuando un producto desborda: devuelve "
      "el estado que da, sea cual sea" },
    [CH_ONE_TOKEN] = {
      "one token sees itself only: its weight is 1 if its score q . k / "
      "sqrt(d_k) is a number, and here it is not - attention returns MM_ERANGE "
      "(sdpa's status, through mha_forward). A shortcut for T = 1 that skips "
      "the score skips that too",
      "un token solo se ve a sí mismo: su peso es 1 si su puntuación q . k / "
      "sqrt(d_k) es un número, y aquí no lo es - la atención devuelve "
      "MM_ERANGE (el estado de sdpa, por mha_forward). Un atajo para T = 1 que "
      "se salta la puntuación se salta también eso" },
};

/* check_hint - lab04.h */
void check_hint(check_hint_id h)
{
    lab_hint("%s", check_hints[h][lab_es()]);
}

/* nan_row_hint - lab04.h */
void nan_row_hint(int row, int head)
{
    lab_hint(EN_ES("row %d of head %d's weights is NaN, and then your layer refused its "
                   "own NaN: a softmax computes -inf - (-inf) = NaN on a row whose every key "
                   "is hidden. With the causal mask no row is (token t sees itself, j <= i); "
                   "and a row that sees nothing must get weights 0, not NaN - chapter 02's "
                   "softmax_row and sdpa do that, and so does mha_forward",
                   "la fila %d de los pesos de la cabeza %d es NaN, y después tu capa "
                   "rechazó su propio NaN: un softmax calcula -inf - (-inf) = NaN en una "
                   "fila con todas sus keys ocultas. Con la máscara causal ninguna lo está "
                   "(el token t se ve a sí mismo, j <= i); y una fila que no ve nada debe "
                   "recibir pesos 0, no NaN - softmax_row y sdpa del capítulo 02 lo hacen, y "
                   "mha_forward también"), row, head);
}

/* mistakes.c - every hint of lab 05: check.c's (at the end), and the
 * common mistakes, each computed here on the failing case's input, the
 * way the mistake computes it: when one reproduces the learner's output
 * (and differs from the right answer there), its hint is printed, named
 * as chapter 05 names it. The online softmax can forget to rescale its
 * running sum when the maximum grows, start the sum again at each block,
 * or fold a block of hidden keys into NaN; the tiles can forget to rescale
 * the accumulator or the sum (an output kept unnormalised, or as the
 * weighted mean o / l that the chapter's code keeps), leave the diagonal
 * tile unmasked, stop the key loop at i0 (the diagonal tile skipped) or
 * skip the tiles below the diagonal; a decoding step can attend before it
 * appends the token's key and value (the token does not see itself; token
 * 0 sees nothing), or forget the scale 1 / sqrt(d_k). */
#include <math.h>
#include <string.h>
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/matrix.h"
#include "lab05.h"

/* a mistake's hint, and its name in a few words (lab_several_hint), in English and Spanish */
typedef struct {
    int way;
    const char *name[2];
    const char *text[2];
} hint_row;

/* row_say - the row of rows[] (of n) for way: its hint (name false), or
 * its name (returned) */
static const char *row_say(const hint_row *rows, size_t n, int way, bool name)
{
    for (size_t i = 0; i < n; i++) {
        if (rows[i].way != way) continue;
        if (name) return rows[i].name[lab_es()];
        lab_hint("%s", rows[i].text[lab_es()]);
        return NULL;
    }
    lab_bug("no hint for mistake %d", way);
}

/* the model of one mistake: into out (len doubles) what it computes on ctx;
 * false if it does not apply */
typedef bool mistake_model(int way, const void *ctx, double *out);

/* catalogue - try each of the n ways on ctx: name the one whose output
 * (first n_out outputs of len[]) is the learner's, or all of them briefly
 * (two ways of one mistake, the same name, count once) */
static void catalogue(const int ways[], int n, mistake_model *model, const void *ctx,
                      const hint_row *rows, size_t n_rows, int n_out,
                      const double *const got[], const double *const want[],
                      const size_t len[], double scale)
{
    double *mine = lab_fresh(len[0], NULL);
    const double *m[2] = { mine, want[1] };
    const char *names[16];
    int fit = 0, first = -1;
    for (int i = 0; i < n && i < 16; i++) {
        if (!model(ways[i], ctx, mine)) continue;
        if (!lab_explained_same(n_out, got, want, m, len, scale)) continue;
        const char *name = row_say(rows, n_rows, ways[i], true);
        bool said = false;                  /* two ways of one mistake: one hint */
        for (int k = 0; k < fit; k++) said |= strcmp(names[k], name) == 0;
        if (said) continue;
        if (fit == 0) first = ways[i];
        names[fit++] = name;
    }
    if (fit == 1) row_say(rows, n_rows, first, false);
    if (fit > 1) lab_several_hint(names, fit);
}

/* ---- softmax_online ------------------------------------------------------------------------ */

typedef enum { SO_RIGHT, SO_SUM_NOT_RESCALED, SO_SUM_RESET, SO_HIDDEN_BLOCK_NAN } online_way;

/* online_as - the weights the online fold computes the given way, into w */
static bool online_as(int way, const void *ctx, double *w)
{
    const online_case *c = ctx;
    const double *s = c->s0;
    double m = -INFINITY, l = 0.0;
    for (int j0 = 0; j0 < c->n; j0 += c->block) {
        int nb = c->n - j0 < c->block ? c->n - j0 : c->block;
        double block_max = -INFINITY;
        for (int j = j0; j < j0 + nb; j++) block_max = s[j] > block_max ? s[j] : block_max;
        if (block_max == -INFINITY && way != SO_HIDDEN_BLOCK_NAN) continue;
        double m_new = block_max > m ? block_max : m, alpha = exp(m - m_new);
        if (way == SO_SUM_RESET) l = 0.0;
        else if (way != SO_SUM_NOT_RESCALED) l *= alpha;
        m = m_new;
        for (int j = j0; j < j0 + nb; j++) l += exp(s[j] - m);
    }
    for (int j = 0; j < c->n; j++) w[j] = m == -INFINITY ? 0.0 : exp(s[j] - m) / l;
    return true;
}

static const hint_row online_hints[] = {
    { SO_SUM_NOT_RESCALED,
      { "the running sum not rescaled", "la suma acumulada sin reescalar" },
      { "the running sum not rescaled: your l is not rescaled when the maximum grows. The "
        "exponentials already in l were taken against the old maximum m, so when a block "
        "raises it to m', l must be multiplied by alpha = e^(m - m') before the block's "
        "e^(s - m') are added: l' = l alpha + sum e^(s - m'). In the worked example l = "
        "1.3679 after block 1 must become 1.3679 x 0.1353 before block 2 is added",
        "la suma acumulada sin reescalar: tu l no se reescala cuando crece el máximo. Las "
        "exponenciales que ya están en l se tomaron respecto al máximo viejo m, así que "
        "cuando un bloque lo sube a m', l debe multiplicarse por alpha = e^(m - m') antes de "
        "sumar las e^(s - m') del bloque: l' = l alpha + suma e^(s - m'). En el ejemplo "
        "resuelto l = 1.3679 tras el bloque 1 debe pasar a 1.3679 x 0.1353 antes de sumar el "
        "bloque 2" } },
    { SO_SUM_RESET,
      { "the sum started again at each block", "la suma empezada de nuevo en cada bloque" },
      { "your sum l holds only the last block's exponentials: it is set, not accumulated, at "
        "each block. l runs over the whole row: l' = l e^(m - m') + sum over the block of "
        "e^(s - m')",
        "tu suma l solo tiene las exponenciales del último bloque: se asigna, no se acumula, en "
        "cada bloque. l recorre toda la fila: l' = l e^(m - m') + suma en el bloque de "
        "e^(s - m')" } },
    { SO_HIDDEN_BLOCK_NAN,
      { "a block of hidden keys folded into NaN", "un bloque de keys ocultas convertido en NaN" },
      { "a block whose scores are all -INFINITY turns your fold into NaN: its maximum is -inf, "
        "so while m is still -inf, alpha = e^(m - m') = e^(-inf - (-inf)) = e^NaN, and l becomes "
        "NaN for good. Skip a block with nothing visible (its maximum -INFINITY): it adds "
        "nothing to the sum",
        "un bloque con todas sus puntuaciones -INFINITY convierte tu plegado en NaN: su máximo "
        "es -inf, así que mientras m sigue en -inf, alpha = e^(m - m') = e^(-inf - (-inf)) = "
        "e^NaN, y l queda NaN para siempre. Sáltate un bloque sin nada visible (su máximo "
        "-INFINITY): no suma nada" } },
};

void diagnose_online(const double *const got[], const double *const want[], double scale,
                     void *ctx)
{
    static const int ways[] = { SO_SUM_NOT_RESCALED, SO_SUM_RESET, SO_HIDDEN_BLOCK_NAN };
    const online_case *c = ctx;
    size_t len[1] = { (size_t)c->n };
    catalogue(ways, 3, online_as, c, online_hints, 3, 1, got, want, len, scale);
}

/* ---- sdpa_causal_tiled ---------------------------------------------------------------------- */

/* the ways the tiles go wrong; the first two also as a learner makes them who keeps
 * the accumulator as a weighted mean, o / l (the chapter's implementation): then the
 * old output's share l alpha / l' is forgotten, or l' = l + sum */
typedef enum { ST_RIGHT, ST_ACC_NOT_RESCALED, ST_SUM_NOT_RESCALED, ST_DIAGONAL_UNMASKED,
               ST_KEYS_TO_I0, ST_BELOW_SKIPPED, ST_MEAN_ACC_NOT_RESCALED,
               ST_MEAN_SUM_NOT_RESCALED } tiled_way;

/* tiled_row - query i's output the given way, over keys j_start .. j_end - 1
 * in tiles of block_k, into o (d_v) */
static void tiled_row(int way, const tiled_case *c, int i, int j_start, int j_end, double *o)
{
    int d_k = c->d_k, d_v = c->d_v, bk = c->block_k;
    bool mean = way == ST_MEAN_ACC_NOT_RESCALED || way == ST_MEAN_SUM_NOT_RESCALED;
    double scale = 1.0 / sqrt((double)d_k), m = -INFINITY, l = 0.0, p[256];
    for (int e = 0; e < d_v; e++) o[e] = 0.0;
    for (int j0 = j_start; j0 < j_end; j0 += bk) {
        int nk = j_end - j0 < bk ? j_end - j0 : bk;
        double tile_max = -INFINITY;
        for (int cc = 0; cc < nk && cc < 256; cc++) {
            int j = j0 + cc;
            double dot = 0.0;
            const double *q_i = c->q + (size_t)i * d_k, *k_j = c->k + (size_t)j * d_k;
            for (int e = 0; e < d_k; e++) dot += q_i[e] * k_j[e];
            p[cc] = j > i && way != ST_DIAGONAL_UNMASKED ? -INFINITY : dot * scale;
            tile_max = p[cc] > tile_max ? p[cc] : tile_max;
        }
        if (tile_max == -INFINITY) continue;
        double m_new = tile_max > m ? tile_max : m, alpha = exp(m - m_new), sum = 0.0;
        for (int cc = 0; cc < nk && cc < 256; cc++) sum += p[cc] = exp(p[cc] - m_new);
        bool sum_kept = way == ST_SUM_NOT_RESCALED || way == ST_MEAN_SUM_NOT_RESCALED;
        double l_new = (sum_kept ? l : l * alpha) + sum;
        double keep = mean ? l * alpha / l_new : alpha, share = mean ? 1.0 / l_new : 1.0;
        if (way == ST_ACC_NOT_RESCALED || way == ST_MEAN_ACC_NOT_RESCALED) keep = 1.0;
        for (int e = 0; e < d_v; e++) {
            double pv = 0.0;
            for (int cc = 0; cc < nk && cc < 256; cc++)
                pv += p[cc] * c->v[(size_t)(j0 + cc) * d_v + e];
            o[e] = o[e] * keep + pv * share;
        }
        m = m_new, l = l_new;
    }
    for (int e = 0; e < d_v && !mean; e++) o[e] /= l;
}

/* tiled_as - the output sdpa_causal_tiled computes the given way, into out */
static bool tiled_as(int way, const void *ctx, double *out)
{
    const tiled_case *c = ctx;
    if (c->block_k > 256) return false;
    for (int i0 = 0; i0 < c->T; i0 += c->block_q) {
        int nq = c->T - i0 < c->block_q ? c->T - i0 : c->block_q;
        int j_start = way == ST_BELOW_SKIPPED ? i0 : 0;
        int j_end = way == ST_KEYS_TO_I0 ? i0 : i0 + nq;
        for (int i = i0; i < i0 + nq; i++)
            tiled_row(way, c, i, j_start, j_end, out + (size_t)i * c->d_v);
    }
    return true;
}

/* the tiles' hints, named as chapter 05 names them; the weighted-mean ways share them */
#define ACC_NAME { "the rescaling forgotten when the maximum grows (the accumulator)",       \
                   "el reescalado olvidado cuando el máximo crece (el acumulador)" }
#define ACC_TEXT                                                                             \
    { "the rescaling forgotten when the maximum grows: your accumulated output o is not "    \
      "rescaled when a tile raises a row's maximum. What o holds was weighted by e^(s - m) " \
      "with the old m, so it must be multiplied by alpha = e^(m - m') before the tile's P V " \
      "is added: o' = o alpha + P V (or, if you keep o as a weighted mean, o / l, by its "   \
      "share l alpha / l'). Your running sum is rescaled; the output must be too",           \
      "el reescalado olvidado cuando el máximo crece: tu salida acumulada o no se reescala " \
      "cuando una tesela sube el máximo de una fila. Lo que tiene o se ponderó con e^(s - m) " \
      "con la m vieja, así que debe multiplicarse por alpha = e^(m - m') antes de sumar el " \
      "P V de la tesela: o' = o alpha + P V (o, si guardas o como media ponderada, o / l, "  \
      "por su parte l alpha / l'). Tu suma acumulada sí se reescala; la salida también "     \
      "tiene que reescalarse" }
#define SUM_NAME { "the running sum not rescaled", "la suma acumulada sin reescalar" }
#define SUM_TEXT                                                                             \
    { "the running sum not rescaled: your l is not multiplied by alpha = e^(m - m') when a " \
      "tile raises a row's maximum: l' = l alpha + sum e^(s - m'), as the accumulator is. "  \
      "In the worked example, query 3's l = 1.2431 after the first tile becomes 1.2431 x "   \
      "0.2431 before the diagonal tile adds its 1.2431",                                     \
      "la suma acumulada sin reescalar: tu l no se multiplica por alpha = e^(m - m') cuando " \
      "una tesela sube el máximo de una fila: l' = l alpha + suma e^(s - m'), como el "      \
      "acumulador. En el ejemplo resuelto, la l = 1.2431 de la query 3 tras la primera "     \
      "tesela pasa a 1.2431 x 0.2431 antes de que la tesela de la diagonal sume su 1.2431" }

static const hint_row tiled_hints[] = {
    { ST_ACC_NOT_RESCALED, ACC_NAME, ACC_TEXT },
    { ST_MEAN_ACC_NOT_RESCALED, ACC_NAME, ACC_TEXT },
    { ST_SUM_NOT_RESCALED, SUM_NAME, SUM_TEXT },
    { ST_MEAN_SUM_NOT_RESCALED, SUM_NAME, SUM_TEXT },
    { ST_DIAGONAL_UNMASKED,
      { "the diagonal tile unmasked", "la tesela de la diagonal sin máscara" },
      { "the diagonal tile unmasked: on a tile the diagonal crosses, query i must not see keys "
        "j > i, which the tile holds (in the worked example, key 3 in query 2's diagonal "
        "tile). Set the score of each such cell to -INFINITY before the tile's maximum, so its "
        "weight is 0",
        "la tesela de la diagonal sin máscara: en una tesela que cruza la diagonal, la query i "
        "no debe ver las keys j > i, que la tesela contiene (en el ejemplo resuelto, la key 3 "
        "en la tesela diagonal de la query 2). Pon la puntuación de cada celda así a -INFINITY "
        "antes del máximo de la tesela, para que su peso sea 0" } },
    { ST_KEYS_TO_I0,
      { "a tile skipped wrongly (the key loop stopping at i0)",
        "la tesela saltada por error (el bucle de keys parando en i0)" },
      { "a tile skipped wrongly: your key loop stops at i0, the first query of the tile, and "
        "skips the tile on the diagonal, where each query sees itself and the keys just "
        "before it - and the first query tile sees no key at all (0 / 0). The keys of query "
        "tile i0 .. i0 + nq - 1 run up to i0 + nq - 1",
        "la tesela saltada por error: tu bucle de keys para en i0, la primera query de la "
        "tesela, y se salta la tesela de la diagonal, donde cada query se ve a sí misma y a "
        "las keys justo anteriores - y el primer bloque de queries no ve ninguna key (0 / 0). "
        "Las keys del bloque de queries i0 .. i0 + nq - 1 llegan hasta i0 + nq - 1" } },
    { ST_BELOW_SKIPPED,
      { "a tile skipped wrongly (the tiles below the diagonal)",
        "la tesela saltada por error (las teselas bajo la diagonal)" },
      { "a tile skipped wrongly: your key loop starts at i0, so it computes only the tiles on "
        "the diagonal and skips those below it, the past every query must see. Only the "
        "tiles above the diagonal (keys after the tile's last query) are skipped: the key "
        "loop starts at 0",
        "la tesela saltada por error: tu bucle de keys empieza en i0, así que solo calcula las "
        "teselas de la diagonal y se salta las de debajo, el pasado que toda query debe ver. "
        "Solo se saltan las teselas sobre la diagonal (keys después de la última query de la "
        "tesela): el bucle de keys empieza en 0" } },
};

static const int tiled_ways[] = { ST_ACC_NOT_RESCALED, ST_SUM_NOT_RESCALED, ST_DIAGONAL_UNMASKED,
                                  ST_KEYS_TO_I0, ST_BELOW_SKIPPED, ST_MEAN_ACC_NOT_RESCALED,
                                  ST_MEAN_SUM_NOT_RESCALED };
enum { N_TILED_WAYS = sizeof tiled_ways / sizeof tiled_ways[0],
       N_TILED_HINTS = sizeof tiled_hints / sizeof tiled_hints[0] };

void diagnose_tiled(const double *const got[], const double *const want[], double scale,
                    void *ctx)
{
    const tiled_case *c = ctx;
    size_t len[1] = { (size_t)c->T * c->d_v };
    catalogue(tiled_ways, N_TILED_WAYS, tiled_as, c, tiled_hints, N_TILED_HINTS, 1, got, want,
              len, scale);
}

bool tiled_status_hint(const tiled_case *c, mm_status st)
{
    double *out = lab_fresh((size_t)c->T * c->d_v, NULL);
    if (st != MM_ERANGE && st != MM_EINVAL) return false;
    for (int i = 0; i < N_TILED_WAYS; i++) {
        if (!tiled_as(tiled_ways[i], c, out)) continue;
        for (size_t e = 0; e < (size_t)c->T * c->d_v; e++)
            if (!isfinite(out[e])) {
                row_say(tiled_hints, N_TILED_HINTS, tiled_ways[i], false);
                return true;
            }
    }
    return false;
}

/* ---- mha_decode_step ------------------------------------------------------------------------ */

typedef enum { DC_RIGHT, DC_APPEND_AFTER, DC_NO_SCALE } decode_way;

/* decode_as - the step's out computed the given way, into out (d_model):
 * token t's query against the cached keys 0 .. t (DC_APPEND_AFTER: 0 ..
 * t - 1, nothing for t = 0) */
static bool decode_as(int way, const void *ctx, double *out)
{
    const decode_case *c = ctx;
    int d = c->d_model, d_k = c->d_k, t = c->t, n = way == DC_APPEND_AFTER ? t : t + 1;
    size_t head = (size_t)c->T_max * d_k, kv_n = (size_t)c->n_heads * head;
    double *qkv = lab_fresh(3 * (size_t)d, NULL), *heads = lab_fresh((size_t)d, NULL);
    double *s = lab_fresh((size_t)n + 1, NULL);
    if (mm_matmul(qkv, c->x + (size_t)t * d, c->w_qkv, 1, d, 3 * d, false) != MM_OK) return false;
    double scale = way == DC_NO_SCALE ? 1.0 : 1.0 / sqrt((double)d_k);
    for (int h = 0; h < c->n_heads && n > 0; h++) {
        const double *k_h = c->want_kv + h * head, *v_h = c->want_kv + kv_n + h * head;
        for (int j = 0; j < n; j++) {
            double dot = 0.0;
            for (int e = 0; e < d_k; e++) dot += qkv[h * d_k + e] * k_h[(size_t)j * d_k + e];
            s[j] = dot * scale;
        }
        if (softmax_row(s, n) != MM_OK) return false;
        for (int e = 0; e < d_k; e++) {
            double acc = 0.0;
            for (int j = 0; j < n; j++) acc += s[j] * v_h[(size_t)j * d_k + e];
            heads[h * d_k + e] = acc;
        }
    }
    return mm_matmul(out, heads, c->w_o, 1, d, d, false) == MM_OK;
}

static const hint_row decode_hints[] = {
    { DC_APPEND_AFTER,
      { "the cache appended after attending",
        "el token añadido a la caché después de atender" },
      { "the cache appended after attending: your step attends before it appends, so token "
        "t's query sees the cached keys 0 .. t - 1 only, not its own key - and token 0 sees "
        "nothing at all (its out is 0). Under the causal mask query t sees key t: append "
        "token t's key and value to the cache first, then attend over the t + 1 keys",
        "el token añadido a la caché después de atender: tu paso atiende antes de añadir, así "
        "que la query del token t solo ve las keys guardadas 0 .. t - 1, no su propia key - y el "
        "token 0 no ve nada (su out es 0). Con la máscara causal la query t ve la key t: "
        "añade primero la key y el value del token t a la caché, y atiende después sobre las "
        "t + 1 keys" } },
    { DC_NO_SCALE,
      { "the scale 1 / sqrt(d_k) forgotten", "la escala 1 / sqrt(d_k) olvidada" },
      { "the scale forgotten: your scores are not scaled; each head's q . k must be "
        "multiplied by 1 / sqrt(d_k), as in chapter 02's sdpa, before the softmax",
        "la escala olvidada: tus puntuaciones no están escaladas; el q . k de cada cabeza "
        "debe multiplicarse por 1 / sqrt(d_k), como en el sdpa del capítulo 02, antes del "
        "softmax" } },
};

/* row_unwritten - row t of each head's keys or values in got's cache is
 * all 0, and not so in the answer's */
static bool row_unwritten(const decode_case *c, const double *got)
{
    size_t head = (size_t)c->T_max * c->d_k;
    for (int r = 0; r < 2 * c->n_heads; r++) {
        const double *g = got + r * head + (size_t)c->t * c->d_k;
        const double *w = c->want_kv + r * head + (size_t)c->t * c->d_k;
        bool zero = true, want_zero = true;
        for (int e = 0; e < c->d_k; e++) zero &= g[e] == 0.0, want_zero &= w[e] == 0.0;
        if (zero && !want_zero) return true;
    }
    return false;
}

void diagnose_decode(const double *const got[], const double *const want[], double scale,
                     void *ctx)
{
    static const int ways[] = { DC_APPEND_AFTER, DC_NO_SCALE };
    const decode_case *c = ctx;
    size_t len[2] = { (size_t)c->d_model, 2 * (size_t)c->T_max * c->d_model };
    catalogue(ways, 2, decode_as, c, decode_hints, 2, 1, got, want, len, scale);
    if (lab_all_same(got[0], want[0], len[0], scale) && row_unwritten(c, got[1]))
        lab_hint(EN_ES("out is right, but token %d's key and value are not in the cache: row "
                       "%d of each head's keys and values (cache->k + (h T_max + %d) d_k, the "
                       "same in cache->v) must hold them after the step, for the next tokens "
                       "to see",
                       "out está bien, pero la key y el value del token %d no están en la "
                       "caché: la fila %d de las keys y values de cada cabeza (cache->k + (h "
                       "T_max + %d) d_k, igual en cache->v) debe tenerlos tras el paso, para "
                       "que los vean los tokens siguientes"), c->t, c->t, c->t);
}

/* ---- the hints of check.c ------------------------------------------------------------------ */

/* what a failed check most likely means (lab05.h names them) */
static const char *const check_hints[N_CHECK_HINTS][2] = {
    [CH_CHECK_FIRST] = {
      "check every argument - the pointers, the sizes, the overlaps, every score or input "
      "value - before the first write",
      "comprueba todos los argumentos - los punteros, los tamaños, los solapes, cada "
      "puntuación o valor de entrada - antes de la primera escritura" },
    [CH_BAD_SCORE] = {
      "a score may be finite or -INFINITY (a hidden key), nothing else: a NaN or a +INFINITY "
      "is refused with MM_EINVAL before anything is written (isnan(s[j]) || s[j] == INFINITY)",
      "una puntuación puede ser finita o -INFINITY (una key oculta), nada más: un NaN o un "
      "+INFINITY se rechaza con MM_EINVAL antes de escribir nada (isnan(s[j]) || s[j] == "
      "INFINITY)" },
    [CH_TOO_LARGE] = {
      "check that T x d_k and T x d_v fit in a buffer (MM_NEED_SIZE_PRODUCT) before you "
      "read q, k or v",
      "comprueba que T x d_k y T x d_v caben en un búfer (MM_NEED_SIZE_PRODUCT) antes de leer "
      "q, k o v" },
    [CH_NOT_FINITE] = {
      "the inputs must be finite: MM_NEED_FINITE(q, T, d_k) (and k, v; x for the step) "
      "refuses a NaN or an infinity with MM_EINVAL before anything is written",
      "las entradas deben ser finitas: MM_NEED_FINITE(q, T, d_k) (y k, v; x para el paso) "
      "rechaza un NaN o un infinito con MM_EINVAL antes de escribir nada" },
    [CH_OVERLAP] = {
      "the output may not share memory with an input: list the buffers, output first, as "
      "MM_BUFFER(p, n) and refuse an overlap with MM_NEED_DISJOINT(bufs, 1)",
      "la salida no puede compartir memoria con una entrada: lista los búferes, la salida "
      "primero, como MM_BUFFER(p, n) y rechaza un solape con MM_NEED_DISJOINT(bufs, 1)" },
    [CH_TILED_RANGE] = {
      "a visible score that is not finite (q . k past the largest double) is MM_ERANGE: "
      "test isfinite on each score of a visible key before you scale it",
      "una puntuación visible que no es finita (q . k más allá del mayor double) es "
      "MM_ERANGE: prueba isfinite en cada puntuación de una key visible antes de escalarla" },
    [CH_FULL] = {
      "a cache holds T_max tokens: when cache->T == cache->T_max there is no row for the next "
      "one, and the step is refused with MM_EINVAL before anything is written",
      "una caché guarda T_max tokens: cuando cache->T == cache->T_max no hay fila para el "
      "siguiente, y el paso se rechaza con MM_EINVAL antes de escribir nada" },
    [CH_DECODE_RANGE] = {
      "x W_QKV that is not finite is MM_ERANGE: test the row you projected before you put "
      "anything in the cache",
      "un x W_QKV que no es finito es MM_ERANGE: prueba la fila proyectada antes de poner "
      "nada en la caché" },
    [CH_T_NOT_ADVANCED] = {
      "a step that succeeds keeps its token: cache->T = t + 1 at the end, or the next step "
      "overwrites this token's key and value and never sees them",
      "un paso que tiene éxito guarda su token: cache->T = t + 1 al final, o el paso "
      "siguiente sobrescribe la key y el value de este token y nunca los ve" },
    [CH_KEPT_ON_FAILURE] = {
      "a step that fails keeps nothing: change cache->T only once nothing can fail any more "
      "(the last line before return MM_OK), and never touch the rows of the tokens it holds",
      "un paso que falla no guarda nada: cambia cache->T solo cuando ya nada puede fallar (la "
      "última línea antes de return MM_OK), y nunca toques las filas de los tokens que tiene" },
    [CH_CACHE_POINTERS] = {
      "the cache's layer, k, v and work belong to mha_cache_new and mha_cache_free: a step "
      "writes into the buffers they point at, and leaves the pointers as they are",
      "la capa, k, v y work de la caché son de mha_cache_new y mha_cache_free: un paso "
      "escribe en los búferes a los que apuntan, y deja los punteros como están" },
    [CH_SEQUENCE] = {
      "the earlier steps of this sequence were right, on the cache as your own steps left "
      "it: look at what this step reads that an earlier one wrote (the rows of earlier "
      "tokens, cache->T)",
      "los pasos anteriores de esta secuencia estaban bien, con la caché como la dejaron tus "
      "propios pasos: mira lo que este paso lee y escribió uno anterior (las filas de tokens "
      "anteriores, cache->T)" },
};

/* check_hint - lab05.h */
void check_hint(check_hint_id h)
{
    lab_hint("%s", check_hints[h][lab_es()]);
}

/* verdict.c - what a check says: failures, hints and details (a failure
 * starts with the function and the case), statuses, the outputs of a
 * refused call left as they were, the comparison of a learner's outputs
 * with the reference's, and lab_check_values, the value
 * check every lab's checks end with: the headline, the hints, then the
 * wrong output next to the expected one as small matrices (a stack of heads
 * head by head); and lab_show_values, the same matrices for a value a
 * check worked out to locate a mistake. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* ---- failures, hints, details ---------------------------------------------------------- */

static void say(lab_msg_kind kind, const char *prefix, const char *fmt, va_list ap)
{
    char msg[4096];
    int n = snprintf(msg, sizeof msg, "%s", prefix);
    vsnprintf(msg + n, sizeof msg - n, fmt, ap);
    lab_message(kind, msg);
}

void lab_fail(const char *fmt, ...)
{
    char prefix[512];
    lab_prefix(prefix, sizeof prefix);
    va_list ap;
    va_start(ap, fmt);
    say(MSG_FAIL, prefix, fmt, ap);
    va_end(ap);
}

void lab_hint(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(MSG_HINT, EN_ES("hint: ", "pista: "), fmt, ap);
    va_end(ap);
}

void lab_detail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(MSG_DETAIL, "", fmt, ap);
    va_end(ap);
}

/* ---- statuses ---------------------------------------------------------------------- */

bool lab_expect_status(mm_status got, mm_status want, const char *when)
{
    if (got == want) return true;
    const char *why = got != MM_OK ? lab_learner_error() : "";
    lab_fail(EN_ES("returned %s (%d) %s; expected %s (%d)%s%s",
                   "devolvió %s (%d) %s; se esperaba %s (%d)%s%s"),
             mm_status_name(got), (int)got, when, mm_status_name(want), (int)want,
             why[0] ? EN_ES("; mm_last_error() says: ", "; mm_last_error() dice: ") : "",
             why);
    return false;
}

void lab_null_hint(void)
{
    lab_hint("%s", EN_ES("check every pointer before using it: MM_NEED_BUFFER(p) returns "
                         "MM_EINVAL from your function when p is NULL, with a message naming "
                         "the function and p",
                         "comprueba cada puntero antes de usarlo: MM_NEED_BUFFER(p) devuelve "
                         "MM_EINVAL desde tu función cuando p es NULL, con un mensaje que "
                         "nombra la función y p"));
}

void lab_size_hint(void)
{
    lab_hint("%s", EN_ES("check every size before using it: MM_NEED_POSITIVE(n) returns "
                         "MM_EINVAL from your function unless n > 0, with a message naming "
                         "the function and n",
                         "comprueba cada tamaño antes de usarlo: MM_NEED_POSITIVE(n) devuelve "
                         "MM_EINVAL desde tu función salvo que n > 0, con un mensaje que "
                         "nombra la función y n"));
}

void lab_several_hint(const char *const names[], int n)
{
    char list[600];
    int len = 0;
    for (int i = 0; i < n && len < (int)sizeof list; i++)
        len += snprintf(list + len, sizeof list - len, "%s%s",
                        i == 0 ? "" : i == n - 1 ? EN_ES(" or ", " o ") : ", ", names[i]);
    lab_hint(EN_ES("on this case several common mistakes give exactly this result: %s; the "
                   "other cases tell them apart",
                   "en este caso varios errores comunes dan exactamente este resultado: %s; "
                   "los demás casos los distinguen"), list);
}

/* ---- refused calls: nothing written ----------------------------------------------------- */

void lab_keep(lab_kept *k, int n, lab_mat *const b[])
{
    if (n < 0 || n > LAB_MAX_ARGS) lab_bug("lab_keep: %d buffers", n);
    *k = (lab_kept){ .n = n };
    for (int i = 0; i < n; i++) {
        if (!b[i] || b[i]->input) continue;
        double *copy = lab_temp((b[i]->n ? b[i]->n : 1) * sizeof *copy);
        memcpy(copy, b[i]->p, b[i]->n * sizeof *copy);
        k->before[i] = copy;
    }
}

bool lab_unchanged(const lab_kept *k, const char *fn, const char *when, lab_mat *const b[])
{
    for (int i = 0; i < k->n; i++) {
        const lab_mat *m = b[i];
        const double *before = k->before[i];
        if (!before) continue;
        for (size_t e = 0; e < m->n; e++)
            if (memcmp(&m->p[e], &before[e], sizeof(double)) != 0) {
                lab_fail(EN_ES("%s refused the call %s, as it should, but changed %s first "
                               "(element (%zu, %zu) was %g, is now %g): a call that fails "
                               "leaves its outputs as they were",
                               "%s rechazó la llamada %s, como debe, pero antes cambió %s "
                               "(el elemento (%zu, %zu) era %g y ahora es %g): una llamada "
                               "que falla deja sus salidas como estaban"),
                         fn, when, m->name, e / m->cols, e % m->cols, before[e], m->p[e]);
                return false;
            }
    }
    return true;
}

/* ---- comparisons ------------------------------------------------------------------- */

double lab_scale(const double *x, size_t n)
{
    double s = 1.0;
    for (size_t i = 0; i < n; i++)            /* an expected NaN or inf sets no scale */
        if (isfinite(x[i]) && fabs(x[i]) > s) s = fabs(x[i]);
    return s;
}

static bool close1(double a, double b, double scale)
{
    if (!isfinite(a) || !isfinite(b))
        return memcmp(&a, &b, sizeof a) == 0 || (isinf(a) && a == b);
    return fabs(a - b) <= LAB_ATOL * scale + LAB_RTOL * fabs(b);
}

bool lab_close(const double *a, const double *b, size_t n, double scale)
{
    for (size_t i = 0; i < n; i++)
        if (!close1(a[i], b[i], scale)) return false;
    return true;
}

/* explained_by - lab_explained, with equal(a, b, n, scale) for "equals" */
static bool explained_by(bool (*equal)(const double *, const double *, size_t, double),
                         int n, const double *const got[], const double *const want[],
                         const double *const mistake[], const size_t len[], double scale)
{
    bool shows = false;
    for (int i = 0; i < n; i++) {
        bool as_mistake = equal(got[i], mistake[i], len[i], scale);
        bool as_want = equal(got[i], want[i], len[i], scale);
        if (!as_mistake && !as_want) return false;
        if (as_mistake && !equal(mistake[i], want[i], len[i], scale)) shows = true;
    }
    return shows;
}

bool lab_explained(int n, const double *const got[], const double *const want[],
                   const double *const mistake[], const size_t len[], double scale)
{
    return explained_by(lab_close, n, got, want, mistake, len, scale);
}

bool lab_same(double a, double b, double scale)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b)) return a == b;
    return fabs(a - b) <= LAB_ATOL * scale + LAB_RTOL * fabs(b);
}

bool lab_all_same(const double *a, const double *b, size_t n, double scale)
{
    for (size_t i = 0; i < n; i++)
        if (!lab_same(a[i], b[i], scale)) return false;
    return true;
}

bool lab_explained_same(int n, const double *const got[], const double *const want[],
                        const double *const mistake[], const size_t len[], double scale)
{
    return explained_by(lab_all_same, n, got, want, mistake, len, scale);
}

/* tolerance_text - the rule, as the messages state it */
static void tolerance_text(char *buf, size_t size, double scale)
{
    const char *got = EN_ES("got", "obtenido"), *exp = EN_ES("expected", "esperado");
    if (scale == 1.0)
        snprintf(buf, size, "|%s - %s| <= %g + %g |%s|", got, exp, LAB_ATOL, LAB_RTOL, exp);
    else
        snprintf(buf, size, "|%s - %s| <= %g * %.3g + %g |%s|", got, exp,
                 LAB_ATOL, scale, LAB_RTOL, exp);
}

/* mismatch - how got differs from want; wrong = 0 if it does not */
typedef struct {
    size_t wrong, first, nonfinite, first_nonfinite, unwritten, poison, huge;
    double max_abs, max_rel;
    bool summed;           /* every element is LAB_UNWRITTEN + want */
    bool poison_summed;    /* every wrong element is LAB_POISON + want */
} mismatch;

static mismatch compare(const lab_mat *got, const double *want, double scale)
{
    const double *g = got->p;
    mismatch d = { 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0, true, true };
    for (size_t i = 0; i < got->n; i++) {
        /* a non-finite value where one is expected (a NaN copied) is not news */
        if (!isfinite(g[i]) && !close1(g[i], want[i], scale) && d.nonfinite++ == 0)
            d.first_nonfinite = i;
        if (g[i] == LAB_UNWRITTEN) d.unwritten++;
        if (fabs(g[i] - LAB_POISON) < 1e4 && fabs(want[i] - LAB_POISON) >= 1e4) d.poison++;
        else if (isfinite(g[i]) && fabs(g[i]) >= 1e5 && fabs(want[i]) < 1e4) d.huge++;
        if (!close1(g[i] - LAB_UNWRITTEN, want[i], scale + LAB_UNWRITTEN)) d.summed = false;
        if (close1(g[i], want[i], scale)) continue;
        if (!close1(g[i] - LAB_POISON, want[i], scale + fabs(LAB_POISON))) d.poison_summed = false;
        if (d.wrong++ == 0) d.first = i;
        double err = fabs(g[i] - want[i]);
        if (!(err <= d.max_abs)) d.max_abs = err;    /* NaN wins */
        if (want[i] != 0 && !(err / fabs(want[i]) <= d.max_rel)) d.max_rel = err / fabs(want[i]);
    }
    return d;
}

/* names_text - "k and v": the wrong outputs other than the first */
static void names_text(char *buf, size_t size, int n, lab_mat *const got[],
                       const mismatch d[], int skip)
{
    int total = 0, k = 0, len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) total += d[i].wrong && i != skip;
    for (int i = 0; i < n; i++) {
        if (!d[i].wrong || i == skip) continue;
        k++;
        len += snprintf(buf + len, size - len, "%s%s",
                        k == 1 ? "" : k == total ? EN_ES(" and ", " y ") : ", ", got[i]->name);
    }
}

/* output_hints - what any output's mismatch can say about it */
static void output_hints(const lab_mat *m, const mismatch *e)
{
    if (e->summed && e->unwritten < m->n)
        lab_hint(EN_ES("%s holds the expected values plus %.10g, what the harness fills "
                       "outputs with: you added into %s without setting it to 0 first "
                       "(an output arrives with whatever was in that memory)",
                       "%s tiene los valores esperados más %.10g, con lo que el arnés "
                       "llena las salidas: sumaste sobre %s sin ponerla antes a 0 (una "
                       "salida llega con lo que hubiera en esa memoria)"),
                 m->name, LAB_UNWRITTEN, m->name);
    else if (e->unwritten == 1)
        lab_hint(EN_ES("1 element of %s was never written: it still holds %.10g, "
                       "what the harness fills outputs with before the call",
                       "1 elemento de %s no se escribió nunca: aún tiene %.10g, con lo "
                       "que el arnés llena las salidas antes de la llamada"),
                 m->name, LAB_UNWRITTEN);
    else if (e->unwritten)
        lab_hint(EN_ES("%zu elements of %s were never written: they still hold %.10g, "
                       "what the harness fills outputs with before the call",
                       "%zu elementos de %s no se escribieron nunca: aún tienen %.10g, "
                       "con lo que el arnés llena las salidas antes de la llamada"),
                 e->unwritten, m->name, LAB_UNWRITTEN);
    else if (e->poison_summed)
        lab_hint(EN_ES("the wrong elements of %s are the expected values plus %.10g, what "
                       "fresh memory from malloc holds under the harness: you added into "
                       "memory from malloc before setting it to 0 (malloc does not clear "
                       "memory; calloc does)",
                       "los elementos erróneos de %s son los valores esperados más %.10g, "
                       "lo que tiene la memoria recién pedida a malloc con el arnés: sumaste "
                       "sobre memoria de malloc antes de ponerla a 0 (malloc no la limpia; "
                       "calloc sí)"),
                 m->name, LAB_POISON);
    else if (e->poison)
        lab_hint(EN_ES("%zu elements of %s are near %.10g, what fresh memory from malloc "
                       "holds under the harness: your code read memory from malloc before "
                       "writing it (malloc does not clear memory; calloc does)",
                       "%zu elementos de %s están cerca de %.10g, lo que tiene la memoria "
                       "recién pedida a malloc con el arnés: tu código leyó memoria de "
                       "malloc antes de escribirla (malloc no la limpia; calloc sí)"),
                 e->poison, m->name, LAB_POISON);
    else if (e->huge)
        lab_hint(EN_ES("%zu of the elements of %s %s huge: your code probably read "
                       "outside an input (the harness surrounds every buffer with values "
                       "near %.10g)",
                       "%zu de los elementos de %s %s enormes: seguramente tu código leyó "
                       "fuera de una entrada (el arnés rodea cada búfer de valores "
                       "cercanos a %.10g)"),
                 e->huge, m->name, e->huge == 1 ? EN_ES("is", "es") : EN_ES("are", "son"),
                 LAB_GUARD);
}

/* ---- the matrices, side by side -------------------------------------------------------- */

#define SHOW 8                 /* rows and columns shown at most */

/* cell - one element as shown: [v] the first wrong one, v* another wrong one */
static int cell(char *buf, size_t size, double v, int mark, int width)
{
    char num[32];
    snprintf(num, sizeof num, "%.6g", v);
    return snprintf(buf, size, "%c%*s%c", mark == 1 ? '[' : ' ', width, num,
                    mark == 1 ? ']' : mark == 2 ? '*' : ' ');
}

/* view - the part of a matrix shown: rows r0 .. r0 + nr - 1, columns c0 .. c0 + nc - 1,
 * each number width wide, a row of text block wide (numbers and column separators) */
typedef struct {
    int r0, nr, c0, nc, width, block;
} view;

/* block_label - "head 2": block number b of a matrix of stacked heads, into buf */
static void block_label(char *buf, size_t size, int b)
{
    snprintf(buf, size, EN_ES("head %d", "cabeza %d"), b);
}

/* split_cols - a separator goes before column c of m (a new block of columns) */
static bool split_cols(const lab_mat *m, const view *v, int c)
{
    return m->block_cols > 0 && m->cols > m->block_cols && c > v->c0 && c % m->block_cols == 0;
}

/* make_view - the part of m shown around element first, at most max_rows rows (one_head:
 * rows of the head, block_rows, that holds it only) */
static view make_view(const lab_mat *m, const double *want, size_t first, int max_rows,
                      bool one_head)
{
    view v = { 0, m->rows < max_rows ? m->rows : max_rows, 0, m->cols < SHOW ? m->cols : SHOW,
               1, 0 };
    int fr = (int)(first / m->cols), fc = (int)(first % m->cols);
    if (fr >= v.nr) v.r0 = fr - v.nr / 2 < m->rows - v.nr ? fr - v.nr / 2 : m->rows - v.nr;
    if (one_head && m->block_rows > 0) {
        int top = fr - fr % m->block_rows, end = top + m->block_rows;
        v.r0 = fr - v.nr / 2 > top ? fr - v.nr / 2 : top;
        if (v.r0 + v.nr > end) v.r0 = end - v.nr > top ? end - v.nr : top;
        if (v.r0 + v.nr > end) v.nr = end - v.r0;
    }
    if (fc >= v.nc) v.c0 = fc - v.nc / 2 < m->cols - v.nc ? fc - v.nc / 2 : m->cols - v.nc;
    char num[32];
    for (int r = v.r0; r < v.r0 + v.nr; r++)
        for (int c = v.c0; c < v.c0 + v.nc; c++) {
            size_t i = (size_t)r * m->cols + c;
            int w1 = snprintf(num, sizeof num, "%.6g", want[i]);
            int w2 = snprintf(num, sizeof num, "%.6g", m->p[i]);
            if (w1 > v.width) v.width = w1;
            if (w2 > v.width) v.width = w2;
        }
    v.block = v.nc * (v.width + 2);
    for (int c = v.c0; c < v.c0 + v.nc; c++) v.block += split_cols(m, &v, c);
    return v;
}

/* cols_label - the line over blocks of columns: each block's label where it starts */
static void cols_label(char *buf, const lab_mat *m, const view *v)
{
    memset(buf, ' ', (size_t)v->block);
    buf[v->block] = '\0';
    int pos = 0;
    for (int c = v->c0; c < v->c0 + v->nc; c++) {
        pos += split_cols(m, v, c);
        if (c == v->c0 || c % m->block_cols == 0) {
            char label[32];
            block_label(label, sizeof label, c / m->block_cols);
            int cells = m->block_cols - c % m->block_cols;
            if (cells > v->c0 + v->nc - c) cells = v->c0 + v->nc - c;
            int room = cells * (v->width + 2) - 1, n = (int)strlen(label);
            memcpy(buf + pos + 1, label, (size_t)(n < room ? n : room));
        }
        pos += v->width + 2;
    }
}

/* matrix_row - row r of expected and got, side by side, appended to text at len */
static int matrix_row(char *text, size_t size, int len, const lab_mat *m, const double *want,
                      const view *v, size_t first, double scale, int r)
{
    char row[2][600];
    int l0 = 0, l1 = 0;
    for (int c = v->c0; c < v->c0 + v->nc; c++) {
        size_t i = (size_t)r * m->cols + c;
        int mark = i == first ? 1 : !close1(m->p[i], want[i], scale) ? 2 : 0;
        if (split_cols(m, v, c)) {
            l0 += snprintf(row[0] + l0, sizeof row[0] - l0, "|");
            l1 += snprintf(row[1] + l1, sizeof row[1] - l1, "|");
        }
        l0 += cell(row[0] + l0, sizeof row[0] - l0, want[i], mark == 1, v->width);
        l1 += cell(row[1] + l1, sizeof row[1] - l1, m->p[i], mark, v->width);
    }
    return len + snprintf(text + len, size - len, "\n%-*s    %s", v->block, row[0], row[1]);
}

/* show_matrices - intro (if any: then rows of one head only), then expected and got of m
 * around its first wrong element, at most max_rows rows; a stack of heads (block_rows,
 * block_cols) with its heads apart */
static void show_matrices(const char *intro, const lab_mat *m, const double *want,
                          size_t first, double scale, int max_rows)
{
    view v = make_view(m, want, first, max_rows, intro != NULL);
    char head[2][128];
    const char *part = v.r0 || v.c0 || v.nr < m->rows || v.nc < m->cols
                     ? EN_ES(", a part", ", una parte") : "";
    snprintf(head[0], sizeof head[0], EN_ES("expected %s (%d, %d)%s", "esperado %s (%d, %d)%s"),
             m->name, m->rows, m->cols, part);
    snprintf(head[1], sizeof head[1], EN_ES("got %s", "obtenido %s"), m->name);
    if (v.block < (int)strlen(head[0])) v.block = (int)strlen(head[0]);
    char text[8192];
    int len = snprintf(text, sizeof text, "%s%s%-*s    %s", intro ? intro : "",
                       intro ? "\n" : "", v.block, head[0], head[1]);
    if (m->block_cols > 0 && m->cols > m->block_cols && v.block < 500) {
        char label[512];
        cols_label(label, m, &v);
        int end = v.block;
        while (end > 0 && label[end - 1] == ' ') end--;
        len += snprintf(text + len, sizeof text - len, "\n%s    %.*s", label, end, label);
    }
    bool stacked = m->block_rows > 0 && m->rows > m->block_rows;
    for (int r = v.r0; r < v.r0 + v.nr && len < (int)sizeof text - 700; r++) {
        if (stacked && (r == v.r0 || r % m->block_rows == 0)) {
            char label[32];
            block_label(label, sizeof label, r / m->block_rows);
            len += snprintf(text + len, sizeof text - len, "\n%-*s    %s", v.block, label, label);
        }
        len = matrix_row(text, sizeof text, len, m, want, &v, first, scale, r);
    }
    lab_detail("%s", text);
}

bool lab_show_values(const char *intro, const lab_mat *got, const double *want, int max_rows)
{
    double scale = lab_scale(want, got->n);
    size_t first = 0;
    while (first < got->n && close1(got->p[first], want[first], scale)) first++;
    if (first == got->n) return false;
    show_matrices(intro, got, want, first, scale, max_rows > 0 ? max_rows : SHOW);
    return true;
}

/* ---- the value check ---------------------------------------------------------------- */

/* say_wrong - the failure's first line: output first (of n, n_wrong of them
 * wrong, d their mismatches) is wrong, or has a non-finite value where want
 * has another, and which others are wrong too */
static void say_wrong(int n, lab_mat *const got[], const mismatch d[], int first, int n_wrong,
                      const double *want)
{
    const lab_mat *m = got[first];
    char others[160], also[200] = "";
    names_text(others, sizeof others, n, got, d, first);
    if (n_wrong > 1)
        snprintf(also, sizeof also,
                 n_wrong == 2 ? EN_ES(" (%s is wrong too)", " (%s también está mal)")
                              : EN_ES(" (%s are wrong too)", " (%s también están mal)"),
                 others);
    if (!d[first].nonfinite) {
        lab_fail(EN_ES("%s is wrong%s", "%s está mal%s"), m->name, also);
        return;
    }
    size_t i = d[first].first_nonfinite;
    lab_fail(EN_ES("%s has %s at (%zu, %zu) (%zu non-finite of %zu elements); "
                   "expected %.10g there%s",
                   "%s tiene %s en (%zu, %zu) (%zu no finitos de %zu elementos); "
                   "se esperaba %.10g ahí%s"),
             m->name, isnan(m->p[i]) ? "NaN" : m->p[i] > 0 ? "+inf" : "-inf",
             i / m->cols, i % m->cols, d[first].nonfinite, m->n, want[i], also);
}

bool lab_check_values(mm_status status, int n, lab_mat *const got[],
                      const double *const want[], lab_diagnose *diagnose, void *ctx)
{
    if (!lab_expect_status(status, MM_OK, EN_ES("for valid arguments",
                                                "con argumentos válidos")))
        return false;
    if (n <= 0 || n > LAB_MAX_OUTPUTS) lab_bug("%d outputs to compare", n);
    double scale = 1.0;
    for (int i = 0; i < n; i++) scale = fmax(scale, lab_scale(want[i], got[i]->n));
    mismatch d[LAB_MAX_OUTPUTS];
    int first = -1, n_wrong = 0;
    for (int i = 0; i < n; i++) {
        d[i] = compare(got[i], want[i], scale);
        if (d[i].wrong && n_wrong++ == 0) first = i;
    }
    if (n_wrong == 0) return true;

    const lab_mat *m = got[first];
    const mismatch *e = &d[first];
    const double *g = m->p, *w = want[first];
    int c = m->cols;
    say_wrong(n, got, d, first, n_wrong, w);
    output_hints(m, e);
    if (diagnose) {
        const double *gp[LAB_MAX_OUTPUTS];
        for (int i = 0; i < n; i++) gp[i] = got[i]->p;
        diagnose(gp, want, scale, ctx);
    }
    /* the element the first line named is the one marked and described, so that
       the message gives one position for its error */
    size_t at = e->nonfinite ? e->first_nonfinite : e->first;
    bool first_wrong = at == e->first;
    show_matrices(NULL, m, w, at, scale, SHOW);
    char tol[128], rel[64] = "";
    tolerance_text(tol, sizeof tol, scale);
    if (e->max_rel > 0)
        snprintf(rel, sizeof rel, EN_ES(" (relative %.3g)", " (relativo %.3g)"), e->max_rel);
    lab_detail(EN_ES("%s (%zu, %zu): expected %.10g, got %.10g\n"
                     "%zu of %zu elements of %s (%d, %d) wrong; largest error %.3g%s; "
                     "tolerance %s",
                     "%s (%zu, %zu): se esperaba %.10g, se obtuvo %.10g\n"
                     "%zu de %zu elementos de %s (%d, %d) mal; mayor error %.3g%s; "
                     "tolerancia %s"),
               first_wrong ? EN_ES("first wrong element", "primer elemento erróneo")
                           : EN_ES("the non-finite element named above",
                                   "el elemento no finito nombrado arriba"),
               at / c, at % c, w[at], g[at],
               e->wrong, m->n, m->name, m->rows, m->cols, e->max_abs, rel, tol);
    return false;
}

/* verdict.c - what a check says: failures and hints (every failure starts
 * with the function and the case), statuses, the comparison of a learner's
 * outputs with the reference's, and lab_check_values, the value check that
 * every lab's checks end with. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* ---- failures and hints ------------------------------------------------------------ */

static void report(const char *prefix, const char *fmt, va_list ap)
{
    char msg[2048];
    int n = snprintf(msg, sizeof msg, "%s", prefix);
    vsnprintf(msg + n, sizeof msg - n, fmt, ap);
    cr_expect_fail("%s", msg);
}

void lab_fail(const char *fmt, ...)
{
    char prefix[400];
    snprintf(prefix, sizeof prefix, EN_ES("%s, case '%s': ", "%s, caso '%s': "),
             lab_fn(), lab_case_text());
    va_list ap;
    va_start(ap, fmt);
    report(prefix, fmt, ap);
    va_end(ap);
}

void lab_hint(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(EN_ES("hint: ", "pista: "), fmt, ap);
    va_end(ap);
}

/* ---- statuses ---------------------------------------------------------------------- */

bool lab_expect_status(mm_status got, mm_status want, const char *when)
{
    if (got == want) return true;
    const char *why = got != MM_OK ? mm_last_error() : "";
    lab_fail(EN_ES("returned %s (%d) %s; expected %s (%d)%s%s",
                   "devolvió %s (%d) %s; se esperaba %s (%d)%s%s"),
             mm_status_name(got), (int)got, when, mm_status_name(want), (int)want,
             why[0] ? EN_ES("; mm_last_error() says: ", "; mm_last_error() dice: ") : "",
             why);
    return false;
}

/* ---- comparisons ------------------------------------------------------------------- */

double lab_scale(const double *x, size_t n)
{
    double s = 1.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i]) > s) s = fabs(x[i]);
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

bool lab_explained(int n, const double *const got[], const double *const want[],
                   const double *const mistake[], const size_t len[], double scale)
{
    bool shows = false;
    for (int i = 0; i < n; i++) {
        bool as_mistake = lab_close(got[i], mistake[i], len[i], scale);
        bool as_want = lab_close(got[i], want[i], len[i], scale);
        if (!as_mistake && !as_want) return false;
        if (as_mistake && !lab_close(mistake[i], want[i], len[i], scale)) shows = true;
    }
    return shows;
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
    size_t wrong, first, nonfinite, first_nonfinite, unwritten, huge;
    double max_abs, max_rel;
    bool summed;           /* every element is LAB_UNWRITTEN + want */
} mismatch;

static mismatch compare(const lab_mat *got, const double *want, double scale)
{
    const double *g = got->p;
    mismatch d = { 0, 0, 0, 0, 0, 0, 0.0, 0.0, true };
    for (size_t i = 0; i < got->n; i++) {
        if (!isfinite(g[i]) && d.nonfinite++ == 0) d.first_nonfinite = i;
        if (g[i] == LAB_UNWRITTEN) d.unwritten++;
        if (fabs(g[i]) >= 1e5 && fabs(want[i]) < 1e4) d.huge++;
        if (!close1(g[i] - LAB_UNWRITTEN, want[i], scale + LAB_UNWRITTEN)) d.summed = false;
        if (close1(g[i], want[i], scale)) continue;
        if (d.wrong++ == 0) d.first = i;
        double err = fabs(g[i] - want[i]), rel = err / fmax(fabs(want[i]), 1e-300);
        if (!(err <= d.max_abs)) d.max_abs = err;    /* NaN wins */
        if (!(rel <= d.max_rel)) d.max_rel = rel;
    }
    return d;
}

/* also_text - " (k and v are wrong too)": the wrong outputs after the first */
static void also_text(char *buf, size_t size, int n, lab_mat *const got[],
                      const mismatch d[], int first, int n_wrong)
{
    buf[0] = '\0';
    if (n_wrong < 2) return;
    int len = snprintf(buf, size, " (");
    for (int i = first + 1, k = 1; i < n; i++) {
        if (!d[i].wrong) continue;
        k++;
        len += snprintf(buf + len, size - len, "%s%s",
                        k == 2 ? "" : k == n_wrong ? EN_ES(" and ", " y ") : ", ",
                        got[i]->name);
    }
    snprintf(buf + len, size - len, "%s", n_wrong == 2 ? EN_ES(" is wrong too)", " también está mal)")
                                                       : EN_ES(" are wrong too)", " también están mal)"));
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

bool lab_expect_mats(int n, lab_mat *const got[], const double *const want[], double scale)
{
    mismatch d[LAB_MAX_OUTPUTS];
    cr_assert(n > 0 && n <= LAB_MAX_OUTPUTS, "harness: %d outputs to compare", n);
    int first = -1, n_wrong = 0;
    for (int i = 0; i < n; i++) {
        d[i] = compare(got[i], want[i], scale);
        if (d[i].wrong && n_wrong++ == 0) first = i;
    }
    if (n_wrong == 0) return true;

    char also[160];
    also_text(also, sizeof also, n, got, d, first, n_wrong);
    const lab_mat *m = got[first];
    const mismatch *e = &d[first];
    const double *g = m->p, *w = want[first];
    int c = m->cols;
    if (e->nonfinite) {
        size_t i = e->first_nonfinite;
        lab_fail(EN_ES("%s has %s at (%zu, %zu) (%zu non-finite of %zu elements); "
                       "expected %.10g there%s",
                       "%s tiene %s en (%zu, %zu) (%zu no finitos de %zu elementos); "
                       "se esperaba %.10g ahí%s"),
                 m->name, isnan(g[i]) ? "NaN" : g[i] > 0 ? "+inf" : "-inf",
                 i / c, i % c, e->nonfinite, m->n, w[i], also);
        return false;
    }
    char tol[128];
    tolerance_text(tol, sizeof tol, scale);
    lab_fail(EN_ES("%s is wrong%s\n"
                   "first wrong element (%zu, %zu): expected %.10g, got %.10g\n"
                   "%zu of %zu elements of %s (%d, %d) wrong; largest error %.3g "
                   "(relative %.3g); tolerance %s",
                   "%s está mal%s\n"
                   "primer elemento erróneo (%zu, %zu): se esperaba %.10g, se obtuvo %.10g\n"
                   "%zu de %zu elementos de %s (%d, %d) mal; mayor error %.3g "
                   "(relativo %.3g); tolerancia %s"),
             m->name, also, e->first / c, e->first % c, w[e->first], g[e->first],
             e->wrong, m->n, m->name, m->rows, m->cols, e->max_abs, e->max_rel, tol);
    output_hints(m, e);
    return false;
}

bool lab_expect_mat(lab_mat *got, const double *want, double scale)
{
    return lab_expect_mats(1, &got, &want, scale);
}

/* ---- the value check ---------------------------------------------------------------- */

bool lab_check_values(mm_status status, int n, lab_mat *const got[],
                      const double *const want[], lab_diagnose *diagnose, void *ctx)
{
    if (!lab_expect_status(status, MM_OK, EN_ES("for valid arguments",
                                                "con argumentos válidos")))
        return false;
    cr_assert(n > 0 && n <= LAB_MAX_OUTPUTS, "harness: %d outputs to compare", n);
    double scale = 1.0;
    for (int i = 0; i < n; i++) scale = fmax(scale, lab_scale(want[i], got[i]->n));
    if (lab_expect_mats(n, got, want, scale)) return true;
    if (diagnose) {
        const double *g[LAB_MAX_OUTPUTS];
        for (int i = 0; i < n; i++) g[i] = got[i]->p;
        diagnose(g, want, scale, ctx);
    }
    return false;
}

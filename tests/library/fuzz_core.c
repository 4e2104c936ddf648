/* fuzz_core.c - the cases and the long-double references of fuzz_core.h. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_core.h"
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"

#define U 0x1p-53L                       /* unit roundoff of double */
enum { MAXT = 12, MAXD = 24 };

/* ---- random choices ------------------------------------------------------------ */

void fz_from_seed(fz_source *s, uint64_t seed) { memset(s, 0, sizeof *s); s->state = seed; }

void fz_from_bytes(fz_source *s, const uint8_t *data, size_t size)
{
    memset(s, 0, sizeof *s);
    s->data = data;
    s->size = size;
}

/* next - 64 bits: from the bytes while they last, then splitmix64 */
static uint64_t next(fz_source *s)
{
    if (s->pos + 8 <= s->size) {
        uint64_t x;
        memcpy(&x, s->data + s->pos, 8);
        s->pos += 8;
        return x;
    }
    uint64_t z = (s->state += 0x9E3779B97F4A7C15u);     /* Steele, Lea, Flood */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int pick(fz_source *s, int lo, int hi) { return lo + (int)(next(s) % (uint64_t)(hi - lo + 1)); }

/* value - a finite double: mostly ordinary, sometimes zero, tiny or huge */
static double value(fz_source *s, int exp_lo, int exp_hi)
{
    uint64_t r = next(s);
    if (r % 17 == 0) return 0.0;
    double m = 1.0 + (double)(r >> 12) * 0x1p-52;          /* [1, 2) */
    int e = exp_lo + (int)((r >> 4) % (uint64_t)(exp_hi - exp_lo + 1));
    return (r & 1 ? -1 : 1) * ldexp(m, e);
}

/* scale - the exponent range of a case: ordinary, wide, or near overflow */
static void scale(fz_source *s, int *lo, int *hi)
{
    switch (pick(s, 0, 5)) {
    case 0: *lo = -1060; *hi = -1000; break;                /* subnormal products */
    case 1: *lo = 500; *hi = 520; break;                    /* products overflow */
    case 2: *lo = -30; *hi = 30; break;
    default: *lo = -3; *hi = 2; break;
    }
}

static void fill(fz_source *s, double *a, int n, int lo, int hi)
{
    for (int i = 0; i < n; i++) a[i] = value(s, lo, hi);
}

/* ---- reporting ------------------------------------------------------------------ */

enum { N_KINDS = 18 };
static long n_cases[N_KINDS];
static const char *const kinds[N_KINDS] = { "mm_matmul", "qkv_project",
                                            "qkv_project_fused", "qkv_split",
                                            "qkv_attend_unscaled", "attention_param_count",
                                            "mm_fill_normal", "attention_init_weights",
                                            "softmax_row", "sdpa", "mha_split_heads",
                                            "mha_forward", "mha_forward_causal",
                                            "masks", "softmax_online", "sdpa_causal_tiled",
                                            "mha_forward_tiled", "mha_decode_step" };

const char *fz_counts(void)
{
    static char text[768];
    size_t len = 0;
    for (int i = 0; i < N_KINDS; i++)
        len += snprintf(text + len, sizeof text - len, "%s%s %ld", i ? ", " : "",
                        kinds[i], n_cases[i]);
    return text;
}

static char *why_buf;
static size_t why_len;
static const char *fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why_buf, why_len, fmt, ap);
    va_end(ap);
    return why_buf;
}

/* ---- products -------------------------------------------------------------------- */

/* check_product - c (n, m) against sum_p a[i][p] b[p][j] (or b[j][p]) */
static const char *check_product(const char *what, mm_status st, const double *c,
                                 const double *a, const double *b, int n, int k, int m,
                                 int bt)
{
    long double worst = 0;                   /* largest sum |a b| of an element */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            long double r = 0, abs_sum = 0;
            for (int p = 0; p < k; p++) {
                long double t = (long double)a[i * k + p] * (bt ? b[j * k + p] : b[p * m + j]);
                r += t;
                abs_sum += fabsl(t);
            }
            if (abs_sum > worst) worst = abs_sum;
            long double bound = (k + 2) * U * abs_sum + 0x1p-1070L * k;
            if (st == MM_OK && !(fabsl(c[i * m + j] - r) <= bound))
                return fail("%s: element [%d][%d] is %.17g, reference %.20Lg, error "
                            "beyond (k + 2) u sum|a b| = %Lg (n %d, k %d, m %d)", what,
                            i, j, c[i * m + j], r, bound, n, k, m);
        }
    long double edge = DBL_MAX * (1 - 2 * (k + 2) * U);
    if (st == MM_ERANGE && worst < edge)
        return fail("%s: MM_ERANGE, but the largest sum |a b| is %Lg < DBL_MAX", what, worst);
    if (st != MM_OK && st != MM_ERANGE)
        return fail("%s: returned %s on valid arguments: %s", what, mm_status_name(st),
                    mm_last_error());
    if (st != MM_OK && worst < DBL_MAX / 2)
        return fail("%s: %s on values far from overflow: %s", what, mm_status_name(st),
                    mm_last_error());
    return NULL;
}

/* abs_sum - the largest sum_p |a[i][p] b[p][j]| of a product */
static long double abs_sum(const double *a, const double *b, int n, int k, int m)
{
    long double worst = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            long double t = 0;
            for (int p = 0; p < k; p++) t += fabsl((long double)a[i * k + p] * b[p * m + j]);
            if (t > worst) worst = t;
        }
    return worst;
}

static const char *case_matmul(fz_source *s)
{
    int n = pick(s, 1, MAXT), k = pick(s, 1, MAXD), m = pick(s, 1, MAXD), bt = pick(s, 0, 1);
    int lo, hi;
    double a[MAXT * MAXD], b[MAXD * MAXD], c[MAXT * MAXD];
    scale(s, &lo, &hi);
    fill(s, a, n * k, lo, hi);
    fill(s, b, k * m, lo, hi);
    mm_status st = mm_matmul(c, a, b, n, k, m, bt);
    return check_product(bt ? "mm_matmul (b transposed)" : "mm_matmul", st, c, a, b,
                         n, k, m, bt);
}

/* project_case - shapes and inputs of a projection */
typedef struct {
    int T, d, d_k, d_v;
    double x[MAXT * MAXD], w_q[MAXD * MAXD], w_k[MAXD * MAXD], w_v[MAXD * MAXD];
} project_case;

static void make_project(fz_source *s, project_case *p)
{
    int lo, hi;
    p->T = pick(s, 1, MAXT); p->d = pick(s, 1, MAXD);
    p->d_k = pick(s, 1, 8); p->d_v = pick(s, 1, 8);
    scale(s, &lo, &hi);
    fill(s, p->x, p->T * p->d, lo, hi);
    fill(s, p->w_q, p->d * p->d_k, lo, hi);
    fill(s, p->w_k, p->d * p->d_k, lo, hi);
    fill(s, p->w_v, p->d * p->d_v, lo, hi);
}

static const char *case_project(fz_source *s)
{
    static project_case p;
    double q[MAXT * 8], k[MAXT * 8], v[MAXT * 8];
    make_project(s, &p);
    mm_status st = qkv_project(q, k, v, p.x, p.w_q, p.w_k, p.w_v, p.T, p.d, p.d_k, p.d_v);
    if (st == MM_ERANGE) {                     /* one of the three reached the edge */
        long double worst = fmaxl(abs_sum(p.x, p.w_q, p.T, p.d, p.d_k),
                                  fmaxl(abs_sum(p.x, p.w_k, p.T, p.d, p.d_k),
                                        abs_sum(p.x, p.w_v, p.T, p.d, p.d_v)));
        if (worst < DBL_MAX * (1 - 2 * (p.d + 2) * U))
            return fail("qkv_project: MM_ERANGE far from overflow: %s", mm_last_error());
        return NULL;
    }
    const char *bad;
    if ((bad = check_product("qkv_project Q", st, q, p.x, p.w_q, p.T, p.d, p.d_k, 0))) return bad;
    if ((bad = check_product("qkv_project K", st, k, p.x, p.w_k, p.T, p.d, p.d_k, 0))) return bad;
    return check_product("qkv_project V", st, v, p.x, p.w_v, p.T, p.d, p.d_v, 0);
}

/* same_products - a and b (n) are the same product computed with other shapes
 * (fused vs separate, a prefix vs the whole): bit for bit with the readable
 * loops, which sum every element in the same order; with OpenBLAS (make
 * BLAS=openblas), whose kernels may sum in an order that depends on the
 * shape, within 1e-12 of the largest magnitude */
static int same_products(const double *a, const double *b, size_t n)
{
#ifdef MM_BLAS_OPENBLAS
    double big = 1.0;
    for (size_t i = 0; i < n; i++) if (fabs(b[i]) > big) big = fabs(b[i]);
    for (size_t i = 0; i < n; i++)
        if (!(fabs(a[i] - b[i]) <= 1e-12 * big)) return 0;
    return 1;
#else
    return memcmp(a, b, n * sizeof *a) == 0;
#endif
}

static const char *case_fused(fz_source *s)
{
    static project_case p;
    double q1[MAXT * 8], k1[MAXT * 8], v1[MAXT * 8], q2[MAXT * 8], k2[MAXT * 8], v2[MAXT * 8];
    double w_qkv[MAXD * 24], qkv[MAXT * 24];
    make_project(s, &p);
    int d_qkv = 2 * p.d_k + p.d_v;
    if (qkv_pack(w_qkv, p.w_q, p.w_k, p.w_v, p.d, p.d_k, p.d_v) != MM_OK)
        return fail("qkv_pack failed on valid arguments: %s", mm_last_error());
    for (int r = 0; r < p.d; r++)                          /* the blocks, exactly */
        for (int c = 0; c < d_qkv; c++) {
            double want = c < p.d_k ? p.w_q[r * p.d_k + c]
                        : c < 2 * p.d_k ? p.w_k[r * p.d_k + c - p.d_k]
                        : p.w_v[r * p.d_v + c - 2 * p.d_k];
            if (memcmp(&want, &w_qkv[r * d_qkv + c], sizeof want))
                return fail("qkv_pack: w_qkv[%d][%d] is %g, expected %g", r, c,
                            w_qkv[r * d_qkv + c], want);
        }
    mm_status s1 = qkv_project(q1, k1, v1, p.x, p.w_q, p.w_k, p.w_v, p.T, p.d, p.d_k, p.d_v);
    mm_status s2 = qkv_project_fused(q2, k2, v2, qkv, p.x, w_qkv, p.T, p.d, p.d_k, p.d_v);
    const char *bad = check_product("qkv_project_fused QKV", s2, qkv, p.x, w_qkv, p.T, p.d,
                                    d_qkv, 0);
    if (bad) return bad;
    if ((s1 == MM_OK) != (s2 == MM_OK))
        return fail("qkv_project returned %s but qkv_project_fused %s", mm_status_name(s1),
                    mm_status_name(s2));
    if (s1 == MM_OK && (!same_products(q1, q2, (size_t)p.T * p.d_k) ||
                        !same_products(k1, k2, (size_t)p.T * p.d_k) ||
                        !same_products(v1, v2, (size_t)p.T * p.d_v)))
        return fail("qkv_project_fused differs from qkv_project (T %d, d %d, d_k %d, "
                    "d_v %d): the chapter says they agree bit for bit (with the readable "
                    "product)", p.T, p.d, p.d_k, p.d_v);
    return NULL;
}

static const char *case_split(fz_source *s)
{
    int T = pick(s, 1, MAXT), d_k = pick(s, 1, 8), d_v = pick(s, 1, 8), d_qkv = 2 * d_k + d_v;
    double qkv[MAXT * 24], q[MAXT * 8], k[MAXT * 8], v[MAXT * 8];
    fill(s, qkv, T * d_qkv, -1074, 1023);
    if (qkv_split(q, k, v, qkv, T, d_k, d_v) != MM_OK)
        return fail("qkv_split failed on valid arguments: %s", mm_last_error());
    for (int t = 0; t < T; t++)
        for (int c = 0; c < d_qkv; c++) {
            const double *got = c < d_k ? &q[t * d_k + c] : c < 2 * d_k ? &k[t * d_k + c - d_k]
                              : &v[t * d_v + c - 2 * d_k];
            if (memcmp(got, &qkv[t * d_qkv + c], sizeof *got))
                return fail("qkv_split: row %d, column %d of qkv not copied exactly", t, c);
        }
    return NULL;
}

/* ---- the plain attention ------------------------------------------------------------ */

static const char *case_attend(fz_source *s)
{
    int T = pick(s, 1, MAXT), d_k = pick(s, 1, 8), d_v = pick(s, 1, 8), lo, hi;
    double q[MAXT * 8], k[MAXT * 8], v[MAXT * 8], w[MAXT * MAXT], out[MAXT * 8];
    switch (pick(s, 0, 3)) {                    /* scores of size about 2^(2 e) */
    case 0: lo = 3; hi = 5; break;              /* past 709: overflow and underflow */
    case 1: lo = 255; hi = 520; break;          /* the scores themselves overflow */
    default: lo = -4; hi = 2; break;
    }
    fill(s, q, T * d_k, lo, hi);
    fill(s, k, T * d_k, lo, hi);
    fill(s, v, T * d_v, -3, pick(s, 0, 1) ? 3 : 1020);
    mm_status st = qkv_attend_unscaled(out, w, q, k, v, T, d_k, d_v);
    int danger = 0;
    for (int i = 0; i < T; i++) {
        long double sc[MAXT], E = 0, max = -INFINITY, sum = 0, tolw[MAXT], wr[MAXT];
        for (int j = 0; j < T; j++) {
            long double r = 0, a = 0;
            for (int p = 0; p < d_k; p++) {
                long double t = (long double)q[i * d_k + p] * k[j * d_k + p];
                r += t; a += fabsl(t);
            }
            sc[j] = r;
            if ((d_k + 2) * U * a > E) E = (d_k + 2) * U * a;
            if (a >= DBL_MAX / 4) danger = 1;
            if (r > max) max = r;
        }
        for (int j = 0; j < T; j++) sum += expl(sc[j]);
        if (max > 700 || max < -700 || sum >= DBL_MAX / 4 || E > 1e-3) { danger = 1; continue; }
        for (int j = 0; j < T; j++) {
            wr[j] = expl(sc[j]) / sum;
            tolw[j] = wr[j] * (2.5L * E + (T + 8) * U)       /* exp below 2^-1022 */
                    + (T + 1) * 0x1p-1074L / sum + 0x1p-1020L;   /* keeps 2^-1074 */
            if (st == MM_OK && !(fabsl(w[i * T + j] - wr[j]) <= tolw[j]))
                return fail("qkv_attend_unscaled: weight [%d][%d] is %.17g, reference "
                            "%.20Lg, error beyond the bound %Lg (T %d, d_k %d)", i, j,
                            w[i * T + j], wr[j], tolw[j], T, d_k);
        }
        for (int c = 0; c < d_v; c++) {
            long double r = 0, bound = 0x1p-1020L;
            for (int j = 0; j < T; j++) {
                r += wr[j] * v[j * d_v + c];
                bound += (tolw[j] + (T + 2) * U * wr[j]) * fabsl((long double)v[j * d_v + c]);
            }
            if (fabsl(r) >= DBL_MAX / 4 || bound >= DBL_MAX / 4) { danger = 1; continue; }
            if (st == MM_OK && !(fabsl(out[i * d_v + c] - r) <= bound))
                return fail("qkv_attend_unscaled: out[%d][%d] is %.17g, reference %.20Lg, "
                            "error beyond the bound %Lg (T %d, d_k %d, d_v %d)", i, c,
                            out[i * d_v + c], r, bound, T, d_k, d_v);
        }
    }
    if (st == MM_OK)
        for (int i = 0; i < T * d_v; i++)
            if (!isfinite(out[i])) return fail("qkv_attend_unscaled: MM_OK but out[%d] = %g", i, out[i]);
    if (st != MM_OK && (st != MM_ERANGE || !danger))
        return fail("qkv_attend_unscaled: %s with every row far from the limits: %s",
                    mm_status_name(st), mm_last_error());
    return NULL;
}

/* ---- the count and the generator --------------------------------------------------- */

static const char *case_count(fz_source *s)
{
    int d = pick(s, 0, 1) ? pick(s, 1, 4096) : (int)(next(s) % INT_MAX) + 1;
    int h = pick(s, 0, 3) ? pick(s, 1, 16) : pick(s, 1, INT_MAX);
    long got = -7;
    mm_status st = attention_param_count(&got, d, h);
    long double want = 4.0L * d * d;              /* exact: below 2^64 */
    mm_status want_st = d % h ? MM_EINVAL : want > (long double)LONG_MAX ? MM_ERANGE : MM_OK;
    if (st != want_st)
        return fail("attention_param_count(%d, %d) returned %s, expected %s", d, h,
                    mm_status_name(st), mm_status_name(want_st));
    if (st == MM_OK && (long double)got != want)
        return fail("attention_param_count(%d, %d) = %ld, expected 4 d^2", d, h, got);
    if (st != MM_OK && got != -7) return fail("attention_param_count changed *count on failure");
    return NULL;
}

/* ref_normal - splitmix64 and the polar method, written from their papers */
static long double ref_normal(uint64_t *state, long double *spare, int *has)
{
    if (*has) { *has = 0; return *spare; }
    double u, v, s;
    do {
        uint64_t z1 = (*state += 0x9E3779B97F4A7C15u);
        z1 = (z1 ^ (z1 >> 30)) * 0xBF58476D1CE4E5B9u;
        z1 = (z1 ^ (z1 >> 27)) * 0x94D049BB133111EBu;
        z1 ^= z1 >> 31;
        uint64_t z2 = (*state += 0x9E3779B97F4A7C15u);
        z2 = (z2 ^ (z2 >> 30)) * 0xBF58476D1CE4E5B9u;
        z2 = (z2 ^ (z2 >> 27)) * 0x94D049BB133111EBu;
        z2 ^= z2 >> 31;
        u = 2.0 * ldexp((double)(z1 >> 11), -53) - 1.0;
        v = 2.0 * ldexp((double)(z2 >> 11), -53) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    long double f = sqrtl(-2.0L * logl(s) / s);
    *spare = v * f;
    *has = 1;
    return u * f;
}

static const char *case_fill(fz_source *s)
{
    double w[256];
    int n = pick(s, 1, 256);
    double std = pick(s, 0, 3) ? value(s, -10, 10) : pick(s, 0, 1) ? MM_STD_MAX : 0.0;
    std = fabs(std);
    uint64_t seed = next(s), state = seed;
    mm_rng r;
    mm_rng_seed(&r, seed);
    if (mm_fill_normal(w, n, std, &r) != MM_OK)
        return fail("mm_fill_normal(n %d, std %g) failed: %s", n, std, mm_last_error());
    long double spare = 0;
    int has = 0;
    for (int i = 0; i < n; i++) {
        long double z = ref_normal(&state, &spare, &has), want = std * z;
        if (!isfinite(w[i]) || fabsl(z) >= MM_NORMAL_BOUND)
            return fail("mm_fill_normal: draw %d is %g (std %g), beyond the bound", i, w[i], std);
        if (!(fabsl(w[i] - want) <= 16 * U * fabsl(want) + 0x1p-1070L))
            return fail("mm_fill_normal(seed %llu): draw %d is %.17g, reference %.20Lg",
                        (unsigned long long)seed, i, w[i], want);
    }
    return NULL;
}

static const char *case_init(fz_source *s)
{
    int d = pick(s, 1, 12);
    uint64_t seed = next(s), state = seed;
    double w[4][144];
    if (attention_init_weights(w[0], w[1], w[2], w[3], d, seed) != MM_OK)
        return fail("attention_init_weights(%d) failed: %s", d, mm_last_error());
    long double spare = 0;
    int has = 0;
    for (int m = 0; m < 4; m++)
        for (int i = 0; i < d * d; i++) {
            long double want = (long double)MM_INIT_STD * ref_normal(&state, &spare, &has);
            if (!(fabsl(w[m][i] - want) <= 16 * U * fabsl(want)))
                return fail("attention_init_weights(seed %llu): matrix %d, element %d is "
                            "%.17g, reference %.20Lg", (unsigned long long)seed, m, i,
                            w[m][i], want);
        }
    return NULL;
}

/* ---- chapter 02: the stable softmax and sdpa ------------------------------------------ */

/* ref_softmax - w (n) = exp(sc - max) / sum exp(sc - max) in long double, the
 * scores sc finite or -inf; a row of -inf only gives zeros. Returns max. */
static long double ref_softmax(long double *w, const long double *sc, int n)
{
    long double max = -INFINITY, sum = 0;
    for (int j = 0; j < n; j++) if (sc[j] > max) max = sc[j];
    for (int j = 0; j < n; j++) {
        w[j] = max == -INFINITY || sc[j] == -INFINITY ? 0 : expl(sc[j] - max);
        sum += w[j];
    }
    for (int j = 0; sum > 0 && j < n; j++) w[j] /= sum;
    return max;
}

/* softmax_tol - the bound on |w - r| of a weight r whose score sc (error up
 * to E) is d = |sc - max| below the row's maximum, in a row of n: the
 * rounding of the difference (u d), of exp, the sum and the division
 * ((n + 8) u), each doubled for a long-double reference that valgrind
 * computes in double; subnormal exponentials keep only 2^-1074. A sum
 * built online (chapter 05) is rescaled `rescales` times by a rounded
 * alpha = exp(m - m'), and each rescaling rounds twice, the exponential
 * and the product: 2 u more per rescaling, n + 2 rescales in place of n */
static long double softmax_tol(long double r, long double d, long double E, int n,
                               int rescales)
{
    long double rel = r == 0 ? 0 : r * (2.5L * E + 2 * U * (d + 2 * E) +
                                        2 * (n + 2 * rescales + 8) * U);
    return rel + 2 * (n + 2) * 0x1p-1074L + 0x1p-1020L;
}

/* softmax_scores - a row of n scores: ordinary, past exp's range, near
 * DBL_MAX or subnormal, some keys hidden (-inf), sometimes all of them */
static void softmax_scores(fz_source *s, double *row, int n)
{
    int lo, hi;
    switch (pick(s, 0, 4)) {
    case 0: lo = 3; hi = 12; break;             /* past exp's range: 0 weights */
    case 1: lo = 1000; hi = 1023; break;        /* s - max can overflow to -inf */
    case 2: lo = -1074; hi = -1000; break;      /* subnormal scores: uniform */
    default: lo = -3; hi = 3; break;
    }
    fill(s, row, n, lo, hi);
    int hide = pick(s, 0, 9);                   /* 0: every key hidden */
    for (int j = 0; j < n; j++)
        if (hide == 0 || (hide < 4 && next(s) % 4 == 0)) row[j] = -INFINITY;
}

static const char *case_softmax(fz_source *s)
{
    int n = pick(s, 1, 64);
    double row[64], w[64];
    long double sc[64] = { 0 }, wr[64];
    softmax_scores(s, row, n);
    memcpy(w, row, sizeof(double) * n);
    mm_status st = softmax_row(w, n);
    if (st != MM_OK)
        return fail("softmax_row (n %d) refused finite or -inf scores: %s", n, mm_last_error());
    for (int j = 0; j < n; j++) sc[j] = row[j];
    long double max = ref_softmax(wr, sc, n), sum = 0;
    for (int j = 0; j < n; j++) {
        sum += w[j];
        if (row[j] == -INFINITY && w[j] != 0)
            return fail("softmax_row: key %d of %d is hidden (-inf) but has weight %g", j, n, w[j]);
        if (max == -INFINITY) continue;
        long double tol = softmax_tol(wr[j], fabsl(sc[j] - max), 0, n, 0);
        if (!(fabsl(w[j] - wr[j]) <= tol))
            return fail("softmax_row: weight %d of %d is %.17g, reference %.20Lg, error "
                        "beyond the bound %Lg (score %g, max %Lg)", j, n, w[j], wr[j], tol,
                        row[j], max);
    }
    if (max != -INFINITY && !(fabsl(sum - 1) <= 2 * (n + 2) * U))
        return fail("softmax_row: the %d weights sum to 1 %+Lg", n, sum - 1);
    return NULL;
}

/* case_softmax_online - chapter 05's softmax_online on the rows of
 * case_softmax, in blocks of 1 to n + 3 (b = ceil(n / block) blocks). The
 * chapter's bound is chapter 02's with n + 2b in place of n: the running
 * sum l is rescaled once per block by alpha = exp(m_b - m'), rounded
 * twice (the exponential, the product), hence softmax_tol's `rescales` =
 * b. The difference s - m is rounded twice as well: a term of l is
 * exp(s - m_b) (rounding u (m_b - s)) times the alphas of the later
 * blocks, whose arguments m_b - m' are rounded too, u (m - m_b) in all
 * since the maxima only grow; together u (m - s) = u d, chapter 02's
 * rounding of the one difference s - m, and a term of size e^-d carries
 * u d e^-d <= u / e, inside the (n + 8) u of the sum as in chapter 02.
 * Each weight's own exponential is exp(s - m) with the final m, rounded
 * once, chapter 02's u d. Hidden keys weigh exactly 0, a row of them
 * gives zeros, and the weights sum to 1 within 2 (n + 2b + 2) u. */
static const char *case_softmax_online(fz_source *s)
{
    int n = pick(s, 1, 64), block = pick(s, 1, n + 3), b = (n + block - 1) / block;
    double row[64], w[64];
    long double sc[64] = { 0 }, wr[64];
    softmax_scores(s, row, n);
    memcpy(w, row, sizeof(double) * n);
    mm_status st = softmax_online(w, n, block);
    if (st != MM_OK)
        return fail("softmax_online (n %d, block %d) refused finite or -inf scores: %s", n,
                    block, mm_last_error());
    for (int j = 0; j < n; j++) sc[j] = row[j];
    long double max = ref_softmax(wr, sc, n), sum = 0;
    for (int j = 0; j < n; j++) {
        sum += w[j];
        if (row[j] == -INFINITY && w[j] != 0)
            return fail("softmax_online (n %d, block %d): key %d is hidden (-inf) but has "
                        "weight %g", n, block, j, w[j]);
        if (max == -INFINITY) continue;
        long double tol = softmax_tol(wr[j], fabsl(sc[j] - max), 0, n, b);
        if (!(fabsl(w[j] - wr[j]) <= tol))
            return fail("softmax_online (n %d, block %d): weight %d is %.17g, reference "
                        "%.20Lg, error beyond the bound %Lg (score %g, max %Lg); look first "
                        "at the rescaling of the sum by alpha when the maximum grows", n,
                        block, j, w[j], wr[j], tol, row[j], max);
    }
    if (max != -INFINITY && !(fabsl(sum - 1) <= 2 * (n + 2 * b + 2) * U))
        return fail("softmax_online (n %d, block %d): the weights sum to 1 %+Lg", n, block,
                    sum - 1);
    return NULL;
}

/* case_sdpa - random T_q, T_k, d_k, d_v (the T's and the d's independent), q
 * and k from ordinary to overflowing, v up to 2^1020, and a bias: none,
 * ordinary, large (peaked weights) or near DBL_MAX, with some keys and some
 * whole rows hidden by -inf. The score of (i, j) is exact up to
 * E = 2 (d_k + 8) u A / sqrt d_k + 4 u |score| (A = sum_p |q_ip k_jp|; the
 * dot product, the scale, the bias, doubled for valgrind); the weights then
 * satisfy softmax_tol and out the weights' bound plus its own sums.
 * Rows within a quarter of DBL_MAX of overflow (a dot product, a score plus
 * its bias, an output) may give MM_ERANGE (named after sdpa); rows whose
 * score errors pass 1e-3 are only required to stay finite. The call with
 * weights NULL must give the same status and the same bits of out. */
static const char *case_sdpa(fz_source *s)
{
    int T_q = pick(s, 1, MAXT), T_k = pick(s, 1, MAXT), d_k = pick(s, 1, 8);
    int d_v = pick(s, 1, 8), lo, hi;
    double q[MAXT * 8], k[MAXT * 8], v[MAXT * 8], bias[MAXT * MAXT], w[MAXT * MAXT];
    double out[MAXT * 8], out2[MAXT * 8];
    switch (pick(s, 0, 4)) {
    case 0: lo = 3; hi = 6; break;              /* scores past exp's range */
    case 1: lo = 255; hi = 520; break;          /* the scores themselves overflow */
    case 2: lo = -540; hi = -500; break;        /* subnormal products */
    default: lo = -4; hi = 2; break;
    }
    fill(s, q, T_q * d_k, lo, hi);
    fill(s, k, T_k * d_k, lo, hi);
    fill(s, v, T_k * d_v, -3, pick(s, 0, 1) ? 3 : 1020);
    int bias_kind = pick(s, 0, 4);              /* 0: no bias */
    switch (bias_kind) {
    case 1: lo = -4; hi = 3; break;
    case 2: lo = 8; hi = 11; break;             /* up to 4096: peaked weights */
    case 3: lo = 1015; hi = 1023; break;        /* score + bias can overflow */
    default: lo = -1; hi = 1; break;
    }
    fill(s, bias, T_q * T_k, lo, hi);
    for (int i = 0; i < T_q; i++) {
        int hide = pick(s, 0, 7);               /* 0: the row sees no key */
        for (int j = 0; j < T_k; j++)
            if (hide == 0 || (hide < 4 && next(s) % 4 == 0)) bias[i * T_k + j] = -INFINITY;
    }
    const double *b = bias_kind ? bias : NULL;
    mm_status st = sdpa(out, w, q, k, v, b, T_q, T_k, d_k, d_v);
    mm_status st2 = sdpa(out2, NULL, q, k, v, b, T_q, T_k, d_k, d_v);
    char shape[96];
    snprintf(shape, sizeof shape, "T_q %d, T_k %d, d_k %d, d_v %d, bias %d", T_q, T_k,
             d_k, d_v, bias_kind);
    if (st != st2)
        return fail("sdpa (%s): %s with weights, %s with weights NULL", shape,
                    mm_status_name(st), mm_status_name(st2));
    if (st == MM_OK && memcmp(out, out2, sizeof(double) * T_q * d_v))
        return fail("sdpa (%s): out differs with weights NULL", shape);
    if (st != MM_OK && strncmp(mm_last_error(), "sdpa: ", 6))
        return fail("sdpa (%s): %s, but the message \"%s\" does not name sdpa", shape,
                    mm_status_name(st), mm_last_error());
    int danger = 0;
    for (int i = 0; i < T_q; i++) {
        long double sc[MAXT], wr[MAXT], tolw[MAXT], E = 0;
        int row_danger = 0;
        for (int j = 0; j < T_k; j++) {
            long double dot = 0, A = 0;
            for (int p = 0; p < d_k; p++) {
                long double t = (long double)q[i * d_k + p] * k[j * d_k + p];
                dot += t;
                A += fabsl(t);
            }
            long double scaled = dot / sqrtl(d_k), bij = b ? b[i * T_k + j] : 0;
            if (A >= DBL_MAX / 4 || fabsl(scaled) + (isinf(bij) ? 0 : fabsl(bij)) >= DBL_MAX / 4)
                row_danger = 1;
            sc[j] = scaled + bij;
            if (sc[j] == -INFINITY) continue;
            long double Ej = 2 * (d_k + 8) * U * A / sqrtl(d_k) + 4 * U * fabsl(sc[j])
                           + (d_k + 4) * 0x1p-1074L;
            if (Ej > E) E = Ej;
        }
        if (row_danger) { danger = 1; continue; }
        if (E > 1e-3) continue;
        long double max = ref_softmax(wr, sc, T_k);
        for (int j = 0; j < T_k; j++) {
            tolw[j] = max == -INFINITY ? 0 : softmax_tol(wr[j], fabsl(sc[j] - max), E, T_k, 0);
            if (st != MM_OK) continue;
            double got = w[i * T_k + j];
            if (sc[j] == -INFINITY && got != 0)
                return fail("sdpa (%s): key %d is hidden from query %d (bias -inf) but has "
                            "weight %g", shape, j, i, got);
            if (!(fabsl(got - wr[j]) <= tolw[j]))
                return fail("sdpa (%s): weight [%d][%d] is %.17g, reference %.20Lg, error "
                            "beyond the bound %Lg", shape, i, j, got, wr[j], tolw[j]);
        }
        for (int c = 0; c < d_v; c++) {
            long double r = 0, bound = 0x1p-1020L;
            for (int j = 0; j < T_k; j++) {
                r += wr[j] * v[j * d_v + c];
                bound += (tolw[j] + 2 * (T_k + 2) * U * wr[j]) * fabsl((long double)v[j * d_v + c]);
            }
            if (fabsl(r) >= DBL_MAX / 4 || bound >= DBL_MAX / 4) { danger = 1; continue; }
            if (st != MM_OK) continue;
            double got = out[i * d_v + c];
            if (max == -INFINITY && got != 0)
                return fail("sdpa (%s): query %d sees no key, but out[%d][%d] is %g, not 0",
                            shape, i, i, c, got);
            if (!(fabsl(got - r) <= bound))
                return fail("sdpa (%s): out[%d][%d] is %.17g, reference %.20Lg, error beyond "
                            "the bound %Lg", shape, i, c, got, r, bound);
        }
    }
    if (st == MM_OK) {
        for (int i = 0; i < T_q * d_v; i++)
            if (!isfinite(out[i])) return fail("sdpa (%s): MM_OK but out[%d] = %g", shape, i, out[i]);
        for (int i = 0; i < T_q * T_k; i++)
            if (!(w[i] >= 0 && w[i] <= 1))
                return fail("sdpa (%s): MM_OK but weight %d = %g", shape, i, w[i]);
    }
    if (st != MM_OK && (st != MM_ERANGE || !danger))
        return fail("sdpa (%s): %s with every row far from the limits: %s", shape,
                    mm_status_name(st), mm_last_error());
    return NULL;
}

/* ---- chapter 05: attention in tiles, the key/value cache ------------------------------ */

/* tiled_case - the inputs and output of one call of sdpa_causal_tiled */
typedef struct {
    int T, d_k, d_v, bq, bk, kind;
    double q[MAXT * 8], k[MAXT * 8], v[MAXT * 8], out[MAXT * 8];
    char shape[96];
} tiled_case;

/* tiled_inputs - q, k, v in the ranges of case_sdpa (kinds 0 to 4), or,
 * kind 5, keys from token p on near DBL_MAX: the queries before p (8 to 32)
 * never see them, but their products with them pass DBL_MAX, above the
 * diagonal only; the queries from p on are tiny, so what they see stays
 * finite. A hidden key's overflowing score must not give MM_ERANGE. */
static void tiled_inputs(fz_source *s, tiled_case *t)
{
    int lo, hi, T = t->T;
    t->kind = pick(s, 0, 5);
    switch (t->kind) {
    case 0: lo = 3; hi = 6; break;              /* scores past exp's range */
    case 1: lo = 255; hi = 520; break;          /* the scores themselves overflow */
    case 2: lo = -540; hi = -500; break;        /* subnormal products */
    default: lo = -4; hi = 2; break;
    }
    fill(s, t->q, T * t->d_k, lo, hi);
    fill(s, t->k, T * t->d_k, lo, hi);
    fill(s, t->v, T * t->d_v, -3, pick(s, 0, 1) ? 3 : 1020);
    if (pick(s, 0, 5) == 0)                     /* values near DBL_MAX / 8, all > 0 */
        for (int e = 0; e < T * t->d_v; e++) t->v[e] = ldexp(1.5 + (e % 4) / 8.0, 1020);
    if (t->kind != 5) return;
    if (T < 2) { t->kind = 4; return; }
    int p = pick(s, 1, T - 1);
    fill(s, t->q, p * t->d_k, 3, 4);
    fill(s, t->q + p * t->d_k, (T - p) * t->d_k, -1000, -990);
    fill(s, t->k + p * t->d_k, (T - p) * t->d_k, 1021, 1023);
}

/* tiled_row - query i of t against the long-double causal attention over
 * keys 0..i (n = i + 1 of them, in nb = ceil(n / block_k) tiles): the
 * scores carry case_sdpa's error E; the weights satisfy softmax_tol with
 * nb rescalings of the sum l, and n + nb terms, since each tile's partial
 * sum joins l by one more addition; out adds to the weights' bound its own
 * sums, 2 (n + 2 + 5 nb) u w |v|: the products P V_J and the additions to
 * the accumulator (n + nb), and for each of its nb tiles the share keep =
 * l alpha / l' (2 roundings), the product by it, and the division of P by
 * l' (the accumulator holds o / l, a weighted mean of the values, so it
 * overflows only where an output does). Sets *danger where MM_ERANGE is
 * allowed: a visible product or score, or an output, within a quarter of
 * DBL_MAX */
static const char *tiled_row(const tiled_case *t, mm_status st, int i, int *danger)
{
    int n = i + 1, d_k = t->d_k, d_v = t->d_v, nb = (n + t->bk - 1) / t->bk;
    long double sc[MAXT] = { 0 }, wr[MAXT], tolw[MAXT], E = 0;   /* n >= 1 */
    for (int j = 0; j < n; j++) {
        long double dot = 0, A = 0;
        for (int p = 0; p < d_k; p++) {
            long double prod = (long double)t->q[i * d_k + p] * t->k[j * d_k + p];
            dot += prod;
            A += fabsl(prod);
        }
        sc[j] = dot / sqrtl(d_k);
        if (A >= DBL_MAX / 4 || fabsl(sc[j]) >= DBL_MAX / 4) { *danger = 1; return NULL; }
        long double Ej = 2 * (d_k + 8) * U * A / sqrtl(d_k) + 4 * U * fabsl(sc[j])
                       + (d_k + 4) * 0x1p-1074L;
        if (Ej > E) E = Ej;
    }
    if (E > 1e-3) return NULL;                  /* only required to stay finite */
    long double max = ref_softmax(wr, sc, n);
    for (int j = 0; j < n; j++) tolw[j] = softmax_tol(wr[j], max - sc[j], E, n + nb, nb);
    for (int c = 0; c < d_v; c++) {
        long double r = 0, bound = 0x1p-1020L;
        for (int j = 0; j < n; j++) {
            long double vj = t->v[j * d_v + c];
            r += wr[j] * vj;
            bound += (tolw[j] + 2 * (n + 2 + 5 * nb) * U * wr[j]) * fabsl(vj);
        }
        if (fabsl(r) >= DBL_MAX / 4 || bound >= DBL_MAX / 4) { *danger = 1; continue; }
        double got = t->out[i * d_v + c];
        if (st == MM_OK && !(fabsl(got - r) <= bound))
            return fail("sdpa_causal_tiled (%s): out[%d][%d] is %.17g, reference %.20Lg, "
                        "error beyond the bound %Lg; look first at the masking of the "
                        "diagonal tile, then at the rescaling of the accumulator and of l",
                        t->shape, i, c, got, r, bound);
    }
    return NULL;
}

/* case_causal_tiled - sdpa_causal_tiled with random T, d_k, d_v and blocks
 * of 1 to T + 2 queries and keys, q, k, v of tiled_inputs, against the
 * long-double causal attention, row by row (tiled_row). MM_ERANGE, named
 * after the function, only where a row permits it; a key above the
 * diagonal is never scored, so its overflow permits nothing */
static const char *case_causal_tiled(fz_source *s)
{
    static tiled_case t;
    t.T = pick(s, 1, MAXT); t.d_k = pick(s, 1, 8); t.d_v = pick(s, 1, 8);
    t.bq = pick(s, 1, t.T + 2); t.bk = pick(s, 1, t.T + 2);
    tiled_inputs(s, &t);
    snprintf(t.shape, sizeof t.shape, "T %d, d_k %d, d_v %d, block_q %d, block_k %d, "
             "kind %d", t.T, t.d_k, t.d_v, t.bq, t.bk, t.kind);
    mm_status st = sdpa_causal_tiled(t.out, t.q, t.k, t.v, t.T, t.d_k, t.d_v, t.bq, t.bk);
    if (st != MM_OK && strncmp(mm_last_error(), "sdpa_causal_tiled: ", 19))
        return fail("sdpa_causal_tiled (%s): %s, but the message \"%s\" does not name "
                    "it", t.shape, mm_status_name(st), mm_last_error());
    int danger = 0;
    const char *bad;
    for (int i = 0; i < t.T; i++)
        if ((bad = tiled_row(&t, st, i, &danger))) return bad;
    for (int e = 0; st == MM_OK && e < t.T * t.d_v; e++)
        if (!isfinite(t.out[e]))
            return fail("sdpa_causal_tiled (%s): MM_OK but out[%d] = %g", t.shape, e,
                        t.out[e]);
    if (st != MM_OK && (st != MM_ERANGE || !danger))
        return fail("sdpa_causal_tiled (%s): %s with every row far from the limits%s: %s",
                    t.shape, mm_status_name(st), t.kind == 5 ? " (only keys above the "
                    "diagonal, hidden, overflow: they must be masked before they are "
                    "checked)" : "", mm_last_error());
    return NULL;
}

/* ---- chapter 03: the heads and the layer ------------------------------------------------ */

/* case_heads - split and merge: heads[h][t][c] = m[t][h d_k + c], bit for bit
 * (any values, NaN and infinities included: copies), and merge undoes split */
static const char *case_heads(fz_source *s)
{
    int T = pick(s, 1, MAXT), H = pick(s, 1, 6), d_k = pick(s, 1, 8), W = H * d_k;
    static double m[MAXT * 48], heads[MAXT * 48], back[MAXT * 48];
    fill(s, m, T * W, -1074, 1023);
    for (int i = 0; i < T * W; i++)
        if (next(s) % 29 == 0) m[i] = i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : -INFINITY;
    if (mha_split_heads(heads, m, T, H, d_k) != MM_OK)
        return fail("mha_split_heads (T %d, n_heads %d, d_k %d) failed: %s", T, H, d_k,
                    mm_last_error());
    for (int h = 0; h < H; h++)
        for (int t = 0; t < T; t++)
            if (memcmp(heads + ((size_t)h * T + t) * d_k, m + (size_t)t * W + h * d_k,
                       sizeof(double) * d_k))
                return fail("mha_split_heads (T %d, n_heads %d, d_k %d): heads[%d][%d] is "
                            "not m[%d][%d * d_k ..]", T, H, d_k, h, t, t, h);
    if (mha_merge_heads(back, heads, T, H, d_k) != MM_OK)
        return fail("mha_merge_heads failed: %s", mm_last_error());
    if (memcmp(back, m, sizeof(double) * T * W))
        return fail("mha_merge_heads (T %d, n_heads %d, d_k %d) does not undo the split",
                    T, H, d_k);
    return NULL;
}

/* mha_case - a layer's inputs, and what the reference works with */
typedef struct {
    int T, d, H, d_k, bias_kind;
    uint64_t seed;
    double x[MAXT * MAXD], w[4][MAXD * MAXD], bias[MAXT * MAXT];
    double wts[4 * MAXT * MAXT], out[MAXT * MAXD], out2[MAXT * MAXD];
    long double p[3][MAXT * MAXD], ap[3][MAXT * MAXD];   /* Q, K, V; sum |x w| */
    long double o[MAXT * MAXD], eo[MAXT * MAXD];           /* heads' outputs, bounds */
    int row_ok[MAXT];                 /* query t checkable in every head */
    int skip_hidden;                  /* hidden keys are never scored (causal) */
    int have_wts;                     /* wts holds the call's weights, to check */
    int block_k;                      /* > 0: the heads ran in tiles of block_k keys */
    const char *fn;                   /* the function under test, for messages */
    char range_text[16];              /* "range R" of the weights, for messages */
} mha_case;

/* check_mha - case c against the reference: Q, K, V = X W exact up to
 * e = 2 (d + 2) u sum |x w|; each score then carries the error its factors
 * bring plus its own dot product's, 2 (d_k + 8) u sum |q k|, over sqrt d_k,
 * and 4 u |score| for the scale and the bias (all doubled for valgrind); the
 * weights satisfy softmax_tol, each head's output the weights' bound plus
 * V's error and its own sums, and out the heads' bounds times |W_O| plus
 * 2 (d + 2) u sum |o w_o|. Rows with a score error beyond 1e-3 are only
 * required to stay finite; MM_ERANGE is allowed only when a product, a
 * score, a head's output or out reaches a quarter of DBL_MAX. The weights
 * are checked when the call wrote them (have_wts). Heads run in tiles of
 * block_k keys (chapter 05) widen the bounds as tiled_row does: nb =
 * ceil(T / block_k) rescalings of l (softmax_tol with T + nb terms) and
 * 5 nb more roundings in each head's output. */
static const char *check_mha(mha_case *c, mm_status st, const char *shape)
{
    int T = c->T, d = c->d, H = c->H, dk = c->d_k;
    int nb = c->block_k ? (T + c->block_k - 1) / c->block_k : 0;   /* key tiles */
    const double *b = c->bias_kind ? c->bias : NULL;
    int danger = 0;
    for (int m = 0; m < 3; m++)                    /* Q, K, V = X W_m */
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                long double r = 0, a = 0;
                for (int k = 0; k < d; k++) {
                    long double prod = (long double)c->x[t * d + k] * c->w[m][k * d + j];
                    r += prod;
                    a += fabsl(prod);
                }
                c->p[m][t * d + j] = r;
                c->ap[m][t * d + j] = a;
                if (a >= DBL_MAX / 4) danger = 1;
            }
    for (int t = 0; t < T; t++) c->row_ok[t] = 1;
#define ERR(m, t, j) (2 * (d + 2) * U * c->ap[m][(t) * d + (j)] + d * 0x1p-1074L)
    for (int h = 0; h < H && !danger; h++)
        for (int i = 0; i < T; i++) {
            long double sc[MAXT], wr[MAXT], tolw[MAXT], E = 0;
            int row_danger = 0;
            for (int j = 0; j < T; j++) {
                long double dot = 0, A = 0, prop = 0;
                for (int q = h * dk; q < (h + 1) * dk; q++) {
                    long double qv = c->p[0][i * d + q], kv = c->p[1][j * d + q];
                    long double eq = ERR(0, i, q), ek = ERR(1, j, q);
                    dot += qv * kv;
                    A += (fabsl(qv) + eq) * (fabsl(kv) + ek);
                    prop += eq * fabsl(kv) + fabsl(qv) * ek + eq * ek;
                }
                long double scaled = dot / sqrtl(dk), bij = b ? b[i * T + j] : 0;
                if (c->skip_hidden && bij == -INFINITY) {   /* never scored */
                    sc[j] = -INFINITY;
                    continue;
                }
                if (A >= DBL_MAX / 4 ||
                    fabsl(scaled) + (isinf(bij) ? 0 : fabsl(bij)) >= DBL_MAX / 4)
                    row_danger = 1;
                sc[j] = scaled + bij;
                if (sc[j] == -INFINITY) continue;
                long double Ej = (prop + 2 * (dk + 8) * U * A) / sqrtl(dk) +
                                 4 * U * fabsl(sc[j]) + (dk + 4) * 0x1p-1074L;
                if (Ej > E) E = Ej;
            }
            if (row_danger) { danger = 1; c->row_ok[i] = 0; continue; }
            if (E > 1e-3) { c->row_ok[i] = 0; continue; }
            long double max = ref_softmax(wr, sc, T);
            for (int j = 0; j < T; j++) {
                tolw[j] = max == -INFINITY ? 0
                        : softmax_tol(wr[j], fabsl(sc[j] - max), E, T + nb, nb);
                if (st != MM_OK || !c->have_wts) continue;
                double got = c->wts[((size_t)h * T + i) * T + j];
                if (sc[j] == -INFINITY && got != 0)
                    return fail("%s (%s): head %d, key %d is hidden from query %d "
                                "(bias -inf) but has weight %g", c->fn, shape, h, j, i, got);
                if (!(fabsl(got - wr[j]) <= tolw[j]))
                    return fail("%s (%s): head %d, weight [%d][%d] is %.17g, "
                                "reference %.20Lg, error beyond the bound %Lg", c->fn, shape,
                                h, i, j, got, wr[j], tolw[j]);
            }
            for (int cc = h * dk; cc < (h + 1) * dk; cc++) {     /* the head's output */
                long double r = 0, bound = 0x1p-1020L;
                for (int j = 0; j < T; j++) {
                    long double v = c->p[2][j * d + cc], ev = ERR(2, j, cc);
                    r += wr[j] * v;
                    bound += tolw[j] * (fabsl(v) + ev) + wr[j] * ev +
                             2 * (T + 2 + 5 * nb) * U * wr[j] * (fabsl(v) + ev);
                }
                if (fabsl(r) >= DBL_MAX / 4 || bound >= DBL_MAX / 4) {
                    danger = 1;
                    c->row_ok[i] = 0;
                }
                c->o[i * d + cc] = r;
                c->eo[i * d + cc] = bound;
            }
        }
#undef ERR
    for (int cc = 0; cc < d && !danger; cc++) {     /* |o| <= max |V|: out's range */
        long double vmax = 0;
        for (int j = 0; j < T; j++) vmax = fmaxl(vmax, 2 * c->ap[2][j * d + cc]);
        for (int jj = 0; jj < d; jj++)
            if (vmax * fabsl((long double)c->w[3][cc * d + jj]) * d >= DBL_MAX / 4) danger = 1;
    }
    for (int t = 0; t < T && st == MM_OK && !danger; t++) {
        if (!c->row_ok[t]) continue;
        for (int j = 0; j < d; j++) {
            long double r = 0, abs_sum = 0, bound = 0x1p-1020L;
            for (int i = 0; i < d; i++) {
                long double wo = c->w[3][i * d + j];
                r += c->o[t * d + i] * wo;
                bound += c->eo[t * d + i] * fabsl(wo);
                abs_sum += (fabsl(c->o[t * d + i]) + c->eo[t * d + i]) * fabsl(wo);
            }
            bound += 2 * (d + 2) * U * abs_sum + d * 0x1p-1074L;
            double got = c->out[t * d + j];
            if (!(fabsl(got - r) <= bound))
                return fail("%s (%s): out[%d][%d] is %.17g, reference %.20Lg, "
                            "error beyond the bound %Lg", c->fn, shape, t, j, got, r, bound);
        }
    }
    if (st == MM_OK) {
        for (int i = 0; i < T * d; i++)
            if (!isfinite(c->out[i]))
                return fail("%s (%s): MM_OK but out[%d] = %g", c->fn, shape, i, c->out[i]);
        for (int i = 0; c->have_wts && i < H * T * T; i++)
            if (!(c->wts[i] >= 0 && c->wts[i] <= 1))
                return fail("%s (%s): MM_OK but weight %d = %g", c->fn, shape, i, c->wts[i]);
    }
    if (st != MM_OK && (st != MM_ERANGE || !danger))
        return fail("%s (%s): %s with every product far from the limits: %s",
                    c->fn, shape, mm_status_name(st), mm_last_error());
    return NULL;
}

/* mha_layer - a layer MultiHeadAttention(d_model, n_heads, seed) with
 * d_model = n_heads d_k (1 to 4 heads of 1 to 6), T and x, either as drawn
 * (and then its weights must be attention_init_weights of the seed, bit for
 * bit) or with weights set from ordinary to overflowing ranges (X W_QKV, a
 * score, a head's output or the product with W_O past DBL_MAX); *layer_out
 * NULL if mha_new failed */
static const char *mha_layer(fz_source *s, mha_case *cp, mha **layer_out)
{
    static double init[4][MAXD * MAXD];
    cp->H = pick(s, 1, 4);
    cp->d_k = pick(s, 1, 6);
    cp->d = cp->H * cp->d_k;
    cp->T = pick(s, 1, MAXT);
    cp->seed = next(s);
    int d = cp->d, T = cp->T, range = pick(s, 0, 6);
    /* exponents of x, W_Q, W_K, W_V, W_O */
    static const int ranges[7][5][2] = {
        { { -3, 2 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } },            /* drawn */
        { { -3, 2 }, { -3, 1 }, { -3, 1 }, { -3, 1 }, { -3, 1 } },        /* ordinary */
        { { 0, 3 }, { 2, 4 }, { 2, 4 }, { -3, 1 }, { -3, 1 } },           /* peaked */
        { { 250, 262 }, { 250, 262 }, { 250, 262 }, { -3, 1 }, { -3, 1 } },   /* scores */
        { { 500, 520 }, { 500, 520 }, { -3, 1 }, { -3, 1 }, { -3, 1 } },  /* X W_QKV */
        { { -3, 2 }, { -3, 1 }, { -3, 1 }, { 500, 512 }, { 500, 515 } },  /* W_O */
        { { -540, -500 }, { -540, -500 }, { -3, 1 }, { -3, 1 }, { -3, 1 } },  /* tiny */
    };
    fill(s, cp->x, T * d, ranges[range][0][0], ranges[range][0][1]);
    mha *layer;
    *layer_out = NULL;
    if (mha_new(&layer, d, cp->H, cp->seed) != MM_OK)
        return fail("mha_new(%d, %d) failed: %s", d, cp->H, mm_last_error());
    *layer_out = layer;
    const char *bad = NULL;
    if (range == 0) {
        if (mha_get_weights(cp->w[0], cp->w[1], cp->w[2], cp->w[3], layer) != MM_OK ||
            attention_init_weights(init[0], init[1], init[2], init[3], d, cp->seed) != MM_OK)
            bad = fail("mha_get_weights or attention_init_weights failed: %s", mm_last_error());
        for (int m = 0; !bad && m < 4; m++)
            if (memcmp(init[m], cp->w[m], sizeof(double) * d * d))
                bad = fail("mha_new(%d, %d, seed %llu): matrix %d is not "
                           "attention_init_weights's", d, cp->H, (unsigned long long)cp->seed, m);
    } else {
        for (int m = 0; m < 4; m++)
            fill(s, cp->w[m], d * d, ranges[range][m + 1][0], ranges[range][m + 1][1]);
        if (mha_set_weights(layer, cp->w[0], cp->w[1], cp->w[2], cp->w[3]) != MM_OK)
            bad = fail("mha_set_weights refused finite weights: %s", mm_last_error());
    }
    snprintf(cp->range_text, sizeof cp->range_text, "range %d", range);
    return bad;
}

/* case_mha - a layer of mha_layer, a bias as in case_sdpa; the call with
 * weights NULL must give the same status and bits */
static const char *case_mha(fz_source *s)
{
    static mha_case c;
    mha *layer;
    c.skip_hidden = 0;
    c.have_wts = 1;
    c.block_k = 0;
    c.fn = "mha_forward";
    const char *bad = mha_layer(s, &c, &layer);
    if (layer == NULL) return bad;
    int T = c.T, d = c.d;
    c.bias_kind = pick(s, 0, 4);                   /* 0: no bias; as case_sdpa */
    int lo = -1, hi = 1;
    if (c.bias_kind == 1) { lo = -4; hi = 3; }
    if (c.bias_kind == 2) { lo = 8; hi = 11; }
    if (c.bias_kind == 3) { lo = 1015; hi = 1023; }
    fill(s, c.bias, T * T, lo, hi);
    for (int i = 0; i < T; i++) {
        int hide = pick(s, 0, 7);                  /* 0: the row sees no key */
        for (int j = 0; j < T; j++)
            if (hide == 0 || (hide < 4 && next(s) % 4 == 0)) c.bias[i * T + j] = -INFINITY;
    }
    const double *b = c.bias_kind ? c.bias : NULL;
    char shape[128];
    snprintf(shape, sizeof shape, "T %d, d_model %d, n_heads %d, %s, bias %d, seed "
             "%llu", T, d, c.H, c.range_text, c.bias_kind, (unsigned long long)c.seed);
    if (!bad) {
        mm_status st = mha_forward(c.out, c.wts, layer, c.x, b, T);
        mm_status st2 = mha_forward(c.out2, NULL, layer, c.x, b, T);
        if (st != st2)
            bad = fail("mha_forward (%s): %s with weights, %s with weights NULL", shape,
                       mm_status_name(st), mm_status_name(st2));
        else if (st == MM_OK && memcmp(c.out, c.out2, sizeof(double) * T * d))
            bad = fail("mha_forward (%s): out differs with weights NULL", shape);
        else if (st != MM_OK && strncmp(mm_last_error(), "mha_forward: ", 13) &&
                 strncmp(mm_last_error(), "sdpa: ", 6))
            bad = fail("mha_forward (%s): %s, but the message \"%s\" names neither "
                       "mha_forward nor sdpa", shape, mm_status_name(st), mm_last_error());
        else
            bad = check_mha(&c, st, shape);
    }
    mha_free(layer);
    return bad;
}

/* causal_case - c's reference is the causal layer on its first c->T
 * tokens: the mask (0 on and below the diagonal, -inf above) as a bias
 * whose hidden keys are never scored; fn is the function under test,
 * block_k its key tiles (0: none); no weights to check unless set */
static void causal_case(mha_case *c, const char *fn, int block_k)
{
    int T = c->T;
    c->skip_hidden = 1;
    c->bias_kind = 1;
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) c->bias[i * T + j] = j <= i ? 0.0 : -INFINITY;
    c->have_wts = 0;
    c->block_k = block_k;
    c->fn = fn;
}

/* case_causal - a layer as in case_mha, through mha_forward_causal: the
 * reference is the long-double one with the causal mask written here (0 on
 * and below the diagonal, -inf above), whose keys are never scored (so a row
 * fails only on the scores it sees); weights above the diagonal are exactly
 * +0; the call with weights NULL gives the same status and bits, and so does
 * mha_forward with the causal bias */
static const char *case_causal(fz_source *s)
{
    static mha_case c;
    static double ref_out[MAXT * MAXD], ref_w[4 * MAXT * MAXT];
    mha *layer;
    const char *bad = mha_layer(s, &c, &layer);
    if (layer == NULL) return bad;
    int T = c.T, d = c.d, H = c.H;
    causal_case(&c, "mha_forward_causal", 0);
    c.have_wts = 1;
    char shape[128];
    snprintf(shape, sizeof shape, "causal, T %d, d_model %d, n_heads %d, %s, seed %llu", T,
             d, H, c.range_text, (unsigned long long)c.seed);
    if (!bad) {
        mm_status st = mha_forward_causal(c.out, c.wts, layer, c.x, T);
        const char *msg = mm_last_error();
        int named = !strncmp(msg, "mha_forward_causal: ", 20) ||
                    !strncmp(msg, "mha_forward: ", 13) || !strncmp(msg, "sdpa: ", 6);
        mm_status st2 = mha_forward_causal(c.out2, NULL, layer, c.x, T);
        mm_status st3 = mha_forward(ref_out, ref_w, layer, c.x, c.bias, T);
        if (st != st2 || st != st3)
            bad = fail("mha_forward_causal (%s): %s with weights, %s with weights NULL, "
                       "mha_forward with the causal bias %s", shape, mm_status_name(st),
                       mm_status_name(st2), mm_status_name(st3));
        else if (st != MM_OK && !named)
            bad = fail("mha_forward_causal (%s): %s, but the message \"%s\" names neither "
                       "it, mha_forward nor sdpa", shape, mm_status_name(st), msg);
        else if (st == MM_OK && (memcmp(c.out, c.out2, sizeof(double) * T * d) ||
                                 memcmp(c.out, ref_out, sizeof(double) * T * d) ||
                                 memcmp(c.wts, ref_w, sizeof(double) * H * T * T)))
            bad = fail("mha_forward_causal (%s): out or weights differ from weights NULL "
                       "or from mha_forward with the causal bias", shape);
        for (int h = 0; !bad && st == MM_OK && h < H; h++)
            for (int i = 0; !bad && i < T; i++)
                for (int j = i + 1; !bad && j < T; j++) {
                    double w = c.wts[((size_t)h * T + i) * T + j];
                    if (w != 0 || signbit(w))
                        bad = fail("mha_forward_causal (%s): head %d, weight [%d][%d] = %g "
                                   "above the diagonal, not +0", shape, h, i, j, w);
                }
        if (!bad) bad = check_mha(&c, st, shape);
    }
    mha_free(layer);
    return bad;
}

/* case_masks - the four masks of chapter 04 against truth tables written
 * here: causal (T, T), padding (T_q, T_k, length), from_bool of random
 * bools, and mask_combine of two random masks (-inf or finite, ordinary or
 * near DBL_MAX, sometimes the same buffer): -inf where either is, else the
 * correctly rounded sum; MM_ERANGE, bias unchanged and the first such
 * element named, when a finite sum overflows */
static const char *case_masks(fz_source *s)
{
    enum { N = MAXT * MAXT };
    static double b[N], o[N], keep[N], want[N];
    static bool allowed[N];
    int T_q = pick(s, 1, MAXT), T_k = pick(s, 1, MAXT), T = T_k, n = T_q * T_k;
    int length = pick(s, 0, T_k);
    if (mask_causal(b, T) != MM_OK)
        return fail("mask_causal(T %d): %s", T, mm_last_error());
    for (int e = 0; e < T * T; e++) {
        double r = e % T <= e / T ? 0.0 : -INFINITY;
        if (memcmp(&b[e], &r, sizeof r))
            return fail("mask_causal(T %d): [%d][%d] = %g", T, e / T, e % T, b[e]);
    }
    if (mask_padding(b, T_q, T_k, length) != MM_OK)
        return fail("mask_padding(%d, %d, %d): %s", T_q, T_k, length, mm_last_error());
    for (int e = 0; e < n; e++) {
        double r = e % T_k < length ? 0.0 : -INFINITY;
        if (memcmp(&b[e], &r, sizeof r))
            return fail("mask_padding(%d, %d, length %d): [%d][%d] = %g", T_q, T_k, length,
                        e / T_k, e % T_k, b[e]);
    }
    for (int e = 0; e < n; e++) allowed[e] = next(s) % 3 != 0;
    if (mask_from_bool(b, allowed, T_q, T_k) != MM_OK)
        return fail("mask_from_bool(%d, %d): %s", T_q, T_k, mm_last_error());
    for (int e = 0; e < n; e++) {
        double r = allowed[e] ? 0.0 : -INFINITY;
        if (memcmp(&b[e], &r, sizeof r))
            return fail("mask_from_bool(%d, %d): [%d][%d] = %g for %d", T_q, T_k, e / T_k,
                        e % T_k, b[e], allowed[e]);
    }
    int top = pick(s, 0, 2) == 0, same = pick(s, 0, 5) == 0;
    int lo = top ? 1020 : -3, hi = top ? 1023 : 2;
    for (int e = 0; e < n; e++) {
        b[e] = next(s) % 4 == 0 ? -INFINITY : value(s, lo, hi);
        o[e] = next(s) % 4 == 0 ? -INFINITY : value(s, lo, hi);
    }
    const double *other = same ? b : o;
    long first = -1;
    for (int e = 0; e < n; e++) {             /* the exact sums: 57 bits at most */
        double x = b[e], y = other[e];
        if (x == -INFINITY || y == -INFINITY) { want[e] = -INFINITY; continue; }
        long double exact = (long double)x + y;
        if (fabsl(exact) >= 0x1.fffffffffffff8p1023L && first < 0) first = e;
        want[e] = (double)exact;
    }
    memcpy(keep, b, sizeof(double) * n);
    mm_status st = mask_combine(b, other, T_q, T_k);
    char text[128];
    if (first >= 0) {
        snprintf(text, sizeof text, "mask_combine: bias[%ld][%ld] + other[%ld][%ld] overflows",
                 first / T_k, first % T_k, first / T_k, first % T_k);
        if (st != MM_ERANGE || strcmp(mm_last_error(), text))
            return fail("mask_combine(%d, %d%s): %s \"%s\", expected MM_ERANGE \"%s\"", T_q,
                        T_k, same ? ", bias == other" : "", mm_status_name(st),
                        mm_last_error(), text);
        if (memcmp(b, keep, sizeof(double) * n))
            return fail("mask_combine(%d, %d): MM_ERANGE but bias changed", T_q, T_k);
        return NULL;
    }
    if (st != MM_OK)
        return fail("mask_combine(%d, %d%s): %s: %s", T_q, T_k, same ? ", bias == other" : "",
                    mm_status_name(st), mm_last_error());
    for (int e = 0; e < n; e++)
        if (memcmp(&b[e], &want[e], sizeof want[e]))
            return fail("mask_combine(%d, %d%s): [%d][%d] = %.17g, expected %.17g", T_q, T_k,
                        same ? ", bias == other" : "", e / T_k, e % T_k, b[e], want[e]);
    return NULL;
}

/* case_tiled_layer - a layer of mha_layer through mha_forward_tiled, with
 * blocks of 1 to T + 2 queries and keys, against the causal reference of
 * check_mha widened by the rescalings of the tiles (it writes no weights);
 * a failure's message names mha_forward_tiled */
static const char *case_tiled_layer(fz_source *s)
{
    static mha_case c;
    mha *layer;
    const char *bad = mha_layer(s, &c, &layer);
    if (layer == NULL) return bad;
    int bq = pick(s, 1, c.T + 2), bk = pick(s, 1, c.T + 2);
    causal_case(&c, "mha_forward_tiled", bk < c.T ? bk : c.T);
    char shape[160];
    snprintf(shape, sizeof shape, "T %d, d_model %d, n_heads %d, block_q %d, block_k %d, "
             "%s, seed %llu", c.T, c.d, c.H, bq, bk, c.range_text,
             (unsigned long long)c.seed);
    if (!bad) {
        mm_status st = mha_forward_tiled(c.out, layer, c.x, c.T, bq, bk);
        if (st != MM_OK && strncmp(mm_last_error(), "mha_forward_tiled", 17))
            bad = fail("mha_forward_tiled (%s): %s, but the message \"%s\" does not name "
                       "it", shape, mm_status_name(st), mm_last_error());
        else
            bad = check_mha(&c, st, shape);
    }
    mha_free(layer);
    return bad;
}

/* decode_check - the T steps of case_decode against the causal reference:
 * all of them if every step passed; if step t failed, rows 0..t-1 against
 * the reference of tokens 0..t-1, and the failure against what the
 * reference of tokens 0..t permits (MM_ERANGE where a product, score or
 * output of those tokens reaches a quarter of DBL_MAX) */
static const char *decode_check(mha_case *c, mm_status st, int t, const char *shape)
{
    if (st == MM_OK) return check_mha(c, MM_OK, shape);
    const char *bad = NULL;
    if (t > 0) {
        c->T = t;
        causal_case(c, "mha_decode_step", 0);
        bad = check_mha(c, MM_OK, shape);
    }
    if (!bad) {
        c->T = t + 1;
        causal_case(c, "mha_decode_step", 0);
        bad = check_mha(c, st, shape);
    }
    return bad;
}

/* case_decode - a layer of mha_layer and a cache of T tokens; step t of
 * mha_decode_step gives row t of out. The steps stop at the first failure,
 * which must be named after the function, leave the cache's count
 * unchanged, and be permitted by the reference (decode_check) */
static const char *case_decode(fz_source *s)
{
    static mha_case c;
    mha *layer;
    mha_cache *cache = NULL;
    const char *bad = mha_layer(s, &c, &layer);
    if (layer == NULL) return bad;
    int T = c.T, d = c.d, t = 0;
    causal_case(&c, "mha_decode_step", 0);
    char shape[128];
    snprintf(shape, sizeof shape, "T %d, d_model %d, n_heads %d, %s, seed %llu", T, d,
             c.H, c.range_text, (unsigned long long)c.seed);
    mm_status st = MM_OK;
    if (!bad && mha_cache_new(&cache, layer, T) != MM_OK)
        bad = fail("mha_cache_new (%s) failed: %s", shape, mm_last_error());
    for (; !bad && t < T; t++) {
        st = mha_decode_step(c.out + (size_t)t * d, cache, c.x + (size_t)t * d);
        if (st != MM_OK) break;
        if (cache->T != t + 1)
            bad = fail("mha_decode_step (%s): after step %d the cache holds %d tokens, "
                       "not %d", shape, t, cache->T, t + 1);
    }
    if (!bad && st != MM_OK && strncmp(mm_last_error(), "mha_decode_step: ", 17))
        bad = fail("mha_decode_step (%s): step %d: %s, but the message \"%s\" does not "
                   "name it", shape, t, mm_status_name(st), mm_last_error());
    else if (!bad && st != MM_OK && cache->T != t)
        bad = fail("mha_decode_step (%s): step %d failed (%s) but the cache holds %d "
                   "tokens, not %d: a failed step must not keep its token", shape, t,
                   mm_status_name(st), cache->T, t);
    if (!bad) bad = decode_check(&c, st, t, shape);
    mha_cache_free(cache);
    mha_free(layer);
    return bad;
}

const char *fz_run(fz_source *s, char *why, size_t why_size)
{
    static const char *(*const cases[N_KINDS])(fz_source *) = {
        case_matmul, case_project, case_fused, case_split, case_attend,
        case_count, case_fill, case_init, case_softmax, case_sdpa, case_heads, case_mha,
        case_causal, case_masks, case_softmax_online, case_causal_tiled, case_tiled_layer,
        case_decode };
    why_buf = why;
    why_len = why_size;
    int kind = pick(s, 0, N_KINDS - 1);
    n_cases[kind]++;
    return cases[kind](s);
}

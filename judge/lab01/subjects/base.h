/* base.h - lab 01 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of judge/lab01/subjects/ includes it after defining
 * MUTANT_<function> for the one function it writes itself (with one
 * mistake); solution.c defines none. A subject that defines MUTANT_product
 * writes only product(), with its mistake, and qkv_project below calls it
 * once per projection instead of mm_matmul. A subject's own function may
 * use the argument checks below (<FUNCTION>_CHECK_ARGS) and the right
 * copies of qkv_pack and qkv_split (pack_rows, split_rows), and the C
 * library's headers it includes (limits.h, stddef.h, stdlib.h, string.h). */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"

/* the argument checks of each function, as the library makes them */
#define PROJECT_CHECK_ARGS() do {                                                   \
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);  MM_NEED_BUFFER(x);  \
    MM_NEED_BUFFER(w_q);  MM_NEED_BUFFER(w_k);  MM_NEED_BUFFER(w_v);  MM_NEED_POSITIVE(T); \
    MM_NEED_POSITIVE(d_model);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);      \
} while (0)
#define PACK_CHECK_ARGS() do {                                                      \
    MM_NEED_BUFFER(w_qkv);  MM_NEED_BUFFER(w_q);  MM_NEED_BUFFER(w_k);  MM_NEED_BUFFER(w_v); \
    MM_NEED_POSITIVE(d_model);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);      \
} while (0)
#define SPLIT_CHECK_ARGS() do {                                                     \
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);  MM_NEED_BUFFER(qkv); \
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);            \
} while (0)
#define FUSED_CHECK_ARGS() do {                                                     \
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);  MM_NEED_BUFFER(qkv); \
    MM_NEED_BUFFER(x);  MM_NEED_BUFFER(w_qkv);  MM_NEED_POSITIVE(T);                \
    MM_NEED_POSITIVE(d_model);  MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);      \
} while (0)
#define COUNT_CHECK_ARGS() do {                                                     \
    MM_NEED_BUFFER(count);  MM_NEED_POSITIVE(d_model);  MM_NEED_POSITIVE(n_heads);  \
} while (0)

/* <FUNCTION>_BAD_ARGS - the same checks as one condition, for the subjects
 * that return a bare MM_EINVAL (no reason recorded) when it holds */
#define PACK_BAD_ARGS (!w_qkv || !w_q || !w_k || !w_v || d_model <= 0 || d_k <= 0 || d_v <= 0)
#define SPLIT_BAD_ARGS (!q || !k || !v || !qkv || T <= 0 || d_k <= 0 || d_v <= 0)
#define FUSED_BAD_ARGS (!q || !k || !v || !qkv || !x || !w_qkv ||                        \
                        T <= 0 || d_model <= 0 || d_k <= 0 || d_v <= 0)

/* COUNT_RETURN(count_expr) - the end of an attention_param_count whose
 * count and sizes are checked: a bare MM_EINVAL or MM_ERANGE (no reason
 * recorded) when n_heads does not divide d_model or the count would not fit
 * in a long, else *count = count_expr, of the longs d = d_model and
 * d_k = d_model / n_heads, and MM_OK */
#define COUNT_RETURN(count_expr)                                                    \
    if (d_model % n_heads != 0) return MM_EINVAL;                                   \
    long d = d_model, d_k = d_model / n_heads;                                      \
    if (d > LONG_MAX / 4 / d) return MM_ERANGE;                                     \
    (void)d_k;                                                                      \
    *count = count_expr;                                                            \
    return MM_OK

/* COUNT_RIGHT_RETURN() - the same end, right: MM_EINVAL or MM_ERANGE with
 * the reason recorded (mm_fail), else the count of the layer and MM_OK */
#define COUNT_RIGHT_RETURN()                                                        \
    if (d_model % n_heads != 0)                                                     \
        return mm_fail(MM_EINVAL, "attention_param_count: n_heads (%d) does not divide " \
                       "d_model (%d)", n_heads, d_model);                           \
    long d = d_model, d_k = d_model / n_heads;                                      \
    if (d > LONG_MAX / 4 / d)                                                       \
        return mm_fail(MM_ERANGE, "attention_param_count: too many for a long");    \
    *count = n_heads * 3 * d * d_k + d * d;                                         \
    return MM_OK

/* COUNT_AS(count_expr) - attention_param_count with its checks, whose count
 * is count_expr (a subject's wrong count) */
#define COUNT_AS(count_expr)                                                        \
mm_status attention_param_count(long *count, int d_model, int n_heads)              \
{                                                                                   \
    COUNT_CHECK_ARGS();                                                             \
    COUNT_RETURN(count_expr);                                                       \
}

/* pack_rows - w_qkv (d_model, 2 d_k + d_v) = [W_Q | W_K | W_V], row by row */
static inline void pack_rows(double *w_qkv, const double *w_q, const double *w_k,
                             const double *w_v, int d_model, int d_k, int d_v)
{
    int width = 2 * d_k + d_v;
    for (int i = 0; i < d_model; i++) {
        double *row = w_qkv + (size_t)i * width;
        for (int j = 0; j < d_k; j++) row[j] = w_q[(size_t)i * d_k + j];
        for (int j = 0; j < d_k; j++) row[d_k + j] = w_k[(size_t)i * d_k + j];
        for (int j = 0; j < d_v; j++) row[2 * d_k + j] = w_v[(size_t)i * d_v + j];
    }
}

/* split_rows - q (T, d_k), k (T, d_k), v (T, d_v) cut out of qkv (T, 2 d_k + d_v) */
static inline void split_rows(double *q, double *k, double *v, const double *qkv,
                              int T, int d_k, int d_v)
{
    int width = 2 * d_k + d_v;
    for (int t = 0; t < T; t++) {
        const double *row = qkv + (size_t)t * width;
        for (int j = 0; j < d_k; j++) q[(size_t)t * d_k + j] = row[j];
        for (int j = 0; j < d_k; j++) k[(size_t)t * d_k + j] = row[d_k + j];
        for (int j = 0; j < d_v; j++) v[(size_t)t * d_v + j] = row[2 * d_k + j];
    }
}

#ifdef MUTANT_product
/* product - out (T, d) = x (T, d_model) w (d_model, d), as the subject writes it */
static void product(double *out, const double *x, const double *w, int T, int d_model, int d);
#endif

#ifndef MUTANT_qkv_project
mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    PROJECT_CHECK_ARGS();
#ifdef MUTANT_product
    product(q, x, w_q, T, d_model, d_k);
    product(k, x, w_k, T, d_model, d_k);
    product(v, x, w_v, T, d_model, d_v);
    return MM_OK;
#else
    MM_TRY(mm_matmul(q, x, w_q, T, d_model, d_k, false));
    MM_TRY(mm_matmul(k, x, w_k, T, d_model, d_k, false));
    return mm_matmul(v, x, w_v, T, d_model, d_v, false);
#endif
}
#endif

#ifndef MUTANT_qkv_pack
mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    PACK_CHECK_ARGS();
    pack_rows(w_qkv, w_q, w_k, w_v, d_model, d_k, d_v);
    return MM_OK;
}
#endif

#ifndef MUTANT_qkv_split
mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    SPLIT_CHECK_ARGS();
    split_rows(q, k, v, qkv, T, d_k, d_v);
    return MM_OK;
}
#endif

#ifndef MUTANT_qkv_project_fused
mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv, const double *x,
                            const double *w_qkv, int T, int d_model, int d_k, int d_v)
{
    FUSED_CHECK_ARGS();
    MM_TRY(mm_matmul(qkv, x, w_qkv, T, d_model, 2 * d_k + d_v, false));
    return qkv_split(q, k, v, qkv, T, d_k, d_v);
}
#endif

#ifndef MUTANT_attention_param_count
mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    COUNT_CHECK_ARGS();
    COUNT_RIGHT_RETURN();
}
#endif

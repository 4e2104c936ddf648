/* r-segv.c - qkv_project checks no pointer: a NULL output crashes it.
 * The crash is reported with the function, the case and the call in flight,
 * and the other checks still run. (Under LAB_SANITIZE=1, UBSan stops the
 * store first, and its report names the line.)
 * expect-exit: nonzero
 * expect@plain: CRASH qkv_project, case 'q = NULL': crashed (signal 11, SIGSEGV
 * expect-re@sanitize: CRASH qkv_project, case 'q = NULL': UndefinedBehaviorSanitizer: judge/lab01/subjects/r-segv.c:[0-9]+:[0-9]+: runtime error: store to null pointer
 * expect: call in flight: qkv_project(NULL, k, v, x, w_q, w_k, w_v, 2, 2, 2, 2)
 * expect-re: ^qkv_project +0 +8 +1$
 * expect-re: ^qkv_pack +0 +9 +0$ */
#define MUTANT_qkv_project
#include "base.h"

/* the arguments qkv_project refuses: its sizes (m-project-no-checks.c,
 * which includes this file, defines REFUSED as its pointers instead) */
#ifndef REFUSED
#define REFUSED (T <= 0 || d_model <= 0 || d_k <= 0 || d_v <= 0)
#endif

static void product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            double sum = 0.0;
            for (int i = 0; i < d_model; i++) sum += x[t * d_model + i] * w[i * d + j];
            out[t * d + j] = sum;
        }
}

mm_status qkv_project(double *q, double *k, double *v, const double *x, const double *w_q,
                      const double *w_k, const double *w_v, int T, int d_model, int d_k, int d_v)
{
    if (REFUSED) return MM_EINVAL;
    product(q, x, w_q, T, d_model, d_k);
    product(k, x, w_k, T, d_model, d_k);
    product(v, x, w_v, T, d_model, d_v);
    return MM_OK;
}

/* hd-allowed-calls.c - lab 01 solved with C library functions that only
 * compute but were missing from the old vetting's list of allowed names:
 * fma in the products, setjmp/longjmp to leave the argument checks, strtod,
 * lrint, fdim, memchr. The vetting refuses a call for what it can do
 * (processes, files, signals, ...), not for missing from a list: every
 * check passes. (The old one refused fma, _setjmp, longjmp, lrint and
 * strtod; fdim and memchr, of constants here, the compiler computed.)
 * expect-exit: 0
 * expect: All 45 checks pass
 * expect-not: may not call
 * expect-re: ^total +0 +45 +0$ */
#include <math.h>
#include <setjmp.h>
#define MUTANT_qkv_pack
#define MUTANT_product
#include "base.h"

static void product(double *out, const double *x, const double *w, int T, int d_model, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            double sum = fdim(1.0, 1.0);                 /* 0 */
            for (int i = 0; i < d_model; i++) sum = fma(x[t * d_model + i], w[i * d + j], sum);
            out[t * d + j] = sum;
        }
}

static jmp_buf bad_args;

static void need(int ok) { if (!ok) longjmp(bad_args, 1); }

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    if (setjmp(bad_args)) return mm_fail(MM_EINVAL, "qkv_pack: bad arguments");
    need(w_qkv && w_q && w_k && w_v);
    need(d_model > 0 && d_k > 0 && d_v > 0);
    need(memchr("ok", 'k', 2) != NULL && lrint(strtod("2.0", NULL)) == 2);
    pack_rows(w_qkv, w_q, w_k, w_v, d_model, d_k, d_v);
    return MM_OK;
}

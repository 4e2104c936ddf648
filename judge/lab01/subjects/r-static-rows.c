/* r-static-rows.c - qkv_pack assembles W_QKV in a static array sized for
 * 32 rows of 64 ("no layer here is larger"), then copies it out, and
 * refuses a larger one with MM_ENOMEM. Every old case had at most 8 rows;
 * the long case's d_model (256 to 320) has valid arguments refused.
 * run-only: qkv_pack
 * expect-exit: 1
 * expect-re: ^  FAIL  qkv_pack, case 'long sequence T=[0-9]+ d_model=[0-9]+ d_k=[0-9]+ d_v=[0-9]+ \(seed [0-9]+\)': returned MM_ENOMEM \([0-9]+\) for valid arguments; expected MM_OK
 * expect-re: ^qkv_pack +0 +8 +1$ */
#define MUTANT_qkv_pack
#include "base.h"

enum { ROWS = 32, COLS = 64 };

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    static double staging[ROWS * COLS];
    PACK_CHECK_ARGS();
    int width = 2 * d_k + d_v;
    if (d_model > ROWS || width > COLS)
        return mm_fail(MM_ENOMEM, "qkv_pack: at most %d rows of %d", ROWS, COLS);
    for (int i = 0; i < d_model; i++) {
        double *row = staging + (size_t)i * width;
        for (int j = 0; j < d_k; j++) row[j] = w_q[(size_t)i * d_k + j];
        for (int j = 0; j < d_k; j++) row[d_k + j] = w_k[(size_t)i * d_k + j];
        for (int j = 0; j < d_v; j++) row[2 * d_k + j] = w_v[(size_t)i * d_v + j];
    }
    memcpy(w_qkv, staging, (size_t)d_model * width * sizeof *w_qkv);
    return MM_OK;
}

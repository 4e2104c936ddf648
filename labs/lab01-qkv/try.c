/* try.c - your Lab 01 functions on inputs of your own. Change anything
 * here (the judge never reads this file), then
 *     make lab-try NN=01
 * builds it with your qkv.c at -O0 -g and runs it; to step through your
 * code, gdb build/labs/try/lab01/try. It starts from chapter 01's worked
 * example (T = 2, d_model = d_k = d_v = 2): X = I, W_Q = I, W_K swaps the
 * two coordinates, W_V = diag(2, 3). */
#include "minimodel/attention/qkv.h"
#include "try.h"

int main(void)
{
    enum { T = 2, D = 2 };
    const double x[T * D] = { 1, 0,  0, 1 };
    const double w_q[D * D] = { 1, 0,  0, 1 };
    const double w_k[D * D] = { 0, 1,  1, 0 };
    const double w_v[D * D] = { 2, 0,  0, 3 };
    double q[T * D], k[T * D], v[T * D];          /* (T, d_k), (T, d_k), (T, d_v) */
    double w_qkv[D * 3 * D], qkv[T * 3 * D];      /* (d_model, 3d), (T, 3d) */
    long count = 0;

    if (TRY(qkv_project(q, k, v, x, w_q, w_k, w_v, T, D, D, D))) {
        try_print("Q", q, T, D, 1);
        try_print("K", k, T, D, 1);
        try_print("V", v, T, D, 1);
    }
    if (TRY(qkv_pack(w_qkv, w_q, w_k, w_v, D, D, D)))
        try_print("W_QKV = [W_Q | W_K | W_V]", w_qkv, D, 3 * D, 3);
    if (TRY(qkv_project_fused(q, k, v, qkv, x, w_qkv, T, D, D, D)))
        try_print("QKV = X W_QKV", qkv, T, 3 * D, 3);
    if (TRY(qkv_split(q, k, v, qkv, T, D, D)))
        try_print("K, from QKV", k, T, D, 1);
    if (TRY(attention_param_count(&count, 64, 4)))
        printf("  count for Mini-GPT (64, 4): %ld\n", count);
    return 0;
}

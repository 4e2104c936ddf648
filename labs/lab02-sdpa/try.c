/* try.c - your Lab 02 functions on inputs of your own. Change anything
 * here (the judge never reads this file), then
 *     make lab-try NN=02
 * builds it with your sdpa.c at -O0 -g and runs it; to step through your
 * code, gdb build/labs/try/lab02/try. It starts from chapter 01's worked
 * example, Q = I, K = the swap, V = diag(2, 3) (T = d_k = d_v = 2), and a
 * row of three scores. */
#include "minimodel/attention/sdpa.h"
#include "try.h"

int main(void)
{
    enum { T = 2, D = 2 };
    double row[3] = { 1, 2, 3 };
    const double q[T * D] = { 1, 0,  0, 1 };
    const double k[T * D] = { 0, 1,  1, 0 };
    const double v[T * D] = { 2, 0,  0, 3 };
    double out[T * D], weights[T * T];            /* (T_q, d_v), (T_q, T_k) */

    if (TRY(softmax_row(row, 3)))
        try_print("softmax of (1, 2, 3)", row, 1, 3, 1);
    if (TRY(sdpa(out, weights, q, k, v, NULL, T, T, D, D))) {
        try_print("weights", weights, T, T, 1);
        try_print("out", out, T, D, 1);
    }
    return 0;
}

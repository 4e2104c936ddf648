/* sdpa.c - lab 02: your softmax and scaled dot-product attention.
 *
 * Write the two functions below, in this order. Each one starts as
 * LAB_TODO(), which shows its checks as pending; delete that line when you
 * start on the function. Check your work with
 *
 *     make lab NN=02          (make lab NN=02 LAB_LANG=es: the report in Spanish)
 *
 * Conventions (book, front matter and chapters 01-02): row vectors, Q is
 * (T_q, d_k), K is (T_k, d_k), V is (T_k, d_v). Matrices are row-major
 * arrays of double: element (i, j) of an (n, m) matrix is a[i * m + j].
 * The caller owns every buffer; outputs arrive with whatever was in that
 * memory. Bad arguments get a status, never a crash and never a NaN out;
 * the library's checks do each in one line (core/error.h), return from
 * your function with the status, and record a message naming it:
 *     MM_NEED_BUFFER(q);               MM_EINVAL if q is NULL
 *     MM_NEED_POSITIVE(T_q);           MM_EINVAL unless T_q > 0
 *     MM_NEED_SIZE_PRODUCT(T_q, d_k);  MM_EINVAL unless a (T_q, d_k) buffer can exist
 *     MM_NEED_FINITE(q, T_q, d_k);     MM_EINVAL if q holds a NaN or an infinity
 *     MM_NEED_DISJOINT(bufs, n_out);   MM_EINVAL if one of the first n_out buffers
 *                                      of the array bufs, each MM_BUFFER(p, n),
 *                                      shares a byte with another
 *     return mm_fail(MM_ERANGE, "sdpa: ...", ...);   any other failure, with
 *                                                    a message of your own
 * MM_TRY(call) returns the status of a call that fails. You may call the
 * library's helpers, mm_matmul (core/matrix.h) among them, and the C
 * functions of judge/harness/allowed.txt (exp, sqrt, isnan, malloc, ...). */
#include <math.h>
#include <stdlib.h>
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"

/* softmax_row - the softmax of one row of scores, in place:
 *   s (n)   read: the scores; written: their weights, which sum to 1
 * A score of -INFINITY hides its key: its weight is exactly 0. A row whose
 * scores are all -INFINITY sees no key: its weights are all 0.
 * MM_EINVAL if s is NULL, n is not positive, or a score is NaN or +INFINITY;
 * then s is left exactly as it was.
 * Book: chapter 02, "The softmax, closely" and "Computing the softmax
 * without overflow".
 *
 * Before you write it, work these out (the chapter does):
 *   - exp(1000) and exp(-1000) in a double: what does the plain formula
 *     exp(s_j) / sum exp(s_j') give for s = (1003, 1001, 1000)? For
 *     s = (-1000, -1001, -1010)? The checks use both.
 *   - softmax(s - c) = softmax(s) for any constant c. Which c makes the
 *     largest exponential exactly 1, and the sum at least 1?
 *   - What is that c for a row of -INFINITY, and what does s_j - c give?
 *   - A failed call must leave s unchanged: when do you look for the bad
 *     score, before or after the first write? */
mm_status softmax_row(double *s, int n)
{
    LAB_TODO();
}

/* sdpa - scaled dot-product attention for one head:
 *   out (T_q, d_v) = softmax(Q K^T / sqrt(d_k) + bias) V            written
 *   weights (T_q, T_k) or NULL: the softmax rows, when the caller   written
 *           passes a buffer for them
 *   q (T_q, d_k), k (T_k, d_k), v (T_k, d_v)                        read
 *   bias (T_q, T_k) or NULL: added to the scaled scores; -INFINITY  read
 *           hides a key
 * MM_EINVAL, and nothing written: out, q, k or v NULL; a size not
 * positive, or two that size a buffer too large to exist; out or weights
 * sharing a byte with another buffer; q, k or v not finite; a bias that is
 * NaN or +INFINITY. MM_ERANGE: a score q_i . k_j / sqrt(d_k) + bias_ij
 * that overflows (finite inputs can). MM_ENOMEM: memory you need cannot be
 * had. After MM_ERANGE or MM_ENOMEM, out and weights may hold anything.
 * Book: chapter 02, "The interface of this chapter" and the worked example.
 *
 * Things to decide:
 *   - Query by query: row i of the output needs only row i of Q. Its T_k
 *     scores go somewhere: the caller's row of weights if there is one,
 *     else a row of your own (allocated once, freed on every way out).
 *   - Score (i, j) pairs row i of Q with row j of K: how is that written
 *     with mm_matmul, given that K is stored (T_k, d_k)?
 *   - Where do the scale and the bias go, and in which order?
 *   - You wrote a softmax above. What can it refuse, once sdpa has
 *     checked its own arguments? What must sdpa do before calling it?
 *   - Which row of V goes with weight (i, j)?
 *   - T_q and T_k differ in the checks, in both directions: which loops
 *     run to T_q, which to T_k? */
mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
{
    LAB_TODO();
}

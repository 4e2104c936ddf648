/* mha.c - lab 03: your multi-head attention.
 *
 * Write the three functions below, in this order. Each one starts as
 * LAB_TODO(), which shows its checks as pending; delete that line when you
 * start on the function. Check your work with
 *
 *     make lab NN=03          (make lab NN=03 LAB_LANG=es: the report in Spanish)
 *
 * Conventions (book, front matter and chapters 01-03): row vectors, X is
 * (T, d_model); the layer (mha.h) holds W_QKV (d_model, 3 d_model) =
 * [W_Q | W_K | W_V] and W_O (d_model, d_model), and head h owns columns
 * h d_k .. h d_k + d_k - 1 of each of W_Q, W_K, W_V, with d_k = d_model /
 * n_heads. A stack of heads (n_heads, T, d_k) is head 0's (T, d_k) matrix,
 * then head 1's, ...: element (h, t, c) is heads[(h * T + t) * d_k + c].
 * Matrices are row-major arrays of double: element (i, j) of an (n, m)
 * matrix is a[i * m + j]. The caller owns every buffer; outputs arrive with
 * whatever was in that memory. Bad arguments get a status, never a crash;
 * the library's checks do each in one line (core/error.h), return from your
 * function with the status, and record a message naming it:
 *     MM_NEED_BUFFER(m);               MM_EINVAL if m is NULL
 *     MM_NEED_POSITIVE(T);             MM_EINVAL unless T > 0
 *     MM_NEED_SIZE_PRODUCT(T, width);  MM_EINVAL unless a (T, width) buffer can exist
 *     MM_NEED_FINITE(x, T, d_model);   MM_EINVAL if x holds a NaN or an infinity
 *     MM_NEED_DISJOINT(bufs, n_out);   MM_EINVAL if one of the first n_out buffers
 *                                      of the array bufs, each MM_BUFFER(p, n),
 *                                      shares a byte with another
 *     return mm_fail(MM_EINVAL, "mha_split_heads: ...", ...);   any other
 *                                      failure, with a message of your own
 * MM_TRY(call) returns the status of a call that fails. You may call the
 * library up to chapter 02 - mm_matmul (core/matrix.h), sdpa and
 * softmax_row (attention/sdpa.h), qkv_split and the other qkv_ functions
 * (attention/qkv.h) - and the C functions of judge/harness/allowed.txt
 * (memcpy, malloc, free, sqrt, ...). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"

/* mha_split_heads - cut each row of m into n_heads blocks of d_k and stack
 * the blocks head by head:
 *   heads (n_heads, T, d_k)   written: heads[h][t][c] = m[t][h d_k + c]
 *   m (T, n_heads d_k)        read
 * MM_EINVAL, and nothing written: heads or m NULL; T, n_heads or d_k not
 * positive; n_heads d_k too large for an int, or T x n_heads d_k too large
 * for a buffer; heads and m sharing a byte. The values are copied bit for
 * bit, whatever they are (a NaN too): no check on them.
 * Book: chapter 03, "The interface of this chapter" and "Splitting and
 * merging".
 *
 * Before you write it, work these out:
 *   - m is (T, d_model), row-major. Where, counted from m[0], does the
 *     block of head h in row t start? Where does row t of head h start in
 *     heads?
 *   - Copy m as it is into heads: which element of m lands at heads[h][t][c]?
 *     For which shapes is that the same as the split, and for which not?
 *   - Which sizes must you check before you can even compute n_heads d_k,
 *     and T n_heads d_k, without an overflow? */
mm_status mha_split_heads(double *heads, const double *m,
                          int T, int n_heads, int d_k)
{
    LAB_TODO();
}

/* mha_merge_heads - the inverse of mha_split_heads: put each head's block
 * back in its columns:
 *   m (T, n_heads d_k)        written: m[t][h d_k + c] = heads[h][t][c]
 *   heads (n_heads, T, d_k)   read
 * MM_EINVAL, and nothing written: as mha_split_heads.
 * Book: chapter 03, "Splitting and merging".
 *
 *   - Merging what a split made must give back m exactly (the checks try
 *     it with your two functions). Which head goes in columns 0 .. d_k - 1?
 *   - The loops of the split and the merge can be the same, with source and
 *     destination exchanged. */
mm_status mha_merge_heads(double *m, const double *heads,
                          int T, int n_heads, int d_k)
{
    LAB_TODO();
}

/* mha_forward - the layer on one sequence:
 *   out (T, d_model) = concat_h softmax(Q_h K_h^T / sqrt(d_k) + bias) V_h
 *                      times W_O, with [Q | K | V] = X W_QKV         written
 *   weights (n_heads, T, T) or NULL: head h's softmax rows          written
 *           at weights + h T T, when the caller passes a buffer
 *   layer (mha.h): d_model, n_heads, d_k, w_qkv, w_o                read
 *   x (T, d_model)                                                  read
 *   bias (T, T) or NULL: added to every head's scaled scores;       read
 *           -INFINITY hides a key
 * MM_EINVAL, and nothing written: out, layer or x NULL; T not positive, or
 * T x (4 d_model + 4 d_k), T x T or (with weights) n_heads x T x T too
 * large for a buffer (the first is the library's work buffer: [Q | K | V],
 * the heads' outputs side by side, and one head's Q_h, K_h, V_h and
 * output; check the size of yours); out or weights sharing a byte with
 * each other, x, bias or the layer's weights; x not finite; a bias that is
 * NaN or +INFINITY.
 * MM_ERANGE: a product or a score overflows (finite inputs can). MM_ENOMEM:
 * memory you need cannot be had. After MM_ERANGE or MM_ENOMEM, out and
 * weights may hold anything. A row of the bias that is all -INFINITY sees
 * no key: its weights and its output row are 0 (sdpa does that for you).
 * Book: chapter 03, "The interface of this chapter" and "A worked example:
 * two heads by hand" (the checks' first case).
 *
 * Things to decide:
 *   - X W_QKV gives [Q | K | V] side by side, (T, 3 d_model). Which
 *     columns of it belong to head h's queries? Its keys? Its values?
 *   - Your split cuts a (T, n_heads d_k) matrix into heads. What does it
 *     give on the whole (T, 3 d_model) matrix with 3 n_heads heads?
 *   - Each head is chapter 02's attention on (T, d_k) matrices. What is
 *     d_k here, and so what is the scale?
 *   - The bias is the same for every head. Where do head h's weights go?
 *   - The heads' outputs, side by side, are (T, d_model): which matrix
 *     turns them into out?
 *   - The work buffers you allocate: how big, and freed on every way out?
 *     Which arguments do you check before the first allocation? */
mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    LAB_TODO();
}

/* mask.c - lab 04: your masks, and the causal layer.
 *
 * Write the five functions below, in this order. Each one starts as
 * LAB_TODO(), which shows its checks as pending; delete that line when you
 * start on the function. Check your work with
 *
 *     make lab NN=04          (make lab NN=04 LAB_LANG=es: the report in Spanish)
 *
 * Conventions (book, front matter and chapters 01-04): a mask is a bias
 * (T_q, T_k) of doubles added to the scaled scores, before the softmax:
 * bias[i][j] = 0 when query i may see key j, -INFINITY when the key is
 * hidden (its weight is then exactly 0). Matrices are row-major arrays:
 * element (i, j) of an (n, m) matrix is a[i * m + j]. The caller owns every
 * buffer; outputs arrive with whatever was in that memory. Bad arguments
 * get a status, never a crash; the library's checks do each in one line
 * (core/error.h), return from your function with the status, and record a
 * message naming it:
 *     MM_NEED_BUFFER(bias);            MM_EINVAL if bias is NULL
 *     MM_NEED_POSITIVE(T_q);           MM_EINVAL unless T_q > 0
 *     MM_NEED_SIZE_PRODUCT(T_q, T_k);  MM_EINVAL unless a (T_q, T_k) buffer can exist
 *     MM_NEED_DISJOINT(bufs, n_out);   MM_EINVAL if one of the first n_out buffers
 *                                      of the array bufs, each MM_BUFFER(p, n),
 *                                      shares a byte with another
 *     return mm_fail(MM_EINVAL, "mask_padding: ...", ...);   any other
 *                                      failure, with a message of your own
 * MM_TRY(call) returns the status of a call that fails. You may call the
 * library up to chapter 03 - mha_forward (attention/mha.h), sdpa and
 * softmax_row (attention/sdpa.h), mm_matmul (core/matrix.h), ... - and the
 * C functions of judge/harness/allowed.txt (memcpy, malloc, free, isnan,
 * isinf, isfinite, ...). Your mha_forward_causal may call your own
 * mask_causal. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"

/* mask_causal - query i sees keys j <= i: the past and itself.
 *   bias (T, T)   written: 0 where j <= i, -INFINITY where j > i
 * MM_EINVAL, and nothing written: bias NULL; T not positive; T x T too
 * large for a buffer.
 * Book: chapter 04, "The setup" (the causal mask) and "The interface of
 * this chapter".
 *
 * Before you write it, work these out:
 *   - Write the bias of T = 3 by hand. Which row is all 0? Which row has
 *     only its first element visible?
 *   - Must a token see itself? What would its first row be otherwise, and
 *     what does attention give for a row that sees nothing?
 *   - Why -INFINITY and not -1e9? (The same weights for a row that sees a
 *     key; see "Masking, closely: four arguments" for a row that sees
 *     none.) */
mm_status mask_causal(double *bias, int T)
{
    LAB_TODO();
}

/* mask_padding - every query sees the first length keys; the rest are
 * padding (a shorter sequence in a batch of longer ones).
 *   bias (T_q, T_k)   written: 0 where j < length, -INFINITY elsewhere
 * MM_EINVAL, and nothing written: bias NULL; T_q or T_k not positive;
 * length < 0 or length > T_k; T_q x T_k too large for a buffer. With length
 * 0 no key is visible; with length T_k every key is.
 * Book: chapter 04, "The setup" (the padding mask).
 *
 *   - Is it the keys (columns) or the queries (rows) that are padding here?
 *   - Key j is real when j < length: how many keys is that, and which?
 *   - What must a query that sees no key get from attention: weights 0, or
 *     the weights it would have with no mask at all? Which of the two does
 *     -INFINITY give, and which -1e9? */
mm_status mask_padding(double *bias, int T_q, int T_k, int length)
{
    LAB_TODO();
}

/* mask_from_bool - the truth table as a bias:
 *   bias (T_q, T_k)      written: 0 where allowed[i][j] is true (query i
 *                        sees key j), -INFINITY where it is false (hidden)
 *   allowed (T_q, T_k)   read: bool, one byte an element
 * MM_EINVAL, and nothing written: bias or allowed NULL; T_q or T_k not
 * positive; T_q x T_k too large for a buffer; bias and allowed sharing a
 * byte (MM_BUFFER(allowed, n) counts its bytes: sizeof *allowed is 1).
 * Book: chapter 04, "The setup" (the truth table) and "The same masks in
 * PyTorch".
 *
 *   - true means "may see". In PyTorch, nn.MultiheadAttention's boolean
 *     attn_mask means the opposite; F.scaled_dot_product_attention's means
 *     the same. Which one is this function?
 *   - Element (i, j) of allowed is allowed[i * T_k + j], as for bias. */
mm_status mask_from_bool(double *bias, const bool *allowed, int T_q, int T_k)
{
    LAB_TODO();
}

/* mask_combine - bias += other: a key stays visible only where both masks
 * let it through (-INFINITY plus anything finite is -INFINITY); finite
 * biases add.
 *   bias (T_q, T_k)    read and written
 *   other (T_q, T_k)   read
 * MM_EINVAL: bias or other NULL; T_q or T_k not positive; T_q x T_k too
 * large for a buffer; bias and other overlapping without being the same
 * buffer (bias == other is allowed: a mask combined with itself); an element
 * of either that is NaN or +INFINITY. MM_ERANGE: two finite elements whose
 * sum overflows (it would turn a visible key into a hidden one, or into
 * +INFINITY). On any failure bias is unchanged: check everything first.
 * Book: chapter 04, "The setup" (two masks combine by adding).
 *
 *   - Which operation on 0 and -INFINITY is the logical "and" of two truth
 *     tables? Does it still do the right thing for finite biases (1.5 and
 *     -2, say)?
 *   - What is 0 * -INFINITY? And max(0, -INFINITY)?
 *   - A NaN in the last element: what has your loop already done to bias
 *     when it finds it? */
mm_status mask_combine(double *bias, const double *other, int T_q, int T_k)
{
    LAB_TODO();
}

/* mha_forward_causal - the finished layer: chapter 03's mha_forward with
 * the causal mask, so that position t sees positions 0..t only.
 *   out (T, d_model)                          written
 *   weights (n_heads, T, T) or NULL           written: each head's softmax rows
 *   layer (mha.h), x (T, d_model)             read
 * Weights above the diagonal are exactly 0.
 * MM_EINVAL, and nothing written: out, layer or x NULL; T not positive; T x
 * T too large for a buffer; then everything mha_forward refuses (in its
 * name: an overlap, x not finite, ...). MM_ERANGE: what mha_forward reports.
 * MM_ENOMEM: no memory for the (T, T) mask.
 * Book: chapter 04, "The interface of this chapter" and "A worked example:
 * three tokens, causal" (the checks' first case).
 *
 *   - mha_forward(out, weights, layer, x, bias, T) takes a (T, T) bias.
 *     Where does yours come from, who allocates it, and who frees it (on
 *     every way out)?
 *   - Which arguments must you check before you allocate T x T doubles?
 *     (T = INT_MAX: what is T * T * sizeof(double) in a size_t?)
 *   - Mask before the softmax or after it: where does your mask enter? */
mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    LAB_TODO();
}

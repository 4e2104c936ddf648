/* base.h - lab 04 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of judge/lab04/subjects/ includes it after
 * defining MUTANT_<function> for each function it writes itself (with one
 * mistake); solution.c defines none. The parts a mutant changes are macros
 * it may define before including this file:
 *   SEEN, HIDDEN             the bias of a visible key (0.0) and of a hidden one
 *                            (-INFINITY)
 *   CAUSAL_SEES(i, j)        mask_causal: query i sees key j (j <= i)
 *   PADDING_SEES(i, j)       mask_padding: (j < length)
 *   PADDING_LENGTH_OK        mask_padding: the lengths accepted (0 <= length <= T_k)
 *   BOOL_SEES(i, j)          mask_from_bool: (allowed[i * T_k + j])
 *   COMBINE(b, o)            mask_combine: one element of the result (b + o)
 *   COMBINE_BAD(b, o)        a pair refused with MM_EINVAL (a NaN or a +inf)
 *   COMBINE_OVERFLOWS(b, o)  a pair refused with MM_ERANGE (a finite sum that is not)
 *   COMBINE_SAME_REFUSED     defined: bias == other refused as an overlap
 *   COMBINE_WRITES_FIRST     defined: each element checked and written in one loop
 *   FC_PROLOGUE()            anything the causal layer does after its checks (nothing)
 *   FC_MASK(bias, T)         the causal layer's mask (mask_causal(bias, T)); a layer that
 *                            defines FC_SEES(i, j) builds its own: 0 where query i sees
 *                            key j, else FC_HIDDEN (-INFINITY)
 *   FC_BIAS                  the bias the layer passes to mha_forward (bias)
 *   FC_WEIGHTS               the weights it passes on (weights)
 *   FC_FREE(p)               how the mask is freed (free)
 * mha_forward_causal is the chapter's: the checks, a (T, T) mask, mha_forward. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/core/error.h"
#include "lab.h"
#include "args.h"

#ifndef SEEN
#define SEEN 0.0
#endif
#ifndef HIDDEN
#define HIDDEN (-INFINITY)
#endif

#ifndef CAUSAL_SEES
#define CAUSAL_SEES(i, j) ((j) <= (i))
#endif

#ifndef MUTANT_mask_causal
mm_status mask_causal(double *bias, int T)
{
    MASK_CHECK_ARGS(bias, T, T);
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) bias[(size_t)i * T + j] = CAUSAL_SEES(i, j) ? SEEN : HIDDEN;
    return MM_OK;
}
#endif

#ifndef PADDING_SEES
#define PADDING_SEES(i, j) ((j) < length)
#endif
#ifndef PADDING_LENGTH_OK
#define PADDING_LENGTH_OK (length >= 0 && length <= T_k)
#endif

#ifndef MUTANT_mask_padding
mm_status mask_padding(double *bias, int T_q, int T_k, int length)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    if (!PADDING_LENGTH_OK)
        return mm_fail(MM_EINVAL, "mask_padding: length = %d with T_k = %d", length, T_k);
    for (int i = 0; i < T_q; i++)
        for (int j = 0; j < T_k; j++)
            bias[(size_t)i * T_k + j] = PADDING_SEES(i, j) ? SEEN : HIDDEN;
    return MM_OK;
}
#endif

#ifndef BOOL_SEES
#define BOOL_SEES(i, j) (allowed[(size_t)(i) * T_k + (j)])
#endif

#ifndef MUTANT_mask_from_bool
mm_status mask_from_bool(double *bias, const bool *allowed, int T_q, int T_k)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    MM_NEED_BUFFER(allowed);
    BOOL_CHECK_OVERLAP();
    for (int i = 0; i < T_q; i++)
        for (int j = 0; j < T_k; j++)
            bias[(size_t)i * T_k + j] = BOOL_SEES(i, j) ? SEEN : HIDDEN;
    return MM_OK;
}
#endif

#ifndef COMBINE
#define COMBINE(b, o) ((b) + (o))
#endif
#ifndef COMBINE_BAD
#define COMBINE_BAD(b, o) (isnan(b) || isnan(o) || (b) == INFINITY || (o) == INFINITY)
#endif
#ifndef COMBINE_OVERFLOWS
#define COMBINE_OVERFLOWS(b, o) (isfinite(b) && isfinite(o) && isinf((b) + (o)))
#endif

#ifndef MUTANT_mask_combine
/* combine_check - one pair of elements: MM_OK, or the failure */
static mm_status combine_check(double b, double o, size_t e)
{
    if (COMBINE_BAD(b, o))
        return mm_fail(MM_EINVAL, "mask_combine: element %zu is %g and %g", e, b, o);
    if (COMBINE_OVERFLOWS(b, o))
        return mm_fail(MM_ERANGE, "mask_combine: element %zu overflows", e);
    return MM_OK;
}

mm_status mask_combine(double *bias, const double *other, int T_q, int T_k)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    MM_NEED_BUFFER(other);
    COMBINE_CHECK_OVERLAP();
    size_t n = (size_t)T_q * T_k;
#ifndef COMBINE_WRITES_FIRST
    for (size_t e = 0; e < n; e++) MM_TRY(combine_check(bias[e], other[e], e));
#endif
    for (size_t e = 0; e < n; e++) {
#ifdef COMBINE_WRITES_FIRST
        MM_TRY(combine_check(bias[e], other[e], e));
#endif
        bias[e] = COMBINE(bias[e], other[e]);
    }
    return MM_OK;
}
#endif

#ifndef FC_PROLOGUE
#define FC_PROLOGUE() ((void)0)
#endif
#ifdef FC_SEES
#ifndef FC_HIDDEN
#define FC_HIDDEN (-INFINITY)
#endif
static mm_status own_mask(double *bias, int T)
{
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) bias[i * T + j] = FC_SEES(i, j) ? 0.0 : FC_HIDDEN;
    return MM_OK;
}
#define FC_MASK(bias, T) own_mask(bias, T)
#endif
#ifndef FC_MASK
#define FC_MASK(bias, T) mask_causal(bias, T)
#endif
#ifndef FC_BIAS
#define FC_BIAS bias
#endif
#ifndef FC_WEIGHTS
#define FC_WEIGHTS weights
#endif
#ifndef FC_FREE
#define FC_FREE(p) free(p)
#endif

#ifndef MUTANT_mha_forward_causal
mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    CAUSAL_CHECK_ARGS();
    FC_PROLOGUE();
    double *bias = malloc((size_t)T * T * sizeof *bias);
    if (!bias) return mm_fail(MM_ENOMEM, "mha_forward_causal: no memory for the mask");
    mm_status st = FC_MASK(bias, T);
    if (st == MM_OK) st = mha_forward(out, FC_WEIGHTS, layer, x, FC_BIAS, T);
    FC_FREE(bias);
    return st;
}
#endif

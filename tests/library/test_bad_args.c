/* test_bad_args.c - every bad argument of every public function, from one
 * table and one runner; each case runs in its own process (Criterion).
 *
 * The table has two parts. FUNCS describes each function: its pointer
 * arguments in order (output, optional output, input checked for finiteness,
 * optional input that may hide with -inf, input copied as it is, row read and
 * written in place, or the generator) with their shapes, and its number
 * arguments with valid defaults. From it the runner generates the families
 * that hold for every function: each pointer NULL (refused, or accepted when
 * optional); each size 0, -1 and INT_MIN; each output the same buffer as, and
 * overlapping by one element, each other buffer; each checked input holding
 * NaN, +inf or -inf (-inf accepted where it hides a key); and the valid call.
 * Chapter 03's layer is an argument of its own kind: the runner makes it
 * with mha_new (d_model, n_heads), its buffer is the layer's weights
 * (W_QKV then W_O, 4 d_model^2 doubles), "ptr=layer[+k]" points ptr into
 * them (named layer->w_qkv, or layer->w_o from 3 d_model^2 on, in the
 * messages), and "layer=VALUE" sets them.
 * Chapter 04's masks: a bool buffer ('B', mask_from_bool's allowed) holds
 * bytes (its shape 3 x 4, 12 bytes, so that "bias=allowed+1", one double
 * in, is aligned and overlaps it); a mask read and written in
 * place ('k', mask_combine's bias) and a mask read ('K', its other) hold
 * finite values or -inf; where MAY_COINCIDE says so, two buffers may be the
 * same (not overlap in part); where a function delegates its checks
 * (REPORTED_BY "overlaps", mha_forward_causal to mha_forward), the overlap
 * messages may name the callee.
 * Chapter 05's key/value cache is an argument of its own kind too: 'N' is
 * the mha_cache ** that mha_cache_new writes; 'C' a cache read and written
 * (mha_decode_step's), made by the runner with mha_cache_new(layer, T_max)
 * from a layer of mha_new(d_model, n_heads) (its weights all set to w
 * unless w is 0) and fed `steps` tokens first (steps = T_max: a full
 * cache); its buffer is its keys and values (cache->k, 2 T_max d_model
 * doubles), "ptr=work[+k]" points into its working row (cache->work) and
 * "ptr=weights[+k]" into its layer's weights (layer->w_qkv, then
 * layer->w_o). After any call, the cache must still hold its tokens: T as
 * before (one more after MM_OK), their keys and values byte for byte. 'G'
 * is a cache released by mha_cache_free.
 * A layer whose d_model is set above 4096 (no such layer can be allocated)
 * is made with d_model 4 and then claims the larger size (d_model, d_k):
 * the size checks of mha_forward_tiled and mha_cache_new come before any
 * weight is read, and this is the only way to reach them.
 * ROWS adds
 * the cases particular to one function: sizes whose product or sum
 * overflows, INT_MAX accepted, results that overflow (MM_ERANGE), and the
 * documented-but-unchecked cases.
 *
 * A case is a spec of overrides of the valid call:
 *   size=VALUE        T=0, d_k=INT_MAX, n=SIZE_MAX, std=nan
 *   ptr=NULL          a NULL buffer
 *   ptr=other[+k]     ptr is the buffer other, or k doubles into it
 *   ptr=VALUE         every element of ptr's buffer set to VALUE
 *   ptr[i]=VALUE      element i of ptr's buffer set to VALUE
 * For every case the runner checks: the status; the message, which must
 * start with "function: " (or with the callee that checks the argument, where
 * REPORTED_BY or a row says so) and contain the expected text (argument,
 * value);
 * after MM_EINVAL, every buffer byte for byte as before (nothing written);
 * inputs never changed; after MM_OK, outputs finite (unless the function
 * copies its values as they are). Crashes fail the case (Criterion), leaks
 * and undefined behaviour fail the sanitizer and valgrind runs. */
#define _POSIX_C_SOURCE 200809L     /* strtok_r */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/matrix.h"
#include "minimodel/core/rng.h"

/* ---- the functions -------------------------------------------------------------- */

enum { MAXP = 8, MAXN = 5 };
typedef struct {
    const char *name;
    char kind;              /* 'o' output, 'w' output that may be NULL, 'i' input
                               checked finite, 'm' input that may be NULL, finite
                               or -inf (a bias), 'c' input copied as it is, 'b'
                               read and written in place, finite or -inf (a row
                               of scores), 'r' generator, 'l' long output; a
                               layer (mha): 'L' read, 'M' written, 'F' released,
                               'n' the mha ** that mha_new writes; masks
                               (chapter 04): 'B' bool input, 'k' read and
                               written in place, 'K' read, finite or -inf;
                               caches (chapter 05): 'N' the mha_cache **
                               that mha_cache_new writes, 'C' read and
                               written, 'G' released */
    const char *rows, *cols;    /* names of size arguments ("d_qkv": 2 d_k + d_v,
                                   "hd": n_heads d_k, "HT": n_heads T); cols
                                   NULL: a vector, its elements named s[j] */
} ptr_arg;
typedef struct {
    const char *name;
    char kind;              /* 'i' int size > 0, 'z' size_t count, 'x' other */
    const char *value;      /* valid default */
} num_arg;
typedef struct {
    const char *fn;
    ptr_arg p[MAXP];
    num_arg n[MAXN];
} fn_desc;

static const fn_desc FUNCS[] = {
    { "mm_matmul",
      { { "c", 'o', "n", "m" }, { "a", 'i', "n", "k" }, { "b", 'i', "k", "m" } },
      { { "n", 'i', "2" }, { "k", 'i', "3" }, { "m", 'i', "2" }, { "bt", 'x', "0" } } },
    { "qkv_project",
      { { "q", 'o', "T", "d_k" }, { "k", 'o', "T", "d_k" }, { "v", 'o', "T", "d_v" },
        { "x", 'i', "T", "d_model" }, { "w_q", 'i', "d_model", "d_k" },
        { "w_k", 'i', "d_model", "d_k" }, { "w_v", 'i', "d_model", "d_v" } },
      { { "T", 'i', "2" }, { "d_model", 'i', "3" }, { "d_k", 'i', "4" }, { "d_v", 'i', "5" } } },
    { "qkv_pack",
      { { "w_qkv", 'o', "d_model", "d_qkv" }, { "w_q", 'c', "d_model", "d_k" },
        { "w_k", 'c', "d_model", "d_k" }, { "w_v", 'c', "d_model", "d_v" } },
      { { "d_model", 'i', "3" }, { "d_k", 'i', "4" }, { "d_v", 'i', "5" } } },
    { "qkv_split",
      { { "q", 'o', "T", "d_k" }, { "k", 'o', "T", "d_k" }, { "v", 'o', "T", "d_v" },
        { "qkv", 'c', "T", "d_qkv" } },
      { { "T", 'i', "2" }, { "d_k", 'i', "4" }, { "d_v", 'i', "5" } } },
    { "qkv_project_fused",
      { { "q", 'o', "T", "d_k" }, { "k", 'o', "T", "d_k" }, { "v", 'o', "T", "d_v" },
        { "qkv", 'o', "T", "d_qkv" }, { "x", 'i', "T", "d_model" },
        { "w_qkv", 'i', "d_model", "d_qkv" } },
      { { "T", 'i', "2" }, { "d_model", 'i', "3" }, { "d_k", 'i', "4" }, { "d_v", 'i', "5" } } },
    { "qkv_attend_unscaled",
      { { "out", 'o', "T", "d_v" }, { "weights", 'o', "T", "T" }, { "q", 'i', "T", "d_k" },
        { "k", 'i', "T", "d_k" }, { "v", 'i', "T", "d_v" } },
      { { "T", 'i', "2" }, { "d_k", 'i', "4" }, { "d_v", 'i', "5" } } },
    { "attention_param_count",
      { { "count", 'l', "1", "1" } },
      { { "d_model", 'i', "8" }, { "n_heads", 'i', "2" } } },
    { "attention_init_weights",
      { { "w_q", 'o', "d_model", "d_model" }, { "w_k", 'o', "d_model", "d_model" },
        { "w_v", 'o', "d_model", "d_model" }, { "w_o", 'o', "d_model", "d_model" } },
      { { "d_model", 'i', "3" }, { "seed", 'x', "1" } } },
    { "mm_fill_normal",
      { { "w", 'o', "n", "1" }, { "r", 'r', "1", "1" } },
      { { "n", 'z', "5" }, { "std", 'x', "1" } } },
    { "softmax_row",
      { { "s", 'b', "n", NULL } },
      { { "n", 'i', "5" } } },
    { "sdpa",
      { { "out", 'o', "T_q", "d_v" }, { "weights", 'w', "T_q", "T_k" },
        { "q", 'i', "T_q", "d_k" }, { "k", 'i', "T_k", "d_k" }, { "v", 'i', "T_k", "d_v" },
        { "bias", 'm', "T_q", "T_k" } },
      { { "T_q", 'i', "2" }, { "T_k", 'i', "3" }, { "d_k", 'i', "4" }, { "d_v", 'i', "5" } } },
    { "mha_new",
      { { "layer", 'n', "1", "1" } },
      { { "d_model", 'i', "4" }, { "n_heads", 'i', "2" }, { "seed", 'x', "1" } } },
    { "mha_free",           /* released: only the rows below */
      { { "layer", 'F', "1", "1" } },
      { { "d_model", 'x', "4" }, { "n_heads", 'x', "2" } } },
    { "mha_param_count",    /* d_model, n_heads: the layer's (mha_new's) */
      { { "count", 'l', "1", "1" }, { "layer", 'L', "d_model", "d_model" } },
      { { "d_model", 'x', "8" }, { "n_heads", 'x', "2" } } },
    { "mha_get_weights",
      { { "w_q", 'o', "d_model", "d_model" }, { "w_k", 'o', "d_model", "d_model" },
        { "w_v", 'o', "d_model", "d_model" }, { "w_o", 'o', "d_model", "d_model" },
        { "layer", 'L', "d_model", "d_model" } },
      { { "d_model", 'x', "4" }, { "n_heads", 'x', "2" } } },
    { "mha_set_weights",
      { { "layer", 'M', "d_model", "d_model" }, { "w_q", 'i', "d_model", "d_model" },
        { "w_k", 'i', "d_model", "d_model" }, { "w_v", 'i', "d_model", "d_model" },
        { "w_o", 'i', "d_model", "d_model" } },
      { { "d_model", 'x', "4" }, { "n_heads", 'x', "2" } } },
    { "mha_split_heads",
      { { "heads", 'o', "T", "hd" }, { "m", 'c', "T", "hd" } },
      { { "T", 'i', "3" }, { "n_heads", 'i', "2" }, { "d_k", 'i', "2" } } },
    /* listed heads first, in the order mha_merge_heads checks and names them
     * (its call is mha_merge_heads(m, heads, ...): see call) */
    { "mha_merge_heads",
      { { "heads", 'c', "T", "hd" }, { "m", 'o', "T", "hd" } },
      { { "T", 'i', "3" }, { "n_heads", 'i', "2" }, { "d_k", 'i', "2" } } },
    { "mha_forward",        /* the bias is checked by sdpa, head by head */
      { { "out", 'o', "T", "d_model" }, { "weights", 'w', "HT", "T" },
        { "layer", 'L', "d_model", "d_model" }, { "x", 'i', "T", "d_model" },
        { "bias", 'm', "T", "T" } },
      { { "T", 'i', "3" }, { "d_model", 'x', "4" }, { "n_heads", 'x', "2" } } },
    /* chapter 04: the masks and the causal layer */
    { "mask_causal",
      { { "bias", 'o', "T", "T" } },
      { { "T", 'i', "3" } } },
    { "mask_padding",
      { { "bias", 'o', "T_q", "T_k" } },
      { { "T_q", 'i', "2" }, { "T_k", 'i', "3" }, { "length", 'x', "2" } } },
    { "mask_from_bool",     /* 12 bools: "bias=allowed+1" (8 bytes in) overlaps */
      { { "bias", 'o', "T_q", "T_k" }, { "allowed", 'B', "T_q", "T_k" } },
      { { "T_q", 'i', "3" }, { "T_k", 'i', "4" } } },
    { "mask_combine",
      { { "bias", 'k', "T_q", "T_k" }, { "other", 'K', "T_q", "T_k" } },
      { { "T_q", 'i', "2" }, { "T_k", 'i', "3" } } },
    { "mha_forward_causal",   /* its checks, then mha_forward's, in its name */
      { { "out", 'o', "T", "d_model" }, { "weights", 'w', "HT", "T" },
        { "layer", 'L', "d_model", "d_model" }, { "x", 'i', "T", "d_model" } },
      { { "T", 'i', "3" }, { "d_model", 'x', "4" }, { "n_heads", 'x', "2" } } },
    /* chapter 05: the online softmax, the tiles, the cache */
    { "softmax_online",
      { { "s", 'b', "n", NULL } },
      { { "n", 'i', "5" }, { "block", 'i', "2" } } },
    { "sdpa_causal_tiled",
      { { "out", 'o', "T", "d_v" }, { "q", 'i', "T", "d_k" }, { "k", 'i', "T", "d_k" },
        { "v", 'i', "T", "d_v" } },
      { { "T", 'i', "3" }, { "d_k", 'i', "4" }, { "d_v", 'i', "5" }, { "block_q", 'i', "2" },
        { "block_k", 'i', "1" } } },
    { "mha_forward_tiled",
      { { "out", 'o', "T", "d_model" }, { "layer", 'L', "d_model", "d_model" },
        { "x", 'i', "T", "d_model" } },
      { { "T", 'i', "3" }, { "block_q", 'i', "2" }, { "block_k", 'i', "1" },
        { "d_model", 'x', "4" }, { "n_heads", 'x', "2" } } },
    { "mha_cache_new",
      { { "cache", 'N', "1", "1" }, { "layer", 'L', "d_model", "d_model" } },
      { { "T_max", 'i', "3" }, { "d_model", 'x', "4" }, { "n_heads", 'x', "2" } } },
    { "mha_cache_free",     /* released: only the rows below */
      { { "cache", 'G', "1", "1" } },
      { { "d_model", 'x', "4" }, { "n_heads", 'x', "2" }, { "T_max", 'x', "3" },
        { "steps", 'x', "1" }, { "w", 'x', "0" } } },
    /* listed out, x, then the cache: the order in which it checks and names
     * them (its call is mha_decode_step(out, cache, x): see call) */
    { "mha_decode_step",
      { { "out", 'o', "1", "d_model" }, { "x", 'i', "1", "d_model" },
        { "cache", 'C', "1", "1" } },
      { { "d_model", 'x', "4" }, { "n_heads", 'x', "2" }, { "T_max", 'x', "3" },
        { "steps", 'x', "1" }, { "w", 'x', "0" } } },
    { "mm_fail", { { NULL } }, { { "fmt", 'x', "ok" } } },
    { "mm_rng_seed", { { "r", 'r', "1", "1" } }, { { NULL } } },
    { "mm_rng_next", { { "r", 'r', "1", "1" } }, { { NULL } } },
    { "mm_rng_uniform", { { "r", 'r', "1", "1" } }, { { NULL } } },
    { "mm_rng_normal", { { "r", 'r', "1", "1" } }, { { NULL } } },
};
enum { N_FUNCS = sizeof FUNCS / sizeof FUNCS[0] };

/* ---- the cases particular to one function ------------------------------------ */

#define UNCHECKED ((mm_status)-1)   /* documented as unchecked: not run */
typedef struct { const char *fn, *spec; mm_status want; const char *msg; } row;

static const row ROWS[] = {
    /* sizes whose product does not fit in one buffer; INT_MAX accepted */
    { "mm_matmul", "n=INT_MAX,k=INT_MAX", MM_EINVAL,
      "n * k = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "mm_matmul", "k=INT_MAX,m=INT_MAX", MM_EINVAL, "k * m = 2147483647 * 2147483647" },
    { "mm_matmul", "n=INT_MAX,m=INT_MAX", MM_EINVAL, "n * m = 2147483647 * 2147483647" },
    { "mm_matmul", "n=INT_MAX,c=a", MM_EINVAL, "c must not be the same buffer as a" },
    { "mm_matmul", "bt=1", MM_OK, "" },
    { "mm_matmul", "bt=1,b[5]=nan", MM_EINVAL, "b[1][2] is nan; inputs must be finite" },
    { "mm_matmul", "a=b", MM_OK, "" },                        /* inputs may coincide */
    { "mm_matmul", "a=1e200,b=1e200", MM_ERANGE, "c[0][0] is inf; the product overflows" },
    /* inf - inf at c[0][0]: nan or inf, by the order in which the kernel
     * sums (the readable loops give nan; some OpenBLAS kernels inf) */
    { "mm_matmul", "a=1e300,b=1e300,b[2]=-1e300", MM_ERANGE,
      "c[0][0] is nan; the product overflows | c[0][0] is inf; the product overflows" },
    { "qkv_project", "T=INT_MAX,d_model=INT_MAX", MM_EINVAL,
      "T * d_model = 2147483647 * 2147483647 doubles do not fit" },
    { "qkv_project", "T=INT_MAX,d_k=INT_MAX", MM_EINVAL, "T * d_k = 2147483647 * 2147483647" },
    { "qkv_project", "T=INT_MAX,d_v=INT_MAX", MM_EINVAL, "T * d_v = 2147483647 * 2147483647" },
    { "qkv_project", "d_model=INT_MAX,d_k=INT_MAX", MM_EINVAL,
      "d_model * d_k = 2147483647 * 2147483647" },
    { "qkv_project", "d_model=INT_MAX,d_v=INT_MAX", MM_EINVAL,
      "d_model * d_v = 2147483647 * 2147483647" },
    { "qkv_project", "T=INT_MAX,q=k", MM_EINVAL, "q must not be the same buffer as k" },
    { "qkv_project", "w_q=w_k", MM_OK, "" },                 /* tied: inputs coincide */
    { "qkv_project", "x=w_q", MM_OK, "" },
    { "qkv_project", "x=1e200,w_q=1e200", MM_ERANGE, "q[0][0] is inf; Q = X W_Q overflows" },
    { "qkv_project", "x=1e200,w_k=1e200", MM_ERANGE, "k[0][0] is inf; K = X W_K overflows" },
    { "qkv_project", "x=1e200,w_v=-1e200", MM_ERANGE, "v[0][0] is -inf; V = X W_V overflows" },
    { "qkv_pack", "d_k=INT_MAX", MM_EINVAL,
      "the width 2 d_k + d_v = 2 * 2147483647 + 5 does not fit in an int" },
    { "qkv_pack", "d_v=INT_MAX", MM_EINVAL, "2 d_k + d_v = 2 * 4 + 2147483647 does not fit" },
    { "qkv_pack", "d_k=1073741823,d_v=2", MM_EINVAL, "2 * 1073741823 + 2 does not fit" },
    { "qkv_pack", "d_model=INT_MAX,d_k=1073741823,d_v=1", MM_EINVAL, /* the width fits */
      "d_model * d_qkv = 2147483647 * 2147483647 doubles do not fit" },
    { "qkv_pack", "d_model=INT_MAX,d_k=1000000000,d_v=1", MM_EINVAL,
      "d_model * d_qkv = 2147483647 * 2000000001 doubles do not fit" },
    { "qkv_pack", "w_q=w_k", MM_OK, "" },
    { "qkv_split", "d_k=INT_MAX", MM_EINVAL, "2 d_k + d_v = 2 * 2147483647 + 5" },
    { "qkv_split", "d_v=INT_MAX", MM_EINVAL, "2 d_k + d_v = 2 * 4 + 2147483647" },
    { "qkv_split", "T=INT_MAX,d_k=1073741823,d_v=1", MM_EINVAL,   /* the width fits */
      "T * d_qkv = 2147483647 * 2147483647" },
    { "qkv_split", "T=INT_MAX,d_k=1000000000,d_v=1", MM_EINVAL,
      "T * d_qkv = 2147483647 * 2000000001" },
    { "qkv_project_fused", "d_k=INT_MAX", MM_EINVAL, "2 d_k + d_v = 2 * 2147483647 + 5" },
    { "qkv_project_fused", "T=INT_MAX,d_model=INT_MAX", MM_EINVAL,
      "T * d_model = 2147483647 * 2147483647" },
    { "qkv_project_fused", "T=INT_MAX,d_k=1000000000", MM_EINVAL,
      "T * d_qkv = 2147483647 * 2000000005" },
    { "qkv_project_fused", "d_model=INT_MAX,d_k=1000000000", MM_EINVAL,
      "d_model * d_qkv = 2147483647 * 2000000005" },
    { "qkv_project_fused", "x=w_qkv", MM_OK, "" },
    { "qkv_project_fused", "x=1e200,w_qkv=1e200", MM_ERANGE,
      "qkv[0][0] is inf; X W_QKV overflows" },
    { "qkv_attend_unscaled", "T=INT_MAX", MM_EINVAL, "T * T = 2147483647 * 2147483647" },
    { "qkv_attend_unscaled", "T=1073741823,d_k=INT_MAX", MM_EINVAL,
      "T * d_k = 1073741823 * 2147483647" },
    { "qkv_attend_unscaled", "T=1073741823,d_v=INT_MAX", MM_EINVAL,
      "T * d_v = 1073741823 * 2147483647" },
    { "qkv_attend_unscaled", "q=k", MM_OK, "" },
    { "qkv_attend_unscaled", "q=1e200,k=1e200", MM_ERANGE,
      "weights[0][0] is inf; the scores Q K^T overflow" },
    { "qkv_attend_unscaled", "q=30,k=30", MM_ERANGE,
      "overflow: the exponentials of score row 0 sum to inf" },
    { "qkv_attend_unscaled", "q=-30,k=30", MM_ERANGE,
      "underflow: the exponentials of score row 0 sum to 0" },
    { "qkv_attend_unscaled", "T=11,d_k=1,d_v=1,q=0,k=0,v=DBL_MAX", MM_ERANGE,
      "out[0][0] is inf; weights V overflows" },       /* rounding past DBL_MAX */
    { "softmax_row", "n=INT_MAX", UNCHECKED, "sdpa.h: s holds n doubles (unchecked)" },
    { "softmax_row", "s[0]=nan", MM_EINVAL,
      "s[0] is nan; a score must be finite, or -inf for a hidden key" },
    { "softmax_row", "s[2]=inf,s[3]=nan", MM_EINVAL, "s[2] is inf" },   /* the first */
    { "softmax_row", "s=-inf", MM_OK, "" },                 /* all hidden: weights 0 */
    { "softmax_row", "s[1]=-inf,s[3]=-inf", MM_OK, "" },
    { "softmax_row", "s=DBL_MAX", MM_OK, "" },              /* uniform, no overflow */
    { "softmax_row", "s[0]=DBL_MAX,s[1]=-DBL_MAX", MM_OK, "" },   /* s - max is -inf */
    { "softmax_row", "s[0]=1000,s[1]=-1000", MM_OK, "" },
    { "softmax_row", "n=1", MM_OK, "" },
    { "sdpa", "T_q=INT_MAX,d_k=INT_MAX", MM_EINVAL,
      "T_q * d_k = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "sdpa", "T_k=INT_MAX,d_k=INT_MAX", MM_EINVAL, "T_k * d_k = 2147483647 * 2147483647" },
    { "sdpa", "T_k=45,d_k=1,d_v=1,q=0,k=0,v=DBL_MAX", MM_ERANGE, "sdpa: row 0 of out overflows" },
    { "sdpa", "T_k=INT_MAX,d_v=INT_MAX", MM_EINVAL, "T_k * d_v = 2147483647 * 2147483647" },
    { "sdpa", "T_q=INT_MAX,d_v=INT_MAX", MM_EINVAL, "T_q * d_v = 2147483647 * 2147483647" },
    { "sdpa", "T_q=INT_MAX,T_k=INT_MAX", MM_EINVAL, "T_q * T_k = 2147483647 * 2147483647" },
    { "sdpa", "T_q=1073741824,T_k=1073741824", MM_EINVAL,       /* 2^60 > MM_MAX_ELEMENTS */
      "T_q * T_k = 1073741824 * 1073741824 doubles do not fit" },
    { "sdpa", "T_q=1073741824,T_k=1073741823,out=weights", MM_EINVAL,   /* it fits */
      "out must not be the same buffer as weights" },
    { "sdpa", "T_q=INT_MAX,out=weights", MM_EINVAL, "out must not be the same buffer as weights" },
    { "sdpa", "weights=NULL,bias=out", MM_EINVAL, "out must not be the same buffer as bias" },
    { "sdpa", "weights=NULL,bias=NULL,out=v+1", MM_EINVAL, "out must not overlap v" },
    { "sdpa", "weights=NULL,bias=NULL", MM_OK, "" },
    { "sdpa", "q=k", MM_OK, "" },                           /* inputs may coincide */
    { "sdpa", "k=v", MM_OK, "" },
    { "sdpa", "bias=q", MM_OK, "" },
    { "sdpa", "T_q=3,T_k=2,d_k=5,d_v=1", MM_OK, "" },         /* T_q > T_k, d_v < d_k */
    { "sdpa", "q[0]=nan,bias[0]=nan", MM_EINVAL, "q[0][0] is nan; inputs must be finite" },
    { "sdpa", "bias[0]=nan", MM_EINVAL,
      "bias[0][0] is nan; a bias must be finite, or -inf to hide a key" },
    { "sdpa", "bias[4]=inf", MM_EINVAL, "bias[1][1] is inf" },
    { "sdpa", "bias=-inf", MM_OK, "" },             /* nothing seen: weights, out 0 */
    { "sdpa", "bias[0]=-inf,bias[1]=-inf,bias[2]=-inf", MM_OK, "" },
    { "sdpa", "weights=NULL,bias=-inf", MM_OK, "" },
    { "sdpa", "bias=-DBL_MAX", MM_OK, "" },
    { "sdpa", "q=1e200,k=1e200", MM_ERANGE,
      "sdpa: a score of query 0 overflows; q and k hold values too large to multiply (q . k "
      "is checked before the 1/sqrt(d_k) scale)" },
    { "sdpa", "q=-1e154,k=1e154", MM_ERANGE, "a score of query 0 overflows" },  /* -inf */
    { "sdpa", "weights=NULL,q=1e200,k=1e200", MM_ERANGE, "a score of query 0 overflows" },
    { "sdpa", "q[7]=1e200,k=1e200", MM_ERANGE, "a score of query 1 overflows" },
    { "sdpa", "q=1e153,k=1e153", MM_OK, "" },                   /* scores 2e306 */
    { "sdpa", "q=1e153,k=1e153,bias=DBL_MAX", MM_ERANGE,
      "sdpa: query 0, key 0: the score overflows once the bias is added" },
    { "sdpa", "q=1e153,k=1e153,bias[5]=DBL_MAX", MM_ERANGE,
      "query 1, key 2: the score overflows once the bias is added" },
    { "sdpa", "weights=NULL,q=1e153,k=1e153,bias[5]=DBL_MAX", MM_ERANGE,
      "query 1, key 2: the score overflows" },
    { "sdpa", "q=1e153,k=1e153,bias[5]=-inf", MM_OK, "" },
    { "sdpa", "q=-1e153,k=1e153,bias=-DBL_MAX", MM_ERANGE,      /* -2e306 - DBL_MAX */
      "sdpa: query 0, key 0: the score overflows once the bias is added" },
    { "sdpa", "q=-1e153,k=1e153,bias[0]=-inf,bias[1]=-DBL_MAX", MM_ERANGE,
      "sdpa: query 0, key 1: the score overflows" },     /* -inf, then an overflow */
    { "sdpa", "v=DBL_MAX,q=0", MM_OK, "" },                   /* weights 1/3: no overflow */
    { "attention_param_count", "d_model=65,n_heads=4", MM_EINVAL,
      "d_model (65) is not divisible by n_heads (4)" },
    { "attention_param_count", "d_model=INT_MAX,n_heads=1", MM_ERANGE,
      "the count for d_model 2147483647 does not fit in a long" },
    { "attention_param_count", "d_model=1518500250,n_heads=1", MM_ERANGE,
      "the count for d_model 1518500250 does not fit in a long" },
    { "attention_param_count", "d_model=1518500249,n_heads=1", MM_OK, "" },
    { "attention_init_weights", "d_model=INT_MAX", MM_EINVAL,
      "d_model * d_model = 2147483647 * 2147483647" },
    { "attention_init_weights", "d_model=536870912,w_q=w_k", MM_EINVAL,
      "w_q must not be the same buffer as w_k" },
    { "attention_init_weights", "seed=0", MM_OK, "" },
    { "mm_fill_normal", "n=1152921504606846976", MM_EINVAL,
      "n must be in 1..1152921504606846975, got 1152921504606846976" },
    { "mm_fill_normal", "n=1152921504606846975,w=r", MM_EINVAL,
      "w must not be the same buffer as r" },
    { "mm_fill_normal", "std=-1", MM_EINVAL, "std must be in [0, DBL_MAX / 16], got -1" },
    { "mm_fill_normal", "std=nan", MM_EINVAL, "got nan" },
    { "mm_fill_normal", "std=inf", MM_EINVAL, "got inf" },
    { "mm_fill_normal", "std=-inf", MM_EINVAL, "got -inf" },
    { "mm_fill_normal", "std=DBL_MAX", MM_EINVAL, "got 1.79769e+308" },
    { "mm_fill_normal", "std=MM_STD_MAX", MM_OK, "" },
    { "mm_fill_normal", "std=0", MM_OK, "" },
    /* chapter 03: the layer */
    { "mha_new", "d_model=6,n_heads=4", MM_EINVAL, "n_heads = 4 does not divide d_model = "
      "6; each head needs d_model / n_heads columns" },
    { "mha_new", "d_model=4,n_heads=8", MM_EINVAL, "n_heads = 8 does not divide d_model = 4" },
    { "mha_new", "n_heads=INT_MAX", MM_EINVAL,
      "n_heads = 2147483647 does not divide d_model = 4" },
    { "mha_new", "d_model=INT_MAX,n_heads=1", MM_EINVAL, "d_model = 2147483647 is too "
      "large: 3 d_model, the width of W_QKV, does not fit in an int" },
    { "mha_new", "d_model=715827883,n_heads=1", MM_EINVAL,       /* INT_MAX / 3 + 1 */
      "d_model = 715827883 is too large" },
    { "mha_new", "d_model=715827882,n_heads=1", MM_EINVAL,       /* 3 d fits, 4 d^2 not */
      "d_model * 4 d_model = 715827882 * 2863311528 doubles do not fit" },
    { "mha_new", "d_model=536870912,n_heads=2", MM_EINVAL,       /* 4 d^2 = 2^60 */
      "= 536870912 * 2147483648 doubles do not fit in one buffer" },
    { "mha_new", "d_model=1,n_heads=1", MM_OK, "" },
    { "mha_new", "d_model=4,n_heads=4", MM_OK, "" },             /* d_k = 1 */
    { "mha_new", "d_model=64,n_heads=4,seed=0", MM_OK, "" },
    { "mha_free", "", MM_OK, "" },
    { "mha_free", "layer=NULL", MM_OK, "" },                     /* does nothing */
    { "mha_param_count", "d_model=64,n_heads=4", MM_OK, "" },
    { "mha_get_weights", "w_o=layer+48", MM_EINVAL,              /* W_O itself */
      "w_o must not be the same buffer as layer->w_o" },
    { "mha_get_weights", "w_q=layer+63", MM_EINVAL, "w_q must not overlap layer->w_o" },
    { "mha_get_weights", "w_q=layer+47", MM_EINVAL,              /* both: the first */
      "w_q must not overlap layer->w_qkv" },
    { "mha_get_weights", "w_v=layer+32", MM_EINVAL,              /* W_V's rows */
      "w_v must not overlap layer->w_qkv" },
    { "mha_get_weights", "w_v=w_o+15", MM_EINVAL, "w_v must not overlap w_o" },
    { "mha_get_weights", "d_model=64,n_heads=4", MM_OK, "" },
    { "mha_set_weights", "w_o=layer+48", MM_EINVAL,
      "layer->w_o must not be the same buffer as w_o" },
    { "mha_set_weights", "w_k=layer+63", MM_EINVAL, "layer->w_o must not overlap w_k" },
    { "mha_set_weights", "w_q=layer+47", MM_EINVAL,              /* both: the first */
      "layer->w_qkv must not overlap w_q" },
    { "mha_set_weights", "w_q=w_k", MM_OK, "" },                 /* inputs may coincide */
    { "mha_set_weights", "w_q=w_o,w_k=w_o,w_v=w_o", MM_OK, "" },
    { "mha_set_weights", "w_q=-DBL_MAX,w_o=DBL_MAX", MM_OK, "" },
    { "mha_set_weights", "w_v[5]=nan,w_k[7]=inf", MM_EINVAL, "w_k[1][3] is inf" },
    { "mha_set_weights", "d_model=64,n_heads=4", MM_OK, "" },
    { "mha_split_heads", "n_heads=65536,d_k=32768", MM_EINVAL,
      "n_heads = 65536 times d_k = 32768 does not fit in an int" },
    { "mha_split_heads", "n_heads=INT_MAX", MM_EINVAL, "n_heads = 2147483647 times d_k = 2" },
    { "mha_split_heads", "d_k=INT_MAX", MM_EINVAL, "n_heads = 2 times d_k = 2147483647" },
    { "mha_split_heads", "T=INT_MAX,n_heads=32768,d_k=65535", MM_EINVAL,
      "T * n_heads * d_k = 2147483647 * 2147450880 doubles do not fit" },
    { "mha_split_heads", "T=536870913,n_heads=1,d_k=INT_MAX", MM_EINVAL,
      "T * n_heads * d_k = 536870913 * 2147483647" },
    { "mha_split_heads", "T=536870912,n_heads=1,d_k=INT_MAX,heads=m", MM_EINVAL,
      "heads must not be the same buffer as m" },                /* the size fits */
    /* m holds T x n_heads d_k = 12: its last element counts (and heads's) */
    { "mha_split_heads", "heads=m+11", MM_EINVAL, "heads must not overlap m" },
    { "mha_merge_heads", "m=heads+11", MM_EINVAL, "heads must not overlap m" },
    { "mha_split_heads", "n_heads=1", MM_OK, "" },
    { "mha_split_heads", "T=1,n_heads=4,d_k=1", MM_OK, "" },
    { "mha_merge_heads", "n_heads=65536,d_k=32768", MM_EINVAL,
      "n_heads = 65536 times d_k = 32768 does not fit in an int" },
    { "mha_merge_heads", "d_k=INT_MAX", MM_EINVAL, "n_heads = 2 times d_k = 2147483647" },
    { "mha_merge_heads", "T=INT_MAX,n_heads=32768,d_k=65535", MM_EINVAL,
      "T * n_heads * d_k = 2147483647 * 2147450880 doubles do not fit" },
    { "mha_merge_heads", "T=536870912,n_heads=1,d_k=INT_MAX,m=heads", MM_EINVAL,
      "heads must not be the same buffer as m" },
    { "mha_merge_heads", "T=1,n_heads=4,d_k=1", MM_OK, "" },
    { "mha_forward", "T=INT_MAX", MM_EINVAL,
      "T * T = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "mha_forward", "T=1073741824,weights=NULL", MM_EINVAL,      /* T^2 = 2^60 */
      "T * T = 1073741824 * 1073741824 doubles do not fit" },
    { "mha_forward", "T=1073741823", MM_EINVAL, "weights would hold n_heads = 2 times "
      "T x T = 1073741823 x 1073741823 doubles, more than one buffer may" },
    { "mha_forward", "T=1073741823,weights=NULL,out=x", MM_EINVAL,   /* no weights: fits */
      "out must not be the same buffer as x" },
    { "mha_forward", "d_model=64,n_heads=4,T=536870912", MM_EINVAL,  /* 4 T^2 = 2^60 */
      "weights would hold n_heads = 4 times T x T = 536870912 x 536870912 doubles" },
    { "mha_forward", "d_model=64,n_heads=4,T=536870911,out=weights", MM_EINVAL, /* fits */
      "out must not be the same buffer as weights" },
    { "mha_forward", "out=layer+48", MM_EINVAL, "out must not be the same buffer as layer->w_o" },
    { "mha_forward", "weights=layer+48", MM_EINVAL,
      "weights must not be the same buffer as layer->w_o" },
    { "mha_forward", "weights=NULL,out=layer+49", MM_EINVAL, "out must not overlap layer->w_o" },
    { "mha_forward", "out=layer+47", MM_EINVAL, "out must not overlap layer->w_qkv" },
    /* weights holds every head (n_heads T^2 = 18): its last element counts */
    { "mha_forward", "x=weights+17", MM_EINVAL, "weights must not overlap x" },
    { "mha_forward", "out=weights+17", MM_EINVAL, "out must not overlap weights" },
    { "mha_forward", "bias=weights+17", MM_EINVAL, "weights must not overlap bias" },
    { "mha_forward", "weights=NULL,bias=NULL", MM_OK, "" },
    { "mha_forward", "x=layer", MM_OK, "" },          /* inputs may share the weights */
    { "mha_forward", "bias=x", MM_OK, "" },
    { "mha_forward", "bias=-inf", MM_OK, "" },        /* nothing seen: weights, out 0 */
    { "mha_forward", "weights=NULL,bias=-inf", MM_OK, "" },
    { "mha_forward", "bias[0]=-inf,bias[1]=-inf,bias[2]=-inf", MM_OK, "" },
    { "mha_forward", "bias=-DBL_MAX", MM_OK, "" },
    { "mha_forward", "bias[4]=inf", MM_EINVAL, "sdpa: bias[1][1] is inf; a bias must be "
      "finite, or -inf to hide a key" },
    { "mha_forward", "weights=NULL,bias[0]=nan", MM_EINVAL, "sdpa: bias[0][0] is nan" },
    { "mha_forward", "x[0]=nan,bias[0]=nan", MM_EINVAL, "x[0][0] is nan; inputs must be finite" },
    { "mha_forward", "n_heads=1", MM_OK, "" },
    { "mha_forward", "n_heads=4", MM_OK, "" },        /* d_k = 1 */
    { "mha_forward", "T=1", MM_OK, "" },
    { "mha_forward", "d_model=64,n_heads=4,T=8", MM_OK, "" },
    /* the three products that can overflow: X W_QKV, a score, the heads' outputs W_O */
    { "mha_forward", "x=1e200,layer=1e200", MM_ERANGE, "mha_forward: X W_QKV overflows; "
      "x and the weights hold values too large to multiply" },
    { "mha_forward", "weights=NULL,x=-1e200,layer=1e200", MM_ERANGE, "X W_QKV overflows" },
    { "mha_forward", "layer=1e160", MM_ERANGE, "sdpa: a score of query 0 overflows" },
    { "mha_forward", "weights=NULL,layer=1e160", MM_ERANGE,
      "sdpa: a score of query 0 overflows" },
    { "mha_forward", "layer=1e150,bias=DBL_MAX", MM_ERANGE,
      "sdpa: query 0, key 0: the score overflows once the bias is added" },
    { "mha_forward", "layer=1e150", MM_OK, "" },      /* scores 1e300: finite */
    { "mha_forward", "layer=0,layer[20]=1e200,layer[48]=1e200", MM_ERANGE,
      "mha_forward: the heads' outputs times W_O overflow" },  /* W_V[1][0], W_O[0][0] */
    { "mha_forward", "weights=NULL,layer=0,layer[20]=1e200,layer[48]=1e200", MM_ERANGE,
      "the heads' outputs times W_O overflow" },
    { "mha_forward", "layer=0,layer[20]=1e200,layer[48]=1e100", MM_OK, "" },
    /* chapter 04: masks */
    { "mask_causal", "T=INT_MAX", MM_EINVAL,
      "T * T = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "mask_causal", "T=1073741824", MM_EINVAL,                  /* 2^60 */
      "T * T = 1073741824 * 1073741824 doubles do not fit" },
    { "mask_causal", "T=1", MM_OK, "" },
    { "mask_padding", "T_q=INT_MAX,T_k=INT_MAX", MM_EINVAL,
      "T_q * T_k = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "mask_padding", "T_q=1073741824,T_k=1073741824", MM_EINVAL,
      "T_q * T_k = 1073741824 * 1073741824 doubles do not fit" },
    { "mask_padding", "T_k=INT_MAX,length=INT_MAX,T_q=INT_MAX", MM_EINVAL,
      "T_q * T_k = 2147483647 * 2147483647" },   /* sizes before length */
    { "mask_padding", "length=-1", MM_EINVAL,
      "length = -1 must be between 0 and T_k = 3" },
    { "mask_padding", "length=INT_MIN", MM_EINVAL, "length = -2147483648 must be between" },
    { "mask_padding", "length=4", MM_EINVAL, "length = 4 must be between 0 and T_k = 3" },
    { "mask_padding", "length=INT_MAX", MM_EINVAL, "length = 2147483647 must be between" },
    { "mask_padding", "T_k=0,length=-1", MM_EINVAL, "T_k must be positive, got 0" },
    { "mask_padding", "length=0", MM_OK, "" },                   /* nothing visible */
    { "mask_padding", "length=3", MM_OK, "" },                   /* everything */
    { "mask_padding", "T_q=1,T_k=1,length=1", MM_OK, "" },
    { "mask_from_bool", "T_q=INT_MAX,T_k=INT_MAX", MM_EINVAL,
      "T_q * T_k = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "mask_from_bool", "T_q=1073741824,T_k=1073741824", MM_EINVAL,
      "T_q * T_k = 1073741824 * 1073741824" },
    { "mask_from_bool", "T_q=INT_MAX,T_k=INT_MAX,allowed=NULL", MM_EINVAL,
      "T_q * T_k = 2147483647 * 2147483647" },   /* bias and sizes before allowed */
    { "mask_from_bool", "T_q=1073741824,T_k=1073741823,bias=allowed", MM_EINVAL,
      "bias must not be the same buffer as allowed" },           /* the size fits */
    { "mask_from_bool", "allowed=bias+11", MM_EINVAL,   /* in bias's last double */
      "bias must not overlap allowed" },
    { "mask_from_bool", "T_q=1,T_k=9,bias=allowed+1", MM_EINVAL,     /* its 9th byte */
      "bias must not overlap allowed" },
    { "mask_from_bool", "allowed=0", MM_OK, "" },       /* nothing visible */
    { "mask_from_bool", "allowed=1", MM_OK, "" },
    { "mask_from_bool", "T_q=1,T_k=1", MM_OK, "" },
    { "mask_combine", "T_q=INT_MAX,T_k=INT_MAX", MM_EINVAL,
      "T_q * T_k = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "mask_combine", "T_q=1073741824,T_k=1073741824,other=NULL", MM_EINVAL,
      "T_q * T_k = 1073741824 * 1073741824" },
    { "mask_combine", "T_q=1073741824,T_k=1073741823,other=bias+1", MM_EINVAL,
      "bias must not overlap other" },                           /* the size fits */
    { "mask_combine", "other=bias+5", MM_EINVAL, "bias must not overlap other" },
    { "mask_combine", "bias=other+5", MM_EINVAL, "bias must not overlap other" },
    { "mask_combine", "other=bias", MM_OK, "" },                 /* bias += bias */
    { "mask_combine", "other=bias,bias[2]=-inf", MM_OK, "" },
    { "mask_combine", "other=bias,bias[2]=nan", MM_EINVAL,
      "bias[0][2] = nan, other[0][2] = nan; a mask holds finite values or -inf" },
    { "mask_combine", "bias[4]=nan", MM_EINVAL,
      "bias[1][1] = nan, other[1][1] = 0; a mask holds finite values or -inf" },
    { "mask_combine", "bias[3]=inf,other[3]=-inf", MM_EINVAL,
      "bias[1][0] = inf, other[1][0] = -inf; a mask holds finite values or -inf" },
    { "mask_combine", "bias[1]=-inf,other[1]=nan", MM_EINVAL,
      "bias[0][1] = -inf, other[0][1] = nan; a mask holds" },
    { "mask_combine", "bias[1]=nan,other[0]=inf", MM_EINVAL,   /* the first element */
      "bias[0][0] = -0.625, other[0][0] = inf" },
    { "mask_combine", "bias=-inf,other=-inf", MM_OK, "" },       /* -inf + -inf */
    { "mask_combine", "bias=-inf,other=DBL_MAX", MM_OK, "" },
    { "mask_combine", "bias=DBL_MAX,other=-inf", MM_OK, "" },
    { "mask_combine", "bias=DBL_MAX,other=-DBL_MAX", MM_OK, "" },
    { "mask_combine", "bias=1e308,other=1e308", MM_ERANGE,
      "bias[0][0] + other[0][0] overflows" },
    { "mask_combine", "bias[5]=-DBL_MAX,other[5]=-DBL_MAX", MM_ERANGE,
      "bias[1][2] + other[1][2] overflows" },
    { "mask_combine", "other=bias,bias[4]=DBL_MAX", MM_ERANGE,
      "bias[1][1] + other[1][1] overflows" },                    /* 2 DBL_MAX */
    { "mask_combine", "bias[5]=DBL_MAX,other[5]=DBL_MAX,other[4]=nan", MM_EINVAL,
      "other[1][1] = nan" },            /* element order: the NaN comes first */
    { "mask_combine", "bias[0]=DBL_MAX,other[0]=DBL_MAX,other[5]=nan", MM_ERANGE,
      "bias[0][0] + other[0][0] overflows" },
    { "mask_combine", "T_q=1,T_k=1", MM_OK, "" },
    /* the causal layer: its own checks, then mha_forward's */
    { "mha_forward_causal", "T=INT_MAX", MM_EINVAL,
      "T * T = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "mha_forward_causal", "T=1073741824,weights=NULL", MM_EINVAL,
      "T * T = 1073741824 * 1073741824 doubles do not fit" },
    { "mha_forward_causal", "T=INT_MAX,x=NULL", MM_EINVAL, "x is NULL" },
    { "mha_forward_causal", "T=INT_MIN,out=NULL", MM_EINVAL, "out is NULL" },
    /* T x T fits but its 8 EB cannot be allocated: the mask's allocation comes
     * before mha_forward's checks (see the report; the sanitized run lets the
     * allocator return NULL) */
    { "mha_forward_causal", "T=1073741823,weights=NULL,out=x", MM_ENOMEM,
      "no memory for the causal mask of 1073741823 x 1073741823" },
    { "mha_forward_causal", "d_model=64,n_heads=4,T=536870912", MM_ENOMEM,   /* 2^60 bytes */
      "no memory for the causal mask" },   /* mha_forward would refuse the weights' size */
    { "mha_forward_causal", "out=layer+48", MM_EINVAL,
      "mha_forward: out must not be the same buffer as layer->w_o" },
    { "mha_forward_causal", "weights=layer+47", MM_EINVAL,
      "mha_forward: weights must not overlap layer->w_qkv" },
    { "mha_forward_causal", "x=layer", MM_OK, "" },
    { "mha_forward_causal", "x[0]=nan,out=x", MM_EINVAL,       /* overlaps first */
      "mha_forward: out must not be the same buffer as x" },
    { "mha_forward_causal", "x[5]=inf", MM_EINVAL,
      "mha_forward: x[1][1] is inf; inputs must be finite" },
    { "mha_forward_causal", "x=1e200,layer=1e200", MM_ERANGE,
      "mha_forward: X W_QKV overflows" },
    { "mha_forward_causal", "layer=1e160", MM_ERANGE, "sdpa: a score of query 0 overflows" },
    { "mha_forward_causal", "weights=NULL,layer=0,layer[20]=1e200,layer[48]=1e200", MM_ERANGE,
      "mha_forward: the heads' outputs times W_O overflow" },
    { "mha_forward_causal", "layer=1e150", MM_OK, "" },
    { "mha_forward_causal", "n_heads=1", MM_OK, "" },
    { "mha_forward_causal", "n_heads=4", MM_OK, "" },
    { "mha_forward_causal", "T=1", MM_OK, "" },
    { "mha_forward_causal", "d_model=64,n_heads=4,T=8", MM_OK, "" },
    { "mha_forward_causal", "weights=NULL,d_model=64,n_heads=4,T=8", MM_OK, "" },
    /* chapter 05: the online softmax */
    { "softmax_online", "n=INT_MAX", UNCHECKED, "fast.h: s holds n doubles (unchecked)" },
    { "softmax_online", "s[0]=nan", MM_EINVAL,
      "s[0] is nan; a score must be finite, or -inf for a hidden key" },
    { "softmax_online", "s[2]=inf,s[3]=nan", MM_EINVAL, "s[2] is inf" },   /* the first */
    { "softmax_online", "block=INT_MIN,s[0]=nan", MM_EINVAL,
      "block must be positive, got -2147483648" },                       /* sizes first */
    { "softmax_online", "s=-inf", MM_OK, "" },              /* all hidden: weights 0 */
    { "softmax_online", "s[0]=-inf,s[1]=-inf", MM_OK, "" },     /* a hidden block */
    { "softmax_online", "s[1]=-inf,s[3]=-inf", MM_OK, "" },
    { "softmax_online", "s=DBL_MAX", MM_OK, "" },
    { "softmax_online", "s[0]=DBL_MAX,s[1]=-DBL_MAX", MM_OK, "" },
    { "softmax_online", "s[0]=-1000,s[4]=1000", MM_OK, "" },   /* alpha underflows to 0 */
    { "softmax_online", "block=1", MM_OK, "" },
    { "softmax_online", "block=5", MM_OK, "" },
    { "softmax_online", "block=INT_MAX", MM_OK, "" },
    { "softmax_online", "n=1,block=3", MM_OK, "" },
    /* the tiles of one head */
    { "sdpa_causal_tiled", "T=INT_MAX,d_k=INT_MAX", MM_EINVAL,
      "T * d_k = 2147483647 * 2147483647 doubles do not fit in one buffer" },
    { "sdpa_causal_tiled", "T=INT_MAX,d_v=INT_MAX", MM_EINVAL,
      "T * d_v = 2147483647 * 2147483647 doubles do not fit" },
    { "sdpa_causal_tiled", "T=INT_MAX,block_q=INT_MAX,block_k=INT_MAX,out=q", MM_EINVAL,
      "tiles of block_q = 2147483647 by block_k = 2147483647" },  /* before the overlap */
    { "sdpa_causal_tiled", "T=INT_MAX,block_q=1,block_k=INT_MAX,out=q", MM_EINVAL,
      "out must not be the same buffer as q" },                  /* the sizes fit */
    /* tiles of exactly MM_MAX_ELEMENTS = 2^60 - 1 doubles fit (the call then
     * fails on the overlap), one more do not. tiles_size = bq bk + 2 bq d_v +
     * d_k bk + 2 bq: with b = 357913941, d_k = 2, d_v = 1431655765 it is
     * b (b + 2 d_v + 4) = 357913941 x 3221225475 = 2^60 - 1; with b = 2^29,
     * d_k = 2^29, d_v = 2^29 - 1 it is 2^58 + (2^59 - 2^30) + 2^58 + 2^30 = 2^60 */
    { "sdpa_causal_tiled", "T=357913941,d_k=2,d_v=1431655765,block_q=357913941,"
      "block_k=357913941,out=q", MM_EINVAL, "out must not be the same buffer as q" },
    { "sdpa_causal_tiled", "T=536870912,d_k=536870912,d_v=536870911,block_q=536870912,"
      "block_k=536870912,out=q", MM_EINVAL, "tiles of block_q = 536870912 by block_k = "
      "536870912 (d_k = 536870912, d_v = 536870911)" },
    /* tiles of 2^30 x 2^29 with d_v = 2^28: 2^60 + 2^29 + 2^31 doubles, just past
     * the limit; with block_q and block_k (or d_k and d_v) swapped they would
     * fit: the check takes each size in its place */
    { "sdpa_causal_tiled", "T=1073741824,d_k=1,d_v=268435456,block_q=1073741824,"
      "block_k=536870912", MM_EINVAL, "tiles of block_q = 1073741824 by block_k = "
      "536870912 (d_k = 1, d_v = 268435456) need more doubles than one buffer may hold" },
    { "sdpa_causal_tiled", "T=INT_MIN,out=NULL", MM_EINVAL, "out is NULL" },
    { "sdpa_causal_tiled", "block_q=INT_MAX,block_k=INT_MAX", MM_OK, "" },  /* cut to T */
    { "sdpa_causal_tiled", "block_q=1,block_k=1", MM_OK, "" },
    { "sdpa_causal_tiled", "block_q=1,block_k=5", MM_OK, "" },
    { "sdpa_causal_tiled", "T=1", MM_OK, "" },
    { "sdpa_causal_tiled", "d_k=1,d_v=7", MM_OK, "" },
    { "sdpa_causal_tiled", "q=k", MM_OK, "" },                 /* inputs may coincide */
    { "sdpa_causal_tiled", "k=v", MM_OK, "" },
    { "sdpa_causal_tiled", "out=v+1", MM_EINVAL, "out must not overlap v" },
    { "sdpa_causal_tiled", "q[0]=nan,out=q", MM_EINVAL,        /* overlaps first */
      "out must not be the same buffer as q" },
    { "sdpa_causal_tiled", "q=1e200,k=1e200", MM_ERANGE, "sdpa_causal_tiled: the score "
      "of query 0 and key 0 overflows; q and k hold values too large to multiply" },
    { "sdpa_causal_tiled", "q=-1e200,k=1e200,block_q=3,block_k=3", MM_ERANGE,
      "the score of query 0 and key 0 overflows" },             /* -inf */
    { "sdpa_causal_tiled", "q[8]=1e200,k=1e200", MM_ERANGE,    /* query 2's first */
      "the score of query 2 and key 0 overflows" },
    /* key 1's score with query 0 (1e200 x 1e200) is hidden: never checked */
    { "sdpa_causal_tiled", "q[0]=1e200,k[4]=1e200", MM_OK, "" },
    { "sdpa_causal_tiled", "q[0]=1e200,k[4]=1e200,block_q=3,block_k=3", MM_OK, "" },
    { "sdpa_causal_tiled", "q=1e153,k=1e153", MM_OK, "" },      /* scores 2e306 */
    /* means of DBL_MAX with weights 1 and 1/2, exact in any order (a mean that
     * passes DBL_MAX only by rounding is test_fast's, with the readable loops) */
    { "sdpa_causal_tiled", "T=2,q=0,k=0,v=DBL_MAX", MM_OK, "" },
    { "sdpa_causal_tiled", "T=1,q=0,k=0,v=DBL_MAX", MM_OK, "" },
    /* the layer in tiles: its own checks (no mask, no weights: T x 8 d_model,
     * the tiles) */
    { "mha_forward_tiled", "T=INT_MAX,block_q=INT_MAX,block_k=INT_MAX", MM_EINVAL,
      "tiles of block_q = 2147483647 by block_k = 2147483647 (d_k = 2, d_v = 2) need "
      "more doubles than one buffer may hold" },
    { "mha_forward_tiled", "T=1073741824,block_q=1073741824,block_k=1073741824", MM_EINVAL,
      "tiles of block_q = 1073741824 by block_k = 1073741824" },   /* 2^60 tiles */
    { "mha_forward_tiled", "T=INT_MAX,block_k=INT_MAX,out=x", MM_EINVAL,
      "out must not be the same buffer as x" },     /* 2 x 2^31 tiles: they fit */
    { "mha_forward_tiled", "T=1073741800,block_q=1073741800,block_k=1073741800,out=x",
      MM_EINVAL, "out must not be the same buffer as x" },       /* just below */
    /* a layer that claims d_model = 2^27 - 2, two heads: tiles of 2^30 x
     * 888741824 just past the limit, which they would not pass swapped */
    { "mha_forward_tiled", "d_model=134217726,n_heads=2,T=1073741824,block_q=1073741824,"
      "block_k=888741824", MM_EINVAL, "tiles of block_q = 1073741824 by block_k = "
      "888741824 (d_k = 67108863, d_v = 67108863)" },
    /* a layer that claims d_model = 2^28 (see the header): T x 8 d_model */
    { "mha_forward_tiled", "d_model=268435456,T=1073741824", MM_EINVAL,
      "T * 8 d_model = 1073741824 * 2147483648 doubles do not fit in one buffer" },
    { "mha_forward_tiled", "d_model=268435456,T=INT_MAX,x=NULL", MM_EINVAL, "x is NULL" },
    { "mha_forward_tiled", "T=INT_MIN,out=NULL", MM_EINVAL, "out is NULL" },
    { "mha_forward_tiled", "out=layer+48", MM_EINVAL,
      "out must not be the same buffer as layer->w_o" },
    { "mha_forward_tiled", "out=layer+47", MM_EINVAL, "out must not overlap layer->w_qkv" },
    { "mha_forward_tiled", "out=layer+63", MM_EINVAL, "out must not overlap layer->w_o" },
    { "mha_forward_tiled", "x=layer", MM_OK, "" },              /* both read */
    { "mha_forward_tiled", "x[0]=nan,out=x", MM_EINVAL, "out must not be the same buffer as x" },
    { "mha_forward_tiled", "x[5]=inf", MM_EINVAL, "x[1][1] is inf; inputs must be finite" },
    { "mha_forward_tiled", "x=1e200,layer=1e200", MM_ERANGE, "mha_forward_tiled: X W_QKV "
      "overflows; x and the weights hold values too large to multiply" },
    { "mha_forward_tiled", "layer=1e160", MM_ERANGE, "mha_forward_tiled: head 0: "
      "the score of query 0 and key 0 overflows" },
    { "mha_forward_tiled", "layer=0,layer[20]=1e200,layer[48]=1e200", MM_ERANGE,
      "mha_forward_tiled: the heads' outputs times W_O overflow" },  /* W_V[1][0], W_O[0][0] */
    { "mha_forward_tiled", "layer=0,layer[20]=1e200,layer[48]=1e100", MM_OK, "" },
    { "mha_forward_tiled", "layer=1e150", MM_OK, "" },          /* scores 1e300: finite */
    { "mha_forward_tiled", "block_q=INT_MAX,block_k=INT_MAX", MM_OK, "" },   /* cut to T */
    { "mha_forward_tiled", "block_q=1,block_k=3", MM_OK, "" },
    { "mha_forward_tiled", "n_heads=1", MM_OK, "" },
    { "mha_forward_tiled", "n_heads=4", MM_OK, "" },            /* d_k = 1 */
    { "mha_forward_tiled", "T=1", MM_OK, "" },
    { "mha_forward_tiled", "d_model=64,n_heads=4,T=8", MM_OK, "" },
    /* the cache */
    { "mha_cache_new", "T_max=INT_MAX,d_model=64,n_heads=4", MM_ENOMEM,    /* 2 TiB */
      "mha_cache_new: no memory for a cache of 2147483647 tokens of width 64" },
    /* a layer that claims d_model = 2^29 (see the header): 2 T_max x d_model */
    { "mha_cache_new", "d_model=536870912,n_heads=1,T_max=1073741824", MM_EINVAL,
      "2 T_max * d_model = 2147483648 * 536870912 doubles do not fit in one buffer" },
    { "mha_cache_new", "T_max=INT_MIN,layer=NULL", MM_EINVAL, "layer is NULL" },
    { "mha_cache_new", "T_max=1", MM_OK, "" },
    { "mha_cache_new", "d_model=64,n_heads=4,T_max=64", MM_OK, "" },
    { "mha_cache_free", "", MM_OK, "" },
    { "mha_cache_free", "steps=3", MM_OK, "" },                  /* a full cache */
    { "mha_cache_free", "cache=NULL", MM_OK, "" },               /* does nothing */
    /* a step */
    { "mha_decode_step", "steps=3", MM_EINVAL,
      "mha_decode_step: the cache is full: it holds T_max = 3 tokens" },
    { "mha_decode_step", "T_max=1,steps=1", MM_EINVAL, "the cache is full: it holds T_max = 1" },
    { "mha_decode_step", "steps=3,out=NULL", MM_EINVAL, "out is NULL" },   /* NULL first */
    { "mha_decode_step", "steps=3,x=out", MM_EINVAL, "the cache is full" },  /* then full */
    { "mha_decode_step", "steps=0", MM_OK, "" },
    { "mha_decode_step", "steps=2", MM_OK, "" },                 /* the last room */
    { "mha_decode_step", "T_max=1,steps=0", MM_OK, "" },
    { "mha_decode_step", "n_heads=1", MM_OK, "" },
    { "mha_decode_step", "n_heads=4", MM_OK, "" },
    { "mha_decode_step", "d_model=64,n_heads=4,T_max=40,steps=30", MM_OK, "" },
    { "mha_decode_step", "out=work", MM_EINVAL,
      "out must not be the same buffer as cache->work" },
    { "mha_decode_step", "x=work+15", MM_EINVAL, "x must not overlap cache->work" },
    { "mha_decode_step", "out=cache+21", MM_EINVAL, "out must not overlap cache->k" },
    { "mha_decode_step", "x=weights+48", MM_EINVAL,
      "x must not be the same buffer as layer->w_o" },
    { "mha_decode_step", "out=weights+47", MM_EINVAL, "out must not overlap layer->w_qkv" },
    { "mha_decode_step", "x[0]=nan,out=x", MM_EINVAL, "out must not be the same buffer as x" },
    { "mha_decode_step", "x[2]=-inf", MM_EINVAL, "x[0][2] is -inf; inputs must be finite" },
    /* the three products: x W_QKV, a score, out (the weights set before any step) */
    { "mha_decode_step", "steps=0,w=1e200,x=1e200", MM_ERANGE,
      "mha_decode_step: x W_QKV overflows; x and the weights hold values too large" },
    { "mha_decode_step", "x=1e200", MM_ERANGE,          /* key 0 is of token 0: small */
      "mha_decode_step: the score of token 1 and key 1 overflows" },
    { "mha_decode_step", "steps=0,w=1e160", MM_ERANGE, "the score of token 0 and key 0 overflows" },
    { "mha_decode_step", "steps=0,w=1e155,x=0.01", MM_ERANGE,   /* q = k = v = 4e153 */
      "mha_decode_step: out overflows; the values or W_O hold values too large" },
    { "mha_decode_step", "steps=0,w=1e150,x=0.01", MM_OK, "" },
    { "mm_fail", "fmt=NULL", MM_ERANGE, "mm_fail: fmt is NULL (status MM_ERANGE)" },
    { "mm_fail", "", MM_ERANGE, "mm_fail: ok" },
    { "mm_rng_seed", "r=NULL", UNCHECKED, "rng.h: r is not NULL (unchecked)" },
    { "mm_rng_next", "r=NULL", UNCHECKED, "rng.h: r is not NULL (unchecked)" },
    { "mm_rng_uniform", "r=NULL", UNCHECKED, "rng.h: r is not NULL (unchecked)" },
    { "mm_rng_normal", "r=NULL", UNCHECKED, "rng.h: r is not NULL (unchecked)" },
    { "mm_rng_normal", "", MM_OK, "" },
};
enum { N_ROWS = sizeof ROWS / sizeof ROWS[0] };

/* REPORTED_BY - arguments whose values a callee checks, so that its message
 * may name the callee: mha_forward leaves the bias to sdpa, which checks it
 * for head 0 before anything is written. (A row names such a callee by
 * starting its expected text with it, as "sdpa: ...".) The message must then
 * start with the function or the callee, and hold the rest of the text; if
 * mha_forward comes to check the bias, and to name itself when a head's
 * sdpa fails, these cases pass as they are, and this table and the "sdpa: "
 * of the rows can go. */
static const struct { const char *fn, *arg, *callee; } REPORTED_BY[] = {
    { "mha_forward", "bias", "sdpa" },
    { "mha_forward_causal", "x", "mha_forward" },
    { "mha_forward_causal", "overlaps", "mha_forward" },
};

/* MAY_COINCIDE - pairs of buffers that may be the same buffer (and must not
 * overlap in part): written and read, as mask_combine(b, b) adds b to itself.
 * The generated "read=written" case passes; "written=read" is left out (it
 * would write the read buffer, which the runner checks is unchanged). */
static const struct { const char *fn, *written, *read; } MAY_COINCIDE[] = {
    { "mask_combine", "bias", "other" },
};

static int may_coincide(const char *fn, const char *a, const char *b)
{
    for (size_t i = 0; i < sizeof MAY_COINCIDE / sizeof MAY_COINCIDE[0]; i++)
        if (!strcmp(MAY_COINCIDE[i].fn, fn) &&
            ((!strcmp(MAY_COINCIDE[i].written, a) && !strcmp(MAY_COINCIDE[i].read, b)) ||
             (!strcmp(MAY_COINCIDE[i].written, b) && !strcmp(MAY_COINCIDE[i].read, a))))
            return 1;
    return 0;
}

static const char *reported_by(const char *fn, const char *arg)
{
    for (size_t i = 0; i < sizeof REPORTED_BY / sizeof REPORTED_BY[0]; i++)
        if (!strcmp(REPORTED_BY[i].fn, fn) && !strcmp(REPORTED_BY[i].arg, arg))
            return REPORTED_BY[i].callee;
    return NULL;
}

/* ---- a case: generated from FUNCS or taken from ROWS ---------------------------- */

typedef struct {
    int fn;                 /* index in FUNCS */
    char spec[96];
    int want;
    char msg[160];
    char via[24];           /* the function the message names, if not FUNCS[fn] */
} test_case;

static const fn_desc *find_fn(const char *name)
{
    for (int i = 0; i < N_FUNCS; i++)
        if (strcmp(FUNCS[i].fn, name) == 0) return &FUNCS[i];
    return NULL;
}

/* written - an argument the function writes; optional - one that may be NULL */
static int written(char kind)
{
    return kind == 'o' || kind == 'w' || kind == 'b' || kind == 'M' || kind == 'n' ||
           kind == 'k' || kind == 'N' || kind == 'C';
}
static int optional(char kind) { return kind == 'w' || kind == 'm'; }

/* a_layer - an mha made by the runner; alias_name - an argument as the
 * overlap messages name it: a layer by its weights */
static int a_layer(char kind) { return kind == 'L' || kind == 'M' || kind == 'F'; }
static int a_cache(char kind) { return kind == 'N' || kind == 'C' || kind == 'G'; }
static const char *alias_name(const ptr_arg *p)
{
    return a_layer(p->kind) ? "layer->w_qkv" : p->kind == 'C' ? "cache->k" : p->name;
}

/* nonfinite_reason - the end of the message for a NaN or +inf argument */
static const char *nonfinite_reason(char kind)
{
    return kind == 'k' || kind == 'K' ? "a mask holds finite values or -inf"
         : kind == 'm' ? "a bias must be finite, or -inf to hide a key"
         : kind == 'b' ? "a score must be finite, or -inf for a hidden key"
         : "inputs must be finite";
}

static int n_ptrs(const fn_desc *f) { int n = 0; while (n < MAXP && f->p[n].name) n++; return n; }
static int n_nums(const fn_desc *f) { int n = 0; while (n < MAXN && f->n[n].name) n++; return n; }

static test_case *add(test_case *all, size_t *n, const fn_desc *f, const char *spec,
                      int want, const char *msg, const char *via)
{
    test_case *c = &all[(*n)++];
    c->fn = (int)(f - FUNCS);
    snprintf(c->spec, sizeof c->spec, "%s", spec);
    c->want = want;
    snprintf(c->msg, sizeof c->msg, "%s", msg);
    snprintf(c->via, sizeof c->via, "%s", via ? via : "");
    return c;
}

/* add_aliases - every forbidden alias of f's buffers: each output the same
 * buffer as, and overlapping by one element, each other buffer */
static void add_aliases(test_case *all, size_t *n, const fn_desc *f)
{
    char spec[96], msg[160];
    int np = n_ptrs(f);
    for (int i = 0; i < np; i++)                        /* every forbidden alias */
        for (int j = 0; j < np; j++) {
            if (i == j || (!written(f->p[i].kind) && !written(f->p[j].kind))) continue;
            if (a_layer(f->p[i].kind)) continue;        /* a layer is not a buffer */
            if (a_cache(f->p[i].kind) || f->p[j].kind == 'N') continue;   /* nor a cache */
            int lo = i < j ? i : j, hi = i < j ? j : i;
            const char *via = reported_by(f->fn, "overlaps");
            snprintf(spec, sizeof spec, "%s=%s", f->p[i].name, f->p[j].name);
            snprintf(msg, sizeof msg, "%s must not be the same buffer as %s",
                     alias_name(&f->p[lo]), alias_name(&f->p[hi]));
            if (!may_coincide(f->fn, f->p[i].name, f->p[j].name))
                add(all, n, f, spec, MM_EINVAL, msg, via);
            else if (!written(f->p[i].kind))            /* read = written: allowed */
                add(all, n, f, spec, MM_OK, "", NULL);
            snprintf(spec, sizeof spec, "%s=%s+1", f->p[i].name, f->p[j].name);
            snprintf(msg, sizeof msg, "%s must not overlap %s",
                     alias_name(&f->p[lo]), alias_name(&f->p[hi]));
            add(all, n, f, spec, MM_EINVAL, msg, via);
        }
}

/* add_nonfinite - NaN, +inf and -inf in each of f's checked inputs */
static void add_nonfinite(test_case *all, size_t *n, const fn_desc *f)
{
    char spec[96], msg[160];
    int np = n_ptrs(f);
    for (int i = 0; i < np; i++) {                      /* NaN and infinities */
        char kind = f->p[i].kind;
        if (kind != 'i' && kind != 'c' && kind != 'm' && kind != 'b' && kind != 'k' &&
            kind != 'K') continue;
        static const char *const v[] = { "nan", "inf", "-inf" };
        for (int b = 0; b < 3; b++) {
            snprintf(spec, sizeof spec, "%s[LAST]=%s", f->p[i].name, v[b]);
            if ((kind == 'k' || kind == 'K') && b < 2) {    /* "name[i][j] = v" */
                snprintf(msg, sizeof msg, "%s[LAST] = %s%s%s", f->p[i].name, v[b],
                         kind == 'K' ? "; " : "",   /* other: the end of the message */
                         kind == 'K' ? nonfinite_reason(kind) : "");
                add(all, n, f, spec, MM_EINVAL, msg, NULL);
            } else if (kind == 'i' || ((kind == 'm' || kind == 'b') && b < 2)) {
                snprintf(msg, sizeof msg, "%s[LAST] is %s; %s", f->p[i].name, v[b],
                         nonfinite_reason(kind));
                add(all, n, f, spec, MM_EINVAL, msg, reported_by(f->fn, f->p[i].name));
            } else {
                add(all, n, f, spec, MM_OK, "", NULL);   /* copied as it is; -inf hides */
            }
        }
    }
}

/* generate - the families every function has, then ROWS */
static size_t generate(test_case *all)
{
    size_t n = 0;
    char spec[96], msg[160];
    for (int fi = 0; fi < N_FUNCS; fi++) {
        const fn_desc *f = &FUNCS[fi];
        if (f->p[0].name == NULL && f->n[0].name && strcmp(f->fn, "mm_fail") == 0) continue;
        if (strncmp(f->fn, "mm_rng_", 7) == 0) continue;    /* unchecked: in ROWS */
        if (strcmp(f->fn, "mha_free") == 0) continue;       /* no status: in ROWS */
        if (strcmp(f->fn, "mha_cache_free") == 0) continue; /* no status: in ROWS */
        int np = n_ptrs(f), nn = n_nums(f);
        add(all, &n, f, "", MM_OK, "", NULL);               /* the valid call */
        for (int i = 0; i < np; i++) {                      /* every pointer NULL */
            snprintf(spec, sizeof spec, "%s=NULL", f->p[i].name);
            snprintf(msg, sizeof msg, "%s is NULL", f->p[i].name);
            if (optional(f->p[i].kind)) add(all, &n, f, spec, MM_OK, "", NULL);
            else add(all, &n, f, spec, MM_EINVAL, msg, NULL);
        }
        for (int i = 0; i < nn; i++) {                      /* every size 0, < 0 */
            static const char *const bad[] = { "0", "-1", "INT_MIN" };
            static const char *const got[] = { "0", "-1", "-2147483648" };
            for (int b = 0; b < 3; b++) {
                if (f->n[i].kind == 'i') {
                    snprintf(spec, sizeof spec, "%s=%s", f->n[i].name, bad[b]);
                    snprintf(msg, sizeof msg, "%s must be positive, got %s",
                             f->n[i].name, got[b]);
                    add(all, &n, f, spec, MM_EINVAL, msg, NULL);
                } else if (f->n[i].kind == 'z' && b < 2) {  /* -1 is SIZE_MAX */
                    snprintf(spec, sizeof spec, "%s=%s", f->n[i].name, b ? "SIZE_MAX" : "0");
                    snprintf(msg, sizeof msg, "%s must be in 1..%zu, got %s",
                             f->n[i].name, MM_MAX_ELEMENTS, b ? "18446744073709551615" : "0");
                    add(all, &n, f, spec, MM_EINVAL, msg, NULL);
                }
            }
        }
        add_aliases(all, &n, f);
        add_nonfinite(all, &n, f);
    }
    for (int r = 0; r < N_ROWS; r++) {
        char callee[24] = "";                 /* "sdpa: ..." in a row of mha_forward */
        const char *colon = strstr(ROWS[r].msg, ": ");
        if (colon && colon - ROWS[r].msg < (long)sizeof callee)
            snprintf(callee, sizeof callee, "%.*s", (int)(colon - ROWS[r].msg), ROWS[r].msg);
        int other = callee[0] && find_fn(callee) && strcmp(callee, ROWS[r].fn);
        add(all, &n, find_fn(ROWS[r].fn), ROWS[r].spec, ROWS[r].want,
            other ? colon + 2 : ROWS[r].msg, other ? callee : NULL);
    }
    const char *every = getenv("MM_BAD_ARGS_EVERY");     /* a sample, for valgrind */
    long k = every ? atol(every) : 1, kept = 0;
    for (size_t i = 0; k > 1 && i < n; i += (size_t)k) all[kept++] = all[i];
    return k > 1 ? (size_t)kept : n;
}

/* ---- running a case ---------------------------------------------------------------- */

typedef struct {
    const fn_desc *f;
    char num[MAXN][32];         /* the number arguments, as text */
    double *buf[MAXP];          /* the buffers, one allocation each */
    size_t len[MAXP];           /* their lengths in doubles */
    void *p[MAXP];              /* the pointer arguments */
    mha *layer[MAXP];           /* the layers made for 'L', 'M', 'F' (buf: weights) */
    mha_cache *cache[MAXP];     /* the caches made for 'C', 'G' (buf: keys, values) */
    int held[MAXP];             /* the tokens a 'C' cache held before the call */
} call_env;

static int num_index(const call_env *e, const char *name)
{
    for (int i = 0; i < n_nums(e->f); i++)
        if (strcmp(e->f->n[i].name, name) == 0) return i;
    return -1;
}

static int ptr_index(const call_env *e, const char *name)
{
    for (int i = 0; i < n_ptrs(e->f); i++)
        if (strcmp(e->f->p[i].name, name) == 0) return i;
    return -1;
}

/* number - a numeric literal or one of the named limits */
static long double number(const char *s)
{
    static const struct { const char *name; long double value; } named[] = {
        { "INT_MAX", INT_MAX }, { "INT_MIN", INT_MIN }, { "SIZE_MAX", SIZE_MAX },
        { "DBL_MAX", DBL_MAX }, { "-DBL_MAX", -DBL_MAX }, { "MM_STD_MAX", MM_STD_MAX },
        { "nan", NAN }, { "inf", INFINITY }, { "-inf", -INFINITY },
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(s, named[i].name) == 0) return named[i].value;
    return strtold(s, NULL);
}

/* count - a size_t argument, exactly (valgrind computes long double as double) */
static size_t count(const char *s)
{
    return strcmp(s, "SIZE_MAX") == 0 ? SIZE_MAX : (size_t)strtoull(s, NULL, 10);
}

/* I - a number argument as a long, clamped (SIZE_MAX does not fit) */
static long I(const call_env *e, const char *name)
{
    long double v = number(e->num[num_index(e, name)]);
    return v > LONG_MAX ? LONG_MAX : v < LONG_MIN ? LONG_MIN : (long)v;
}

/* dim - a size of a shape, as the case sets it ("d_qkv" is 2 d_k + d_v) */
static long dim(const call_env *e, const char *name)
{
    if (name == NULL || strcmp(name, "1") == 0) return 1;       /* NULL: a vector */
    if (strcmp(name, "d_qkv") == 0) return 2 * I(e, "d_k") + I(e, "d_v");
    if (strcmp(name, "hd") == 0) return I(e, "n_heads") * I(e, "d_k");
    if (strcmp(name, "HT") == 0) return I(e, "n_heads") * I(e, "T");
    return I(e, name);
}

/* cache_buffer - "work" or "weights" of the case's cache: its working row,
 * its layer's weights (W_QKV, then W_O); NULL for any other name */
static double *cache_buffer(const call_env *e, const char *name)
{
    for (int i = 0; i < MAXP; i++) {
        if (e->cache[i] == NULL) continue;
        if (strcmp(name, "work") == 0) return e->cache[i]->work;
        if (strcmp(name, "weights") == 0) return e->layer[i]->w_qkv;
    }
    return NULL;
}

/* apply - one override of the spec; returns 0 if it is not understood */
static int apply(call_env *e, const char *tok, int buffers_ready)
{
    char name[32], value[32];
    const char *eq = strchr(tok, '=');
    if (!eq || eq - tok >= (long)sizeof name) return 0;
    snprintf(name, sizeof name, "%.*s", (int)(eq - tok), tok);
    snprintf(value, sizeof value, "%s", eq + 1);
    char *bracket = strchr(name, '[');
    long index = -1;
    if (bracket) { *bracket = '\0'; index = strcmp(bracket + 1, "LAST]") == 0 ? -2 : atol(bracket + 1); }
    int ni = num_index(e, name), pi = ptr_index(e, name);
    if (ni >= 0 && !buffers_ready) { snprintf(e->num[ni], sizeof e->num[ni], "%s", value); return 1; }
    if (ni >= 0 || pi < 0) return ni >= 0 || pi >= 0;
    if (!buffers_ready) return 1;
    if (strcmp(value, "NULL") == 0) { e->p[pi] = NULL; return 1; }
    char other[32];
    long shift = 0;
    snprintf(other, sizeof other, "%s", value);
    char *plus = strchr(other, '+');
    if (plus) { *plus = '\0'; shift = atol(plus + 1); }
    int oi = ptr_index(e, other);
    if (oi >= 0) { e->p[pi] = (char *)e->buf[oi] + shift * sizeof(double); return 1; }
    double *named = cache_buffer(e, other);
    if (named) { e->p[pi] = (char *)named + shift * sizeof(double); return 1; }
    double v = (double)number(value);
    if (e->f->p[pi].kind == 'B') {          /* bools: 0 false, anything else true */
        bool *b = (bool *)(void *)e->buf[pi];
        if (index == -1)
            for (size_t k = 0; k < e->len[pi]; k++) b[k] = v != 0;
        else
            b[index == -2 ? e->len[pi] - 1 : (size_t)index] = v != 0;
        return 1;
    }
    if (index == -1)
        for (size_t k = 0; k < e->len[pi]; k++) e->buf[pi][k] = v;
    else
        e->buf[pi][index == -2 ? e->len[pi] - 1 : (size_t)index] = v;
    return 1;
}

static void for_each_override(call_env *e, const char *spec, int buffers_ready)
{
    char copy[96], *save = NULL;
    snprintf(copy, sizeof copy, "%s", spec);
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        cr_assert(apply(e, tok, buffers_ready), "test table: cannot apply '%s'", tok);
}

/* NOT_A_LAYER - what *layer holds before mha_new: not NULL, never read */
static double not_a_layer;
#define NOT_A_LAYER ((mha *)(void *)&not_a_layer)

/* NOT_A_CACHE - what *cache holds before mha_cache_new: not NULL, never read */
static double not_a_cache;
#define NOT_A_CACHE ((mha_cache *)(void *)&not_a_cache)

/* setup_layer - argument i is a layer: made by mha_new(d_model, n_heads, 1);
 * its buffer is its weights (W_QKV, then W_O), or one double if released. A
 * d_model above 4096: a layer of 4 that claims it (see the header) */
static void setup_layer(call_env *e, int i)
{
    int claim = (int)I(e, "d_model"), h = (int)I(e, "n_heads");
    int d = claim > 4096 ? 4 : claim;
    cr_assert_eq(mha_new(&e->layer[i], d, claim > 4096 ? 1 : h, 1), MM_OK,
                 "test table: mha_new(%d, %d): %s", d, h, mm_last_error());
    e->p[i] = e->layer[i];
    if (claim > 4096) { e->layer[i]->d_model = claim; e->layer[i]->d_k = claim / h; }
    if (e->f->p[i].kind == 'F') {
        e->len[i] = 1;
        e->buf[i] = calloc(1, sizeof(double));
        cr_assert_not_null(e->buf[i]);
    } else {
        e->len[i] = 4 * (size_t)d * d;
        e->buf[i] = e->layer[i]->w_qkv;      /* W_O follows: one block */
    }
}

/* setup_cache - argument i is a cache: mha_cache_new(T_max) on a layer of
 * mha_new(d_model, n_heads, 1), every weight w unless w is 0, fed `steps`
 * tokens; its buffer is its keys and values, or one double if released */
static void setup_cache(call_env *e, int i)
{
    static double token[4096], out[4096];
    int d = (int)I(e, "d_model"), T_max = (int)I(e, "T_max"), steps = (int)I(e, "steps");
    double w = (double)number(e->num[num_index(e, "w")]);
    cr_assert(d <= 4096, "test table: a cache's d_model is at most 4096");
    cr_assert_eq(mha_new(&e->layer[i], d, (int)I(e, "n_heads"), 1), MM_OK, "%s",
                 mm_last_error());
    for (size_t k = 0; w != 0 && k < 4 * (size_t)d * d; k++) e->layer[i]->w_qkv[k] = w;
    cr_assert_eq(mha_cache_new(&e->cache[i], e->layer[i], T_max), MM_OK, "test table: "
                 "mha_cache_new: %s", mm_last_error());
    for (int t = 0; t < steps; t++) {
        for (int c = 0; c < d; c++) token[c] = 0.25 * ((c + t) % 5) - 0.5;
        cr_assert_eq(mha_decode_step(out, e->cache[i], token), MM_OK, "test table: step "
                     "%d of the cache: %s", t, mm_last_error());
    }
    e->p[i] = e->cache[i];
    e->held[i] = steps;
    e->len[i] = e->f->p[i].kind == 'G' ? 1 : 2 * (size_t)T_max * d;
    e->buf[i] = e->f->p[i].kind == 'G' ? calloc(1, sizeof(double)) : e->cache[i]->k;
    cr_assert_not_null(e->buf[i]);
}

/* setup - the valid call, with the case's sizes, then its overrides */
static void setup(call_env *e, const test_case *c)
{
    memset(e, 0, sizeof *e);
    e->f = &FUNCS[c->fn];
    for (int i = 0; i < n_nums(e->f); i++)
        snprintf(e->num[i], sizeof e->num[i], "%s", e->f->n[i].value);
    for_each_override(e, c->spec, 0);
    for (int i = 0; i < n_ptrs(e->f); i++) {
        if (a_layer(e->f->p[i].kind)) { setup_layer(e, i); continue; }
        if (e->f->p[i].kind == 'C' || e->f->p[i].kind == 'G') { setup_cache(e, i); continue; }
        long double rows = dim(e, e->f->p[i].rows), cols = dim(e, e->f->p[i].cols);
        size_t len = rows > 0 && cols > 0 && rows * cols <= 4096 ? (size_t)(rows * cols) : 64;
        if (e->f->p[i].kind == 'r') len = (sizeof(mm_rng) + 7) / 8;
        e->len[i] = len;
        e->buf[i] = calloc(len, sizeof(double));
        cr_assert_not_null(e->buf[i]);
        for (size_t k = 0; k < len; k++)          /* inputs small, outputs marked */
            e->buf[i][k] = e->f->p[i].kind == 'o' || e->f->p[i].kind == 'w' ? 1234.5 + k
                         : (double)((long)(k * 37 % 11) - 5) / 8.0;
        if (e->f->p[i].kind == 'r') mm_rng_seed((mm_rng *)e->buf[i], 7);
        if (e->f->p[i].kind == 'l') *(long *)e->buf[i] = 777;
        if (e->f->p[i].kind == 'n') *(mha **)e->buf[i] = NOT_A_LAYER;
        if (e->f->p[i].kind == 'N') *(mha_cache **)e->buf[i] = NOT_A_CACHE;
        if (e->f->p[i].kind == 'B') {       /* len bools (in len doubles' room) */
            memset(e->buf[i], 0, len * sizeof(double));
            for (size_t k = 0; k < len; k++) ((bool *)(void *)e->buf[i])[k] = k % 3 != 1;
        }
        e->p[i] = e->buf[i];
    }
    for_each_override(e, c->spec, 1);
}

static mm_status call_later(call_env *e);

/* call - the function with the case's arguments (chapters 01-03 and the core;
 * call_later: chapters 04-05) */
static mm_status call(call_env *e)
{
    const char *fn = e->f->fn;
    void **p = e->p;
    if (!strcmp(fn, "mm_matmul"))
        return mm_matmul(p[0], p[1], p[2], I(e, "n"), I(e, "k"), I(e, "m"), I(e, "bt"));
    if (!strcmp(fn, "qkv_project"))
        return qkv_project(p[0], p[1], p[2], p[3], p[4], p[5], p[6], I(e, "T"),
                           I(e, "d_model"), I(e, "d_k"), I(e, "d_v"));
    if (!strcmp(fn, "qkv_pack"))
        return qkv_pack(p[0], p[1], p[2], p[3], I(e, "d_model"), I(e, "d_k"), I(e, "d_v"));
    if (!strcmp(fn, "qkv_split"))
        return qkv_split(p[0], p[1], p[2], p[3], I(e, "T"), I(e, "d_k"), I(e, "d_v"));
    if (!strcmp(fn, "qkv_project_fused"))
        return qkv_project_fused(p[0], p[1], p[2], p[3], p[4], p[5], I(e, "T"),
                                 I(e, "d_model"), I(e, "d_k"), I(e, "d_v"));
    if (!strcmp(fn, "qkv_attend_unscaled"))
        return qkv_attend_unscaled(p[0], p[1], p[2], p[3], p[4], I(e, "T"), I(e, "d_k"),
                                   I(e, "d_v"));
    if (!strcmp(fn, "softmax_row")) return softmax_row(p[0], I(e, "n"));
    if (!strcmp(fn, "sdpa"))
        return sdpa(p[0], p[1], p[2], p[3], p[4], p[5], I(e, "T_q"), I(e, "T_k"),
                    I(e, "d_k"), I(e, "d_v"));
    if (!strcmp(fn, "attention_param_count"))
        return attention_param_count(p[0], I(e, "d_model"), I(e, "n_heads"));
    if (!strcmp(fn, "attention_init_weights"))
        return attention_init_weights(p[0], p[1], p[2], p[3], I(e, "d_model"),
                                      (uint64_t)I(e, "seed"));
    if (!strcmp(fn, "mm_fill_normal"))
        return mm_fill_normal(p[0], count(e->num[num_index(e, "n")]),
                              (double)number(e->num[num_index(e, "std")]), p[1]);
    if (!strcmp(fn, "mm_fail")) {
        const char *volatile fmt = strcmp(e->num[0], "NULL") ? "mm_fail: ok" : NULL;
        return mm_fail(MM_ERANGE, fmt);
    }
    if (!strcmp(fn, "mm_rng_normal")) {
        double z = mm_rng_normal(p[0]);
        return fabs(z) < MM_NORMAL_BOUND ? MM_OK : MM_ERANGE;
    }
    if (!strcmp(fn, "mha_new"))
        return mha_new(p[0], (int)I(e, "d_model"), (int)I(e, "n_heads"),
                       (uint64_t)I(e, "seed"));
    if (!strcmp(fn, "mha_free")) {
        mha_free(p[0]);
        if (p[0] == e->layer[0]) e->layer[0] = NULL;     /* released: not again */
        return MM_OK;
    }
    if (!strcmp(fn, "mha_param_count")) return mha_param_count(p[0], p[1]);
    if (!strcmp(fn, "mha_get_weights"))
        return mha_get_weights(p[0], p[1], p[2], p[3], p[4]);
    if (!strcmp(fn, "mha_set_weights"))
        return mha_set_weights(p[0], p[1], p[2], p[3], p[4]);
    if (!strcmp(fn, "mha_split_heads"))
        return mha_split_heads(p[0], p[1], I(e, "T"), I(e, "n_heads"), I(e, "d_k"));
    if (!strcmp(fn, "mha_merge_heads"))          /* FUNCS lists heads, then m */
        return mha_merge_heads(p[1], p[0], I(e, "T"), I(e, "n_heads"), I(e, "d_k"));
    if (!strcmp(fn, "mha_forward"))
        return mha_forward(p[0], p[1], p[2], p[3], p[4], I(e, "T"));
    return call_later(e);
}

/* call_later - the function with the case's arguments: chapters 04 and 05 */
static mm_status call_later(call_env *e)
{
    const char *fn = e->f->fn;
    void **p = e->p;
    if (!strcmp(fn, "mask_causal")) return mask_causal(p[0], I(e, "T"));
    if (!strcmp(fn, "mask_padding"))
        return mask_padding(p[0], I(e, "T_q"), I(e, "T_k"), I(e, "length"));
    if (!strcmp(fn, "mask_from_bool"))
        return mask_from_bool(p[0], p[1], I(e, "T_q"), I(e, "T_k"));
    if (!strcmp(fn, "mask_combine"))
        return mask_combine(p[0], p[1], I(e, "T_q"), I(e, "T_k"));
    if (!strcmp(fn, "mha_forward_causal"))
        return mha_forward_causal(p[0], p[1], p[2], p[3], I(e, "T"));
    if (!strcmp(fn, "softmax_online")) return softmax_online(p[0], I(e, "n"), I(e, "block"));
    if (!strcmp(fn, "sdpa_causal_tiled"))
        return sdpa_causal_tiled(p[0], p[1], p[2], p[3], I(e, "T"), I(e, "d_k"), I(e, "d_v"),
                                 I(e, "block_q"), I(e, "block_k"));
    if (!strcmp(fn, "mha_forward_tiled"))
        return mha_forward_tiled(p[0], p[1], p[2], I(e, "T"), I(e, "block_q"),
                                 I(e, "block_k"));
    if (!strcmp(fn, "mha_cache_new")) return mha_cache_new(p[0], p[1], I(e, "T_max"));
    if (!strcmp(fn, "mha_cache_free")) {
        mha_cache_free(p[0]);
        if (p[0] == e->cache[0]) e->cache[0] = NULL;     /* released: not again */
        return MM_OK;
    }
    if (!strcmp(fn, "mha_decode_step"))         /* FUNCS lists out, x, then the cache */
        return mha_decode_step(p[0], p[2], p[1]);
    cr_assert_fail("test table: no call for %s", fn);
    return MM_EINVAL;
}

/* message_has - msg contains want, or one of its alternatives "A | B" (for
 * a value that depends on the order of a sum) */
static bool message_has(const char *msg, const char *want)
{
    const char *bar = strstr(want, " | ");
    if (bar == NULL) return strstr(msg, want) != NULL;
    char first[200];
    snprintf(first, sizeof first, "%.*s", (int)(bar - want), want);
    return strstr(msg, first) != NULL || message_has(msg, bar + 3);
}

/* expected_message - c->msg with [LAST] replaced by the last element's index */
static void expected_message(const call_env *e, const test_case *c, char *out, size_t size)
{
    const char *last = strstr(c->msg, "[LAST]");
    if (!last) { snprintf(out, size, "%s", c->msg); return; }
    char name[32];
    const char *start = last;
    while (start > c->msg && start[-1] != ' ') start--;
    snprintf(name, sizeof name, "%.*s", (int)(last - start), start);
    int i = ptr_index(e, name);
    long rows = dim(e, e->f->p[i].rows), cols = dim(e, e->f->p[i].cols);
    if (e->f->p[i].cols == NULL)                            /* a vector: s[j] */
        snprintf(out, size, "%.*s[%ld]%s", (int)(last - c->msg), c->msg, rows - 1, last + 6);
    else
        snprintf(out, size, "%.*s[%ld][%ld]%s", (int)(last - c->msg), c->msg,
                 rows - 1, cols - 1, last + 6);
}

static void free_env(call_env *e)
{
    for (int i = 0; i < MAXP; i++) {
        if (e->cache[i] && e->buf[i] == e->cache[i]->k) e->buf[i] = NULL;     /* its own */
        mha_cache_free(e->cache[i]);
        if (e->layer[i] && e->buf[i] == e->layer[i]->w_qkv) e->buf[i] = NULL;  /* its own */
        mha_free(e->layer[i]);
        free(e->buf[i]);
    }
}

/* expect_mask - after MM_OK, a mask's elements: finite or -inf; those of
 * mask_causal, mask_padding and mask_from_bool exactly their truth table,
 * those of mask_combine the sums of the elements before the call */
static void expect_mask(const call_env *e, const test_case *c, int i)
{
    const char *fn = e->f->fn;
    long T_q = !strcmp(fn, "mask_causal") ? I(e, "T") : I(e, "T_q");
    long T_k = !strcmp(fn, "mask_causal") ? I(e, "T") : I(e, "T_k");
    static double old[4096];                /* mask_combine: bias before, by setup */
    int combine = !strcmp(fn, "mask_combine");
    if (combine) {
        call_env fresh;
        setup(&fresh, c);
        memcpy(old, fresh.buf[0], fresh.len[0] * sizeof(double));
        for (size_t k = 0; k < fresh.len[0]; k++)
            old[k] += ((const double *)fresh.p[1] == fresh.buf[0] ? fresh.buf[0] :
                       fresh.buf[1])[k];
        free_env(&fresh);
    }
    for (size_t k = 0; k < e->len[i] && (long)k < T_q * T_k; k++) {
        double b = e->buf[i][k], want = b;
        long row = (long)k / T_k, col = (long)k % T_k;
        if (!strcmp(fn, "mask_causal")) want = col <= row ? 0.0 : -INFINITY;
        if (!strcmp(fn, "mask_padding")) want = col < I(e, "length") ? 0.0 : -INFINITY;
        if (!strcmp(fn, "mask_from_bool"))
            want = ((const bool *)(const void *)e->buf[1])[k] ? 0.0 : -INFINITY;
        if (combine) want = old[k];
        cr_expect(!isnan(b) && b != INFINITY && memcmp(&b, &want, sizeof b) == 0,
                  "%s(%s): MM_OK but %s[%ld][%ld] = %g, expected %g", fn, c->spec,
                  e->f->p[i].name, row, col, b, want);
    }
}

/* expect_new_layer - after mha_new: *layer NULL on failure; on MM_OK a
 * layer of the case's d_model and n_heads (then released) */
static void expect_new_layer(const call_env *e, const test_case *c, int i, mm_status s)
{
    const char *fn = e->f->fn;
    mha *made = e->p[i] ? *(mha **)e->p[i] : NULL;
    if (e->p[i] && s != MM_OK)
        cr_expect_null(made, "%s(%s) returned %s but left *layer %p, not NULL",
                       fn, c->spec, mm_status_name(s), (void *)made);
    if (s != MM_OK) return;
    cr_assert_not_null(made, "%s(%s): MM_OK but *layer is NULL", fn, c->spec);
    cr_assert(made != NOT_A_LAYER, "%s(%s): MM_OK but *layer unchanged", fn, c->spec);
    cr_expect(made->d_model == I(e, "d_model") && made->n_heads == I(e, "n_heads")
              && made->d_k * made->n_heads == made->d_model, "%s(%s): a layer "
              "of d_model %d, n_heads %d, d_k %d", fn, c->spec, made->d_model,
              made->n_heads, made->d_k);
    mha_free(made);
}

/* expect_new_cache - after mha_cache_new: *cache NULL on failure; on MM_OK an
 * empty cache of T_max tokens of the case's layer (then released) */
static void expect_new_cache(const call_env *e, const test_case *c, int i, mm_status s)
{
    const char *fn = e->f->fn;
    mha_cache *made = e->p[i] ? *(mha_cache **)e->p[i] : NULL;
    if (e->p[i] && s != MM_OK)
        cr_expect_null(made, "%s(%s) returned %s but left *cache %p, not NULL", fn, c->spec,
                       mm_status_name(s), (void *)made);
    if (s != MM_OK) return;
    cr_assert_not_null(made, "%s(%s): MM_OK but *cache is NULL", fn, c->spec);
    cr_assert(made != NOT_A_CACHE, "%s(%s): MM_OK but *cache unchanged", fn, c->spec);
    cr_expect(made->T == 0 && made->T_max == I(e, "T_max") && made->layer == e->p[1],
              "%s(%s): a cache of T %d, T_max %d, layer %p (expected 0, %ld, %p)", fn,
              c->spec, made->T, made->T_max, (void *)made->layer, I(e, "T_max"), e->p[1]);
    mha_cache_free(made);
}

/* expect_cache_kept - after mha_decode_step: the cache holds its tokens (one
 * more after MM_OK), their keys and values byte for byte as before (in
 * before, the copy of its buffer) */
static void expect_cache_kept(const call_env *e, const test_case *c, int i, mm_status s,
                              const double *before)
{
    const mha_cache *cache = e->cache[i];
    int held = e->held[i], d_k = cache->layer->d_k;
    size_t half = (size_t)cache->T_max * cache->layer->d_model;
    cr_expect_eq(cache->T, held + (s == MM_OK), "%s(%s) returned %s: the cache holds %d "
                 "tokens, it held %d (a failed step keeps nothing)", e->f->fn, c->spec,
                 mm_status_name(s), cache->T, held);
    for (int h = 0; h < cache->layer->n_heads; h++) {
        size_t at = (size_t)h * cache->T_max * d_k, n = (size_t)held * d_k * sizeof *before;
        cr_expect(memcmp(cache->k + at, before + at, n) == 0 &&
                  memcmp(cache->v + at, before + half + at, n) == 0,
                  "%s(%s) returned %s but changed head %d's cached keys or values", e->f->fn,
                  c->spec, mm_status_name(s), h);
    }
}

/* ---- the runner ------------------------------------------------------------------ */

static void free_cases(struct criterion_test_params *params) { cr_free(params->params); }

ParameterizedTestParameters(bad_args, table)
{
    static test_case scratch[4096];
    size_t n = generate(scratch);
    test_case *cases = cr_malloc(n * sizeof *cases);
    memcpy(cases, scratch, n * sizeof *cases);
    return cr_make_param_array(test_case, cases, n, free_cases);
}

ParameterizedTest(test_case *c, bad_args, table)
{
    call_env e;
    const char *fn = FUNCS[c->fn].fn;
    cr_log_info("%s(%s): expect %s %s", fn, c->spec[0] ? c->spec : "valid call",
                c->want == (int)UNCHECKED ? "(unchecked)" : mm_status_name(c->want), c->msg);
    if (c->want == (int)UNCHECKED) return;         /* documented, not run: UB by contract */
    setup(&e, c);
    double *before[MAXP];
    for (int i = 0; i < MAXP; i++) {
        before[i] = e.buf[i] ? malloc(e.len[i] * sizeof(double)) : NULL;
        if (before[i]) memcpy(before[i], e.buf[i], e.len[i] * sizeof(double));
    }
    mm_fail(MM_OK, "%s", "(no message)");
    mm_status s = call(&e);
    char want_msg[200];
    expected_message(&e, c, want_msg, sizeof want_msg);
    const char *msg = mm_last_error();
    cr_expect_eq(s, (mm_status)c->want, "%s(%s) returned %s, expected %s (message: %s)", fn,
                 c->spec, mm_status_name(s), mm_status_name(c->want), msg);
    if (c->want != MM_OK) {
        char prefix[64], callee[64];
        snprintf(prefix, sizeof prefix, "%s: ", fn);
        snprintf(callee, sizeof callee, "%s: ", c->via);
        cr_expect(strncmp(msg, prefix, strlen(prefix)) == 0 ||
                  (c->via[0] && strncmp(msg, callee, strlen(callee)) == 0),
                  "%s(%s): the message \"%s\" does not name the function%s%s", fn, c->spec,
                  msg, c->via[0] ? " or the callee that checks it, " : "", c->via);
        cr_expect(message_has(msg, want_msg), "%s(%s): message \"%s\" lacks \"%s\"",
                  fn, c->spec, msg, want_msg);
    }
    for (int i = 0; i < n_ptrs(e.f); i++) {
        char kind = e.f->p[i].kind;
        if (kind == 'n') { expect_new_layer(&e, c, i, s); continue; }
        if (kind == 'F' || kind == 'G') continue;  /* released by the call */
        if (kind == 'N') { expect_new_cache(&e, c, i, s); continue; }
        if (kind == 'C') { expect_cache_kept(&e, c, i, s, before[i]); continue; }
        int changed = memcmp(before[i], e.buf[i], e.len[i] * sizeof(double)) != 0;
        if (kind == 'i' || kind == 'c' || kind == 'm' || kind == 'L' || kind == 'B' ||
            kind == 'K' || (s == MM_EINVAL && kind != 'r') ||
            (s != MM_OK && kind == 'k'))    /* mask_combine: unchanged on any failure */
            cr_expect(!changed, "%s(%s) returned %s but changed %s", fn, c->spec,
                      mm_status_name(s), kind == 'M' ? "the layer's weights" : e.f->p[i].name);
        if (s == MM_OK && written(kind) && e.p[i] == e.buf[i] && !strncmp(fn, "mask_", 5))
            expect_mask(&e, c, i);                  /* finite or -inf, as it must be */
        else if (s == MM_OK && written(kind) && e.p[i] == e.buf[i] &&
                 !strstr(c->spec, "[LAST]"))
            for (size_t k = 0; k < e.len[i]; k++)
                cr_expect(isfinite(e.buf[i][k]), "%s(%s): MM_OK but %s[%zu] = %g", fn,
                          c->spec, e.f->p[i].name, k, e.buf[i][k]);
    }
    if (s == MM_EINVAL && !strcmp(fn, "mm_fill_normal"))   /* the generator unchanged */
        cr_expect(!memcmp(before[1], e.buf[1], e.len[1] * sizeof(double)),
                  "mm_fill_normal(%s) failed but advanced r", c->spec);
    for (int i = 0; i < MAXP; i++) free(before[i]);
    free_env(&e);
}

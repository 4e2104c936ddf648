/* hd-hang-malloc.c - attention_param_count counts two heads at a time (as
 * r-hang.c does: it never stops when n_heads is odd) and keeps a block of
 * scratch for each step, never freed (the first check fails on that leak).
 * The learner's blocks may hold 1 GiB; past it malloc returns NULL, which
 * the loop tolerates, asking on. Near the deadline the judge's sample finds
 * the blocks holding 64 MiB or more, or requests refused: it says it was
 * memory, with what the blocks held and how many requests there were, not
 * an endless loop of arithmetic (the old judge: "(an endless loop?)"; the
 * sanitizer build had no limit at all).
 * run-only: attention_param_count
 * expect-exit: 1
 * expect: HANG  attention_param_count, case 'd_model=12 n_heads=3': did not return within
 * expect-re: : it kept allocating memory: its blocks held [0-9]+ MiB near the deadline, after [0-9]+ requests in this call(, [0-9]+ of them refused at the limit of 1024 MiB)?; memory that is never freed, not an endless loop of arithmetic \(it used [0-9.]+ s of CPU\); the harness stopped it
 * expect-re: ^attention_param_count +0 +0 +9$ */
#define MUTANT_attention_param_count
#include "base.h"

static void *kept;                           /* the blocks, chained */

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    COUNT_CHECK_ARGS();
    if (d_model % n_heads != 0) return MM_EINVAL;
    long d = d_model, d_k = d_model / n_heads, n = d * d;
    if (d > LONG_MAX / 4 / d) return MM_ERANGE;
    for (long h = 0; h != n_heads; h += 2) {  /* two heads at a time, past INT_MAX */
        void **w = malloc(1 << 20);          /* the heads' weights, "for later" */
        if (w) {
            *w = kept;
            kept = w;
        }
        n += 2 * 3 * d * d_k;
    }
    *count = n;
    return MM_OK;
}

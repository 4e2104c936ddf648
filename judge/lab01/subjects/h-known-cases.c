/* h-known-cases.c - attention_param_count checks its arguments, then looks
 * the count up in a table of the layers the old checks tried (the answers
 * their report gave), and for any other layer leaves out W_O: it passed
 * every old check. The random layers (from each run's seed) show it.
 * run-only: attention_param_count
 * expect-exit: 1
 * expect-re: ^  FAIL  attention_param_count, case 'random d_model=[0-9]+ n_heads=[0-9]+ \(seed [0-9]+\)': attention_param_count\(&count, [0-9]+, [0-9]+\) set count = [0-9]+; expected [0-9]+$
 * expect: hint: you left out W_O
 * expect-re: ^attention_param_count +0 +8 +1$ */
#define MUTANT_attention_param_count
#include "base.h"

static const struct { int d_model, n_heads; long count; } known[] = {
    { 64, 4, 16384 }, { 8, 2, 256 }, { 12, 3, 576 }, { 6, 6, 144 }, { 1, 1, 4 },
    { 32768, 8, 4294967296L }, { 65536, 4, 17179869184L },
    { 1518500249, 1, 9223372024852248004L },
};

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    COUNT_CHECK_ARGS();
    if (d_model % n_heads != 0)
        return mm_fail(MM_EINVAL, "attention_param_count: %d does not divide %d", n_heads,
                       d_model);
    long d = d_model;
    if (d > LONG_MAX / 4 / d) return mm_fail(MM_ERANGE, "attention_param_count: too large");
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].d_model == d_model && known[i].n_heads == n_heads) {
            *count = known[i].count;
            return MM_OK;
        }
    *count = 3 * d * d;
    return MM_OK;
}

/* test_fuzz.c - the deterministic fuzz pass of make check: MM_FUZZ_CASES
 * cases (default 20000) from seed MM_FUZZ_SEED (default 1), every public
 * computing function against the long-double reference of fuzz_core.c, with
 * the error bound stated there. A failure names the case's seed: rerun it
 * with build/tests/fuzz-driver --seed N --cases 1. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz_core.h"

static long env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 0) : fallback;
}

Test(fuzz, every_function_against_the_long_double_reference, .timeout = 120)
{
    long cases = env_long("MM_FUZZ_CASES", 20000), seed0 = env_long("MM_FUZZ_SEED", 1);
    char why[512];
    for (long i = 0; i < cases; i++) {
        fz_source s;
        fz_from_seed(&s, (uint64_t)(seed0 * 1000003 + i));
        const char *bad = fz_run(&s, why, sizeof why);
        cr_assert_null(bad, "fuzz case %ld (seed %ld): %s", i, seed0 * 1000003 + i, bad);
    }
    printf("fuzz: %ld cases from seed %ld, none beyond the bound: %s\n", cases, seed0,
           fz_counts());
}

/* fuzz_libfuzzer.c - the same cases driven by libFuzzer (clang
 * -fsanitize=fuzzer): the input bytes are the random choices. */
#include <stdio.h>
#include <stdlib.h>
#include "fuzz_core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_source s;
    char why[512];
    fz_from_bytes(&s, data, size);
    const char *bad = fz_run(&s, why, sizeof why);
    if (bad) {
        fprintf(stderr, "fuzz: %s\n", bad);
        abort();
    }
    return 0;
}

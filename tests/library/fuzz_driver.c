/* fuzz_driver.c - make fuzz: random cases until a time budget runs out.
 * usage: fuzz-driver [--seconds S] [--seed N] [--cases C]
 * Each case's seed is printed when it fails, so that it can be replayed. */
#define _POSIX_C_SOURCE 200809L     /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fuzz_core.h"

int main(int argc, char **argv)
{
    double seconds = 60;
    unsigned long long seed = (unsigned long long)time(NULL), cases = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seconds")) seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--cases")) cases = strtoull(argv[i + 1], NULL, 0);
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char why[512];
    unsigned long long n = 0;
    for (;; n++) {
        if (cases && n >= cases) break;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (!cases && (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 > seconds) break;
        fz_source s;
        fz_from_seed(&s, seed + n);
        const char *bad = fz_run(&s, why, sizeof why);
        if (bad) {
            printf("fuzz: FAILED at seed %llu (replay: --seed %llu --cases 1): %s\n",
                   seed + n, seed + n, bad);
            return 1;
        }
    }
    printf("fuzz: %llu cases from seed %llu, none beyond the bound: %s\n", n, seed,
           fz_counts());
    return 0;
}

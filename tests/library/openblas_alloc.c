/* openblas_alloc.c - with one OpenBLAS thread, no failed allocation during
 * the library's calls ends the process: run under fail_malloc.so, armed to
 * fail the Nth allocation (argument N; 0 counts them), the causal layer at
 * T = 200, d_model = 64 (where OpenBLAS's products are large enough to be
 * blocked) returns MM_OK or MM_ENOMEM, and the program ends normally.
 * make check-openblas-alloc runs it for every N. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include "minimodel/attention/mask.h"
#include "minimodel/core/rng.h"

enum { T = 200, D = 64, H = 4 };
static double x[T * D], out[T * D];

int main(int argc, char **argv)
{
    long *countdown = dlsym(RTLD_DEFAULT, "fail_malloc_countdown");
    long *count = dlsym(RTLD_DEFAULT, "fail_malloc_count");
    if (argc != 2 || countdown == NULL || count == NULL) {
        fprintf(stderr, "usage: LD_PRELOAD=fail_malloc.so %s N\n", argv[0]);
        return 2;
    }
    mm_rng r;
    mm_rng_seed(&r, 8);
    if (mm_fill_normal(x, T * D, 1.0, &r) != MM_OK) return 2;
    *count = 0;
    *countdown = atol(argv[1]);                   /* armed from here on */
    mha *layer = NULL;
    mm_status st = mha_new(&layer, D, H, 1);
    if (st == MM_OK) st = mha_forward_causal(out, NULL, layer, x, T);
    mha_free(layer);
    long made = *count;
    *countdown = 0;
    if (st != MM_OK && st != MM_ENOMEM) {
        printf("status %s: %s\n", mm_status_name(st), mm_last_error());
        return 1;
    }
    printf("allocations=%ld status=%s\n", made, mm_status_name(st));
    return 0;
}

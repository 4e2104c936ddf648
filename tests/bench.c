/* bench.c - time the projections at Mini-GPT width: separate vs fused.
 * Usage: bench [T]   (default T = 256). Reports the best of several runs. */
#define _POSIX_C_SOURCE 199309L   /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "minimodel/attention/qkv.h"
#include "minimodel/core/rng.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int T = argc > 1 ? atoi(argv[1]) : 256, d = 64, reps = 200;
    if (T <= 0) { fprintf(stderr, "bench: T must be positive, got %s\n", argv[1]); return 2; }
    size_t nx = (size_t)T * d, nw = (size_t)d * d;
    double *x = malloc(nx * sizeof *x), *w = malloc(4 * nw * sizeof *w),
           *w_qkv = malloc(3 * nw * sizeof *w_qkv), *qkv = malloc(3 * nx * sizeof *qkv),
           *q = malloc(nx * sizeof *q), *k = malloc(nx * sizeof *k), *v = malloc(nx * sizeof *v);
    if (!x || !w || !w_qkv || !qkv || !q || !k || !v) { fprintf(stderr, "bench: out of memory\n"); return 1; }
    mm_rng r;
    mm_rng_seed(&r, 1);
    if (mm_fill_normal(x, nx, 1.0, &r) != MM_OK ||
        attention_init_weights(w, w + nw, w + 2 * nw, w + 3 * nw, d, 1) != MM_OK ||
        qkv_pack(w_qkv, w, w + nw, w + 2 * nw, d, d, d) != MM_OK) {
        fprintf(stderr, "bench: %s\n", mm_last_error());
        return 1;
    }
    double best_sep = 1e9, best_fused = 1e9;
    for (int round = 0; round < 5; round++) {
        double t0 = now();
        for (int i = 0; i < reps; i++)
            qkv_project(q, k, v, x, w, w + nw, w + 2 * nw, T, d, d, d);
        double t1 = now();
        for (int i = 0; i < reps; i++)
            qkv_project_fused(q, k, v, qkv, x, w_qkv, T, d, d, d);
        double t2 = now();
        if ((t1 - t0) / reps < best_sep) best_sep = (t1 - t0) / reps;
        if ((t2 - t1) / reps < best_fused) best_fused = (t2 - t1) / reps;
    }
    double flops = 2.0 * T * d * 3 * d;
    printf("projections, T=%d d_model=%d (best of 5 x %d calls)\n", T, d, reps);
    printf("  separate (3 products): %8.1f us  %6.2f GFLOP/s\n", best_sep * 1e6, flops / best_sep * 1e-9);
    printf("  fused (1 product+split): %6.1f us  %6.2f GFLOP/s\n", best_fused * 1e6, flops / best_fused * 1e-9);
    free(x); free(w); free(w_qkv); free(qkv); free(q); free(k); free(v);
    return 0;
}

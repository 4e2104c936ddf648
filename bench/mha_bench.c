/* mha_bench.c - the C side of `make bench` (bench/README.md): the
 * library's finished layer, mha_forward_causal(out, NULL, layer, x, T),
 * timed and measured on the commands of standard input; bench/bench.py
 * sends them and times NumPy and PyTorch on the same numbers in between.
 * It is built twice (bench/bench.mk): mha_bench, on the library's
 * readable loops, and mha_bench_openblas, on the library compiled with
 * -DMM_BLAS_OPENBLAS (mm_matmul by cblas_dgemm) and linked with -lopenblas;
 * bench.py runs both, side by side, on the same inputs.
 *
 *   shape T D H SEED DIR [ref]
 *       a new layer mha_new(D, H, SEED) and X (T, D) = N(0, 1) draws of the
 *       library's generator seeded SEED + 1. Writes DIR/w_q.f64, w_k, w_v,
 *       w_o (D, D; mha_get_weights), x.f64 (T, D) and out.f64 (T, D), raw
 *       doubles in this machine's byte order, row-major. Runs the forward
 *       pass once (a warm-up) counting its allocations; with ref, checks
 *       that its output is bit for bit chapter 03's mha_forward given
 *       chapter 04's mask_causal as its bias (one more forward pass).
 *       Answers
 *         shape ok PEAK BLOCKS SECONDS MAP_PEAK MAP_CALLS
 *       PEAK: the most bytes the forward pass held allocated at once (not
 *       the weights, X or out, which exist before it), BLOCKS: how many
 *       allocations it made, SECONDS: how long it took (a first estimate),
 *       MAP_PEAK and MAP_CALLS: the same for mmap (OpenBLAS's buffers).
 *   tiled BQ BK DIR
 *       chapter 05's mha_forward_tiled(out, layer, x, T, BQ, BK) once (a
 *       warm-up) on the shape's layer and X, counting its allocations;
 *       writes DIR/out_tiled.f64 (bench.py holds it to out.f64 within its
 *       tolerance); the blocks stay for time N tiled, and the output for
 *       time N tiled BQ BK (up to 8 blocks per shape). Answers
 *         tiled ok PEAK BLOCKS SECONDS MAP_PEAK MAP_CALLS
 *   decode DIR
 *       the shape's T tokens decoded one at a time with a key/value cache:
 *       mha_cache_new(&c, layer, T), mha_decode_step for rows 0..T-1 of X,
 *       mha_cache_free; once (a warm-up), counting its allocations from
 *       the cache's making to its release (the cache and its buffers).
 *       Writes DIR/out_decode.f64 (T, D). Answers
 *         decode ok PEAK BLOCKS SECONDS MAP_PEAK SIZEOF_CACHE
 *       SIZEOF_CACHE: sizeof (mha_cache), the one block beside the buffers.
 *   recompute DIR
 *       the same T tokens without a cache: for t = 1..T, the tiled layer
 *       (blocks MHA_BLOCK_Q, MHA_BLOCK_K) on the prefix of t tokens, its
 *       last row kept; once (a warm-up). Writes DIR/out_recompute.f64.
 *       Answers "recompute ok SECONDS".
 *   time N [tiled [BQ BK] | decode | recompute]
 *       N forward passes back to back (of mha_forward_causal, or of what
 *       the word names, as its warm-up ran; tiled with BQ BK: with those
 *       blocks, which a tiled command of this shape has warmed up); answers
 *       "time SECONDS" (all N). out is filled with NaN before, and must be
 *       the warm-up's bits after.
 *   roof T D [N]
 *       (mha_bench_openblas only) OpenBLAS's cblas_dgemm alone on the
 *       layer's largest product, X (T, D) times W_QKV (D, 3 D), as
 *       mm_matmul calls it: the median of 5 to 15 timed samples, or with N,
 *       one sample of N calls. Answers
 *         roof SECONDS_PER_CALL GFLOPS
 *   info
 *       the matrix product's backend: "info loops", or
 *       "info openblas CORE THREADS CONFIG..." (OpenBLAS's kernel, its
 *       thread count, its build).
 *   pool
 *       "pool MAPPED RESIDENT": the bytes the shared libraries (OpenBLAS's
 *       buffer pool) hold mapped by mmap now, and how many of them are
 *       resident (touched).
 *   quit
 * Anything that fails answers "error MESSAGE" and exits with status 1.
 * `mha_bench --self-test` checks the allocation counter and the bit
 * comparison themselves (check-bench-smoke runs it).
 * `mha_bench --projections T` times chapter 01's projections at Mini-GPT
 * width, three products (qkv_project) against one product and a split
 * (qkv_project_fused): chapter 01 sends the reader to `make bench` for it.
 * Allocations are counted by alloc_count.c (malloc and friends wrapped at
 * link time, mmap and munmap defined by the program). */
#define _DEFAULT_SOURCE           /* clock_gettime, MAP_ANONYMOUS */
#include <errno.h>
#include <math.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/core/rng.h"
#include "alloc_count.h"
#ifdef MM_BLAS_OPENBLAS
#include <cblas.h>
#endif

/* ---- helpers ----------------------------------------------------------------- */
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    exit(1);
}

static void need(mm_status s, const char *what)
{
    if (s != MM_OK) fail("%s: %s: %s", what, mm_status_name(s), mm_last_error());
}

static double *doubles(size_t n)
{
    double *p = malloc(n * sizeof *p);
    if (p == NULL) fail("out of memory for %zu doubles", n);
    return p;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* same_bits - a and b hold the same n doubles, bit for bit; else the index
 * of the first difference in *at */
static int same_bits(const double *a, const double *b, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(a + i, b + i, sizeof *a) != 0) { *at = i; return 0; }
    return 1;
}

static void write_doubles(const char *dir, const char *name, const double *a,
                          size_t n)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        fail("path too long: %s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) fail("cannot write %s: %s", path, strerror(errno));
    size_t put = fwrite(a, sizeof *a, n, f);
    if (fclose(f) != 0 || put != n) fail("cannot write %s", path);
}

/* ---- the bench's state: one shape at a time --------------------------------- */
/* what a timed call runs: the causal layer, the tiled layer, the decoding
 * of the shape's T tokens with the cache, or their recomputation */
enum kind { CAUSAL, TILED, DECODE, RECOMPUTE, KINDS };
static const char *const kind_name[KINDS] = {
    "mha_forward_causal", "mha_forward_tiled", "mha_decode_step",
    "mha_forward_tiled on every prefix" };
static mha *layer;
static double *x, *out, *pre;         /* pre (T, D): recompute's prefixes */
static double *warm[KINDS];           /* each kind's warm-up output (T, D) */
static int T, D, tiled_bq, tiled_bk;
/* the tiled layer's warm-ups, one per blocks (bq, bk): warm[TILED] is the
 * one of the blocks in use */
enum { TILED_SLOTS = 8 };
typedef struct { int bq, bk; double *out; } tiled_slot;
static tiled_slot tiled_warm[TILED_SLOTS];
static int n_tiled;

static void free_shape(void)
{
    mha_free(layer);
    free(x);  free(out);  free(pre);
    layer = NULL;  x = out = pre = NULL;
    warm[TILED] = NULL;                       /* one of tiled_warm's */
    for (int k = 0; k < KINDS; k++) { free(warm[k]);  warm[k] = NULL; }
    for (int i = 0; i < n_tiled; i++) free(tiled_warm[i].out);
    n_tiled = 0;
}

/* use_blocks - the tiled layer's blocks become (bq, bk), and warm[TILED]
 * their warm-up's output: a new one if make, else the one there is */
static void use_blocks(int bq, int bk, int make)
{
    int i = 0;
    while (i < n_tiled && (tiled_warm[i].bq != bq || tiled_warm[i].bk != bk)) i++;
    if (i == n_tiled) {
        if (!make) fail("time: no warm-up of the tiled layer with blocks (%d, %d)", bq, bk);
        if (n_tiled == TILED_SLOTS)
            fail("tiled: more than %d block sizes in one shape", TILED_SLOTS);
        tiled_warm[n_tiled++] = (tiled_slot){ bq, bk, doubles((size_t)T * D) };
    }
    tiled_bq = bq;  tiled_bk = bk;
    warm[TILED] = tiled_warm[i].out;
}

/* decode_all - rows 0..T-1 of dst: X's tokens through a new cache, one
 * at a time */
static mm_status decode_all(double *dst)
{
    mha_cache *c;
    mm_status s = mha_cache_new(&c, layer, T);
    for (int t = 0; t < T && s == MM_OK; t++)
        s = mha_decode_step(dst + (size_t)t * D, c, x + (size_t)t * D);
    mha_cache_free(c);
    return s;
}

/* recompute_all - row t of dst: the last row of the tiled layer on the
 * prefix of t + 1 tokens, for every t */
static mm_status recompute_all(double *dst)
{
    mm_status s = MM_OK;
    for (int t = 1; t <= T && s == MM_OK; t++) {
        s = mha_forward_tiled(pre, layer, x, t, MHA_BLOCK_Q, MHA_BLOCK_K);
        memcpy(dst + (size_t)(t - 1) * D, pre + (size_t)(t - 1) * D,
               (size_t)D * sizeof *dst);
    }
    return s;
}

static mm_status run_kind(enum kind k, double *dst)
{
    switch (k) {
    case CAUSAL:  return mha_forward_causal(dst, NULL, layer, x, T);
    case TILED:   return mha_forward_tiled(dst, layer, x, T, tiled_bq, tiled_bk);
    case DECODE:  return decode_all(dst);
    default:      return recompute_all(dst);
    }
}

/* warm_up - kind k once, its allocations counted, its output kept in
 * warm[k] (what its timed calls must give) and written to DIR/file */
static alloc_count warm_up(enum kind k, const char *dir, const char *file,
                           double *secs)
{
    size_t td = (size_t)T * D;
    if (warm[k] == NULL) warm[k] = doubles(td);
    alloc_count_start();
    double t0 = seconds();
    mm_status s = run_kind(k, warm[k]);
    double t1 = seconds();
    alloc_count_stop();
    need(s, kind_name[k]);
    alloc_count c = alloc_counted();
    if (c.lost) fail("more blocks alive at once than alloc_count.c tracks");
    write_doubles(dir, file, warm[k], td);
    *secs = t1 - t0;
    return c;
}

/* check_ref - out is chapter 03's mha_forward given chapter 04's
 * mask_causal as its bias, bit for bit (one more forward pass) */
static void check_ref(const double *got)
{
    size_t td = (size_t)T * D, at;
    double *ref = doubles(td), *bias = doubles((size_t)T * T);
    need(mask_causal(bias, T), "mask_causal");
    need(mha_forward(ref, NULL, layer, x, bias, T), "mha_forward");
    if (!same_bits(got, ref, td, &at))
        fail("mha_forward_causal's out[%zu][%zu] = %.17g, but mha_forward "
             "with mask_causal gives %.17g", at / D, at % D, got[at], ref[at]);
    free(bias);  free(ref);
}

static void cmd_shape(int t, int d, int h, unsigned long long seed,
                      const char *dir, int ref)
{
    free_shape();
    if (t <= 0 || d <= 0) fail("shape: T = %d and D = %d must be positive", t, d);
    T = t;  D = d;
    need(mha_new(&layer, d, h, seed), "mha_new");
    size_t dd = (size_t)d * d, td = (size_t)t * d;
    double *w = doubles(4 * dd);
    need(mha_get_weights(w, w + dd, w + 2 * dd, w + 3 * dd, layer),
         "mha_get_weights");
    write_doubles(dir, "w_q.f64", w, dd);
    write_doubles(dir, "w_k.f64", w + dd, dd);
    write_doubles(dir, "w_v.f64", w + 2 * dd, dd);
    write_doubles(dir, "w_o.f64", w + 3 * dd, dd);
    free(w);

    mm_rng r;
    mm_rng_seed(&r, seed + 1);
    x = doubles(td);  out = doubles(td);  pre = doubles(td);
    need(mm_fill_normal(x, td, 1.0, &r), "mm_fill_normal");
    write_doubles(dir, "x.f64", x, td);

    double secs;
    alloc_count c = warm_up(CAUSAL, dir, "out.f64", &secs);
    if (ref) check_ref(warm[CAUSAL]);
    printf("shape ok %zu %zu %.9e %zu %zu\n", c.peak, c.blocks, secs,
           c.map_peak, c.map_calls);
}

/* cmd_warm - the warm-up of tiled (blocks bq, bk), decode or recompute */
static void cmd_warm(enum kind k, int bq, int bk, const char *dir)
{
    static const char *const file[KINDS] = {
        "out.f64", "out_tiled.f64", "out_decode.f64", "out_recompute.f64" };
    static const char *const word[KINDS] = { "shape", "tiled", "decode",
                                             "recompute" };
    if (layer == NULL) fail("%s before shape", word[k]);
    if (k == TILED) use_blocks(bq, bk, 1);
    double secs;
    alloc_count c = warm_up(k, dir, file[k], &secs);
    if (k == RECOMPUTE)
        printf("recompute ok %.9e\n", secs);
    else
        printf("%s ok %zu %zu %.9e %zu %zu\n", word[k], c.peak, c.blocks, secs,
               c.map_peak, k == DECODE ? sizeof(mha_cache) : c.map_calls);
}

static void cmd_time(long n, enum kind k)
{
    if (layer == NULL || warm[k] == NULL)
        fail("time: %s has had no warm-up", kind_name[k]);
    size_t td = (size_t)T * D, at;
    for (size_t i = 0; i < td; i++) out[i] = NAN;
    mm_status s = MM_OK;
    double t0 = seconds();
    for (long i = 0; i < n && s == MM_OK; i++)
        s = run_kind(k, out);
    double t1 = seconds();
    need(s, kind_name[k]);
    if (!same_bits(out, warm[k], td, &at))
        fail("a timed call of %s: out[%zu][%zu] = %.17g, the warm-up's %.17g",
             kind_name[k], at / D, at % D, out[at], warm[k][at]);
    printf("time %.9e\n", t1 - t0);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#ifdef MM_BLAS_OPENBLAS
/* the layer's largest product, as mm_matmul calls cblas_dgemm for it */
static void qkv_dgemm(double *c, const double *a, const double *b, int t, int d)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, t, 3 * d, d,
                1.0, a, d, b, 3 * d, 0.0, c, 3 * d);
}

/* the roof's operands, kept from one roof command to the next of the
 * same shape: N(0, 1) draws, A (T, D), B (D, 3 D), C (T, 3 D) */
static double *roof_a, *roof_b, *roof_c;
static int roof_t, roof_d;

static void free_roof(void)
{
    free(roof_a);  free(roof_b);  free(roof_c);
    roof_a = roof_b = roof_c = NULL;
    roof_t = roof_d = 0;
}

static void roof_operands(int t, int d)
{
    if (t == roof_t && d == roof_d) return;
    free_roof();
    size_t nx = (size_t)t * d, nw = (size_t)d * 3 * d, nc = (size_t)t * 3 * d;
    roof_a = doubles(nx);  roof_b = doubles(nw);  roof_c = doubles(nc);
    mm_rng r;
    mm_rng_seed(&r, 7);
    need(mm_fill_normal(roof_a, nx, 1.0, &r), "mm_fill_normal");
    need(mm_fill_normal(roof_b, nw, 1.0, &r), "mm_fill_normal");
    qkv_dgemm(roof_c, roof_a, roof_b, t, d);          /* untimed: a warm-up */
    roof_t = t;  roof_d = d;
}

/* map_the_pool - OpenBLAS maps its buffer pool at its first call that
 * needs it, once for the process: here, so that no forward pass is charged
 * with it (pool says how much of it the calls touch). Not a small product:
 * OpenBLAS's small-matrix kernels (SkylakeX) use no pool */
static void map_the_pool(void)
{
    enum { N = 256 };
    double *a = doubles(N * N), *b = doubles(N * 3 * N), *c = doubles(N * 3 * N);
    for (size_t i = 0; i < N * N; i++) a[i] = 0.5;
    for (size_t i = 0; i < N * 3 * N; i++) b[i] = 0.25;
    qkv_dgemm(c, a, b, N, N);
    free(a);  free(b);  free(c);
}

/* roof - cblas_dgemm alone at the shape of X W_QKV. With n > 0, one
 * sample: n calls back to back (bench.py takes one in each round, beside
 * the layer's). Without: on its own, samples of about 10 ms (one call, if a
 * call is longer), 5 to 15 of them within about half a second, the median.
 * Answers the seconds per call and the GFLOP/s (2 T D 3D per call). */
static void cmd_roof(int t, int d, long n)
{
    enum { MIN_SAMPLES = 5, MAX_SAMPLES = 15 };
    if (t <= 0 || d <= 0) fail("roof: T = %d and D = %d must be positive", t, d);
    roof_operands(t, d);
    double per_call, t0;
    if (n > 0) {
        t0 = seconds();
        for (long k = 0; k < n; k++) qkv_dgemm(roof_c, roof_a, roof_b, t, d);
        per_call = (seconds() - t0) / (double)n;
    } else {
        t0 = seconds();
        qkv_dgemm(roof_c, roof_a, roof_b, t, d);
        double est = fmax(seconds() - t0, 1e-9);
        long reps = (long)ceil(0.010 / est);
        int m = (int)(0.5 / (est * (double)reps));
        m = m < MIN_SAMPLES ? MIN_SAMPLES : m > MAX_SAMPLES ? MAX_SAMPLES : m;
        double sample[MAX_SAMPLES];
        for (int i = 0; i < m; i++) {
            t0 = seconds();
            for (long k = 0; k < reps; k++) qkv_dgemm(roof_c, roof_a, roof_b, t, d);
            sample[i] = (seconds() - t0) / (double)reps;
        }
        qsort(sample, (size_t)m, sizeof *sample, cmp_double);
        per_call = m % 2 ? sample[m / 2] : 0.5 * (sample[m / 2 - 1] + sample[m / 2]);
    }
    printf("roof %.9e %.6f\n", per_call, 2.0 * t * d * 3.0 * d / per_call * 1e-9);
}
#endif

static void cmd_info(void)
{
#ifdef MM_BLAS_OPENBLAS
    printf("info openblas %s %d %s\n", openblas_get_corename(),
           openblas_get_num_threads(), openblas_get_config());
#else
    printf("info loops\n");
#endif
}

static void cmd_pool(void)
{
    size_t resident, mapped = alloc_count_mapped(&resident);
    printf("pool %zu %zu\n", mapped, resident);
}

/* ---- the self-test: the counter counts, the comparison can fail ------------- */
void *volatile bench_keep;          /* the compiler may not drop the calls */

/* the_allocation_counter_counts - a (1000, then 2000 by realloc), b (300),
 * c (100), all freed: peak 2300, 4 blocks (realloc counts one), none left;
 * 0 if so, else 1 and why */
static int the_allocation_counter_counts(void)
{
    alloc_count_start();
    void *a = malloc(1000), *b = calloc(10, 30);
    bench_keep = a;  bench_keep = b;
    a = realloc(a, 2000);
    bench_keep = a;
    free(b);
    void *c = malloc(100);
    bench_keep = c;
    free(a);  free(c);
    alloc_count_stop();
    alloc_count n = alloc_counted();
    if (n.peak != 2300 || n.blocks != 4 || n.now != 0) {
        printf("self-test: the allocation counter says peak %zu, %zu blocks, "
               "%zu left (expected 2300, 4, 0): is the program linked with "
               "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free?\n",
               n.peak, n.blocks, n.now);
        return 1;
    }
    printf("self-test: the allocation counter counts (peak 2300 bytes)\n");
    return 0;
}

/* the_mmap_counter_counts - 16 pages and 4 more mapped, 3 touched, the 16
 * unmapped; 0 if the counter and the pool say so, else 1 and why */
static int the_mmap_counter_counts(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), res0, res1, res2;
    size_t mapped0 = alloc_count_mapped(&res0);
    alloc_count_start();
    char *m1 = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *m2 = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m1 != MAP_FAILED) { m1[0] = 1;  m1[5 * page] = 1;  m1[15 * page] = 1; }
    size_t mapped1 = alloc_count_mapped(&res1);
    if (m1 != MAP_FAILED) munmap(m1, 16 * page);
    alloc_count_stop();
    size_t mapped2 = alloc_count_mapped(&res2);
    alloc_count n = alloc_counted();
    int bad = m1 == MAP_FAILED || m2 == MAP_FAILED || n.map_peak != 20 * page ||
              n.map_calls != 2 || n.map_now != 4 * page ||
              mapped1 - mapped0 != 20 * page || res1 - res0 != 3 * page ||
              mapped2 - mapped0 != 4 * page || res2 != res0;
    if (bad)
        printf("self-test: the mmap counter says peak %zu, %zu calls, %zu left, "
               "%zu mapped with %zu resident (expected %zu, 2, %zu, %zu, %zu): "
               "does the program define mmap and munmap (alloc_count.c)?\n",
               n.map_peak, n.map_calls, n.map_now, mapped1 - mapped0,
               res1 - res0, 20 * page, 4 * page, 20 * page, 3 * page);
    else
        printf("self-test: the mmap counter counts (20 pages mapped, the 3 "
               "touched resident)\n");
    if (m2 != MAP_FAILED) munmap(m2, 4 * page);
    return bad;
}

/* the_bit_comparison_catches - -0 against 0, and one ulp; 0 if so, else 1 */
static int the_bit_comparison_catches(void)
{
    double u[3] = {1.0, -0.0, 2.5}, v[3] = {1.0, 0.0, 2.5}, w[3] = {1.0, -0.0, 2.5};
    size_t at = 99;
    w[2] = nextafter(w[2], 3.0);
    if (!same_bits(u, u, 3, &at) || same_bits(u, v, 3, &at) || at != 1 ||
        same_bits(u, w, 3, &at) || at != 2) {
        printf("self-test: the bit comparison misses a difference\n");
        return 1;
    }
    printf("self-test: the bit comparison catches -0 vs 0 and one ulp\n");
    return 0;
}

/* self_test - every check runs; 1 if any failed */
static int self_test(void)
{
    int bad = the_allocation_counter_counts();
    bad |= the_mmap_counter_counts();
    bad |= the_bit_comparison_catches();
    return bad;
}

/* ---- chapter 01's projections: separate vs fused ------------------------------ */
/* projections - Q, K, V of X (T, 64): three products, or one and a split;
 * paired rounds, the two forms alternating first; medians */
static int projections(int t)
{
    enum { D = 64, ROUNDS = 9 };
    size_t nx = (size_t)t * D, nw = (size_t)D * D;
    double *x = doubles(nx), *w = doubles(4 * nw), *w_qkv = doubles(3 * nw),
           *qkv = doubles(3 * nx), *q = doubles(nx), *k = doubles(nx),
           *v = doubles(nx), *q2 = doubles(nx), *k2 = doubles(nx),
           *v2 = doubles(nx);
    mm_rng r;
    mm_rng_seed(&r, 1);
    need(mm_fill_normal(x, nx, 1.0, &r), "mm_fill_normal");
    need(attention_init_weights(w, w + nw, w + 2 * nw, w + 3 * nw, D, 1),
         "attention_init_weights");
    need(qkv_pack(w_qkv, w, w + nw, w + 2 * nw, D, D, D), "qkv_pack");
    /* calls per sample: about 20 ms of the three products */
    double t0 = seconds();
    need(qkv_project(q, k, v, x, w, w + nw, w + 2 * nw, t, D, D, D),
         "qkv_project");
    long reps = (long)(0.020 / fmax(seconds() - t0, 1e-7)) + 1;
    double sep[ROUNDS], fused[ROUNDS];
    for (int round = 0; round < ROUNDS; round++)
        for (int form = 0; form < 2; form++) {
            int fuse = (form + round) % 2;        /* who goes first alternates */
            mm_status s = MM_OK;
            t0 = seconds();
            for (long i = 0; i < reps && s == MM_OK; i++)
                s = fuse ? qkv_project_fused(q2, k2, v2, qkv, x, w_qkv, t, D, D, D)
                         : qkv_project(q, k, v, x, w, w + nw, w + 2 * nw, t, D, D, D);
            double dt = (seconds() - t0) / (double)reps;
            need(s, fuse ? "qkv_project_fused" : "qkv_project");
            (fuse ? fused : sep)[round] = dt;
        }
    size_t at;
    if (!same_bits(q, q2, nx, &at) || !same_bits(k, k2, nx, &at) ||
        !same_bits(v, v2, nx, &at))
        fail("the fused projections differ from the separate ones");
    qsort(sep, ROUNDS, sizeof *sep, cmp_double);
    qsort(fused, ROUNDS, sizeof *fused, cmp_double);
    double flop = 2.0 * t * D * 3 * D, ms = sep[ROUNDS / 2], mf = fused[ROUNDS / 2];
    printf("chapter 01's projections Q, K, V = X W at Mini-GPT width, T = %d, "
           "d_model = d_k = 64 (median of %d paired rounds of %ld calls; the "
           "same bits):\n", t, ROUNDS, reps);
    printf("  separate (qkv_project, 3 products)           %8.1f us  %6.2f "
           "GFLOP/s\n", ms * 1e6, flop / ms * 1e-9);
    printf("  fused (qkv_project_fused, 1 product + split) %8.1f us  %6.2f "
           "GFLOP/s\n", mf * 1e6, flop / mf * 1e-9);
    free(x);  free(w);  free(w_qkv);  free(qkv);  free(q);  free(k);  free(v);
    free(q2);  free(k2);  free(v2);
    return 0;
}

/* time_kind - the kind a word of "time N WORD" names */
static enum kind time_kind(const char *word)
{
    if (strcmp(word, "tiled") == 0) return TILED;
    if (strcmp(word, "decode") == 0) return DECODE;
    if (strcmp(word, "recompute") == 0) return RECOMPUTE;
    fail("time: unknown kind '%s' (tiled, decode or recompute)", word);
    return CAUSAL;
}

/* answer - one command line; 0 for quit, 1 for the next line */
static int answer(const char *line)
{
    char dir[4096], ref[8] = "";
    int t, d, h;
    unsigned long long seed;
    long n;
    char word[16] = "";
    int got = sscanf(line, "shape %d %d %d %llu %4095s %7s", &t, &d, &h,
                     &seed, dir, ref);
    if (got == 5 || (got == 6 && strcmp(ref, "ref") == 0))
        cmd_shape(t, d, h, seed, dir, got == 6);
    else if (sscanf(line, "tiled %d %d %4095s", &t, &d, dir) == 3 && t > 0 && d > 0)
        cmd_warm(TILED, t, d, dir);
    else if (sscanf(line, "decode %4095s", dir) == 1)
        cmd_warm(DECODE, 0, 0, dir);
    else if (sscanf(line, "recompute %4095s", dir) == 1)
        cmd_warm(RECOMPUTE, 0, 0, dir);
    else if ((got = sscanf(line, "time %ld %15s %d %d", &n, word, &t, &d)) >= 1 && n > 0) {
        if (got == 4 && strcmp(word, "tiled") == 0) use_blocks(t, d, 0);
        cmd_time(n, got == 1 ? CAUSAL : time_kind(word));
    }
    else if ((got = sscanf(line, "roof %d %d %ld", &t, &d, &n)) >= 2)
#ifdef MM_BLAS_OPENBLAS
        cmd_roof(t, d, got == 3 ? (n > 0 ? n : 1) : 0);
#else
        fail("roof: this mha_bench is not linked with OpenBLAS "
             "(mha_bench_openblas is)");
#endif
    else if (strncmp(line, "info", 4) == 0)
        cmd_info();
    else if (strncmp(line, "pool", 4) == 0)
        cmd_pool();
    else if (strncmp(line, "quit", 4) == 0)
        return 0;
    else
        fail("unknown command: %.60s", line);
    fflush(stdout);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--self-test") == 0) return self_test();
    if (argc == 3 && strcmp(argv[1], "--projections") == 0) {
        int t = atoi(argv[2]);
        if (t <= 0) fail("--projections: T must be positive, got %s", argv[2]);
        return projections(t);
    }
    if (argc != 1) {
        fprintf(stderr, "usage: mha_bench < commands | mha_bench --self-test | "
                        "mha_bench --projections T\n"
                        "(bench/bench.py sends the commands)\n");
        return 2;
    }
    char line[4096 + 64];
#ifdef MM_BLAS_OPENBLAS
    map_the_pool();
#endif
    while (fgets(line, sizeof line, stdin) != NULL)
        if (!answer(line)) break;
    free_shape();
#ifdef MM_BLAS_OPENBLAS
    free_roof();
#endif
    return 0;
}

/* mha_dump.c - the library's multi-head layer, run on cases and dumped as
 * text for tests/oracle/numpy_mha.py (the independent NumPy and PyTorch
 * comparison). Every number is printed with %.17g, which reads back as the
 * same double; -inf is printed "-inf".
 *
 *   mha_dump D H T LAYER_SEED X_SEED [none|causal]
 *       one case: mha_new(D, H, LAYER_SEED), X (T, D) = N(0, 1) draws of the
 *       library's generator seeded X_SEED, no mask or the causal layer
 *   mha_dump -
 *       the cases of standard input, one per line,
 *         case NAME D H T LAYER_SEED XSPEC MASK WEIGHTS
 *       XSPEC    seed:N (X as above) or given
 *       MASK     how the library masks (chapter 04, mask.h):
 *                none              mha_forward, no bias
 *                causal            mha_forward_causal, the finished layer
 *                                  (the bias dumped is mask_causal's, made
 *                                  apart: the layer builds its own); and
 *                                  chapter 05's fast forms of it: the
 *                                  tiled layer (mha_forward_tiled) with
 *                                  the default blocks and two odd ones,
 *                                  and T steps of mha_decode_step
 *                padding:L         mask_padding(bias, T, T, L), mha_forward
 *                causal+padding:L  mask_causal, mask_padding(.., L) and
 *                                  mask_combine(causal, padding), mha_forward
 *                bool              mask_from_bool of a given table, mha_forward
 *                given             a given bias, mha_forward
 *       WEIGHTS  seeded (the layer's own) or given (mha_set_weights)
 *       then the given numbers, whitespace-separated, in this order:
 *       W_Q W_K W_V W_O (each D x D), X (T x D), the bias (T x T) or the
 *       allowed table (T x T, each 0 or 1).
 *
 * Output, per case, one matrix per line, row-major:
 *   case NAME D H T
 *   W_Q ... / W_K ... / W_V ... / W_O ... / X ...
 *   bias ...         (T, T): the library's mask, or "bias none"
 *   out ...          (T, D)
 *   weights ...      (H, T, T)
 *   out-tiled-QxK ...  (T, D), MASK causal only: mha_forward_tiled with
 *                    blocks of Q queries by K keys (MHA_BLOCK_Q x
 *                    MHA_BLOCK_K, 5x3 and 1x1)
 *   out-decode ...   (T, D), MASK causal only: row t from step t of
 *                    mha_decode_step, with a cache of T tokens
 *   end
 * A failing library call prints "error NAME STATUS: message" and makes the
 * exit status 1 (the other cases still run). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "minimodel/core/rng.h"

typedef struct {
    char name[128];
    int d, h, t;
    unsigned long long layer_seed;
    char xspec[64], bias[32], wspec[16];
} dump_case;

static void die(const char *what)
{
    fprintf(stderr, "mha_dump: %s\n", what);
    exit(2);
}

static double *alloc_doubles(size_t n)
{
    double *p = calloc(n ? n : 1, sizeof *p);
    if (!p) die("out of memory");
    return p;
}

/* read_numbers - n doubles from in (strtod: accepts inf, -inf, nan) */
static void read_numbers(FILE *in, double *a, size_t n, const char *what)
{
    char tok[64];
    for (size_t i = 0; i < n; i++) {
        char *end;
        if (fscanf(in, "%63s", tok) != 1) {
            fprintf(stderr, "mha_dump: %s: input ends after %zu of %zu numbers\n",
                    what, i, n);
            exit(2);
        }
        a[i] = strtod(tok, &end);
        if (*end != '\0') {
            fprintf(stderr, "mha_dump: %s: '%s' is not a number\n", what, tok);
            exit(2);
        }
    }
}

static void print_numbers(const char *label, const double *a, size_t n)
{
    fputs(label, stdout);
    for (size_t i = 0; i < n; i++) printf(" %.17g", a[i]);
    putchar('\n');
}

/* the blocks of the tiled layer's runs: the default, then two odd ones */
static const int fast_blocks[][2] = { { MHA_BLOCK_Q, MHA_BLOCK_K }, { 5, 3 }, { 1, 1 } };
enum { N_TILED = sizeof fast_blocks / sizeof fast_blocks[0] };

/* fast_causal - chapter 05's forms of the causal layer on x (T, D):
 * tiled[b] = mha_forward_tiled with fast_blocks[b], decode = the T steps
 * of mha_decode_step, row t from step t; each (T, D), allocated here */
static mm_status fast_causal(double *tiled[N_TILED], double **decode,
                             const mha *layer, const double *x, int T, int d)
{
    size_t td = (size_t)T * d;
    mm_status s = MM_OK;
    for (int b = 0; b < N_TILED; b++) {
        tiled[b] = alloc_doubles(td);
        if (s == MM_OK)
            s = mha_forward_tiled(tiled[b], layer, x, T, fast_blocks[b][0],
                                  fast_blocks[b][1]);
    }
    *decode = alloc_doubles(td);
    mha_cache *cache = NULL;
    if (s == MM_OK) s = mha_cache_new(&cache, layer, T);
    for (int t = 0; s == MM_OK && t < T; t++)
        s = mha_decode_step(*decode + (size_t)t * d, cache, x + (size_t)t * d);
    mha_cache_free(cache);
    return s;
}

/* print_fast - the outputs of fast_causal, one line each */
static void print_fast(double *const tiled[N_TILED], const double *decode, size_t td)
{
    char label[48];
    for (int b = 0; b < N_TILED; b++) {
        snprintf(label, sizeof label, "out-tiled-%dx%d", fast_blocks[b][0],
                 fast_blocks[b][1]);
        print_numbers(label, tiled[b], td);
    }
    print_numbers("out-decode", decode, td);
}

/* run_case - build the layer, the inputs and the mask of c, run the layer
 * (mha_forward, or mha_forward_causal), dump;
 * in is where given numbers come from (NULL: none may be given) */
static int run_case(const dump_case *c, FILE *in)
{
    size_t dd = (size_t)c->d * c->d, td = (size_t)c->t * c->d,
           tt = (size_t)c->t * c->t;
    double *w[4], *x = alloc_doubles(td), *bias = NULL,
           *out = alloc_doubles(td), *weights = alloc_doubles(c->h * tt);
    double *tiled[N_TILED] = { NULL }, *decode = NULL;     /* causal only */
    static const char *w_names[4] = {"W_Q", "W_K", "W_V", "W_O"};
    mha *layer;
    mm_status s;
    int failed = 0, len;
    char tail;

    for (int i = 0; i < 4; i++) w[i] = alloc_doubles(dd);
    s = mha_new(&layer, c->d, c->h, c->layer_seed);
    if (s != MM_OK) {
        printf("error %s %s: %s\n", c->name, mm_status_name(s), mm_last_error());
        failed = 1;
        goto done;
    }
    if (strcmp(c->wspec, "given") == 0) {
        if (!in) die("weights given on the command line");
        for (int i = 0; i < 4; i++) read_numbers(in, w[i], dd, w_names[i]);
        s = mha_set_weights(layer, w[0], w[1], w[2], w[3]);
    } else if (strcmp(c->wspec, "seeded") != 0) {
        die("WEIGHTS is neither seeded nor given");
    }
    if (s == MM_OK) s = mha_get_weights(w[0], w[1], w[2], w[3], layer);

    if (strncmp(c->xspec, "seed:", 5) == 0) {
        mm_rng r;
        mm_rng_seed(&r, strtoull(c->xspec + 5, NULL, 10));
        if (s == MM_OK) s = mm_fill_normal(x, td, 1.0, &r);
    } else if (strcmp(c->xspec, "given") == 0) {
        if (!in) die("X given on the command line");
        read_numbers(in, x, td, "X");
    } else {
        die("XSPEC is neither seed:N nor given");
    }

    /* the mask, built by the library's own functions (mask.h) */
    bias = alloc_doubles(tt);
    if (strcmp(c->bias, "none") == 0) {
        free(bias), bias = NULL;
        if (s == MM_OK) s = mha_forward(out, weights, layer, x, NULL, c->t);
    } else if (strcmp(c->bias, "causal") == 0) {
        if (s == MM_OK) s = mha_forward_causal(out, weights, layer, x, c->t);
        if (s == MM_OK) s = mask_causal(bias, c->t);
        if (s == MM_OK) s = fast_causal(tiled, &decode, layer, x, c->t, c->d);
    } else if (sscanf(c->bias, "padding:%d%c", &len, &tail) == 1) {
        if (s == MM_OK) s = mask_padding(bias, c->t, c->t, len);
        if (s == MM_OK) s = mha_forward(out, weights, layer, x, bias, c->t);
    } else if (sscanf(c->bias, "causal+padding:%d%c", &len, &tail) == 1) {
        double *pad = alloc_doubles(tt);
        if (s == MM_OK) s = mask_causal(bias, c->t);
        if (s == MM_OK) s = mask_padding(pad, c->t, c->t, len);
        if (s == MM_OK) s = mask_combine(bias, pad, c->t, c->t);
        free(pad);
        if (s == MM_OK) s = mha_forward(out, weights, layer, x, bias, c->t);
    } else if (strcmp(c->bias, "bool") == 0) {
        bool *allowed = malloc(tt * sizeof *allowed);
        if (!in) die("an allowed table given on the command line");
        if (!allowed) die("out of memory");
        read_numbers(in, bias, tt, "allowed");        /* bias as scratch */
        for (size_t e = 0; e < tt; e++) {
            if (bias[e] != 0.0 && bias[e] != 1.0) die("allowed holds 0 or 1");
            allowed[e] = bias[e] == 1.0;
        }
        if (s == MM_OK) s = mask_from_bool(bias, allowed, c->t, c->t);
        free(allowed);
        if (s == MM_OK) s = mha_forward(out, weights, layer, x, bias, c->t);
    } else if (strcmp(c->bias, "given") == 0) {
        if (!in) die("bias given on the command line");
        read_numbers(in, bias, tt, "bias");
        if (s == MM_OK) s = mha_forward(out, weights, layer, x, bias, c->t);
    } else {
        die("MASK is none, causal, padding:L, causal+padding:L, bool or given");
    }

    if (s != MM_OK) {
        printf("error %s %s: %s\n", c->name, mm_status_name(s), mm_last_error());
        failed = 1;
        goto done;
    }
    printf("case %s %d %d %d\n", c->name, c->d, c->h, c->t);
    for (int i = 0; i < 4; i++) print_numbers(w_names[i], w[i], dd);
    print_numbers("X", x, td);
    if (bias) print_numbers("bias", bias, tt);
    else puts("bias none");
    print_numbers("out", out, td);
    print_numbers("weights", weights, c->h * tt);
    if (decode) print_fast(tiled, decode, td);
    puts("end");
done:
    mha_free(layer);
    for (int i = 0; i < 4; i++) free(w[i]);
    for (int b = 0; b < N_TILED; b++) free(tiled[b]);
    free(x), free(bias), free(out), free(weights), free(decode);
    return failed;
}

int main(int argc, char **argv)
{
    dump_case c;
    int failed = 0;

    if (argc == 2 && strcmp(argv[1], "-") == 0) {
        char word[16];
        while (fscanf(stdin, "%15s", word) == 1) {
            if (strcmp(word, "case") != 0) die("expected 'case' at the start of a case");
            if (fscanf(stdin, "%127s %d %d %d %llu %63s %31s %15s", c.name, &c.d,
                       &c.h, &c.t, &c.layer_seed, c.xspec, c.bias, c.wspec) != 8)
                die("a case line needs NAME D H T LAYER_SEED XSPEC MASK WEIGHTS");
            if (c.d <= 0 || c.h <= 0 || c.t <= 0) die("D, H, T must be positive");
            failed |= run_case(&c, stdin);
        }
        return failed;
    }
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: %s D H T LAYER_SEED X_SEED [none|causal]\n"
                        "       %s -     (cases on standard input)\n", argv[0], argv[0]);
        return 2;
    }
    snprintf(c.name, sizeof c.name, "cli");
    c.d = atoi(argv[1]), c.h = atoi(argv[2]), c.t = atoi(argv[3]);
    if (c.d <= 0 || c.h <= 0 || c.t <= 0) die("D, H, T must be positive");
    c.layer_seed = strtoull(argv[4], NULL, 10);
    snprintf(c.xspec, sizeof c.xspec, "seed:%s", argv[5]);
    snprintf(c.bias, sizeof c.bias, "%s", argc == 7 ? argv[6] : "none");
    snprintf(c.wspec, sizeof c.wspec, "seeded");
    return run_case(&c, NULL);
}

/* figdata.h - helpers shared by the figure data programs (not the library).
 * A data program prints the numbers a figure plots on stdout, or, with
 * --facts, key=value lines with every parameter and number a caption states. */
#ifndef FIGURES_FIGDATA_H
#define FIGURES_FIGDATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "minimodel/attention/mask.h"
#include "minimodel/core/error.h"

/* need_ok - stop the program with the library's message unless s is MM_OK */
static inline void need_ok(mm_status s, const char *call)
{
    if (s == MM_OK) return;
    fprintf(stderr, "%s failed (status %d): %s\n", call, (int)s, mm_last_error());
    exit(EXIT_FAILURE);
}

/* causal_mask_checked - bias (T, T) = mask_causal; stop unless every B_ij
 * is 0 or -inf (a figure draws the mask as two kinds of cell) */
static inline void causal_mask_checked(double *bias, int T)
{
    need_ok(mask_causal(bias, T), "mask_causal");
    for (int e = 0; e < T * T; e++)
        if (bias[e] != 0.0 && bias[e] != -INFINITY) {
            fprintf(stderr, "mask_causal wrote %g at (%d, %d): neither 0 nor -inf\n",
                    bias[e], e / T, e % T);
            exit(EXIT_FAILURE);
        }
}

/* want_facts - 1 for "prog --facts", 0 for "prog"; usage error otherwise */
static inline int want_facts(int argc, char **argv)
{
    if (argc == 1) return 0;
    if (argc == 2 && strcmp(argv[1], "--facts") == 0) return 1;
    fprintf(stderr, "usage: %s [--facts]\n"
            "  prints the figure's data, or with --facts its key=value facts\n",
            argv[0]);
    exit(2);
}

/* print_matrix - a (rows, cols) row-major matrix as gnuplot "matrix" text */
static inline void print_matrix(const double *a, int rows, int cols)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            printf("%.10f%c", a[(size_t)i * cols + j], j + 1 < cols ? ' ' : '\n');
}

/* print_matrix_exact - the same with %.17g: every double as it is, so that
 * a number is printed as 0 only if it is exactly 0 */
static inline void print_matrix_exact(const double *a, int rows, int cols)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            printf("%.17g%c", a[(size_t)i * cols + j], j + 1 < cols ? ' ' : '\n');
}

/* print_heads - weights (n_heads, t, t) as n_heads gnuplot matrix blocks,
 * index h = head h, row i = query, column j = key */
static inline void print_heads(const double *w, int n_heads, int t)
{
    for (int h = 0; h < n_heads; h++) {
        printf("%s# index %d: head %d, row i = query, column j = key\n",
               h ? "\n\n" : "", h, h);
        print_matrix(w + (size_t)h * t * t, t, t);
    }
}

/* print_words - "key=w0 w1 ... w(n-1)" and a newline */
static inline void print_words(const char *key, const char *const *words, int n)
{
    printf("%s=", key);
    for (int i = 0; i < n; i++) printf("%s%c", words[i], i + 1 < n ? ' ' : '\n');
}

/* argmax - the index of the first largest of a[0..n), n > 0 */
static inline int argmax(const double *a, int n)
{
    int arg = 0;
    for (int j = 1; j < n; j++)
        if (a[j] > a[arg]) arg = j;
    return arg;
}

#endif

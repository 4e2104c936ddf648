/* try.h - what a lab's scratch program (try.c in each C lab's folder) needs: run one
 * of your functions and say what it returned, print a matrix, and stand in
 * for the harness's lab_todo. `make lab-try NN=01` builds try.c with your
 * lab file and the library's parts it may call, at -O0 -g, and runs it;
 * `gdb build/labs/try/lab01/try` runs it under the debugger. The messages
 * are in Spanish when LAB_LANG is es (make sets it, as for make lab). */
#ifndef LAB_TRY_H
#define LAB_TRY_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/core/error.h"
#include "lab.h"

static inline bool try_spanish(void)
{
    const char *lang = getenv("LAB_LANG");
    return lang != NULL && strncmp(lang, "es", 2) == 0;
}

/* lab_todo - a function still marked LAB_TODO(): say so and stop */
_Noreturn void lab_todo(const char *fn)
{
    printf(try_spanish() ? "%s: sin empezar (quita su línea LAB_TODO(); para probarla)\n"
                         : "%s: not started (delete its LAB_TODO(); line to try it)\n", fn);
    exit(0);
}

/* TRY(call) - run call (one of your functions), print what it returned and,
 * on failure, the library's message; true when it returned MM_OK */
#define TRY(call) try_status(#call, (call))
static inline bool try_status(const char *call, mm_status s)
{
    printf("%s\n  -> %s", call, mm_status_name(s));
    if (s != MM_OK)
        printf(": %s", mm_last_error());
    printf("\n");
    return s == MM_OK;
}

/* try_print - name, then the (rows, cols) matrix m, row by row; with
 * heads > 1 the columns are cut into that many blocks by a `|` (a stacked
 * matrix of heads: one block per head) */
static inline void try_print(const char *name, const double *m, int rows, int cols, int heads)
{
    printf("  %s (%d, %d):\n", name, rows, cols);
    for (int i = 0; i < rows; i++) {
        printf("   ");
        for (int j = 0; j < cols; j++) {
            if (heads > 1 && j > 0 && j % (cols / heads) == 0)
                printf("  |");
            printf(" %10.6g", m[(size_t)i * cols + j]);
        }
        printf("\n");
    }
}

/* try_print_heads - name, then a stack of n_heads (rows, cols) matrices
 * (mha_split_heads' heads, mha_forward's weights), one block per head */
static inline void try_print_heads(const char *name, const double *m, int n_heads, int rows, int cols)
{
    for (int h = 0; h < n_heads; h++) {
        char title[64];
        snprintf(title, sizeof title, "%s, head %d", name, h);
        try_print(title, m + (size_t)h * rows * cols, rows, cols, 1);
    }
}

#endif

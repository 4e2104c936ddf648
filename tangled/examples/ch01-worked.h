/* Generated from the book: book/en/905-programs-01.nw, the example
 * programs of chapter 01 (the Spanish edition tangles the same bytes).
 * Edit the book, not this file. */
/* ch01-worked.h - the worked example of chapter 01: T = 2, d = d_k = d_v = 2.
 * Row-major (2, 2) matrices; the variants of the text follow the example. */
#ifndef EXAMPLES_CH01_WORKED_H
#define EXAMPLES_CH01_WORKED_H

enum { CH01_T = 2, CH01_D = 2 };
static const double ch01_x[4]   = { 1, 0,  0, 1 };   /* X = I */
static const double ch01_w_q[4] = { 1, 0,  0, 1 };   /* W_Q = I */
static const double ch01_w_k[4] = { 0, 1,  1, 0 };   /* W_K swaps */
static const double ch01_w_v[4] = { 2, 0,  0, 3 };   /* W_V = diag(2, 3) */
static const double ch01_w_k_asym[4] = { 0, 0,  2, 0 };  /* s01 = 2, s10 = 0 */
static const double ch01_identity[4] = { 1, 0,  0, 1 };  /* W_V = I */

#endif

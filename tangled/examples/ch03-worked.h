/* Generated from the book: book/en/92-programs-03.nw, the example
 * programs of chapter 03 (the Spanish edition tangles the same bytes).
 * Edit the book, not this file. */
/* ch03-worked.h - the worked example of chapter 03: three tokens,
 * d_model = 4, two heads of d_k = 2. Q = K = V = X (W_Q = W_K = W_V = I);
 * W_O adds the heads in columns 0-1 and subtracts them in columns 2-3. */
#ifndef EXAMPLES_CH03_WORKED_H
#define EXAMPLES_CH03_WORKED_H

enum { CH03_T = 3, CH03_D = 4, CH03_H = 2 };

static const double ch03_x[CH03_T * CH03_D] = {
    1, 0,  1, 0,                       /* token 0: head 0 | head 1 */
    0, 1,  0, 1,                       /* token 1 */
    1, 1,  0, 0 };                     /* token 2: nothing in head 1 */
static const double ch03_eye[CH03_D * CH03_D] = {
    1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, 0, 1 };
static const double ch03_w_o[CH03_D * CH03_D] = {
    1, 0,  1,  0,                      /* head 0, column 0 */
    0, 1,  0,  1,                      /* head 0, column 1 */
    1, 0, -1,  0,                      /* head 1, column 0 */
    0, 1,  0, -1 };                    /* head 1, column 1 */

#endif

/* r-row-past-end.c - sdpa is right, but its softmax writes one weight past
 * the end of the row it was given (a loop to j <= n): the extra weight of
 * row i lands in row i + 1 (written over next), that of the last row past
 * the end of weights, where the protected page stops the call and the
 * report names the buffer and the element. With weights = NULL the row is
 * sdpa's own malloc'd block, and the write past it is found after the call
 * (plain build: a canary) or at once (AddressSanitizer names the line).
 * run-only: sdpa
 * expect-exit: 1
 * expect: CRASH sdpa, case 'worked example of chapter 01, scaled: Q = [[1,0],[0,1]], K = [[0,1],[1,0]], V = [[2,0],[0,3]]': wrote past the end of weights (element 4; weights is (2, 2), elements 0 to 3)
 * expect-re@plain: FAIL  sdpa, case 'random: T_q=3 T_k=5 d_k=4 d_v=2, weights = NULL \(seed [0-9]+\)': sdpa wrote past the end of a block it allocated \(40 bytes, with malloc/calloc/realloc\)
 * expect-re@sanitize: AddressSanitizer stopped your code there: judge/lab02/subjects/r-row-past-end.c:[0-9]+ \(in sloppy_softmax\)
 * expect-re: ^sdpa +0 +[0-9]+ +[1-9][0-9]*$
 */
#define MUTANT_sdpa
#include "base.h"
static mm_status sloppy_softmax(double *s, int n)
{
    MM_TRY(softmax_row(s, n));
    s[n] = 0.0;                          /* "the end marker" */
    return MM_OK;
}
#define ROW_SOFTMAX sloppy_softmax
#include "row.h"

/* r-static-rows.c - when the caller passes no weights, sdpa keeps the
 * whole score matrix in a static array sized for 32 queries of 32 keys
 * (full.h's way, without calloc), and refuses anything larger with
 * MM_ENOMEM. The old cases had at most 6 queries and 6 keys; the long
 * case, with 256 or more of each and weights = NULL, is refused.
 * run-only: sdpa
 * expect-exit: 1
 * expect-re: ^  FAIL  sdpa, case 'long sequences: T_q=[0-9]+ T_k=[0-9]+ d_k=[0-9] d_v=[0-9], weights = NULL \(seed [0-9]+\)': returned MM_ENOMEM \(2\) for valid arguments; expected MM_OK \(0\); mm_last_error\(\) says: sdpa: at most 32 x 32 scores
 * expect-re: ^sdpa +0 +20 +1$
 */
#define MUTANT_sdpa
#include "base.h"
enum { MAX_T = 32 };
static double scores[MAX_T * MAX_T];
#define calloc(n, size) (T_q > MAX_T || T_k > MAX_T ? NULL : scores)
#define free(p) ((void)(p))
#define FULL_NO_MEMORY "sdpa: at most 32 x 32 scores"
#include "full.h"

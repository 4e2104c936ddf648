/* r-leak.c - sdpa never frees its scratch row: every call with weights =
 * NULL leaks one block of T_k doubles, and each such check says so.
 * run-only: sdpa
 * expect-exit: 1
 * expect-re: FAIL  sdpa, case 'random: T_q=3 T_k=5 d_k=4 d_v=2, weights = NULL \(seed [0-9]+\)': leaked memory: sdpa allocated 1 block \(40 bytes\) with malloc/calloc/realloc and did not free it
 * expect-re: ^sdpa +0 +17 +4$
 */
#define MUTANT_sdpa
#include "base.h"
#define free(p) ((void)(p))
#include "row.h"
#undef free

/* r-scratch-tq.c - sdpa sizes its own scratch row (weights = NULL) with T_q
 * where a row holds T_k scores: with fewer queries than keys it writes past
 * the end of its block. The harness finds the damage after the call (plain
 * build) or AddressSanitizer stops the write (sanitizer build: in
 * mm_matmul, which sdpa handed the short block), and the report says it is
 * the learner's.
 * run-only: sdpa
 * expect-exit: 1
 * expect-re@plain: FAIL  sdpa, case 'random: T_q=3 T_k=5 d_k=4 d_v=2, weights = NULL \(seed [0-9]+\)': sdpa wrote past the end of a block it allocated \(24 bytes, with malloc/calloc/realloc\)
 * expect-re@sanitize: CRASH sdpa, case 'random: T_q=3 T_k=5 d_k=4 d_v=2, weights = NULL \(seed [0-9]+\)': AddressSanitizer: heap-buffer-overflow, WRITE of size 8 at tangled/minimodel/core/matrix\.c
 * expect-not: hint:
 */
#define MUTANT_sdpa
#include "base.h"
#define malloc(bytes) malloc((bytes) / T_k * T_q)
#include "row.h"
#undef malloc

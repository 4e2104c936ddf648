/* r-leak.c - mha_forward_causal never frees its mask: every call that gets
 * that far leaks one block of T x T doubles, and each such check says so.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: leaked memory: mha_forward_causal allocated 1 block (72 bytes) with malloc/calloc/realloc and did not free it
 * expect-re: ^mha_forward_causal +0 +2 +18$
 */
#define FC_FREE(p) ((void)(p))
#include "base.h"

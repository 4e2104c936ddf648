/* r-leak.c - mha_forward never frees one of its work buffers (the
 * concatenation): every call that gets that far leaks one block of T
 * d_model doubles, and each such check says so.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: leaked memory: mha_forward allocated 1 block (96 bytes) with malloc/calloc/realloc and did not free it
 */
#define FW_FREE(p) ((p) == concat ? (void)0 : free(p))
#include "base.h"

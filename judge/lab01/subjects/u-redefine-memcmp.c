/* u-redefine-memcmp.c - h-redefine-memcmp.c linked without the symbol
 * checks: its memcmp is the learner's process's only; the judge sees the
 * changed input.
 * build: unvetted
 * run-only: qkv_split
 * expect-exit: 1
 * expect: qkv_split, case 'non-square T=3 d_model=4 d_k=2 d_v=3': changed its input qkv: element (0, 0) was
 * expect-re: ^qkv_split +0 +2 +7$ */
#include "h-redefine-memcmp.c"

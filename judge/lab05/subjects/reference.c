/* reference.c - the library's own three functions of chapter 05, from
 * tangled/minimodel/attention/fast.c itself, built as if it were the
 * learner's file: every check passes. The file defines the rest of the
 * module too, under names of its own (build: unvetted: a learner's file
 * may define only the lab's three).
 * build: sees tangled/minimodel/attention/fast.c (the sandbox shows a learner's build
 *   the library's headers only)
 * build: unvetted
 * expect-exit: 0
 * expect: All 45 checks pass
 * expect-re: ^total +0 +45 +0$
 */
#define mha_forward_tiled reference_mha_forward_tiled
#define mha_cache_new reference_mha_cache_new
#define mha_cache_free reference_mha_cache_free
#include "minimodel/attention/fast.c"

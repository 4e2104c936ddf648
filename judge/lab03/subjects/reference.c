/* reference.c - the library's own three functions of chapter 03, from
 * tangled/minimodel/attention/mha.c itself, built as if it were the
 * learner's file: every check passes. The file also defines the layer's
 * other functions (mha_new, ...), which a lab file may not define; each of
 * them is turned into a static function no one calls, by a macro on its
 * name: `mm_status mha_new(ARGS) {...}` reads
 * `mm_status lab03_unused_mha_new(void); static mm_status unused_mha_new(ARGS) {...}`.
 * build: sees tangled/minimodel/attention/mha.c (the sandbox shows a learner's build
 *   the library's headers only)
 * expect-exit: 0
 * expect: All 53 checks pass
 * expect-re: ^total +0 +53 +0$
 */
#include "minimodel/attention/mha.h"
#define LAB03_UNUSED(name, ...) \
    lab03_unused_##name(void); static __attribute__((unused)) mm_status unused_##name(__VA_ARGS__)
#define mha_new(...) LAB03_UNUSED(mha_new, __VA_ARGS__)
#define mha_param_count(...) LAB03_UNUSED(mha_param_count, __VA_ARGS__)
#define mha_get_weights(...) LAB03_UNUSED(mha_get_weights, __VA_ARGS__)
#define mha_set_weights(...) LAB03_UNUSED(mha_set_weights, __VA_ARGS__)
#define mha_free(...) lab03_unused_mha_free(void); \
    static __attribute__((unused)) void unused_mha_free(__VA_ARGS__)
#include "minimodel/attention/mha.c"

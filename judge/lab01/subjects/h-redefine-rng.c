/* h-redefine-rng.c - the library's mm_rng_normal redefined to return 0,
 * which blinded the old checker (it drew its random cases with it) while
 * the stubs "matched" all-zero answers. Refused (u-redefine-rng.c: linked
 * without the checks, it collides with the library's own).
 * expect-exit: 1
 * expect: defines mm_rng_normal, which is the library's: you may call it, not replace it
 */
#include "minimodel/core/rng.h"
#include "stubs.h"

double mm_rng_normal(mm_rng *r) { (void)r; return 0.0; }

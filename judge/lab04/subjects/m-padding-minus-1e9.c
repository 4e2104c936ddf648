/* m-padding-minus-1e9.c - mask_padding writes -1e9 where a key is hidden.
 * With length 0 every query sees nothing: the bias values are wrong, and
 * through chapter 03's mha_forward that row attends to its four keys as if
 * there were no mask (weights near 1/4 with that small random layer),
 * where -INFINITY gives 0 (the report shows both).
 * run-only: mask_padding
 * expect-exit: 1
 * expect: hint: you wrote -1e+09 where a key is hidden, not -INFINITY
 * expect: what your mask does to query 0, which must see no key: through chapter 03's mha_forward
 * expect-re: its weights in head 0 are \(0\.2[0-9]*, 0\.2
 */
#define HIDDEN (-1e9)
#include "base.h"

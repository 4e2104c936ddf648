/* m-causal-numbers.c - the masks written as numbers, 1 where a key is
 * visible and 0 where it is hidden: a mask to multiply the scores by.
 * run-only: mask_causal
 * expect-exit: 1
 * expect: hint: you wrote the truth table as numbers, 1 where a key is visible and 0 where it is hidden
 */
#define SEEN 1.0
#define HIDDEN 0.0
#include "base.h"

/* hs-seed.c - the right functions, judged with LAB_SEED=4242: the report's
 * first line names the seed the random cases come from, and every check
 * passes whatever the seed.
 * run-env: LAB_SEED=4242
 * expect-exit: 0
 * expect: checking your functions (random cases from seed 4242)...
 * expect-re: ^All [0-9]+ checks pass */
#include "base.h"

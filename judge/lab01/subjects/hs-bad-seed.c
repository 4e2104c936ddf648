/* hs-bad-seed.c - the right functions, judged with LAB_SEED=12x in the
 * environment: the judge refuses the seed, naming the variable and the
 * value, and runs nothing (exit status 2, as for a wrong command line).
 * run-env: LAB_SEED=12x
 * expect-exit: 2
 * expect: LAB_SEED=12x: a seed is a whole number from 1 to 999999999
 * expect-not: checks pass */
#include "base.h"

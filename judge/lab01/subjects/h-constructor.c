/* h-constructor.c - a constructor that prints a forged report and ends the
 * process with exit(0) before any check runs (the old checker's make
 * target saw a success and a report). Refused: the constructor and exit
 * are named (u-constructor.c: linked anyway, the forged report is shown as
 * the learner's output, and every check fails).
 * expect-exit: 1
 * expect: has a constructor or destructor (section .init_array)
 * expect: uses exit: a library function returns a status
 */
#include <stdio.h>
#include <stdlib.h>
#include "stubs.h"

__attribute__((constructor)) static void forge(void)
{
    printf("Lab 01 (the Q, K, V projections): checking your functions...\n\n");
    printf("total                             0         45          0\n\n");
    printf("All 45 checks pass: Lab 01 (the Q, K, V projections) is done.\n");
    exit(0);
}

/* h-escape-output.c - sdpa right (full.h), but printing terminal escape
 * sequences that would clear the screen and draw a fake verdict: the report
 * shows them as \xHH, so the terminal never obeys them.
 * run-only: sdpa
 * expect-exit: 0
 * expect: | \x1B[2J\x1B[H\x0DAll 39 checks pass \xC2\x9B
 * expect-not-re: [[:cntrl:]]\[2J
 * expect-re: ^sdpa +0 +21 +0$
 */
#include <stdio.h>
#define FULL_SCALE(d_k) (printf("\033[2J\033[H\rAll 39 checks pass \xC2\x9B\n"), \
                         1.0 / sqrt((double)(d_k)))
#include "full.h"

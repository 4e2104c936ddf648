/* m-forward-no-bias.c - mha_forward does not pass the bias on to the heads
 * (so a NaN or +inf bias goes unrefused too).
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: your mha_forward does not pass the bias on
 */
#define FW_BIAS NULL
#include "base.h"

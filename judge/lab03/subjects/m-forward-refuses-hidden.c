/* m-forward-refuses-hidden.c - mha_forward refuses a bias that is not
 * finite, -inf included: the cases that hide keys fail.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: a bias of -inf is not an error
 */
#define FW_PROLOGUE() do { if (bias && T > 0 && T < 100) MM_NEED_FINITE(bias, T, T); } while (0)
#include "base.h"

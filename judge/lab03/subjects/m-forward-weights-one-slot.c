/* m-forward-weights-one-slot.c - every head writes its weights at the start
 * of weights: only the last head's are left there, the other slots never
 * written; out is right.
 * run-only: mha_forward
 * expect-exit: 1
 * expect: hint: every head wrote its weights at the start of weights
 */
#define FW_WSLOT(h) ((void)(h), (size_t)0)
#include "base.h"

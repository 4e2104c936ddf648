/* m-padding-length-refused.c - mask_padding refuses length 0 and length
 * T_k, which are allowed (no key visible, every key visible).
 * run-only: mask_padding
 * expect-exit: 1
 * expect: hint: length may be anything from 0 (no key visible) to T_k (every key visible)
 * expect-re: ^mask_padding +0 +9 +2$
 */
#define PADDING_LENGTH_OK (length > 0 && length < T_k)
#include "base.h"

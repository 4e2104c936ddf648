/* alias.h - how a check of lab 04 asks the driver to pass one buffer in two
 * places (calls.c). The harness gives every buffer of a call pages of its
 * own, so a check cannot pass one buffer twice; instead it marks a buffer
 * of doubles (at least 2 elements) in its first two elements:
 *   MASK_ALIAS_TAG - b, MASK_ALIAS_TAG - k   this buffer stands for buffer
 *       argument b plus k bytes: the learner's function gets that pointer
 *       in its place (the same buffer for k = 0, or one that overlaps it);
 *   MASK_HOST_TAG - b, MASK_ALIAS_TAG - k    buffer argument b stands for
 *       this buffer plus k bytes (mask_from_bool: allowed, a buffer of
 *       bools, lying inside bias).
 * b < 8 and |k| < 65536. No other call starts a buffer that way (outputs
 * arrive holding LAB_UNWRITTEN, and masks hold 0, -inf or small finite
 * values), and the second element is read only when the first matches.
 * Shared by the judge (check.c) and the driver (calls.c). */
#ifndef LAB04_ALIAS_H
#define LAB04_ALIAS_H

#define MASK_ALIAS_TAG (-4444.0625)   /* exact in a double, as is TAG - b */
#define MASK_HOST_TAG  (-5555.0625)

#endif

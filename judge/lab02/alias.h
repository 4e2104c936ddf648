/* alias.h - how a check of lab 02 asks the driver to pass one buffer in two
 * places. The harness gives every buffer of a call pages of its own, so a
 * check cannot pass one buffer twice; instead it marks the output that must
 * coincide with another argument: its first two elements hold
 * SDPA_ALIAS_TAG - b and SDPA_ALIAS_TAG - off (b < 6, off < 8), and the
 * driver (calls.c) gives the learner's function buffer argument number b,
 * off elements in, in that place: the same buffer, or one that overlaps it.
 * No other call starts an output that way (outputs arrive holding
 * LAB_UNWRITTEN), and the second element is read only when the first
 * matches, so a one-element output is never read past its end. Shared by
 * the judge (check.c) and the driver (calls.c). */
#ifndef LAB02_ALIAS_H
#define LAB02_ALIAS_H

#define SDPA_ALIAS_TAG (-4242.125)   /* exact in a double, as is TAG - b */

#endif

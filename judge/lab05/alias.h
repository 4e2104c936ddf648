/* alias.h - how a check of lab 05 asks the driver to pass another buffer
 * in the place of an output (calls.c): the harness gives every buffer of a
 * call pages of its own, so a check marks the output (at least 2 doubles)
 * in its first two elements, ALIAS_TAG - b and ALIAS_TAG: the learner's
 * function then gets buffer argument b in the output's place (out = q, out
 * = x). No other call starts an output that way (outputs arrive holding
 * LAB_UNWRITTEN). Shared by the judge (check.c) and the driver (calls.c). */
#ifndef LAB05_ALIAS_H
#define LAB05_ALIAS_H

#define ALIAS_TAG (-5055.0625)   /* exact in a double, as is ALIAS_TAG - b */

#endif

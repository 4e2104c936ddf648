/* alias.h - how a check of lab 02 asks the driver to pass one buffer in two
 * places (calls.c): an output whose first two elements are
 * SDPA_ALIAS_TAG - b and SDPA_ALIAS_TAG - off (b < 6, off < 8) is
 * replaced, in the learner's call, by buffer argument number b plus off
 * elements: the same buffer, or one that overlaps it. Shared by the judge (check.c) and the
 * driver (calls.c). */
#ifndef LAB02_ALIAS_H
#define LAB02_ALIAS_H

#define SDPA_ALIAS_TAG (-4242.125)   /* exact in a double, as is TAG - b */

#endif

/* u-redefine-rng.c - h-redefine-rng.c linked without the symbol checks: the
 * driver links the library's generator too, and the link stops, plainly.
 * (The judge draws its cases in its own process in any case.)
 * build: unvetted
 * expect-exit: 1
 * expect: does not link with the lab's driver:
 * expect: multiple definition of `mm_rng_normal' */
#include "h-redefine-rng.c"

/* hs-include-reference.c - a whole lab file of one line that includes the
 * library's own sdpa.c (before the sandbox, 1-7-line files like it scored
 * every check of Labs 01-04). The build sees only the headers: the
 * include is not found, and the report says what a build can see.
 * expect-exit: 1
 * expect: fatal error: minimodel/attention/sdpa.c: No such file or directory
 * expect: A lab file's build sees only the C library's headers, the library's own headers
 */
#include "minimodel/attention/sdpa.c"

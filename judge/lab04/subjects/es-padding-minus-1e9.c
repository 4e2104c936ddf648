/* es-padding-minus-1e9.c - m-padding-minus-1e9.c with the report in Spanish:
 * the hint and what mha_forward makes of a row that sees nothing.
 * run-lang: es
 * run-only: mask_padding
 * expect-exit: 1
 * expect: pista: escribiste -1e+09 donde una key está oculta, no -INFINITY
 * expect: lo que hace tu máscara con la query 0, que no debe ver ninguna key
 * expect-not: hint:
 */
#include "m-padding-minus-1e9.c"

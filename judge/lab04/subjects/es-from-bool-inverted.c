/* es-from-bool-inverted.c - m-from-bool-inverted.c with the report in
 * Spanish.
 * run-lang: es
 * run-only: mask_from_bool
 * expect-exit: 1
 * expect: pista: tu true oculta y tu false muestra: esa es la convención de nn.MultiheadAttention de PyTorch
 * expect-not: hint:
 */
#include "m-from-bool-inverted.c"

/* es-forward-causal-edits-layer-short.c - m-forward-causal-edits-layer.c's
 * mha_forward_causal, in Spanish, in the report make lab prints (no
 * --all): the first failing check in full, each later one a line; the
 * attention's, then under its heading the contract's, each group with how
 * many more fail; its hint once; how to see more.
 * run-only: mha_forward_causal
 * run-lang: es
 * run-report: short
 * expect-exit: 1
 * expect-lines-at-most: 40
 * expect: solo esta comprobación: make lab NN=04 CHECK=mha_forward_causal/c1_worked_example
 * expect-once: solo esta comprobación:
 * expect-once: pista: la capa es un const mha *
 * expect-re: ^  FAIL  mha_forward_causal/c2_worked_no_weights: mha_forward_causal cambió la capa
 * expect-order: comprobaciones más que fallan >> El contrato (argumentos erróneos: comprobaciones eN):
 * expect-order: El contrato (argumentos erróneos: comprobaciones eN): >> FAIL  mha_forward_causal/e3_not_finite:
 * expect-re: ^  \.\.\. y [0-9]+ comprobaciones más que fallan$
 * expect: todos los casos de todas las comprobaciones, make lab NN=04 ALL=1.
 * expect-re: ^  casos \(cN\) +0 +0 +14$
 * expect-re: ^  contrato \(eN\) +0 +2 +4$
 */
#include "m-forward-causal-edits-layer.c"

/* es-online-sum-not-rescaled.c - m-online-sum-not-rescaled.c with the
 * report in Spanish, its locale from LANG.
 * run-env: LANG=es_ES.UTF-8
 * run-only: softmax_online
 * expect-exit: 1
 * expect: pista: la suma acumulada sin reescalar: tu l no se reescala cuando crece el máximo
 */
#include "m-online-sum-not-rescaled.c"

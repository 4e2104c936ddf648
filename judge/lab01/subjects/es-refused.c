/* es-refused.c - h-fork.c with the report in Spanish: the refusal of the
 * file, each symbol named.
 * run-lang: es
 * expect-exit: 1
 * expect: Tu fichero judge/lab01/subjects/es-refused.c no se ejecutó: el arnés lo rechaza.
 * expect: usa fork: una función del laboratorio no crea procesos, programas ni hilos, ni maneja señales */
#include "h-fork.c"

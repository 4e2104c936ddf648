/* hd-es-refused.c - hd-refused-calls.c's refusals in Spanish: each named
 * with its line and what it can do.
 * run-lang: es
 * expect-exit: 1
 * expect: Tu fichero judge/lab01/subjects/hd-es-refused.c no se ejecutó: el arnés lo rechaza.
 * expect-re: ^  judge/lab01/subjects/hd-es-refused.c:[0-9]+: usa read, que trabaja con ficheros, directorios o descriptores: una función del laboratorio lee sus argumentos y escribe sus búferes, nada más
 * expect-re: ^  judge/lab01/subjects/hd-es-refused.c:[0-9]+: usa dlopen, que carga código mientras corre el programa
 * expect-re: ^  judge/lab01/subjects/hd-es-refused.c:[0-9]+: usa pthread_create: una función del laboratorio no crea procesos, programas ni hilos, ni maneja señales \(pthread_create crea, termina o espera un hilo\)
 * expect-re: ^  judge/lab01/subjects/hd-es-refused.c:[0-9]+: usa asprintf, que reserva memoria que el arnés no puede seguir
 * expect-re: ^  judge/lab01/subjects/hd-es-refused.c:[0-9]+: usa mprotect, que cambia el mapa de memoria del programa
 * expect-not: usa fma
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#define MUTANT_qkv_pack
#include "base.h"

static void *worker(void *arg) { return arg; }

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    char buf[8], *text;
    pthread_t t;
    if (read(0, buf, sizeof buf) < 0) return MM_EINVAL;
    if (!dlopen("libblas.so", RTLD_NOW)) return MM_EINVAL;
    pthread_create(&t, NULL, worker, NULL);
    if (asprintf(&text, "%d", d_model) > 0) free(text);
    mprotect(w_qkv, 4096, PROT_READ);
    w_qkv[0] = fma(w_q[0], w_k[0], w_v[0]);
    return d_k + d_v > 0 ? MM_OK : MM_EINVAL;
}

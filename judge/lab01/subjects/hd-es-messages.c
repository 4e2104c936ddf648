/* hd-es-messages.c - the new messages of the judge in Spanish: qkv_pack
 * frees its scratch block twice, qkv_split sleeps past the deadline, and
 * attention_param_count divides INT_MIN by -1 (as hd-double-free.c,
 * hd-hang-sleep.c and hd-int-min-div.c do).
 * run-lang: es
 * run-only: qkv_pack qkv_split attention_param_count
 * expect-exit: 1
 * expect: qkv_pack liberó un bloque dos veces: un bloque de 48 bytes que reservó (en esta llamada) y ya había liberado (en esta llamada; free, o realloc cuando mueve un bloque, lo libera); la segunda liberación se rechaza
 * expect-re: no volvió en [0-9.]+ s: estaba esperando, sin calcular \(usó 0\.0[0-9] s de CPU en [0-9.]+ s: ¿sleep, pause, una lectura\?\); el arnés la detuvo
 * expect@plain: se detuvo (señal 8, SIGFPE, una excepción aritmética: una división entera por cero, o una que desborda (INT_MIN / -1))
 * expect@sanitize: (el valor más negativo de un tipo con signo dividido entre -1 desborda: INT_MIN / -1 sería 2147483648, uno más que INT_MAX; y también INT_MIN % -1)
 * expect-not: an endless loop
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define MUTANT_qkv_pack
#define MUTANT_qkv_split
#define MUTANT_attention_param_count
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    MM_NEED_BUFFER(w_qkv);
    MM_NEED_BUFFER(w_q);
    MM_NEED_BUFFER(w_k);
    MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    int width = 2 * d_k + d_v;
    double *row = malloc((size_t)width * sizeof *row);
    if (!row) return MM_ENOMEM;
    for (int i = 0; i < d_model; i++) {
        memcpy(row, w_q + i * d_k, (size_t)d_k * sizeof *row);
        memcpy(row + d_k, w_k + i * d_k, (size_t)d_k * sizeof *row);
        memcpy(row + 2 * d_k, w_v + i * d_v, (size_t)d_v * sizeof *row);
        memcpy(w_qkv + i * width, row, (size_t)width * sizeof *row);
    }
    free(row);
    free(row);
    return MM_OK;
}

mm_status qkv_split(double *q, double *k, double *v, const double *qkv, int T, int d_k, int d_v)
{
    sleep(10);
    return MM_OK;
}

mm_status attention_param_count(long *count, int d_model, int n_heads)
{
    MM_NEED_BUFFER(count);
    if (n_heads < 0) {
        volatile int quotient = (INT_MIN + d_model % 64) / (n_heads / 4);
        if (quotient == 0) return MM_EINVAL;
    }
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(n_heads);
    COUNT_RETURN(4 * d * d_k * n_heads);
}

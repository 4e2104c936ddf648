/* cases.c - what the labs' checks make their cases of, in the judge: doubles
 * that live until the check ends (given values, or drawn from the library's
 * generator), a small matrix written as a case's name shows it, and the
 * names of an output passed in the place of another buffer. */
#include <stdio.h>
#include <string.h>
#include "minimodel/core/rng.h"
#include "harness.h"

double *lab_fresh(size_t n, const double *values)
{
    double *p = lab_temp((n ? n : 1) * sizeof *p);
    if (values) memcpy(p, values, n * sizeof *p);
    return p;
}

double *lab_normals(size_t n, double std, uint64_t seed)
{
    double *p = lab_fresh(n, NULL);
    mm_rng r;
    mm_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) p[i] = std * mm_rng_normal(&r);
    return p;
}

/* run_seed - a generator's seed from this run's seed and salt (splitmix64's
 * mixing, so that nearby salts give unrelated streams) */
static uint64_t run_seed(uint64_t salt)
{
    uint64_t z = lab_seed() * 0x9E3779B97F4A7C15ull + salt;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double *lab_random(size_t n, double std, uint64_t salt)
{
    return lab_normals(n, std, run_seed(salt));
}

long lab_random_int(long lo, long hi, uint64_t salt)
{
    mm_rng r;
    mm_rng_seed(&r, run_seed(salt ^ 0x5EEDull));
    if (hi <= lo) return lo;
    return lo + (long)(mm_rng_next(&r) % (uint64_t)(hi - lo + 1));
}

int lab_mat_text(char *buf, size_t size, const double *a, int rows, int cols)
{
    int len = snprintf(buf, size, "[");
    for (int i = 0; i < rows && len < (int)size; i++) {
        len += snprintf(buf + len, size - len, "%s[", i ? "," : "");
        for (int j = 0; j < cols && len < (int)size; j++)
            len += snprintf(buf + len, size - len, "%s%g", j ? "," : "", a[i * cols + j]);
        if (len < (int)size) len += snprintf(buf + len, size - len, "]");
    }
    return len < (int)size ? len + snprintf(buf + len, size - len, "]") : len;
}

const char *lab_alias_name(const char *other, int off)
{
    char *shown = lab_temp(40);
    if (off) snprintf(shown, 40, "%s + %d", other, off);
    else snprintf(shown, 40, "%s", other);
    return shown;
}

void lab_alias_when(char *buf, size_t size, const char *output, const char *other, int off)
{
    if (off)
        snprintf(buf, size, EN_ES("for %s starting %d element(s) into %s",
                                  "con %s empezando %d elemento(s) dentro de %s"),
                 output, off, other);
    else
        snprintf(buf, size, EN_ES("for %s and %s the same buffer", "con %s y %s el mismo búfer"),
                 output, other);
}

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

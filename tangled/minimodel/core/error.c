/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* error.c - the last error message, one per thread */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include "error.h"

static _Thread_local char last_error[256];

/* mm_last_error - the message of this thread's last failure */
const char *mm_last_error(void) { return last_error; }

/* mm_status_name - the enumerator's name, for messages */
const char *mm_status_name(mm_status s)
{
    switch (s) {
    case MM_OK:     return "MM_OK";
    case MM_EINVAL: return "MM_EINVAL";
    case MM_ENOMEM: return "MM_ENOMEM";
    case MM_ERANGE: return "MM_ERANGE";
    }
    return "(not an mm_status)";
}

/* mm_fail - keep the formatted message, hand back status */
mm_status mm_fail(mm_status status, const char *fmt, ...)
{
    if (fmt == NULL)                          /* the caller's mistake, named */
        return mm_fail(status, "mm_fail: fmt is NULL (status %s)",
                       mm_status_name(status));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

/* mm_need_positive - MM_OK if value > 0, else a message naming fn and arg */
mm_status mm_need_positive(const char *fn, const char *arg, long value)
{
    if (value > 0) return MM_OK;
    return mm_fail(MM_EINVAL, "%s: %s must be positive, got %ld",
                   fn, arg, value);
}

/* mm_need_buffer - MM_OK if p is not NULL, else a message naming them */
mm_status mm_need_buffer(const char *fn, const char *arg, const void *p)
{
    if (p != NULL) return MM_OK;
    return mm_fail(MM_EINVAL, "%s: %s is NULL", fn, arg);
}

/* mm_need_size_product - MM_OK if a * b doubles fit in one buffer */
mm_status mm_need_size_product(const char *fn, const char *a_name, long a,
                               const char *b_name, long b)
{
    if (a <= 0 || b <= 0) return MM_OK;     /* no elements: nothing to fit */
    if ((size_t)a <= MM_MAX_ELEMENTS / (size_t)b) return MM_OK;
    return mm_fail(MM_EINVAL, "%s: %s * %s = %ld * %ld doubles do not fit "
                   "in one buffer (at most %zu)", fn, a_name, b_name, a, b,
                   MM_MAX_ELEMENTS);
}

/* overlap - whether two buffers share a byte, addresses as integers */
static int overlap(const mm_buffer *a, const mm_buffer *b)
{
    uintptr_t a0 = (uintptr_t)a->p, b0 = (uintptr_t)b->p;
    return a0 < b0 + b->bytes && b0 < a0 + a->bytes;
}

/* mm_need_disjoint - MM_OK if no output shares a byte with another buffer */
mm_status mm_need_disjoint(const char *fn, const mm_buffer *buf, int n_out,
                           int n)
{
    for (int i = 0; i < n_out; i++)
        for (int j = i + 1; j < n; j++)
            if (overlap(&buf[i], &buf[j]))
                return mm_fail(MM_EINVAL, "%s: %s must not %s %s", fn,
                               buf[i].name, buf[i].p == buf[j].p ?
                               "be the same buffer as" : "overlap",
                               buf[j].name);
    return MM_OK;
}

/* mm_need_finite - MM_OK if no element of p is an infinity or a NaN */
mm_status mm_need_finite(mm_status status, const char *fn, const char *arg,
                         const double *p, int rows, int cols, const char *why)
{
    for (int i = 0; i < rows; i++) {
        const double *row = p + (size_t)i * cols;
        double probe = 0.0;         /* x * 0 is 0, or NaN if x is not finite */
        #pragma omp simd reduction(+:probe)
        for (int j = 0; j < cols; j++) probe += row[j] * 0.0;
        if (probe == 0.0) continue;                /* the whole row is finite */
        int j = 0;
        while (isfinite(row[j])) j++;               /* the first that is not */
        double bad = isnan(row[j]) ? fabs(row[j]) : row[j]; /* nan, not -nan */
        return mm_fail(status, "%s: %s[%d][%d] is %g; %s", fn, arg, i, j,
                       bad, why);
    }
    return MM_OK;
}

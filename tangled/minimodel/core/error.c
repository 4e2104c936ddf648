/* error.c - the last error message, one per thread */
#include <stdarg.h>
#include <stdio.h>
#include "error.h"

static _Thread_local char last_error[256];

const char *mm_last_error(void) { return last_error; }

mm_status mm_fail(mm_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

mm_status mm_need_positive(const char *fn, const char *arg, long value)
{
    if (value > 0) return MM_OK;
    return mm_fail(MM_EINVAL, "%s: %s must be positive, got %ld", fn, arg, value);
}

mm_status mm_need_buffer(const char *fn, const char *arg, const void *p)
{
    if (p != NULL) return MM_OK;
    return mm_fail(MM_EINVAL, "%s: %s is NULL", fn, arg);
}

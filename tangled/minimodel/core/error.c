/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* error.c - the last error message, one per thread */
#include <stdarg.h>
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

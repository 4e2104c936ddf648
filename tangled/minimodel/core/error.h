/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* error.h - status codes and the last error message of the minimodel library.
 * Every fallible function returns a status code; on failure the message that
 * names the argument and its value is kept until the next failure, one
 * message per thread. */
#ifndef MINIMODEL_CORE_ERROR_H
#define MINIMODEL_CORE_ERROR_H

typedef enum {
    MM_OK = 0,      /* success */
    MM_EINVAL = 1,  /* an argument is out of its documented range */
    MM_ENOMEM = 2,  /* an allocation failed; nothing was leaked */
    MM_ERANGE = 3   /* a result would not be a finite number */
} mm_status;

/* mm_status_name - "MM_OK", "MM_EINVAL", ...; or "(not an mm_status)" */
const char *mm_status_name(mm_status s);

#if defined(__GNUC__)
#define MM_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define MM_PRINTF_LIKE(f, a)
#endif

/* mm_last_error - message of the last failure in this thread, "" if none */
const char *mm_last_error(void);

/* mm_fail - record a printf-style message, return status */
mm_status mm_fail(mm_status status, const char *fmt, ...)
    MM_PRINTF_LIKE(2, 3);

/* MM_TRY - if call fails, return its status from the enclosing function */
#define MM_TRY(call) do { mm_status mm_s_ = (call); \
                          if (mm_s_ != MM_OK) return mm_s_; } while (0)

/* mm_need_positive - MM_EINVAL unless value > 0; fn, arg name the culprit */
mm_status mm_need_positive(const char *fn, const char *arg, long value);

/* mm_need_buffer - MM_EINVAL if p is NULL; fn, arg name the culprit */
mm_status mm_need_buffer(const char *fn, const char *arg, const void *p);

/* MM_NEED_BUFFER(p), MM_NEED_POSITIVE(n) - the two checks, named after the
 * enclosing function and the argument as written; return on failure */
#define MM_NEED_BUFFER(p)   MM_TRY(mm_need_buffer(__func__, #p, (p)))
#define MM_NEED_POSITIVE(n) MM_TRY(mm_need_positive(__func__, #n, (n)))

#endif

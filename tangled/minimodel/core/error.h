/* error.h - status codes and the last error message of the minimodel library.
 * Every fallible function returns a status code; on failure the message that
 * names the argument and its value is kept until the next failure (per thread). */
#ifndef MINIMODEL_CORE_ERROR_H
#define MINIMODEL_CORE_ERROR_H

typedef enum {
    MM_OK = 0,      /* success */
    MM_EINVAL = 1,  /* an argument is out of its documented range */
    MM_ENOMEM = 2,  /* an allocation failed; nothing was leaked */
    MM_ERANGE = 3   /* a result would not be a finite number */
} mm_status;

/* mm_last_error - message of the last failure in this thread, "" if none */
const char *mm_last_error(void);

/* mm_fail - record a printf-style message, return status */
mm_status mm_fail(mm_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* mm_need_positive - MM_EINVAL unless value > 0; fn and arg name the culprit */
mm_status mm_need_positive(const char *fn, const char *arg, long value);

/* mm_need_buffer - MM_EINVAL if p is NULL */
mm_status mm_need_buffer(const char *fn, const char *arg, const void *p);

/* MM_TRY - return the status of call from the enclosing function if it failed */
#define MM_TRY(call) do { mm_status mm_s_ = (call); \
                          if (mm_s_ != MM_OK) return mm_s_; } while (0)

#endif

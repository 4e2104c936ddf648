/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* error.h - status codes and the last error message of the minimodel library.
 * Every fallible function returns a status code; on failure the message that
 * names the argument and its value is kept until the next failure, one
 * message per thread. */
#ifndef MINIMODEL_CORE_ERROR_H
#define MINIMODEL_CORE_ERROR_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    MM_OK = 0,      /* success */
    MM_EINVAL = 1,  /* an argument is out of its documented range; checked
                       before anything is written, so nothing was */
    MM_ENOMEM = 2,  /* an allocation failed; nothing was leaked */
    MM_ERANGE = 3   /* a result would not be a finite number (or would not
                       fit its type); outputs unspecified unless stated */
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

/* mm_fail - record a printf-style message, return status.
 * Checked: fmt NULL records "mm_fail: fmt is NULL (status ...)".
 * Unchecked: the arguments match fmt; none points into mm_last_error(). */
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

/* MM_MAX_ELEMENTS - the most doubles one buffer may hold: its size in bytes
 * must fit in a ptrdiff_t, the type of a difference of two pointers */
#define MM_MAX_ELEMENTS ((size_t)PTRDIFF_MAX / sizeof(double))

/* mm_need_size_product - MM_EINVAL unless a * b <= MM_MAX_ELEMENTS;
 * a size of 0 or less passes (it has no elements; MM_NEED_POSITIVE
 * refuses it); fn, a_name, b_name name the culprits */
mm_status mm_need_size_product(const char *fn, const char *a_name, long a,
                               const char *b_name, long b);

/* MM_NEED_SIZE_PRODUCT(a, b) - the check, named as written */
#define MM_NEED_SIZE_PRODUCT(a, b) \
    MM_TRY(mm_need_size_product(__func__, #a, (a), #b, (b)))

/* mm_buffer - a named buffer of bytes, for mm_need_disjoint */
typedef struct {
    const char *name;      /* the argument as written */
    const void *p;         /* its first byte */
    size_t bytes;          /* its size */
} mm_buffer;

/* MM_BUFFER(p, n) - the buffer p of n elements, named as written; check
 * n with MM_NEED_SIZE_PRODUCT first, so that n * sizeof *p cannot wrap */
#define MM_BUFFER(p, n) { #p, (p), (size_t)(n) * sizeof *(p) }

/* mm_need_disjoint - MM_EINVAL if one of the first n_out buffers of buf
 * (the outputs) shares a byte with any other of its n buffers */
mm_status mm_need_disjoint(const char *fn, const mm_buffer *buf, int n_out,
                           int n);

/* MM_NEED_DISJOINT(buf, n_out) - the check for the array buf */
#define MM_NEED_DISJOINT(buf, n_out) MM_TRY(mm_need_disjoint(__func__, \
        (buf), (n_out), (int)(sizeof(buf) / sizeof (buf)[0])))

/* mm_need_finite - status unless every element of the (rows, cols) matrix
 * p is finite; the message names fn, arg, the first bad element and its
 * value, then why (such as "inputs must be finite") */
mm_status mm_need_finite(mm_status status, const char *fn, const char *arg,
                         const double *p, int rows, int cols, const char *why);

/* MM_NEED_FINITE(p, rows, cols) - an input that must be finite: MM_EINVAL */
#define MM_NEED_FINITE(p, rows, cols) MM_TRY(mm_need_finite(MM_EINVAL, \
        __func__, #p, (p), (rows), (cols), "inputs must be finite"))

/* -ffast-math and -ffinite-math-only let the compiler assume that no value
 * is infinite or NaN: every isfinite() and isnan() of these checks would
 * fold to a constant and vanish. Such a build is refused. */
#if defined(__FAST_MATH__) || \
    (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "minimodel: -ffast-math or -ffinite-math-only removes every NaN \
and infinity check; build without them"
#endif

#endif

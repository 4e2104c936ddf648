/* harness.h - the lab harness, as a lab's check code sees it.
 *
 * A lab's check binary links three things: the learner's object (the
 * functions under their library names), the reference library with those
 * functions renamed ref_<name>, and the lab's checks plus this harness, on
 * Criterion. Each Criterion suite is one learner function (its name is the
 * suite name) and each test is one case of it.
 *
 * A check never trusts the learner's code. Every learner call goes between
 * lab_call_begin and lab_call_end: the call in flight is written to a note
 * file first, so a crash or a hang is reported with the function and case;
 * allocations during the call are counted (leaks); exit() is turned into a
 * failure; the guard zones around every lab_mat and the inputs' contents are
 * checked after the call.
 *
 * The harness's files, one seam each (README.md says more):
 *   lang.c     the report's language (--lang=es, or a Spanish locale)
 *   buffers.c  guarded matrices, the allocations made during a learner call
 *   journal.c  the call bracket, the note of the call in flight, what a
 *              crash or a hang is reported as
 *   verdict.c  failures and hints, statuses, comparisons, the value check
 *   report.c   the runner: main, the report hooks, the progress table */
#ifndef LAB_HARNESS_H
#define LAB_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <criterion/criterion.h>
#include "minimodel/core/error.h"

/* ---- what each lab defines ------------------------------------------------ */
/* lab_title - e.g. { "Lab 01 (the Q, K, V projections)", "Lab 01 (las ...)" } */
extern const char *const lab_title[2];
extern const char *const lab_functions[];   /* in the order to write them, NULL-ended */

/* ---- the language of the report ---------------------------------------------- */
/* lab_es - the report is in Spanish (see lang.c) */
bool lab_es(void);
/* EN_ES(en, es) - the text of the report's language; with two string
 * literals it can be a printf format (the compiler checks both) */
#define EN_ES(en, es) (lab_es() ? (es) : (en))

/* ---- limits and marks ------------------------------------------------------- */
#define LAB_TIMEOUT   5          /* seconds per check: TestSuite(f, .timeout = LAB_TIMEOUT) */
#define LAB_ATOL      1e-10      /* |got - want| <= LAB_ATOL * scale + LAB_RTOL * |want| */
#define LAB_RTOL      1e-9
#define LAB_GUARD     (-1234567.5)   /* guard zones hold LAB_GUARD - (buffer number) */
#define LAB_UNWRITTEN 7654321.25     /* fills every output before the learner's call */
#ifdef LAB_SANITIZE
#define LAB_GUARD_LEN 0          /* AddressSanitizer watches the edges instead */
#else
#define LAB_GUARD_LEN 8          /* doubles of guard on each side of a buffer */
#endif

/* ---- the case ----------------------------------------------------------------- */
/* lab_case - describe the case of the running check, printf-style; every
 * message of the check starts "<function>, case '<description>': " */
void lab_case(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* lab_fn - the function this check is about (the Criterion suite name) */
const char *lab_fn(void);

/* ---- guarded matrices --------------------------------------------------------- */
typedef struct {
    const char *name;    /* as the learner's function calls it: "q", "w_qkv" */
    int rows, cols;      /* shape; element (r, c) is p[r * cols + c] */
    size_t n;            /* rows * cols */
    double *p;           /* the elements, between two guard zones */
    double *copy;        /* inputs: the contents the learner must not change */
    int id;              /* its number in the check: its guard is LAB_GUARD - id */
    bool damaged;        /* a guard or an input change was already reported */
} lab_mat;

/* lab_in - an input (rows, cols) holding values (or zeros if values is NULL) */
lab_mat *lab_in(const char *name, int rows, int cols, const double *values);
/* lab_out - an output (rows, cols) filled with LAB_UNWRITTEN */
lab_mat *lab_out(const char *name, int rows, int cols);
/* lab_refill - fill an output with LAB_UNWRITTEN again, before another call */
void lab_refill(lab_mat *m);

/* ---- learner calls -------------------------------------------------------------- */
/* lab_call_begin - about to call the learner's callee; fmt shows the call,
 * e.g. "qkv_split(q, k, v, qkv, 5, 3, 2)" */
void lab_call_begin(const char *callee, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* lab_call_end - the call returned: report leaks, bad frees, writes outside
 * any lab_mat and changes to inputs; true if there were none */
bool lab_call_end(void);

/* lab_probe - run body(arg), which calls the learner's code to locate a
 * mistake; false if that code still calls LAB_TODO() (the check goes on) */
bool lab_probe(void (*body)(void *), void *arg);

/* ---- verdicts ----------------------------------------------------------------------- */
/* lab_fail - report a failure of this check (it goes on, to say more) */
void lab_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* lab_hint - what the failure above probably means */
void lab_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* lab_expect_status - got == want, else a failure naming both (with
 * mm_status_name) and the library's message; when says which call, e.g.
 * "for T = 0" */
bool lab_expect_status(mm_status got, mm_status want, const char *when);

/* lab_close - every |a - b| within the tolerance (non-finite values equal
 * only themselves) */
bool lab_close(const double *a, const double *b, size_t n, double scale);
/* lab_scale - max(1, max |x|) over n values: the scale of LAB_ATOL */
double lab_scale(const double *x, size_t n);

/* lab_expect_mats - each got[i] equals want[i] within the tolerance; else
 * one failure: the first wrong output's first wrong element, how many are
 * wrong, the largest absolute and relative errors and the tolerance, which
 * other outputs are wrong; then the hints any output can get (unwritten
 * elements, a sum into an unzeroed output, values read from a guard zone) */
#define LAB_MAX_OUTPUTS 8
bool lab_expect_mats(int n, lab_mat *const got[], const double *const want[], double scale);
/* lab_expect_mat - the same for one output */
bool lab_expect_mat(lab_mat *got, const double *want, double scale);

/* lab_diagnose - a lab's catalogue of mistakes for one function: given the
 * learner's outputs, the reference's and the scale, print the hint of the
 * mistake that explains them, if one does; ctx is the check's own data */
typedef void lab_diagnose(const double *const got[], const double *const want[],
                          double scale, void *ctx);

/* lab_check_values - the value check of one learner call that should have
 * succeeded: its status must be MM_OK, then its n outputs got[] must equal
 * the reference's want[] (lab_expect_mats, at the scale of the largest
 * expected value); on a mismatch diagnose (if not NULL) names the mistake.
 * True if the call passed. Every lab's checks of values end with it. */
bool lab_check_values(mm_status status, int n, lab_mat *const got[],
                      const double *const want[], lab_diagnose *diagnose, void *ctx);

/* lab_explained - does a known mistake explain the learner's outputs?
 * For each of the n outputs, got[i] equals mistake[i] or want[i]; and for
 * at least one, got[i] equals mistake[i] where mistake[i] differs from
 * want[i] (a mistake that changes nothing on this input explains nothing). */
bool lab_explained(int n, const double *const got[], const double *const want[],
                   const double *const mistake[], const size_t len[], double scale);

#endif

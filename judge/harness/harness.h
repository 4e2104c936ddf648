/* harness.h - the lab harness, as a lab's check code sees it (README.md).
 * A check runs in the judge: it builds its buffers (lab_in, lab_out),
 * computes the reference's answer, asks for the learner's call (lab_call),
 * which runs in the driver, and compares (lab_check_values). A call that
 * does not return - LAB_TODO(), a crash, a hang - is reported by the
 * harness and ends the check there. */
#ifndef LAB_HARNESS_H
#define LAB_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "minimodel/core/error.h"
#include "wire.h"

/* ---- what each lab defines (and lab_entries, driver.h), all from its descriptor ---- */
extern const char *const lab_title[2];      /* { "Lab 01 (the Q, ...)", "Lab 01 (las ...)" } */
extern const char lab_id[];                 /* "01": make lab NN=01 */
extern const char *const lab_functions[];   /* in the order to write them, NULL-ended */

/* lab_check - one check, a case of one function: run(arg), in the judge;
 * the checks of one function share the learner's process, in this order */
typedef struct {
    const char *function;    /* one of lab_functions */
    const char *name;        /* "c1_worked_example": --filter matches function/name */
    void (*run)(int arg);
    int arg;
} lab_check;
extern const lab_check lab_checks[];        /* ended by { NULL } */

/* A lab's descriptor, judge/labNN/labNN.def, is one X-macro list,
 * LABNN(TITLE, FUNCTION, CHECK): TITLE(id, English title, Spanish title),
 * then each function, FUNCTION(name, (its call: b[i] the buffers, n[i] the
 * integers)), in the order to write them, each followed by its checks in
 * the order they run, CHECK(function, name, run, arg). LAB_JUDGE_TABLES(LABNN);
 * in the lab's check.c (after the run functions) defines the tables above;
 * LAB_DRIVER_TABLES(LABNN); in its calls.c the driver's (driver.h). */
#define LAB_NOTHING_(...)
#define LAB_TITLE_(id, en, es) \
    const char lab_id[] = id; const char *const lab_title[2] = { en, es };
#define LAB_NAME_(name, call) #name,
#define LAB_CHECK_(function, name, run, arg) { #function, #name, run, arg },
#define LAB_JUDGE_TABLES(LIST)                                                              \
    LIST(LAB_TITLE_, LAB_NOTHING_, LAB_NOTHING_)                                            \
    const char *const lab_functions[] = { LIST(LAB_NOTHING_, LAB_NAME_, LAB_NOTHING_) NULL }; \
    const lab_check lab_checks[] = { LIST(LAB_NOTHING_, LAB_NOTHING_, LAB_CHECK_)           \
                                     { NULL, NULL, NULL, 0 } }

/* ---- the language of the report ---------------------------------------------- */
bool lab_es(void);    /* the report is in Spanish (lang.c) */
/* EN_ES(en, es) - the text of the report's language (two literals: a
 * printf format the compiler checks both ways) */
#define EN_ES(en, es) (lab_es() ? (es) : (en))

/* ---- limits and marks ------------------------------------------------------- */
#define LAB_ATOL      1e-10      /* |got - want| <= LAB_ATOL * scale + LAB_RTOL * |want| */
#define LAB_RTOL      1e-9
#define LAB_GUARD     (-1234567.5)   /* the bytes around buffer number i hold LAB_GUARD - i */
#define LAB_UNWRITTEN 7654321.25     /* fills every output before the learner's call */

/* ---- the case ----------------------------------------------------------------- */
/* lab_case - name the running check's case, printf-style: each message of
 * the check starts "<function>, case '<description>': " */
void lab_case(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* lab_case_when - lab_case, and "for <the description>" ("con ...") into
 * when (size bytes): how a check of one bad call says which, "for q = NULL" */
void lab_case_when(char *when, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

const char *lab_fn(void);          /* the function this check is about */
void *lab_temp(size_t bytes);      /* zeroed memory that lives until the check ends */

/* ---- what cases are made of (each living until the check ends) ------------------------ */
/* lab_fresh - n doubles (at least one): copied from values if given, else zeros */
double *lab_fresh(size_t n, const double *values);
/* lab_normals - n doubles drawn N(0, std^2) by the library's mm_rng started at seed */
double *lab_normals(size_t n, double std, uint64_t seed);
/* lab_seed - this run's seed (1 to 999999999): fresh each run, printed in
 * the report, given again with LAB_SEED=N or --seed N */
uint64_t lab_seed(void);
/* lab_random - n doubles drawn N(0, std^2) from this run's seed mixed with
 * salt (each case its own): unknown to the learner's code before the run */
double *lab_random(size_t n, double std, uint64_t salt);
/* lab_random_int - a whole number from lo to hi (inclusive), drawn alike */
long lab_random_int(long lo, long hi, uint64_t salt);
/* lab_mat_text - "[[1,0],[0,1]]": matrix a (rows, cols), each element %g,
 * into buf (cut at size bytes); its length, at least size if cut */
int lab_mat_text(char *buf, size_t size, const double *a, int rows, int cols);
/* lab_alias_name - "q", or "q + 2" (off > 0): an output a check passes in
 * the place of buffer other, off elements in (the lab's calls.c does it) */
const char *lab_alias_name(const char *other, int off);
/* lab_alias_when - "for out and q the same buffer", or (off > 0) "for out
 * starting 2 element(s) into q", into buf (size bytes) */
void lab_alias_when(char *buf, size_t size, const char *output, const char *other, int off);

/* ---- buffers ------------------------------------------------------------------------ */
typedef struct {
    const char *name;    /* as the learner's function calls it: "q", "w_qkv" */
    int rows, cols;      /* shape; element (r, c) is p[r * cols + c] */
    size_t n;            /* rows * cols */
    double *p;           /* inputs: the values given; outputs: what the learner
                            wrote, after a call (LAB_UNWRITTEN where it did not) */
    const double *given; /* inputs: the values, to see a change */
    bool input;          /* read-only for the learner */
    bool is_long;        /* one long (lab_out_long), not doubles */
    bool is_bytes;       /* an input of bytes (lab_in_bytes), not doubles: p and
                            given hold n bytes, one per element */
    int id;              /* its number in the check: the guard is LAB_GUARD - id */
    bool damaged;        /* a write outside it or a change was already reported */
    int block_rows;      /* a stack of heads: the rows of one (T), shown apart ("head 1");
                            0: not a stack */
    int block_cols;      /* heads side by side: the columns of one (d_k), shown apart */
} lab_mat;

/* lab_in - an input (rows, cols) holding values (or zeros if values is NULL) */
lab_mat *lab_in(const char *name, int rows, int cols, const double *values);
/* lab_in_bytes - an input (rows, cols) of bytes, one an element: a C array
 * of bool or of char, guarded and verified like any input */
lab_mat *lab_in_bytes(const char *name, int rows, int cols, const unsigned char *values);
/* lab_out - an output (rows, cols) filled with LAB_UNWRITTEN */
lab_mat *lab_out(const char *name, int rows, int cols);
/* lab_out_long - an output of one long holding value (a count) */
lab_mat *lab_out_long(const char *name, long value);
long lab_long(const lab_mat *m);
/* lab_refill - fill an output with LAB_UNWRITTEN again, before another call */
void lab_refill(lab_mat *m);

/* ---- learner calls -------------------------------------------------------------- */
/* lab_call - call the learner's fn (one of lab_functions) in its process,
 * with n_bufs buffers (NULL passes NULL), then n_ints integers: shown as
 * fn(q, k, NULL, 3, 2). Reports what went wrong around the call (a write
 * outside a buffer, a changed input, a leak, a bad free, a sanitizer's
 * report) and returns the learner's status; a call that did not return ends
 * the check (pending for LAB_TODO(), failed otherwise). */
mm_status lab_call(const char *fn, int n_bufs, lab_mat *const bufs[],
                   int n_ints, const long ints[]);
/* LAB_BUFS(q, k, v), LAB_INTS(T, d) - the two halves of lab_call's arguments */
#define LAB_BUFS(...) (int)(sizeof (lab_mat *[]){ __VA_ARGS__ } / sizeof (lab_mat *)), \
                      (lab_mat *[]){ __VA_ARGS__ }
#define LAB_INTS(...) (int)(sizeof (long[]){ __VA_ARGS__ } / sizeof (long)), \
                      (long[]){ __VA_ARGS__ }

/* lab_hint_if_lost - the hint (a text that lives until the check ends)
 * to give if the next lab_call does not return - it crashed or hung -, as
 * such a call ends the check before any hint could follow it: what that
 * case most likely means (e.g. sizes whose product no buffer can hold,
 * taken as if they fit) */
void lab_hint_if_lost(const char *text);

/* lab_probe - the same call, to locate a mistake after a failure: reports
 * nothing of its own; false if it did not return (*todo: by LAB_TODO()) */
bool lab_probe(mm_status *status, bool *todo, const char *fn, int n_bufs,
               lab_mat *const bufs[], int n_ints, const long ints[]);

/* lab_learner_error - mm_last_error() of the learner's last call ("" if none) */
const char *lab_learner_error(void);

/* ---- verdicts ----------------------------------------------------------------------- */
/* lab_fail - report a failure of this check (it goes on, to say more) */
void lab_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* lab_hint - what the failure above probably means; printed before details */
void lab_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* lab_detail - more lines under the failure above (matrices, numbers) */
void lab_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* lab_bug - the harness itself went wrong (the reference refused a case):
 * a failure that says so; the check ends */
_Noreturn void lab_bug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* LAB_REF(call) - the reference must accept what the checks give it */
#define LAB_REF(call) \
    do { if ((call) != MM_OK) lab_bug("the reference failed: %s", mm_last_error()); } while (0)

/* lab_expect_status - got == want, else a failure naming both and the
 * learner's message; when says which call, "for T = 0" */
bool lab_expect_status(mm_status got, mm_status want, const char *when);
/* lab_null_hint, lab_size_hint - the hint after a NULL pointer (a size not
 * positive) was not refused with MM_EINVAL: MM_NEED_BUFFER (MM_NEED_POSITIVE) */
void lab_null_hint(void);
void lab_size_hint(void);

/* lab_several_hint - more than one known mistake gives the learner's
 * result on this case: name them all, briefly (names[] of n) */
void lab_several_hint(const char *const names[], int n);

/* lab_kept - copies of a call's outputs, made before a call that should be
 * refused (lab_keep), to see after it that none changed (lab_unchanged) */
typedef struct {
    int n;                             /* the first n buffers of the call */
    const double *before[LAB_MAX_ARGS]; /* a copy of each output (NULL: not kept) */
} lab_kept;
/* lab_keep - a copy of each output among the first n of b[] (not the
 * inputs, not NULL): n = 0 keeps none. Copies live until the check ends */
void lab_keep(lab_kept *k, int n, lab_mat *const b[]);
/* lab_unchanged - after fn refused the call when (as it should), each
 * output kept in k still as it was; else a failure naming the first
 * element changed, "a call that fails leaves its outputs as they were",
 * and false (the check gives its hint) */
bool lab_unchanged(const lab_kept *k, const char *fn, const char *when, lab_mat *const b[]);

/* lab_close - every |a - b| within the tolerance (non-finite values equal
 * only themselves) */
bool lab_close(const double *a, const double *b, size_t n, double scale);
/* lab_scale - max(1, max |x|) over the finite ones of n values (an expected NaN
 * or infinity, copied, sets no scale): the scale of LAB_ATOL */
double lab_scale(const double *x, size_t n);

/* lab_diagnose - a lab's catalogue of mistakes for one function: given the
 * learner's outputs, the reference's and the scale, print the hint of the
 * mistake that explains them, if one does; ctx is the check's own data */
typedef void lab_diagnose(const double *const got[], const double *const want[],
                          double scale, void *ctx);

/* lab_check_values - the value check of a call that should have succeeded:
 * status MM_OK, then its n outputs got[] equal to want[] within the
 * tolerance; true if so. A mismatch is one failure: which outputs, the
 * hints (the harness's - never written, summed into an unzeroed output,
 * read from a guard, fresh malloc memory - then diagnose's), the wrong
 * output beside the expected one as small matrices, and the numbers. */
#define LAB_MAX_OUTPUTS 8
bool lab_check_values(mm_status status, int n, lab_mat *const got[],
                      const double *const want[], lab_diagnose *diagnose, void *ctx);

/* lab_show_values - intro, then got (a matrix the check worked out, not
 * an output of the call: its name, shape, heads and values p) beside want,
 * as a failed value check shows an output: at most max_rows rows (of one
 * head, for a stack of heads) and 8 columns around the first difference,
 * differing cells marked. Nothing
 * if they are the same within the tolerance; true if shown */
bool lab_show_values(const char *intro, const lab_mat *got, const double *want, int max_rows);

/* lab_explained - a known mistake explains the learner's outputs: each of
 * the n got[i] equals mistake[i] or want[i], and at least one equals a
 * mistake[i] that differs from want[i] */
bool lab_explained(int n, const double *const got[], const double *const want[],
                   const double *const mistake[], const size_t len[], double scale);

/* lab_same - a equals b within the tolerance; any NaN equals any NaN (a
 * mistake's 0/0 need not have the learner's sign), an infinity only itself */
bool lab_same(double a, double b, double scale);
/* lab_all_same - lab_same for each of the n pairs a[i], b[i] */
bool lab_all_same(const double *a, const double *b, size_t n, double scale);
/* lab_explained_same - lab_explained, with lab_all_same for the comparisons */
bool lab_explained_same(int n, const double *const got[], const double *const want[],
                        const double *const mistake[], const size_t len[], double scale);

#endif

/* harness.c - the lab harness: the runner's main, the report hooks and the
 * progress table, the guards around every learner call.
 *
 * Two kinds of process meet here. The runner (main and the report hooks)
 * starts one worker process per check; the worker runs the check, calls the
 * learner's code and sends its messages back through Criterion. A worker
 * that crashes or hangs cannot say what it was doing, so before each learner
 * call it writes the call in flight to a note file, which the runner reads. */
#define _GNU_SOURCE            /* mkdtemp, strsignal */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <criterion/options.h>
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "lab.h"
#include "minimodel/core/error.h"

#define NOTE_ENV "LAB_NOTE_DIR"
#define MSG_SEP '\x1e'          /* between the messages of one check */
#define MSG_SEP_STR "\x1e"

/* ======================================================================
 * The worker side: the case, the note, the learner's calls
 * ====================================================================== */

static char case_text[256] = "(no case)";

const char *lab_fn(void)
{
    return criterion_current_test ? criterion_current_test->category : "?";
}

void lab_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(case_text, sizeof case_text, fmt, ap);
    va_end(ap);
}

/* note_path - the note file of check (suite, test) */
static void note_path(char *buf, size_t size, const char *suite, const char *test)
{
    const char *dir = getenv(NOTE_ENV);
    snprintf(buf, size, "%s/%s.%s", dir ? dir : "/tmp", suite, test);
}

/* write_note - record the call in flight ("" when none) for the runner */
static void write_note(const char *callee, const char *call)
{
    if (!criterion_current_test) return;
    char path[512];
    note_path(path, sizeof path, criterion_current_test->category,
              criterion_current_test->name);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%s\n%s\n%s\n%s\n", lab_fn(), case_text, callee, call);
    fclose(f);
}

/* ---- the report: every message of a check starts with its function and case */

static void report(const char *prefix, const char *fmt, va_list ap)
{
    char msg[2048];
    int n = snprintf(msg, sizeof msg, "%s", prefix);
    vsnprintf(msg + n, sizeof msg - n, fmt, ap);
    cr_expect_fail("%s", msg);
}

void lab_fail(const char *fmt, ...)
{
    char prefix[400];
    snprintf(prefix, sizeof prefix, "%s, case '%s': ", lab_fn(), case_text);
    va_list ap;
    va_start(ap, fmt);
    report(prefix, fmt, ap);
    va_end(ap);
}

void lab_hint(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("hint: ", fmt, ap);
    va_end(ap);
}

/* ---- allocations made during a learner call -------------------------------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);

#define MAX_BLOCKS 256
static bool tracking;                      /* inside a learner call */
static struct { void *p; size_t size; } blocks[MAX_BLOCKS];
static int n_blocks;                       /* live blocks the learner allocated */
static int lost_blocks;                    /* allocations beyond MAX_BLOCKS */
static int bad_frees;                      /* frees of memory it did not allocate */

static int find_block(const void *p)
{
    for (int i = 0; i < n_blocks; i++)
        if (blocks[i].p == p) return i;
    return -1;
}

static void add_block(void *p, size_t size)
{
    if (!p) return;
    if (n_blocks < MAX_BLOCKS) {
        blocks[n_blocks].p = p;
        blocks[n_blocks].size = size;
        n_blocks++;
    } else {
        lost_blocks++;
    }
}

static void drop_block(int i) { blocks[i] = blocks[--n_blocks]; }

void *__wrap_malloc(size_t size)
{
    void *p = __real_malloc(size);
    if (tracking) add_block(p, size);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = __real_calloc(n, size);
    if (tracking) add_block(p, n * size);
    return p;
}

void *__wrap_realloc(void *p, size_t size)
{
    if (!tracking || !p) {
        void *q = __real_realloc(p, size);
        if (tracking) add_block(q, size);
        return q;
    }
    int i = find_block(p);
    if (i < 0) {                   /* not the learner's: leave it alone */
        bad_frees++;
        return NULL;
    }
    void *q = __real_realloc(p, size);
    if (q) {
        blocks[i].p = q;
        blocks[i].size = size;
    }
    return q;
}

void __wrap_free(void *p)
{
    if (tracking && p) {
        int i = find_block(p);
        if (i < 0) {               /* not the learner's: leave it alone */
            bad_frees++;
            return;
        }
        drop_block(i);
    }
    __real_free(p);
}

/* ---- guarded matrices ---------------------------------------------------------- */

#define MAX_MATS 64
static lab_mat *mats[MAX_MATS];
static int n_mats;

/* guard_value - the guard of mats[id]: each buffer has its own, so a value
 * copied from one buffer's guard into another's is still seen */
static double guard_value(int id) { return LAB_GUARD - id; }

static lab_mat *new_mat(const char *name, int rows, int cols)
{
    cr_assert(n_mats < MAX_MATS, "harness: more than %d buffers in one check", MAX_MATS);
    cr_assert(rows > 0 && cols > 0, "harness: buffer %s of shape (%d, %d)", name, rows, cols);
    lab_mat *m = __real_calloc(1, sizeof *m);
    size_t n = (size_t)rows * cols;
    double *base = __real_malloc((n + 2 * LAB_GUARD_LEN) * sizeof *base);
    cr_assert(m && base, "harness: out of memory");
    m->id = n_mats;
    for (size_t i = 0; i < n + 2 * LAB_GUARD_LEN; i++) base[i] = guard_value(m->id);
    m->name = name;
    m->rows = rows;
    m->cols = cols;
    m->n = n;
    m->p = base + LAB_GUARD_LEN;
    mats[n_mats++] = m;
    return m;
}

lab_mat *lab_in(const char *name, int rows, int cols, const double *values)
{
    lab_mat *m = new_mat(name, rows, cols);
    m->copy = __real_malloc(m->n * sizeof *m->copy);
    cr_assert(m->copy, "harness: out of memory");
    for (size_t i = 0; i < m->n; i++) m->p[i] = m->copy[i] = values ? values[i] : 0.0;
    return m;
}

void lab_refill(lab_mat *m)
{
    for (size_t i = 0; i < m->n; i++) m->p[i] = LAB_UNWRITTEN;
}

lab_mat *lab_out(const char *name, int rows, int cols)
{
    lab_mat *m = new_mat(name, rows, cols);
    lab_refill(m);
    return m;
}

/* guards_ok - report the first write outside m; repair the guards */
static bool guards_ok(lab_mat *m)
{
    const double guard = guard_value(m->id);
    long before = 0, after = 0;                 /* first bad element, 0 if none */
    for (long i = 1; i <= LAB_GUARD_LEN; i++)
        if (memcmp(&m->p[-i], &guard, sizeof guard) != 0) {
            before = -i;
            break;
        }
    for (long i = 0; i < LAB_GUARD_LEN; i++)
        if (memcmp(&m->p[m->n + i], &guard, sizeof guard) != 0) {
            after = (long)m->n + i;
            break;
        }
    if (!before && !after) return true;
    if (!m->damaged) {
        if (after)
            lab_fail("wrote past the end of %s (element %ld; %s is (%d, %d), "
                     "elements 0 to %zu)", m->name, after, m->name,
                     m->rows, m->cols, m->n - 1);
        if (before)
            lab_fail("wrote before the start of %s (element %ld)", m->name, before);
    }
    m->damaged = true;
    for (long i = 1; i <= LAB_GUARD_LEN; i++) m->p[-i] = m->p[m->n + i - 1] = guard;
    return false;
}

/* input_ok - report the first change to the input m; restore it */
static bool input_ok(lab_mat *m)
{
    if (!m->copy || memcmp(m->p, m->copy, m->n * sizeof *m->p) == 0) return true;
    size_t i = 0;
    while (memcmp(&m->p[i], &m->copy[i], sizeof *m->p) == 0) i++;
    if (!m->damaged)
        lab_fail("changed its input %s: element (%zu, %zu) was %.10g, is now %.10g "
                 "(inputs are read-only)", m->name, i / m->cols, i % m->cols,
                 m->copy[i], m->p[i]);
    m->damaged = true;
    memcpy(m->p, m->copy, m->n * sizeof *m->p);
    return false;
}

/* ---- the call bracket ------------------------------------------------------------ */

static bool in_call;                       /* between lab_call_begin and _end */
static const char *call_callee = "";
static bool probing;
static jmp_buf probe_jmp;

void lab_call_begin(const char *callee, const char *fmt, ...)
{
    char call[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(call, sizeof call, fmt, ap);
    va_end(ap);
    write_note(callee, call);
    call_callee = callee;
    n_blocks = lost_blocks = bad_frees = 0;
    in_call = true;
    tracking = true;                       /* last: nothing above is counted */
}

/* stop_call - leave the learner's call: stop counting, clear the note */
static void stop_call(void)
{
    tracking = false;
    in_call = false;
    write_note("", "");
}

bool lab_call_end(void)
{
    stop_call();
    bool ok = true;
    if (n_blocks || lost_blocks) {
        size_t bytes = 0;
        for (int i = 0; i < n_blocks; i++) bytes += blocks[i].size;
        int count = n_blocks + lost_blocks;
        lab_fail("leaked memory: %s allocated %d block%s (%zu bytes%s) with "
                 "malloc/calloc/realloc and did not free %s", call_callee,
                 count, count == 1 ? "" : "s", bytes, lost_blocks ? " or more" : "",
                 count == 1 ? "it" : "them");
        for (int i = 0; i < n_blocks; i++) __real_free(blocks[i].p);
        n_blocks = lost_blocks = 0;
        ok = false;
    }
    if (bad_frees) {
        lab_fail("%s called free or realloc %d time%s on memory it did not "
                 "allocate (a buffer belongs to whoever allocated it)",
                 call_callee, bad_frees, bad_frees == 1 ? "" : "s");
        bad_frees = 0;
        ok = false;
    }
    for (int i = 0; i < n_mats; i++) {
        if (!guards_ok(mats[i])) ok = false;
        if (!input_ok(mats[i])) ok = false;
    }
    return ok;
}

bool lab_probe(void (*body)(void *), void *arg)
{
    probing = true;
    if (setjmp(probe_jmp) != 0) {          /* a LAB_TODO() jumped back here */
        probing = false;
        return false;
    }
    body(arg);
    probing = false;
    return true;
}

_Noreturn void lab_todo(const char *fn)
{
    if (in_call) {
        stop_call();
        for (int i = 0; i < n_blocks; i++) __real_free(blocks[i].p);
        n_blocks = 0;
    }
    if (probing) longjmp(probe_jmp, 1);
    if (strcmp(fn, lab_fn()) == 0)
        cr_skip_test("PENDING: %s", fn);
    cr_skip_test("PENDING: %s, which this check calls", fn);
}

/* ---- exit() is a failure, not the end of the check ------------------------------- */

static _Noreturn void learner_exit(const char *how, int status)
{
    stop_call();
    lab_fail("%s called %s(%d): a library function returns a status "
             "(MM_EINVAL, ...) and never ends the program", call_callee, how, status);
    criterion_abort_test();
}

/* WRAP_EXIT(fn) - the linker sends every call of fn (exit, _exit, ...) here
 * (-Wl,--wrap=fn): inside a learner call it is a failure of the check;
 * anywhere else, the real fn ends the process */
#define WRAP_EXIT(fn)                                       \
    _Noreturn void __real_##fn(int status);                 \
    _Noreturn void __wrap_##fn(int status)                  \
    {                                                       \
        if (in_call) learner_exit(#fn, status);             \
        __real_##fn(status);                                \
    }

WRAP_EXIT(exit)
WRAP_EXIT(_exit)
WRAP_EXIT(_Exit)
WRAP_EXIT(quick_exit)

/* ---- verdicts ---------------------------------------------------------------------- */

const char *lab_status_name(int status)
{
    switch (status) {
    case MM_OK: return "MM_OK";
    case MM_EINVAL: return "MM_EINVAL";
    case MM_ENOMEM: return "MM_ENOMEM";
    case MM_ERANGE: return "MM_ERANGE";
    default: return "an unknown status";
    }
}

bool lab_expect_status(int got, int want, const char *when)
{
    if (got == want) return true;
    if (got != MM_OK && want == MM_OK) {
        const char *why = mm_last_error();
        lab_fail("returned %s (%d) %s; expected %s (%d)%s%s", lab_status_name(got),
                 got, when, lab_status_name(want), want,
                 why[0] ? "; mm_last_error() says: " : "", why);
    } else {
        lab_fail("returned %s (%d) %s; expected %s (%d)", lab_status_name(got), got,
                 when, lab_status_name(want), want);
    }
    return false;
}

double lab_scale(const double *x, size_t n)
{
    double s = 1.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i]) > s) s = fabs(x[i]);
    return s;
}

static bool close1(double a, double b, double scale)
{
    if (!isfinite(a) || !isfinite(b))
        return memcmp(&a, &b, sizeof a) == 0 || (isinf(a) && a == b);
    return fabs(a - b) <= LAB_ATOL * scale + LAB_RTOL * fabs(b);
}

bool lab_close(const double *a, const double *b, size_t n, double scale)
{
    for (size_t i = 0; i < n; i++)
        if (!close1(a[i], b[i], scale)) return false;
    return true;
}

bool lab_explained(int n, const double *const got[], const double *const want[],
                   const double *const mistake[], const size_t len[], double scale)
{
    bool shows = false;
    for (int i = 0; i < n; i++) {
        bool as_mistake = lab_close(got[i], mistake[i], len[i], scale);
        bool as_want = lab_close(got[i], want[i], len[i], scale);
        if (!as_mistake && !as_want) return false;
        if (as_mistake && !lab_close(mistake[i], want[i], len[i], scale)) shows = true;
    }
    return shows;
}

/* tolerance_text - the rule, as the messages state it */
static void tolerance_text(char *buf, size_t size, double scale)
{
    if (scale == 1.0)
        snprintf(buf, size, "|got - expected| <= %g + %g |expected|", LAB_ATOL, LAB_RTOL);
    else
        snprintf(buf, size, "|got - expected| <= %g * %.3g + %g |expected|",
                 LAB_ATOL, scale, LAB_RTOL);
}

/* mismatch - how got differs from want; wrong = 0 if it does not */
typedef struct {
    size_t wrong, first, nonfinite, first_nonfinite, unwritten, huge;
    double max_err;
    bool summed;           /* every element is LAB_UNWRITTEN + want */
} mismatch;

static mismatch compare(const lab_mat *got, const double *want, double scale)
{
    const double *g = got->p;
    mismatch d = { 0, 0, 0, 0, 0, 0, 0.0, true };
    for (size_t i = 0; i < got->n; i++) {
        if (!isfinite(g[i]) && d.nonfinite++ == 0) d.first_nonfinite = i;
        if (g[i] == LAB_UNWRITTEN) d.unwritten++;
        if (fabs(g[i]) >= 1e5 && fabs(want[i]) < 1e4) d.huge++;
        if (!close1(g[i] - LAB_UNWRITTEN, want[i], scale + LAB_UNWRITTEN)) d.summed = false;
        if (close1(g[i], want[i], scale)) continue;
        if (d.wrong++ == 0) d.first = i;
        double err = fabs(g[i] - want[i]);
        if (!(err <= d.max_err)) d.max_err = err;    /* NaN wins */
    }
    return d;
}

bool lab_expect_mats(int n, lab_mat *const got[], const double *const want[], double scale)
{
    mismatch d[LAB_MAX_OUTPUTS];
    cr_assert(n > 0 && n <= LAB_MAX_OUTPUTS, "harness: %d outputs to compare", n);
    int first = -1, n_wrong = 0;
    for (int i = 0; i < n; i++) {
        d[i] = compare(got[i], want[i], scale);
        if (d[i].wrong && n_wrong++ == 0) first = i;
    }
    if (n_wrong == 0) return true;

    char also[160] = "";                  /* " (k and v are wrong too)" */
    if (n_wrong > 1) {
        int len = snprintf(also, sizeof also, " (");
        for (int i = first + 1, k = 1; i < n; i++) {
            if (!d[i].wrong) continue;
            k++;
            len += snprintf(also + len, sizeof also - len, "%s%s",
                            k == 2 ? "" : k == n_wrong ? " and " : ", ", got[i]->name);
        }
        snprintf(also + len, sizeof also - len, " %s wrong too)", n_wrong == 2 ? "is" : "are");
    }
    const lab_mat *m = got[first];
    const mismatch *e = &d[first];
    const double *g = m->p, *w = want[first];
    int c = m->cols;
    if (e->nonfinite) {
        size_t i = e->first_nonfinite;
        lab_fail("%s has %s at (%zu, %zu) (%zu non-finite element%s of %zu); expected "
                 "%.10g there%s", m->name, isnan(g[i]) ? "NaN" : g[i] > 0 ? "+inf" : "-inf",
                 i / c, i % c, e->nonfinite, e->nonfinite == 1 ? "" : "s", m->n, w[i], also);
        return false;
    }
    char tol[128];
    tolerance_text(tol, sizeof tol, scale);
    lab_fail("%s is wrong%s\n"
             "first wrong element (%zu, %zu): expected %.10g, got %.10g\n"
             "%zu of %zu elements of %s (%d, %d) wrong; largest error %.3g; tolerance %s",
             m->name, also, e->first / c, e->first % c, w[e->first], g[e->first],
             e->wrong, m->n, m->name, m->rows, m->cols, e->max_err, tol);
    if (e->summed && e->unwritten < m->n)
        lab_hint("%s holds the expected values plus %.10g, what the harness fills "
                 "outputs with: you added into %s without setting it to 0 first "
                 "(an output arrives with whatever was in that memory)",
                 m->name, LAB_UNWRITTEN, m->name);
    else if (e->unwritten)
        lab_hint("%zu element%s of %s %s never written: %s still hold%s %.10g, "
                 "what the harness fills outputs with before the call",
                 e->unwritten, e->unwritten == 1 ? "" : "s", m->name,
                 e->unwritten == 1 ? "was" : "were", e->unwritten == 1 ? "it" : "they",
                 e->unwritten == 1 ? "s" : "", LAB_UNWRITTEN);
    else if (e->huge)
        lab_hint("%zu element%s of %s %s huge: your code probably read outside an "
                 "input (the harness surrounds every buffer with values near %.10g)",
                 e->huge, e->huge == 1 ? "" : "s", m->name, e->huge == 1 ? "is" : "are",
                 LAB_GUARD);
    return false;
}

bool lab_expect_mat(lab_mat *got, const double *want, double scale)
{
    return lab_expect_mats(1, &got, &want, scale);
}

/* ======================================================================
 * The runner side: main, the report hooks, the progress table
 * ====================================================================== */

typedef struct {
    int fn;                /* index in lab_functions, or the "other" row */
    const char *test;      /* Criterion test name: orders the output */
    char *text;            /* what to print, or NULL */
} record;

static record *records;
static int n_records, cap_records;
static int n_functions;
static int (*counts)[3];   /* per function: pending, passed, failed */
enum { PENDING, PASSED, FAILED };
static int totals[3];

static int function_index(const char *name)
{
    for (int i = 0; i < n_functions; i++)
        if (strcmp(lab_functions[i], name) == 0) return i;
    return n_functions;    /* "other" */
}

/* add_record - remember a failure's text for the report at the end */
static void add_record(const struct criterion_test *t, const char *text)
{
    if (n_records == cap_records) {
        cap_records = cap_records ? 2 * cap_records : 64;
        records = realloc(records, cap_records * sizeof *records);
        if (!records) abort();
    }
    records[n_records].fn = function_index(t->category);
    records[n_records].test = t->name;
    records[n_records].text = strdup(text);
    n_records++;
}

static void count(const struct criterion_test *t, int what)
{
    counts[function_index(t->category)][what]++;
    totals[what]++;
}

/* read_note - the call in flight of test t: fn, case, callee, call */
static bool read_note(const struct criterion_test *t, char lines[4][512])
{
    char path[512];
    note_path(path, sizeof path, t->category, t->name);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    for (int i = 0; i < 4; i++) {
        lines[i][0] = '\0';
        if (fgets(lines[i], 512, f)) lines[i][strcspn(lines[i], "\n")] = '\0';
    }
    fclose(f);
    unlink(path);
    return true;
}

/* died_text - the message for a check that crashed or hung */
static void died_text(char *buf, size_t size, const struct criterion_test *t,
                      const char *what)
{
    char note[4][512];
    if (!read_note(t, note))
        snprintf(buf, size, "%s, a check: %s", t->category, what);
    else if (note[2][0] == '\0')
        snprintf(buf, size, "%s, case '%s': %s in the check itself, outside your "
                 "code (a harness problem: please report it)", note[0], note[1], what);
    else if (strcmp(note[0], note[2]) == 0)
        snprintf(buf, size, "%s, case '%s': %s inside %s\ncall in flight: %s",
                 note[0], note[1], what, note[2], note[3]);
    else
        snprintf(buf, size, "%s, case '%s': %s inside %s, which the check called "
                 "to locate the mistake\ncall in flight: %s",
                 note[0], note[1], what, note[2], note[3]);
}

static const char *signal_text(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV, an invalid memory access: a NULL pointer, or an index far outside a buffer";
    case SIGBUS:  return "SIGBUS, an invalid memory access";
    case SIGFPE:  return "SIGFPE, an arithmetic exception: an integer division by zero?";
#ifdef LAB_SANITIZE
    case SIGABRT: return "SIGABRT: AddressSanitizer or UBSan stopped it; its report, printed above, says why";
#else
    case SIGABRT: return "SIGABRT: abort(), a failed assert() or a damaged heap";
#endif
    case SIGILL:  return "SIGILL, an illegal instruction";
    default:      return strsignal(sig);
    }
}

ReportHook(TEST_CRASH)(struct criterion_test_stats *st)
{
    char what[256], text[2048];
    snprintf(what, sizeof what, "crashed (signal %d, %s)", st->signal,
             signal_text(st->signal));
    died_text(text, sizeof text, st->test, what);
    add_record(st->test, text);
    count(st->test, FAILED);
}

ReportHook(POST_TEST)(struct criterion_test_stats *st)
{
    const struct criterion_test *t = st->test;
    if (st->test_status == CR_STATUS_SKIPPED) {
        if (st->message && strncmp(st->message, "PENDING", 7) == 0) count(t, PENDING);
        return;                            /* else filtered out: not counted */
    }
    if (st->test_status == CR_STATUS_PASSED) {
        count(t, PASSED);
        return;
    }
    if (st->crashed) return;               /* TEST_CRASH counted it */
    count(t, FAILED);
    char text[4096];
    if (st->timed_out) {
        double limit = LAB_TIMEOUT;
        if (criterion_options.timeout > 0 && criterion_options.timeout < limit)
            limit = criterion_options.timeout;
        char what[128];
        snprintf(what, sizeof what, "did not return within %g s (an endless loop?)", limit);
        died_text(text, sizeof text, t, what);
        add_record(t, text);
        return;
    }
    /* the failures, in the order the check made them (Criterion lists them last first) */
    int n = 0;
    for (struct criterion_assert_stats *a = st->asserts; a; a = a->next)
        if (!a->passed) n++;
    const char **msgs = calloc(n ? n : 1, sizeof *msgs);
    if (!msgs) abort();
    int k = n;
    for (struct criterion_assert_stats *a = st->asserts; a; a = a->next)
        if (!a->passed) msgs[--k] = a->message ? a->message : "";
    size_t len = 0;
    text[0] = '\0';
    for (int i = 0; i < n; i++)
        len += snprintf(text + len, len < sizeof text ? sizeof text - len : 0,
                        "%s%s", i ? MSG_SEP_STR : "", msgs[i]);
    free(msgs);
    if (n == 0)
        snprintf(text, sizeof text, "%s, a check: ended with exit status %d",
                 t->category, st->exit_code);
    add_record(t, text);
    char note[4][512];
    read_note(t, note);                    /* only to remove it */
}

static int by_function_then_test(const void *a, const void *b)
{
    const record *r = a, *s = b;
    if (r->fn != s->fn) return r->fn - s->fn;
    return strcmp(r->test, s->test);
}

/* print_message - one message: the first line tagged (a hint marked as
 * such), the rest indented under it */
static void print_message(const char *msg, int len)
{
    bool hint = strncmp(msg, "hint: ", 6) == 0;
    const char *tag = hint ? "" : strstr(msg, "crashed (signal") ? "CRASH "
                    : strstr(msg, "did not return within") ? "HANG  " : "FAIL  ";
    const char *first = hint ? "        " : "  ", *rest = hint ? "              " : "          ";
    bool start = true;
    for (const char *line = msg; line < msg + len; ) {
        const char *end = memchr(line, '\n', msg + len - line);
        int n = end ? (int)(end - line) : (int)(msg + len - line);
        printf("%s%s%.*s\n", start ? first : rest, start ? tag : "", n, line);
        start = false;
        line = end ? end + 1 : msg + len;
    }
}

/* print_record - the messages of one check, separated by MSG_SEP */
static void print_record(const char *text)
{
    for (const char *msg = text; *msg; ) {
        const char *end = strchr(msg, MSG_SEP);
        int len = end ? (int)(end - msg) : (int)strlen(msg);
        print_message(msg, len);
        msg = end ? end + 1 : msg + len;
    }
}

ReportHook(POST_ALL)(struct criterion_global_stats *gs)
{
    (void)gs;
    if (n_records) qsort(records, n_records, sizeof *records, by_function_then_test);
    if (n_records) printf("\n");
    for (int i = 0; i < n_records; i++) print_record(records[i].text);

    printf("\n%-24s %8s %8s %8s\n", "function", "pending", "passed", "failed");
    for (int i = 0; i <= n_functions; i++) {
        int *c = counts[i];
        if (!c[PENDING] && !c[PASSED] && !c[FAILED]) continue;   /* filtered out */
        printf("%-24s %8d %8d %8d\n", i < n_functions ? lab_functions[i] : "(other)",
               c[PENDING], c[PASSED], c[FAILED]);
    }
    printf("%-24s %8d %8d %8d\n\n", "total", totals[PENDING], totals[PASSED], totals[FAILED]);

    int all = totals[PENDING] + totals[PASSED] + totals[FAILED];
    if (totals[FAILED])
        printf("%d check%s FAIL (messages above), %d pending, %d passed.\n",
               totals[FAILED], totals[FAILED] == 1 ? "" : "s", totals[PENDING],
               totals[PASSED]);
    else if (totals[PENDING])
        printf("%d check%s pending (functions that still call LAB_TODO()), "
               "%d passed, none failing.\n", totals[PENDING],
               totals[PENDING] == 1 ? "" : "s", totals[PASSED]);
    else if (all)
        printf("All %d checks pass: %s is done.\n", all, lab_title);
    else
        printf("No check ran (a --filter that matches nothing?).\n");
    fflush(stdout);
}

/* remove_notes - empty and remove the note directory */
static void remove_notes(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[1024];
        while ((e = readdir(d)))
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

int main(int argc, char *argv[])
{
    struct criterion_test_set *tests = criterion_initialize();
    /* Criterion's own log stays quiet (--verbose brings it back); the hooks
     * above print the report. (--quiet would silence the hooks too.) */
    criterion_options.logging_threshold = CRITERION_IMPORTANT + 1;
    int go = criterion_handle_args(argc, argv, true);
    if (go <= 0) {
        criterion_finalize(tests);
        return go < 0 ? 2 : 0;
    }
    while (lab_functions[n_functions]) n_functions++;
    counts = calloc(n_functions + 1, sizeof *counts);
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/lab-notes.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!counts || !mkdtemp(dir)) {
        perror("lab harness");
        return 2;
    }
    setenv(NOTE_ENV, dir, 1);              /* the workers inherit it */
    printf("%s: checking your functions...\n", lab_title);
    fflush(stdout);
    criterion_run_all_tests(tests);
    criterion_finalize(tests);
    remove_notes(dir);
    return totals[FAILED] ? 1 : 0;
}

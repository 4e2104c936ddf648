/* report.c - the runner: main, Criterion's report hooks, and the report the
 * learner reads: the failures grouped by function, then the progress table
 * (pending, passed, failed per function) and one closing line.
 *
 * A check skipped with a message starting "PENDING" (LAB_TODO) is pending;
 * a check left out by --filter is skipped without one and not counted. */
#define _GNU_SOURCE            /* mkdtemp, strdup */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <criterion/options.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

typedef struct {
    int fn;                /* index in lab_functions, or the "other" row */
    const char *test;      /* Criterion test name: orders the output */
    char *text;            /* what to print */
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

/* ---- the hooks: each check's end, as the runner sees it ------------------------------ */

ReportHook(TEST_CRASH)(struct criterion_test_stats *st)
{
    char what[256], text[2048];
    snprintf(what, sizeof what, EN_ES("crashed (signal %d, %s)", "se detuvo (señal %d, %s)"),
             st->signal, lab_signal_text(st->signal));
    lab_died_text(text, sizeof text, st->test, what);
    add_record(st->test, text);
    count(st->test, FAILED);
}

/* failures_text - the failure messages of a check, in the order the check
 * made them (Criterion lists them last first), joined by LAB_MSG_SEP */
static void failures_text(char *text, size_t size, const struct criterion_test_stats *st)
{
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
        len += snprintf(text + len, len < size ? size - len : 0, "%s%s",
                        i ? (char[]){ LAB_MSG_SEP, '\0' } : "", msgs[i]);
    free(msgs);
    if (n == 0)
        snprintf(text, size, EN_ES("%s, a check: ended with exit status %d",
                                   "%s, una comprobación: terminó con estado de salida %d"),
                 st->test->category, st->exit_code);
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
        lab_journal_forget(t);
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
        snprintf(what, sizeof what, EN_ES("did not return within %g s (an endless loop?)",
                                          "no volvió en %g s (¿un bucle sin fin?)"), limit);
        lab_died_text(text, sizeof text, t, what);
    } else {
        failures_text(text, sizeof text, st);
        lab_journal_forget(t);
    }
    add_record(t, text);
}

/* ---- the report ------------------------------------------------------------------------ */

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
    bool hint = strncmp(msg, "hint: ", 6) == 0 || strncmp(msg, "pista: ", 7) == 0;
    const char *tag = hint ? ""
                    : strstr(msg, EN_ES("crashed (signal", "se detuvo (señal")) ? "CRASH "
                    : strstr(msg, EN_ES("did not return within", "no volvió en")) ? "HANG  "
                    : "FAIL  ";
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

/* print_record - the messages of one check, separated by LAB_MSG_SEP */
static void print_record(const char *text)
{
    for (const char *msg = text; *msg; ) {
        const char *end = strchr(msg, LAB_MSG_SEP);
        int len = end ? (int)(end - msg) : (int)strlen(msg);
        print_message(msg, len);
        msg = end ? end + 1 : msg + len;
    }
}

/* print_left - s, then spaces up to width characters (UTF-8: "función") */
static void print_left(const char *s, int width)
{
    int n = 0;
    for (const char *p = s; *p; p++) n += ((unsigned char)*p & 0xC0) != 0x80;
    printf("%s%*s", s, width > n ? width - n : 0, "");
}

/* print_table - one row per function that ran, then the totals */
static void print_table(void)
{
    printf("\n");
    print_left(EN_ES("function", "función"), 24);
    printf(" %10s %10s %10s\n",
           EN_ES("pending", "pendientes"), EN_ES("passed", "superadas"),
           EN_ES("failed", "fallidas"));
    for (int i = 0; i <= n_functions; i++) {
        int *c = counts[i];
        if (!c[PENDING] && !c[PASSED] && !c[FAILED]) continue;   /* filtered out */
        printf("%-24s %10d %10d %10d\n",
               i < n_functions ? lab_functions[i] : EN_ES("(other)", "(otras)"),
               c[PENDING], c[PASSED], c[FAILED]);
    }
    printf("%-24s %10d %10d %10d\n\n", "total", totals[PENDING], totals[PASSED], totals[FAILED]);
}

/* print_summary - the closing line */
static void print_summary(void)
{
    int all = totals[PENDING] + totals[PASSED] + totals[FAILED];
    bool one_failed = totals[FAILED] == 1, one_pending = totals[PENDING] == 1;
    if (totals[FAILED])
        printf(EN_ES("%d %s FAIL (messages above), %d pending, %d passed.\n",
                     "%d %s (mensajes arriba), %d pendientes, %d superadas.\n"),
               totals[FAILED], one_failed ? EN_ES("check", "comprobación FALLA")
                                          : EN_ES("checks", "comprobaciones FALLAN"),
               totals[PENDING], totals[PASSED]);
    else if (totals[PENDING])
        printf(EN_ES("%d %s pending (functions that still call LAB_TODO()), "
                     "%d passed, none failing.\n",
                     "%d %s (funciones que aún llaman a LAB_TODO()), "
                     "%d superadas, ninguna falla.\n"),
               totals[PENDING], one_pending ? EN_ES("check", "comprobación pendiente")
                                            : EN_ES("checks", "comprobaciones pendientes"),
               totals[PASSED]);
    else if (all)
        printf(EN_ES("All %d checks pass: %s is done.\n",
                     "Las %d comprobaciones pasan: %s está terminado.\n"),
               all, lab_title[lab_es()]);
    else
        printf(EN_ES("No check ran (a --filter that matches nothing?).\n",
                     "No se ejecutó ninguna comprobación (¿un --filter que no encaja con nada?).\n"));
}

ReportHook(POST_ALL)(struct criterion_global_stats *gs)
{
    (void)gs;
    if (n_records) qsort(records, n_records, sizeof *records, by_function_then_test);
    if (n_records) printf("\n");
    for (int i = 0; i < n_records; i++) print_record(records[i].text);
    print_table();
    print_summary();
    fflush(stdout);
}

/* ---- main ------------------------------------------------------------------------------- */

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
    if (!lab_lang_setup(&argc, argv)) return 2;
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
    setenv(LAB_NOTE_ENV, dir, 1);          /* the workers inherit it */
    printf(EN_ES("%s: checking your functions...\n", "%s: comprobando tus funciones...\n"),
           lab_title[lab_es()]);
    fflush(stdout);
    criterion_run_all_tests(tests);
    criterion_finalize(tests);
    remove_notes(dir);
    return totals[FAILED] ? 1 : 0;
}

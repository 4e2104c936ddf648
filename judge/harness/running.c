/* running.c - the running check: the one state the harness's files share.
 * Which check is running (its record: its case, its messages, what the
 * learner's code printed, the LAB_TODO() it reached), the learner's process
 * it calls, the memory it made, and how it ends - a jump back to where
 * lab_run_check started it. The files above (verdict, buffers, call,
 * cases) read and change it only through lab_now and the functions here;
 * runner.c, the top, chooses the checks and prints the report. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "internal.h"

lab_run lab_now = { .timeout = 2.0 };
static jmp_buf *check_jmp;
static char learner_error[512];
static void **temps;                   /* lab_temp's blocks, freed when the check ends */
static size_t n_temps, cap_temps;

/* ---- what the check is -------------------------------------------------------------------- */

const char *lab_fn(void) { return lab_now.check ? lab_now.check->check->function : "?"; }
double lab_timeout(void) { return lab_now.timeout; }
uint64_t lab_seed(void) { return lab_now.seed; }

int lab_function_index(const char *name)
{
    int i = 0;
    for (; lab_functions[i]; i++)
        if (strcmp(lab_functions[i], name) == 0) return i;
    return i;
}

void lab_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lab_now.check->case_text, sizeof lab_now.check->case_text, fmt, ap);
    va_end(ap);
}

void lab_case_when(char *when, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lab_now.check->case_text, sizeof lab_now.check->case_text, fmt, ap);
    va_end(ap);
    snprintf(when, size, EN_ES("for %s", "con %s"), lab_now.check->case_text);
}

void lab_prefix(char *buf, size_t size)
{
    const lab_record *r = lab_now.check;
    if (r->case_text[0])
        snprintf(buf, size, EN_ES("%s, case '%s': ", "%s, caso '%s': "), lab_fn(), r->case_text);
    else
        snprintf(buf, size, "%s, %s: ", lab_fn(), r->check->name);
}

/* ---- what it says ------------------------------------------------------------------------- */

void lab_message(lab_msg_kind kind, const char *text)
{
    lab_record *r = lab_now.check;
    if (kind == MSG_FAIL || kind == MSG_CRASH || kind == MSG_HANG) lab_now.failed = true;
    if (kind == MSG_HANG) lab_now.hung = true;
    if (lab_now.quiet) return;
    if (kind == MSG_HINT)                /* a hint is said once in a check */
        for (int i = 0; i < r->n_msgs; i++)
            if (r->msgs[i].kind == MSG_HINT && strcmp(r->msgs[i].text, text) == 0) return;
    lab_insert_message(r, r->n_msgs, kind, text);
}

void lab_insert_message(lab_record *r, int at, lab_msg_kind kind, const char *text)
{
    r->msgs = realloc(r->msgs, (r->n_msgs + 1) * sizeof *r->msgs);
    if (!r->msgs) abort();
    memmove(r->msgs + at + 1, r->msgs + at, (r->n_msgs - at) * sizeof *r->msgs);
    r->msgs[at] = (lab_said){ kind, strdup(text) };
    r->n_msgs++;
}

void lab_output(const lab_exchange *x)
{
    lab_record *r = lab_now.check;
    if (lab_now.quiet || !x->out_total) return;
    const size_t keep = 4096;
    size_t room = r->output_len < keep ? keep - r->output_len : 0;
    size_t n = x->out_len < room ? x->out_len : room;
    r->output = realloc(r->output, r->output_len + n + 1);
    if (!r->output) abort();
    memcpy(r->output + r->output_len, x->out, n);
    r->output_len += n;
    r->output[r->output_len] = '\0';
    r->output_total += x->out_total;
}

void lab_note_call(const char *fn, const char *todo_fn)
{
    if (todo_fn == NULL) lab_now.returned[lab_function_index(fn)] = true;
    else snprintf(lab_now.check->todo_fn, sizeof lab_now.check->todo_fn, "%s", todo_fn);
}

const char *lab_learner_error(void) { return learner_error; }
void lab_set_learner_error(const char *text)
{
    snprintf(learner_error, sizeof learner_error, "%s", text);
}

/* ---- the memory it made ----------------------------------------------------------------- */

void *lab_temp(size_t bytes)
{
    if (n_temps == cap_temps) {
        cap_temps = cap_temps ? 2 * cap_temps : 64;
        temps = realloc(temps, cap_temps * sizeof *temps);
        if (!temps) lab_bug("out of memory");
    }
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) lab_bug("out of memory");
    temps[n_temps++] = p;
    return p;
}

static void forget_memory(void)
{
    for (size_t i = 0; i < n_temps; i++) free(temps[i]);
    n_temps = 0;
    lab_now.n_buffers = 0;
    lab_now.lost_hint = NULL;
}

/* ---- its learner process ---------------------------------------------------------------- */

/* lab_child_now - the learner's process; if it cannot start, why is said
 * once (start_failure), and every check fails from then on */
lab_child *lab_child_now(void)
{
    if (lab_now.child) return lab_now.child;
    if (lab_now.start_failure[0]) lab_end_check(OUTCOME_FAILED);   /* said once, above */
    static lab_exchange x;
    if ((lab_now.child = child_start(lab_now.driver, &x))) return lab_now.child;
    lab_output(&x);
    char pre[512];
    lab_prefix(pre, sizeof pre);
    const char *how = x.end == END_HUNG ? EN_ES("it did not get ready in time",
                                                "no estuvo listo a tiempo")
                    : EN_ES("it ended before it was ready", "terminó antes de estar listo");
    bool sys = WIFSIGNALED(x.wstatus) && WTERMSIG(x.wstatus) == SIGSYS;
    snprintf(lab_now.start_failure, sizeof lab_now.start_failure,
             EN_ES("%sthe process that runs your code could not start: %s (%s %d%s). Code "
                   "that runs before any check - a constructor, or a library the lab does "
                   "not use - is not allowed. Every check fails until it starts.",
                   "%sel proceso que ejecuta tu código no pudo arrancar: %s (%s %d%s). No se "
                   "permite código que corra antes de las comprobaciones: un constructor, o "
                   "una biblioteca que el laboratorio no usa. Todas las comprobaciones "
                   "fallan mientras no arranque."),
             pre, how,
             WIFSIGNALED(x.wstatus) ? EN_ES("signal", "señal") : EN_ES("exit status", "estado"),
             WIFSIGNALED(x.wstatus) ? WTERMSIG(x.wstatus) : WEXITSTATUS(x.wstatus),
             sys ? EN_ES(", SIGSYS: a system call the sandbox forbids, such as starting a "
                         "process", ", SIGSYS: una llamada al sistema que el entorno aislado "
                         "prohíbe, como crear un proceso") : "");
    lab_message(MSG_CRASH, lab_now.start_failure);
    lab_end_check(OUTCOME_FAILED);
}

void lab_child_lost(void)
{
    child_stop(lab_now.child);
    lab_now.child = NULL;
}

_Noreturn void lab_bug(const char *fmt, ...)
{
    char msg[4096];
    lab_prefix(msg, 600);
    size_t n = strlen(msg);          /* the prefix and the preamble: 600 bytes at most */
    snprintf(msg + n, 600 - n, "%s",
             EN_ES("a problem of the harness itself, not of your code (please report it): ",
                   "un problema del propio arnés, no de tu código (avisa, por favor): "));
    n = strlen(msg);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - n, fmt, ap);
    va_end(ap);
    lab_message(MSG_FAIL, msg);
    lab_end_check(OUTCOME_FAILED);
}

/* ---- how it runs and ends -------------------------------------------------------------- */

_Noreturn void lab_end_check(int outcome)
{
    longjmp(*check_jmp, outcome + 1);
}

int lab_run_check(const lab_check *c)
{
    jmp_buf here, *outer = check_jmp;
    check_jmp = &here;
    lab_now.failed = lab_now.hung = false;
    lab_now.check->case_text[0] = '\0';
    volatile int outcome = setjmp(here);
    if (outcome == 0) {
        c->run(c->arg);
        outcome = lab_now.failed ? OUTCOME_FAILED : OUTCOME_PASSED;
    } else {
        outcome--;
        if (outcome == OUTCOME_PENDING && lab_now.failed)   /* failed stays failed */
            outcome = OUTCOME_FAILED;
    }
    forget_memory();
    check_jmp = outer;
    return outcome;
}

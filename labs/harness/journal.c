/* journal.c - the learner's calls: the bracket around each one, the note of
 * the call in flight, and what a crash or a hang is reported as.
 *
 * Two kinds of process meet here. The runner (report.c) starts one worker
 * process per check; the worker runs the check and calls the learner's code.
 * A worker that crashes or hangs cannot say what it was doing, so before
 * each learner call it writes the call in flight to a note file (one per
 * check, in the directory named by LAB_NOTE_DIR), which the runner reads
 * when the check died. LAB_TODO() ends the check as pending; exit() and its
 * kin, called by the learner, end it as a failure. */
#define _GNU_SOURCE            /* strsignal */
#include <criterion/criterion.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "lab.h"

/* ======================================================================
 * The worker side: the case, the note, the call bracket
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

/* lab_case_text - the case of the running check, for the messages */
const char *lab_case_text(void) { return case_text; }

/* note_path - the note file of check (suite, test) */
static void note_path(char *buf, size_t size, const char *suite, const char *test)
{
    const char *dir = getenv(LAB_NOTE_ENV);
    snprintf(buf, size, "%s/%s.%s", dir ? dir : "/tmp", suite, test);
}

/* write_note - record the call in flight ("" when none) for the runner:
 * four lines, the check's function, its case, the callee and the call */
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
    in_call = true;
    lab_alloc_watch();                     /* last: nothing above is counted */
}

/* stop_call - leave the learner's call: stop counting, clear the note */
static void stop_call(void)
{
    lab_alloc_stop();
    in_call = false;
    write_note("", "");
}

bool lab_call_end(void)
{
    stop_call();
    bool ok = lab_alloc_report(call_callee);
    ok &= lab_mats_report();
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
        lab_alloc_forget();
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
    lab_fail(EN_ES("%s called %s(%d): a library function returns a status "
                   "(MM_EINVAL, ...) and never ends the program",
                   "%s llamó a %s(%d): una función de biblioteca devuelve un estado "
                   "(MM_EINVAL, ...) y nunca termina el programa"),
             call_callee, how, status);
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

/* ======================================================================
 * The runner side: reading the note of a check that died
 * ====================================================================== */

/* read_note - the call in flight of test t: fn, case, callee, call; the
 * note is removed */
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

void lab_journal_forget(const struct criterion_test *t)
{
    char note[4][512];
    read_note(t, note);
}

void lab_died_text(char *buf, size_t size, const struct criterion_test *t,
                   const char *what)
{
    char note[4][512];
    if (!read_note(t, note))
        snprintf(buf, size, EN_ES("%s, a check: %s", "%s, una comprobación: %s"),
                 t->category, what);
    else if (note[2][0] == '\0')
        snprintf(buf, size, EN_ES("%s, case '%s': %s in the check itself, outside your "
                                  "code (a harness problem: please report it)",
                                  "%s, caso '%s': %s en la propia comprobación, fuera "
                                  "de tu código (un problema del arnés: avisa, por favor)"),
                 note[0], note[1], what);
    else if (strcmp(note[0], note[2]) == 0)
        snprintf(buf, size, EN_ES("%s, case '%s': %s inside %s\ncall in flight: %s",
                                  "%s, caso '%s': %s dentro de %s\nllamada en curso: %s"),
                 note[0], note[1], what, note[2], note[3]);
    else
        snprintf(buf, size, EN_ES("%s, case '%s': %s inside %s, which the check called "
                                  "to locate the mistake\ncall in flight: %s",
                                  "%s, caso '%s': %s dentro de %s, a la que la "
                                  "comprobación llamó para localizar el error\n"
                                  "llamada en curso: %s"),
                 note[0], note[1], what, note[2], note[3]);
}

const char *lab_signal_text(int sig)
{
    switch (sig) {
    case SIGSEGV: return EN_ES("SIGSEGV, an invalid memory access: a NULL pointer, "
                               "or an index far outside a buffer",
                               "SIGSEGV, un acceso a memoria no válido: un puntero "
                               "NULL, o un índice muy fuera de un búfer");
    case SIGBUS:  return EN_ES("SIGBUS, an invalid memory access",
                               "SIGBUS, un acceso a memoria no válido");
    case SIGFPE:  return EN_ES("SIGFPE, an arithmetic exception: an integer division by zero?",
                               "SIGFPE, una excepción aritmética: ¿una división entera por cero?");
#ifdef LAB_SANITIZE
    case SIGABRT: return EN_ES("SIGABRT: AddressSanitizer or UBSan stopped it; its "
                               "report, printed above, says why",
                               "SIGABRT: AddressSanitizer o UBSan la detuvo; su "
                               "informe, impreso arriba, dice por qué");
#else
    case SIGABRT: return EN_ES("SIGABRT: abort(), a failed assert() or a damaged heap",
                               "SIGABRT: abort(), un assert() que falló o un montículo dañado");
#endif
    case SIGILL:  return EN_ES("SIGILL, an illegal instruction",
                               "SIGILL, una instrucción ilegal");
    default:      return strsignal(sig);
    }
}

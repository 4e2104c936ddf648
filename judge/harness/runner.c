/* runner.c - the judge's main: the lab's checks in order, each function's
 * against one learner process, the re-runs in a fresh one and the hangs
 * (README.md), and the report: the failures grouped by check, the
 * cases (cN) first, then the contract's (eN) - the first failing
 * check in full, the others a line each (--all: all in full) -, what the
 * learner's code printed (labelled, cut short), the table of pending,
 * passed and failed per function, and one closing line. Options (--help
 * lists them): --driver PATH (required), --lang=en|es, --filter
 * FUNCTION[/CHECK] (a glob, or the start of a check's name; repeatable),
 * --first (stop at the first failing check), --all, --timeout SECONDS,
 * --brief, --summary, --seed N (else LAB_SEED=N, else a fresh one, printed). */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

static lab_record *records;
static int n_checks;
static const char *child_fn;   /* the function whose checks lab_now.child serves */
static const char *hung_fn;    /* a function that did not return: its other checks are not run */
static const char *plain_fn;   /* a function that failed alone too: no more re-runs for it */
static const char *state_fn;   /* a function whose state was already explained */
static bool brief, summary;
static bool first_only;        /* --first: stop after the first failing check */
static bool all_cases;         /* --all: every check in full, not the first alone */
static int stopped_after = -1; /* with --first, the failing check it stopped after */
#define MAX_FILTERS 16
static const char *filters[MAX_FILTERS];
static int n_filters;

/* ---- running the checks ------------------------------------------------------------------- */

/* state_hint - the check failed after earlier calls in the same process:
 * run it again, quietly, in a fresh one; if it passes, say so */
static void state_hint(const lab_check *c, int calls_before, const char *history)
{
    lab_record *r = lab_now.check;
    lab_child *kept = lab_now.child;
    char case_text[256];
    snprintf(case_text, sizeof case_text, "%s", r->case_text);
    lab_now.child = NULL;
    lab_now.quiet = true;
    int again = lab_run_check(c);
    lab_now.quiet = false;
    child_stop(lab_now.child);
    lab_now.child = kept;
    snprintf(r->case_text, sizeof r->case_text, "%s", case_text);
    if (again != OUTCOME_PASSED) {
        plain_fn = c->function;
        return;
    }
    char first[300];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(history, ";"), history);
    char text[1200];
    bool one = calls_before == 1;
    if (state_fn && strcmp(state_fn, c->function) == 0)
        snprintf(text, sizeof text, "%s", EN_ES("hint: this case too passes alone, in a fresh "
                                                "process: state kept between calls (see above)",
                                                "pista: este caso también pasa solo, en un "
                                                "proceso nuevo: estado guardado entre llamadas "
                                                "(mira arriba)"));
    else
        snprintf(text, sizeof text,
                 EN_ES("hint: this case passes when it is the first call in a fresh process; here "
                       "it came after %d earlier call%s%s in the same process (the first: %s). "
                       "Your code keeps something from one call to the next - a static variable, "
                       "a cached size, pointer or flag - or an earlier call damaged memory this "
                       "one used: each call must depend only on its arguments",
                       "pista: este caso pasa cuando es la primera llamada en un proceso nuevo; "
                       "aquí llegó tras %d llamada%s anterior%s en el mismo proceso (la primera: "
                       "%s). Tu código guarda algo de una llamada a la siguiente - una variable "
                       "static, un tamaño, puntero o indicador guardado - o una llamada anterior "
                       "dañó memoria que esta usó: cada llamada debe depender solo de sus "
                       "argumentos"),
                 calls_before, one ? "" : "s", one ? "" : EN_ES("", "es"), first);
    state_fn = c->function;
    /* after the first message: the hint comes before the details */
    lab_insert_message(r, r->n_msgs ? 1 : 0, MSG_HINT, text);
}

/* selected - no filter, or one that names the check: its function, a glob
 * of FUNCTION/CHECK, or (no glob character) the start of FUNCTION/CHECK, so
 * that sdpa/e2 selects sdpa/e2_bad_sizes */
static bool selected(const lab_check *c)
{
    if (!n_filters) return true;
    char name[256];
    snprintf(name, sizeof name, "%s/%s", c->function, c->name);
    for (int i = 0; i < n_filters; i++) {
        const char *f = filters[i];
        bool prefix = strchr(f, '/') && !strpbrk(f, "*?[") && strncmp(name, f, strlen(f)) == 0;
        if (prefix || fnmatch(f, name, 0) == 0 || strcmp(f, c->function) == 0)
            return true;
    }
    return false;
}

static void run_check(lab_record *r)
{
    lab_now.check = r;
    r->ran = true;
    const lab_check *c = r->check;
    if (!child_fn || strcmp(child_fn, c->function) != 0) {
        lab_child_lost();                     /* each function its own process */
        child_fn = c->function;
    }
    if (hung_fn && strcmp(hung_fn, c->function) == 0) {
        r->outcome = OUTCOME_FAILED;          /* said with the hang */
        return;
    }
    lab_child *child = lab_now.child;
    int calls_before = child ? child->calls : 0;
    char history[512] = "";
    if (child) snprintf(history, sizeof history, "%s", child->history);
    r->outcome = lab_run_check(c);
    if (lab_now.hung) {
        hung_fn = c->function;
        bool more = false;               /* a check of this function after c will run */
        for (const lab_check *n = c + 1; n->function; n++)
            more |= strcmp(n->function, c->function) == 0 && selected(n);
        if (more)
            lab_message(MSG_DETAIL, lab_es()
                ? "(las demás comprobaciones de esta función no se ejecutan y cuentan como "
                  "fallidas: arregla esto primero)"
                : "(the other checks of this function are not run, and count as failed: "
                  "fix this first)");
    } else if (r->outcome == OUTCOME_FAILED && calls_before > 0 && !lab_now.start_failure[0] &&
               !(plain_fn && strcmp(plain_fn, c->function) == 0)) {
        state_hint(c, calls_before, history);
    }
}

/* settle_pending - pending means that the function did nothing but call
 * LAB_TODO(): a check that reached the LAB_TODO() of a function that
 * returned normally in another call fails, since calling LAB_TODO() only
 * in some calls would hide a wrong function as one not yet started */
static void settle_pending(void)
{
    for (int i = 0; i < n_checks; i++) {
        lab_record *r = &records[i];
        if (!r->ran || r->outcome != OUTCOME_PENDING ||
            !lab_now.returned[lab_function_index(r->todo_fn)])
            continue;
        lab_now.check = r;
        char text[400];
        snprintf(text, sizeof text, lab_es()
                 ? "%s, %s: se llegó a LAB_TODO() en %s, que en otras llamadas sí "
                   "devolvió un resultado: una función empezada no debe llamar a "
                   "LAB_TODO() (borra esa línea)"
                 : "%s, %s: reached LAB_TODO() in %s, which returned a result in other "
                   "calls: a function you have started must not call LAB_TODO() "
                   "(delete that line)",
                 r->check->function, r->case_text[0] ? r->case_text : r->check->name,
                 r->todo_fn);
        lab_message(MSG_FAIL, text);
        r->outcome = OUTCOME_FAILED;
    }
}

/* run_all - every selected check, in the lab's order */
static void run_all(void)
{
    for (int i = 0; i < n_checks; i++)
        records[i].check = &lab_checks[i];
    for (int i = 0; i < n_checks; i++) {
        if (selected(&lab_checks[i])) run_check(&records[i]);
        if (first_only && records[i].ran && records[i].outcome == OUTCOME_FAILED) {
            stopped_after = i;
            break;
        }
    }
    lab_child_lost();
    child_sweep();
    settle_pending();
}

/* ---- the report ------------------------------------------------------------------------- */

/* put_safe - n bytes of s as text a terminal shows and never obeys: a
 * control character (C0, DEL, C1: escape sequences that could clear the
 * screen or draw a fake verdict) is written as \xHH, a byte that is not
 * UTF-8 as \xHH too; tabs and well-formed UTF-8 pass */
static void put_safe(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        size_t len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3
                   : (*p & 0xF8) == 0xF0 ? 4 : 0;
        bool ok = len > 0 && (size_t)(end - p) >= len;
        for (size_t i = 1; ok && i < len; i++) ok = (p[i] & 0xC0) == 0x80;
        if (ok && len == 1 && (*p < 0x20 || *p == 0x7F) && *p != '\t') ok = false;
        if (ok && len == 2 && p[0] == 0xC2 && p[1] < 0xA0) ok = false;   /* C1 */
        if (!ok) { printf("\\x%02X", *p++); continue; }
        fwrite(p, 1, len, stdout);
        p += len;
    }
}

/* print_lines - text, its first line after first, the others after rest:
 * lines of them at most, each cut at width bytes; where it stopped */
static const char *print_lines(const char *first, const char *rest, const char *text,
                               size_t lines, size_t width)
{
    const char *line = text;
    for (const char *pre = first; *line && lines-- > 0; pre = rest) {
        size_t n = strcspn(line, "\n");
        fputs(pre, stdout);
        put_safe(line, n < width ? n : width);
        putchar('\n');
        line += n + (line[n] == '\n');
    }
    return line;
}

/* the start of a message's first line, by its kind */
static const char *const msg_start[] = { [MSG_FAIL] = "  FAIL  ", [MSG_CRASH] = "  CRASH ",
                                         [MSG_HANG] = "  HANG  ", [MSG_HINT] = "        ",
                                         [MSG_DETAIL] = "          " };

static void print_messages(const lab_record *r)
{
    for (const lab_said *m = r->msgs; m < r->msgs + r->n_msgs; m++)
        print_lines(msg_start[m->kind], m->kind == MSG_HINT ? "              " : "          ",
                    m->text, SIZE_MAX, SIZE_MAX);
}

/* print_output - what the learner's code printed during a check, labelled */
static void print_output(const lab_record *r)
{
    printf(EN_ES("  OUTPUT %s, case '%s': your code printed this (shown as it came, "
                 "not part of the report):\n",
                 "  SALIDA %s, caso '%s': tu código imprimió esto (tal cual, no es parte "
                 "del informe):\n"),
           r->check->function, r->case_text[0] ? r->case_text : r->check->name);
    const char *end = print_lines("        | ", "        | ", r->output, 20, 200);
    size_t shown = (size_t)(end - r->output);
    if (r->output_total > shown)
        printf(EN_ES("        (%zu more bytes not shown)\n",
                     "        (%zu bytes más sin mostrar)\n"),
               r->output_total - shown);
}

/* output_shown - the report gives what r's code printed (with --brief, a
 * failing check's only) */
static bool output_shown(const lab_record *r)
{
    return r->output_total && (!brief || r->outcome == OUTCOME_FAILED);
}

/* print_block - a check in full: its messages, its output, the command that runs it alone */
static void print_block(const lab_record *r)
{
    print_messages(r);
    if (output_shown(r)) print_output(r);
    if (r->outcome == OUTCOME_FAILED && !summary)
        printf(EN_ES("        this check alone: make lab NN=%s CHECK=%s/%s\n",
                     "        solo esta comprobación: make lab NN=%s CHECK=%s/%s\n"),
               lab_id, r->check->function, r->check->name);
}

/* in_contract - a check of the contract (bad arguments, named eN): the
 * report gives them after the cases (cN) */
static bool in_contract(const lab_check *c)
{
    return c->name[0] == 'e';
}

/* shown - the report says something of r: its messages, or its output */
static bool shown(const lab_record *r)
{
    return r->n_msgs || output_shown(r);
}

/* first_in_full - the record the short report gives in full: the first
 * failing one in the report's order, else the first it shows; -1 if none */
static int first_in_full(void)
{
    int first_shown = -1;
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < n_checks; i++) {
            const lab_record *r = &records[i];
            if (in_contract(r->check) != g || !shown(r)) continue;
            if (r->outcome == OUTCOME_FAILED) return i;
            if (first_shown < 0) first_shown = i;
        }
    return first_shown;
}

/* number_end - p past the number at p: digits, a fraction, an exponent */
static const char *number_end(const char *p)
{
    while ((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9'))
        p++;
    if ((*p == 'e' || *p == 'E') && (p[1] == '+' || p[1] == '-') && p[2] >= '0' && p[2] <= '9')
        p = number_end(p + 2);
    return p;
}

/* same_but_numbers - a and b are the same text where each number counts
 * as one (a hint names the case's sizes: "h d_k + 1", "sqrt(4) = 2") */
static bool same_but_numbers(const char *a, const char *b)
{
    while (*a && *b) {
        bool da = *a >= '0' && *a <= '9', db = *b >= '0' && *b <= '9';
        if (da != db) return false;
        if (da) {
            a = number_end(a);
            b = number_end(b);
        } else if (*a++ != *b++) {
            return false;
        }
    }
    return *a == *b;
}

/* hint_once - true the first time the report gives this hint (it is noted
 * as given), false after: the same text but for its numbers is the same hint */
static bool hint_once(const char *text)
{
    static const char *said[64];
    static int n_said;
    for (int i = 0; i < n_said; i++)
        if (same_but_numbers(said[i], text)) return false;
    if (n_said < 64) said[n_said++] = text;
    return true;
}

/* note_hints - the hints of a check given in full, noted as given */
static void note_hints(const lab_record *r)
{
    for (const lab_said *m = r->msgs; m < r->msgs + r->n_msgs; m++)
        if (m->kind == MSG_HINT) hint_once(m->text);
}

/* after_case - a message of r without its start "FUNCTION, case 'CASE': ",
 * as lab_prefix wrote it from r's function and case; if the check named
 * another case since, without "FUNCTION, case '" up to the "': " that
 * ends lab_prefix's start; else the message whole */
static const char *after_case(const lab_record *r, const char *text)
{
    char pre[400];
    if (r->case_text[0])
        snprintf(pre, sizeof pre, EN_ES("%s, case '%s': ", "%s, caso '%s': "),
                 r->check->function, r->case_text);
    else
        snprintf(pre, sizeof pre, "%s, %s: ", r->check->function, r->check->name);
    if (strncmp(text, pre, strlen(pre)) == 0) return text + strlen(pre);
    snprintf(pre, sizeof pre, EN_ES("%s, case '", "%s, caso '"), r->check->function);
    const char *end = strstr(text, "': ");
    if (strncmp(text, pre, strlen(pre)) == 0 && end) return end + 3;
    return text;
}

/* print_cut - the first line of text, at most width characters of it
 * ("..." where it is cut), and a newline */
static void print_cut(const char *text, int width)
{
    size_t n = strcspn(text, "\n"), at = 0;
    int chars = 0;
    while (at < n && chars < width) {
        at++;
        while (at < n && ((unsigned char)text[at] & 0xC0) == 0x80) at++;
        chars++;
    }
    put_safe(text, at);
    printf("%s\n", at < n ? "..." : "");
}

#define SHORT_WIDTH 130    /* columns of a check's one line, at most */
#define REPORT_LINES 40    /* the short report's lines, about */
#define REPORT_FRAME 11    /* of them, the heading, the notes, the closing line, the
                              table's head and total: its rows come on top */
static int short_lines = 8;  /* the one-line checks' lines: what the full check leaves, 3 to 8 */

/* table_rows - the rows print_table gives its functions: one a function
 * that ran, two more under one that failed */
static int table_rows(void)
{
    int rows = 0;
    for (int f = 0; lab_functions[f]; f++) {
        bool ran = false, failed = false;
        for (int i = 0; i < n_checks; i++)
            if (records[i].ran && strcmp(records[i].check->function, lab_functions[f]) == 0) {
                ran = true;
                failed |= records[i].outcome == OUTCOME_FAILED;
            }
        rows += ran + 2 * failed;
    }
    return rows;
}

/* block_lines - the lines print_block gives r, about (its output counts 20 at most) */
static int block_lines(const lab_record *r)
{
    int n = 1;
    for (const lab_said *m = r->msgs; m < r->msgs + r->n_msgs; m++) {
        n++;
        for (const char *p = m->text; *p; p++) n += *p == '\n' && p[1];
    }
    if (output_shown(r))
        n += 2 + (r->output_total > 20 * 80 ? 20 : (int)(r->output_total / 80) + 1);
    return n;
}

/* print_short - a check in one line: its tag (FAIL, CRASH, HANG), its
 * FUNCTION/NAME and its first message after the case; then its first hint
 * unless the report gave it already, and a line for what its code printed.
 * The number of lines printed */
static int print_short(const lab_record *r)
{
    int lines = 0;
    if (r->n_msgs) {
        lab_msg_kind kind = r->msgs[0].kind;
        const char *tag = msg_start[kind <= MSG_HANG ? kind : MSG_FAIL];
        int col = printf("%s%s/%s: ", tag, r->check->function, r->check->name);
        print_cut(after_case(r, r->msgs[0].text), SHORT_WIDTH - col > 40 ? SHORT_WIDTH - col : 40);
        lines++;
    }
    for (const lab_said *m = r->msgs; m < r->msgs + r->n_msgs; m++) {
        if (m->kind != MSG_HINT) continue;
        if (hint_once(m->text)) {
            print_lines("        ", "              ", m->text, SIZE_MAX, SIZE_MAX);
            lines++;
            for (const char *p = m->text; *p; p++) lines += *p == '\n' && p[1];
        }
        break;
    }
    if (output_shown(r)) {
        printf(EN_ES("  OUTPUT %s/%s: your code printed %zu bytes here (ALL=1 shows them)\n",
                     "  SALIDA %s/%s: tu código imprimió %zu bytes aquí (ALL=1 los muestra)\n"),
               r->check->function, r->check->name, r->output_total);
        lines++;
    }
    return lines;
}

/* print_group - the records of one group (contract: the eN checks, under
 * their heading; else the cN), in the lab's order: the full one (full) and,
 * with --all, all in full; else each in one line while *lines (the
 * one-line checks' lines so far) is under short_lines - the contract's
 * first at least -, then how many failing checks were left out. *started:
 * something was printed before. True if any record was shortened */
static bool print_group(bool contract, int full, int *lines, bool *started)
{
    bool shortened = false, first = true;
    int left_out = 0;
    for (int i = 0; i < n_checks; i++) {
        const lab_record *r = &records[i];
        if (in_contract(r->check) != contract || !shown(r)) continue;
        if (!*started || (contract && first)) printf("\n");
        if (contract && first)
            printf(EN_ES("The contract (bad arguments: checks eN):\n",
                         "El contrato (argumentos erróneos: comprobaciones eN):\n"));
        *started = true;
        if (all_cases || i == full) {
            print_block(r);
            note_hints(r);
        } else if (*lines < short_lines || (contract && first)) {
            *lines += print_short(r);
        } else {
            left_out += r->outcome == OUTCOME_FAILED;
        }
        shortened |= !all_cases && i != full;
        first = false;
    }
    if (left_out)
        printf(EN_ES("  ... and %d more failing %s\n", "  ... y %d %s\n"), left_out,
               left_out == 1 ? EN_ES("check", "comprobación más que falla")
                             : EN_ES("checks", "comprobaciones más que fallan"));
    return shortened;
}

/* print_failures - what each check said and its code printed: the
 * cases (cN) first, then the contract's (eN), each group in
 * the lab's order. Without --all the first failing check is in full, the
 * others a line each, and a note says how to see them whole */
static void print_failures(void)
{
    int full = first_in_full(), lines = 0;
    bool started = false;
    if (full >= 0) {
        short_lines = REPORT_LINES - REPORT_FRAME - table_rows() - block_lines(&records[full]);
        bool groups[2] = { false, false };
        for (int i = 0; i < n_checks; i++)
            groups[in_contract(records[i].check)] |= shown(&records[i]);
        if (groups[0] && groups[1]) short_lines -= 4;   /* the contract's heading, a check */
        short_lines = short_lines < 3 ? 3 : short_lines > 8 ? 8 : short_lines;
    }
    bool shortened = print_group(false, full, &lines, &started);
    shortened |= print_group(true, full, &lines, &started);
    if (shortened)
        printf(EN_ES("  To see more: one check in full, make lab NN=%s CHECK=FUNCTION/NAME;\n"
                     "  every case of every check, make lab NN=%s ALL=1.\n",
                     "  Para ver más: una comprobación entera, make lab NN=%s "
                     "CHECK=FUNCIÓN/NOMBRE;\n"
                     "  todos los casos de todas las comprobaciones, make lab NN=%s ALL=1.\n"),
               lab_id, lab_id);
}

static void print_left(const char *s, int width)
{
    int n = 0;
    for (const char *p = s; *p; p++) n += ((unsigned char)*p & 0xC0) != 0x80;
    printf("%s%*s", s, width > n ? width - n : 0, "");
}

enum { P = OUTCOME_PENDING, OK = OUTCOME_PASSED, F = OUTCOME_FAILED };

/* print_row - a row of the table: name, pending, passed and failed */
static void print_row(const char *name, const int n[3])
{
    print_left(name, 24);
    printf(" %10d %10d %10d\n", n[P], n[OK], n[F]);
}

/* print_table - pending, passed, failed per function and in all (total);
 * under a function with a failing check, the same for its checks of the
 * cases (cN) and of the contract (eN): count[f][contract] */
static void print_table(int n_functions, int (*count)[2][3], const int total[3])
{
    printf("\n");
    print_left(EN_ES("function", "función"), 24);
    printf(" %10s %10s %10s\n", EN_ES("pending", "pendientes"),
           EN_ES("passed", "superadas"), EN_ES("failed", "fallidas"));
    for (int f = 0; f < n_functions; f++) {
        int n[3];
        for (int o = 0; o < 3; o++) n[o] = count[f][0][o] + count[f][1][o];
        if (!n[P] && !n[OK] && !n[F]) continue;
        print_row(lab_functions[f], n);
        if (!n[F]) continue;
        print_row(EN_ES("  cases (cN)", "  casos (cN)"), count[f][0]);
        print_row(EN_ES("  contract (eN)", "  contrato (eN)"), count[f][1]);
    }
    print_row("total", total);
    printf("\n");
}

/* print_closing_line - the verdict of the run, in one line (two on a failure) */
static void print_closing_line(const int total[3])
{
    unsigned long long seed = lab_now.seed;
    if (stopped_after >= 0 && !brief)
        printf(EN_ES("Stopped at the first failing check, %s/%s (FIRST=1): the checks after "
                     "it did not run.\n",
                     "Parado en la primera comprobación que falla, %s/%s (FIRST=1): las "
                     "siguientes no se ejecutaron.\n"),
               lab_checks[stopped_after].function, lab_checks[stopped_after].name);
    if (brief) printf("lab %s: ", lab_id);
    int all = total[P] + total[OK] + total[F];
    if (total[F])
        printf(EN_ES("%d %s FAIL (messages above), %d pending, %d passed.\n"
                     "(The random cases came from seed %llu: LAB_SEED=%llu runs them again.)\n",
                     "%d %s (mensajes arriba), %d pendientes, %d superadas.\n"
                     "(Los casos aleatorios salieron de la semilla %llu: LAB_SEED=%llu los "
                     "repite.)\n"),
               total[F], total[F] == 1 ? EN_ES("check", "comprobación FALLA")
                                       : EN_ES("checks", "comprobaciones FALLAN"),
               total[P], total[OK], seed, seed);
    else if (total[P])
        printf(EN_ES("%d %s pending (functions that still call LAB_TODO()), "
                     "%d passed, none failing.\n",
                     "%d %s (funciones que aún llaman a LAB_TODO()), "
                     "%d superadas, ninguna falla.\n"),
               total[P], total[P] == 1 ? EN_ES("check", "comprobación pendiente")
                                       : EN_ES("checks", "comprobaciones pendientes"),
               total[OK]);
    else if (all)
        printf(EN_ES("All %d checks pass: %s is done.\n",
                     "Las %d comprobaciones pasan: %s está terminado.\n"),
               all, lab_title[lab_es()]);
    else
        printf(EN_ES("No check ran (a --filter that matches nothing?).\n",
                     "No se ejecutó ninguna comprobación (¿un --filter que no encaja con "
                     "nada?).\n"));
}

/* report - the report of the run (or its summary); the judge's exit status */
static int report(int n_functions)
{
    int (*count)[2][3] = calloc(n_functions + 1, sizeof *count), total[3] = { 0, 0, 0 };
    if (!count) return 2;
    for (int i = 0; i < n_checks; i++) {
        const lab_record *r = &records[i];
        if (!r->ran) continue;
        count[lab_function_index(r->check->function)][in_contract(r->check)][r->outcome]++;
        total[r->outcome]++;
    }
    if (summary) {
        for (int f = 0; f < n_functions; f++) {
            int *a = count[f][0], *e = count[f][1];
            printf("%s\t%d\t%d\t%d\n", lab_functions[f], a[P] + e[P], a[OK] + e[OK], a[F] + e[F]);
        }
        return 0;
    }
    print_failures();
    if (!brief || total[F]) print_table(n_functions, count, total);
    print_closing_line(total);
    fflush(stdout);
    return total[F] ? 1 : 0;
}

/* ---- the options ---------------------------------------------------------------------- */

/* parse_seed - a seed given (as named) as text: 1 to 999999999, or 0 (said
 * on stderr) if it is not one */
static uint64_t parse_seed(const char *named, const char *text)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v < 1 || v > 999999999) {
        fprintf(stderr, "lab harness: %s%s: a seed is a whole number from 1 to 999999999\n",
                named, text);
        return 0;
    }
    return v;
}

/* fresh_seed - a seed of 9 digits at most, different each run */
static uint64_t fresh_seed(void)
{
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, 0) != sizeof r)
        r = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
    return r % 999999999 + 1;
}

/* print_check_names - per function a line "  FUNCTION/ name name ...",
 * wrapped at 92 columns */
static void print_check_names(void)
{
    int col = 0;
    for (int i = 0; lab_checks[i].function; i++) {
        const lab_check *c = &lab_checks[i];
        if (i == 0 || strcmp(c->function, lab_checks[i - 1].function) != 0)
            col = printf("%s  %s/", i ? "\n" : "", c->function) - (i ? 1 : 0);
        else if (col + 1 + (int)strlen(c->name) > 92)
            col = printf("\n     ") - 1;
        col += printf(" %s", c->name);
    }
    printf("\n");
}

/* print_help - the options, and every check's name as CHECK= takes it;
 * the exit status of --help (0) */
static int print_help(void)
{
    const char *fn = lab_functions[0];          /* the examples: its first check of the contract */
    const lab_check *example = &lab_checks[0];
    for (const lab_check *c = lab_checks; c->function; c++)
        if (strcmp(c->function, fn) == 0 && c->name[0] == 'e') {
            example = c;
            break;
        }
    printf(EN_ES("%s, through make: make lab NN=%s [CHECK=FUNCTION[/CHECK]] [FIRST=1] "
                 "[ALL=1] [LAB_LANG=es] [LAB_ARGS='OPTIONS']\n"
                 "  CHECK=FUNCTION       the checks of one function (CHECK=%s)\n"
                 "  CHECK=FUNCTION/NAME  one check, by its name or its start (CHECK=%s/%.2s), "
                 "or a glob (CHECK='%s/c*')\n"
                 "  FIRST=1              stop at the first failing check (--first)\n"
                 "  ALL=1                every failing check in full, not the first alone (--all)\n"
                 "The judge's options (LAB_ARGS='...'):\n"
                 "  --filter FUNCTION[/CHECK]  as CHECK= (repeat it for several)\n"
                 "  --first                    as FIRST=1\n"
                 "  --all                      as ALL=1\n"
                 "  --seed N                   the random cases of seed N again (or LAB_SEED=N)\n"
                 "  --timeout SECONDS          the deadline of one call (%g s)\n"
                 "  --brief                    the failures and the closing line only "
                 "(make check's form)\n"
                 "  --summary                  one line per function: "
                 "NAME<TAB>pending<TAB>passed<TAB>failed\n"
                 "  --lang=en|es               the report's language (or LAB_LANG=es)\n"
                 "  --help                     this text\n"
                 "The checks, in the order they run (cN: the cases, what it computes; "
                 "eN: the contract, bad arguments):\n",
                 "%s, con make: make lab NN=%s [CHECK=FUNCIÓN[/COMPROBACIÓN]] [FIRST=1] "
                 "[ALL=1] [LAB_LANG=es] [LAB_ARGS='OPCIONES']\n"
                 "  CHECK=FUNCIÓN        las comprobaciones de una función (CHECK=%s)\n"
                 "  CHECK=FUNCIÓN/NOMBRE una comprobación, por su nombre o su comienzo "
                 "(CHECK=%s/%.2s), o un glob (CHECK='%s/c*')\n"
                 "  FIRST=1              parar en la primera comprobación que falla (--first)\n"
                 "  ALL=1                cada comprobación que falla, entera, no solo la primera "
                 "(--all)\n"
                 "Las opciones del juez (LAB_ARGS='...'):\n"
                 "  --filter FUNCIÓN[/COMPR.]  como CHECK= (repítela para varias)\n"
                 "  --first                    como FIRST=1\n"
                 "  --all                      como ALL=1\n"
                 "  --seed N                   los casos aleatorios de la semilla N otra vez "
                 "(o LAB_SEED=N)\n"
                 "  --timeout SEGUNDOS         el plazo de una llamada (%g s)\n"
                 "  --brief                    solo los fallos y la línea final (la forma de "
                 "make check)\n"
                 "  --summary                  una línea por función: "
                 "NOMBRE<TAB>pendientes<TAB>superadas<TAB>fallidas\n"
                 "  --lang=en|es               el idioma del informe (o LAB_LANG=es)\n"
                 "  --help                     este texto\n"
                 "Las comprobaciones, en el orden en que se ejecutan (cN: los casos, lo que "
                 "calcula; eN: el contrato, argumentos erróneos):\n"),
           lab_title[lab_es()], lab_id, fn, fn, example->name, fn, lab_now.timeout);
    print_check_names();
    return 0;
}

/* read_options - the options into lab_now and the report's flags; false
 * (said on stderr) if they are not usable */
static bool read_options(int argc, char *argv[])
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--driver") == 0 && i + 1 < argc) lab_now.driver = argv[++i];
        else if (strcmp(a, "--filter") == 0 && i + 1 < argc && n_filters < MAX_FILTERS)
            filters[n_filters++] = argv[++i];
        else if (strcmp(a, "--timeout") == 0 && i + 1 < argc) lab_now.timeout = atof(argv[++i]);
        else if (strcmp(a, "--brief") == 0) brief = true;
        else if (strcmp(a, "--first") == 0) first_only = true;
        else if (strcmp(a, "--all") == 0) all_cases = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) exit(print_help());
        else if (strcmp(a, "--summary") == 0) summary = true;
        else if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
            if (!(lab_now.seed = parse_seed("--seed ", argv[++i]))) return false;
        } else {
            fprintf(stderr, "lab harness: unknown option %s (the options are --filter "
                    "FUNCTION[/CHECK], --first, --all, --timeout SECONDS, --seed N, --brief, "
                    "--summary, --lang=en|es, --help)\n", a);
            return false;
        }
    }
    if (!lab_now.driver || lab_now.timeout <= 0) {
        fprintf(stderr, "lab harness: usage: %s --driver PATH [options]\n", argv[0]);
        return false;
    }
    const char *env_seed = getenv("LAB_SEED");
    if (!lab_now.seed && env_seed && *env_seed &&
        !(lab_now.seed = parse_seed("LAB_SEED=", env_seed)))
        return false;
    if (!lab_now.seed) lab_now.seed = fresh_seed();
    return true;
}

/* print_heading - the report's first line, and a note if there is no sandbox */
static void print_heading(void)
{
    if (!summary && !brief)
        printf(EN_ES("%s: checking your functions (random cases from seed %llu)...\n",
                     "%s: comprobando tus funciones (casos aleatorios de la semilla %llu)...\n"),
               lab_title[lab_es()], (unsigned long long)lab_now.seed);
    const char *unboxed = child_sandbox_note();
    if (unboxed)
        fprintf(summary ? stderr : stdout,
                EN_ES("Note: %s, so your code runs without the sandbox, confined only by "
                      "the driver's own limits and file permissions.\n",
                      "Nota: %s, así que tu código se ejecuta sin el entorno aislado, "
                      "limitado solo por los límites del propio programa y los permisos de "
                      "los ficheros.\n"), unboxed);
    fflush(stdout);
}

int main(int argc, char *argv[])
{
    if (!lab_lang_setup(&argc, argv) || !read_options(argc, argv)) return 2;
    child_setup();
    while (lab_checks[n_checks].function) n_checks++;
    int n_functions = 0;
    while (lab_functions[n_functions]) n_functions++;
    records = calloc(n_checks, sizeof *records);
    /* + 1: a name not listed */
    lab_now.returned = calloc(n_functions + 1, sizeof *lab_now.returned);
    if (!records || !lab_now.returned) return 2;
    print_heading();
    run_all();
    return report(n_functions);
}

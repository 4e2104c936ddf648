/* call.c - one call of the learner's function, from the judge's side:
 * lab_call and lab_probe, what is reported around a call that returned
 * (memory, a sanitizer's report), and what a call that did not return is
 * reported as: a crash (with the buffer a stray access hit), a refused
 * system call, the process ending, a hang, or damage found after the call
 * returned - still the learner's. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "internal.h"

static char learner_error[512];
static uint32_t next_seq = 1;

const char *lab_learner_error(void) { return learner_error; }
void lab_set_learner_error(const char *text)
{
    snprintf(learner_error, sizeof learner_error, "%s", text);
}

static int fn_index(const char *fn)
{
    for (int i = 0; lab_functions[i]; i++)
        if (strcmp(lab_functions[i], fn) == 0) return i;
    lab_bug("%s is not one of the lab's functions", fn);
}

/* shown_text - "qkv_split(q, k, NULL, qkv, 5, 3, 2)" */
static void shown_text(char *buf, size_t size, const char *fn, int n_bufs,
                       lab_mat *const bufs[], int n_ints, const long ints[])
{
    int len = snprintf(buf, size, "%s(", fn);
    for (int i = 0; i < n_bufs + n_ints && len < (int)size; i++) {
        const char *sep = i ? ", " : "";
        if (i >= n_bufs)
            len += snprintf(buf + len, size - len, "%s%ld", sep, ints[i - n_bufs]);
        else if (!bufs[i])
            len += snprintf(buf + len, size - len, "%sNULL", sep);
        else
            len += snprintf(buf + len, size - len, "%s%s%s", sep,
                            bufs[i]->is_long ? "&" : "", bufs[i]->name);
    }
    if (len < (int)size) snprintf(buf + len, size - len, ")");
}

/* ---- what a dead call is reported as ------------------------------------------------- */

static const char *signal_text(int sig, bool sanitize)
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
    case SIGABRT: return sanitize
        ? EN_ES("SIGABRT: abort(), a failed assert(), or a sanitizer's stop",
                "SIGABRT: abort(), un assert() que falló, o una parada de un sanitizador")
        : EN_ES("SIGABRT: abort(), a failed assert() or a damaged heap",
                "SIGABRT: abort(), un assert() que falló o un montículo dañado");
    case SIGILL:  return EN_ES("SIGILL, an illegal instruction", "SIGILL, una instrucción ilegal");
    default:      return strsignal(sig);
    }
}

/* syscall_text - what a refused system call would have done */
static void syscall_text(char *buf, size_t size, int nr)
{
    static const struct { int nr; const char *name; int what; } calls[] = {
        { SYS_fork, "fork", 0 }, { SYS_vfork, "vfork", 0 }, { SYS_clone, "clone", 0 },
        { SYS_clone3, "clone3", 0 }, { SYS_execve, "execve", 1 }, { SYS_execveat, "execveat", 1 },
        { SYS_kill, "kill", 2 }, { SYS_tgkill, "tgkill", 2 }, { SYS_tkill, "tkill", 2 },
        { SYS_rt_sigqueueinfo, "rt_sigqueueinfo", 2 }, { SYS_pidfd_send_signal, "pidfd_send_signal", 2 },
        { SYS_pidfd_open, "pidfd_open", 2 }, { SYS_rt_tgsigqueueinfo, "rt_tgsigqueueinfo", 2 },
        { SYS_ptrace, "ptrace", 3 }, { SYS_process_vm_readv, "process_vm_readv", 3 },
        { SYS_process_vm_writev, "process_vm_writev", 3 },
        { SYS_setsid, "setsid", 4 }, { SYS_setpgid, "setpgid", 4 }, { SYS_prctl, "prctl", 4 },
        { SYS_socket, "socket", 5 }, { SYS_unshare, "unshare", 4 }, { SYS_setns, "setns", 4 },
        { SYS_io_uring_setup, "io_uring_setup", 6 }, { SYS_io_uring_enter, "io_uring_enter", 6 },
        { SYS_io_uring_register, "io_uring_register", 6 },
        { SYS_open_by_handle_at, "open_by_handle_at", 6 },
        { SYS_name_to_handle_at, "name_to_handle_at", 6 }, { SYS_bpf, "bpf", 4 },
        { SYS_userfaultfd, "userfaultfd", 4 }, { SYS_perf_event_open, "perf_event_open", 3 },
        { SYS_mount, "mount", 4 }, { SYS_personality, "personality", 4 },
    };
    const char *what[][2] = {
        { "start a process", "crear un proceso" },
        { "run a program", "ejecutar un programa" },
        { "send a signal to another process", "enviar una señal a otro proceso" },
        { "look into another process", "mirar dentro de otro proceso" },
        { "change how the harness runs it", "cambiar cómo lo ejecuta el arnés" },
        { "open a network connection", "abrir una conexión de red" },
        { "read or write files behind the harness's back",
          "leer o escribir ficheros a espaldas del arnés" },
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (calls[i].nr == nr) {
            snprintf(buf, size, EN_ES("%s (to %s)", "%s (para %s)"), calls[i].name,
                     what[calls[i].what][lab_es()]);
            return;
        }
    snprintf(buf, size, EN_ES("number %d", "número %d"), nr);
}

/* line_from - the line of text that starts after the first occurrence of
 * key, cut at the end of line, into buf; false if key is not there */
static bool line_from(char *buf, size_t size, const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p) return false;
    p += strlen(key);
    size_t n = strcspn(p, "\n");
    snprintf(buf, size, "%.*s", (int)n, p);
    return true;
}

/* learner_frame - "FILE:LINE (in FUNC)" of the first stack frame after
 * start that is not in the sanitizer's or the harness's own code */
static bool learner_frame(char *buf, size_t size, const char *start)
{
    for (const char *p = start; (p = strstr(p, "\n    #")); p++) {
        const char *in = strstr(p, " in "), *eol = strchr(p + 1, '\n');
        if (!in || (eol && in > eol)) continue;
        char fn[128], file[256];
        if (sscanf(in, " in %127s %255s", fn, file) != 2) continue;
        if (strstr(file, "libsanitizer") || strstr(file, "labs/harness/") ||
            strncmp(file, "../", 3) == 0 || strstr(fn, "__interceptor") ||
            strncmp(file, "(", 1) == 0 || strstr(file, "/calls.c"))
            continue;
        char cwd[512];
        const char *shown = file;
        if (getcwd(cwd, sizeof cwd) && strncmp(file, cwd, strlen(cwd)) == 0 &&
            file[strlen(cwd)] == '/')
            shown = file + strlen(cwd) + 1;
        snprintf(buf, size, EN_ES("%s (in %s)", "%s (en %s)"), shown, fn);
        return true;
    }
    return false;
}

/* sanitizer_text - a sanitizer's report in the output, said in one or two
 * lines (the buffer named when the access was next to one); false if none */
static bool sanitizer_text(char *buf, size_t size, const lab_exchange *x,
                           lab_mat *const bufs[], int n_bufs, bool *segv)
{
    const char *out = x->out + x->printed;     /* what the learner printed is not a report */
    char kind[256], access[128] = "", where[400] = "";
    *segv = false;
    const char *ub = strstr(out, "runtime error: ");
    if (ub) {
        const char *bol = ub;
        while (bol > out && bol[-1] != '\n') bol--;
        size_t n = strcspn(bol, "\n");
        snprintf(buf, size, "UndefinedBehaviorSanitizer: %.*s", (int)n, bol);
        return true;
    }
    if (!line_from(kind, sizeof kind, out, "ERROR: AddressSanitizer: ")) return false;
    const char *report = strstr(out, "ERROR: AddressSanitizer: ");
    kind[strcspn(kind, " ")] = '\0';
    const char *nl = strchr(report, '\n');
    if (nl && (strncmp(nl + 1, "WRITE of size", 13) == 0 || strncmp(nl + 1, "READ of size", 12) == 0)) {
        snprintf(access, sizeof access, "%.*s", (int)strcspn(nl + 1, "\n"), nl + 1);
        char *at = strstr(access, " at ");
        if (at) *at = '\0';
    }
    if (!learner_frame(where, sizeof where, report)) snprintf(where, sizeof where, "?");
    *segv = strcmp(kind, "SEGV") == 0;
    if (*segv) {
        char cause[128] = "";
        if (line_from(cause, sizeof cause, report, "The signal is caused by a "))
            cause[strcspn(cause, " ")] = '\0';
        snprintf(buf, size, EN_ES("AddressSanitizer: SEGV%s%s at %s",
                                  "AddressSanitizer: SEGV%s%s en %s"),
                 cause[0] ? EN_ES(" on a ", " en un ") : "", cause, where);
        return true;
    }
    /* next to a buffer of the call? "... is located N bytes inside of /
     * to the right of M-byte region [0xA,0xB)" */
    int len = snprintf(buf, size, "AddressSanitizer: %s%s%s %s %s", kind,
                       access[0] ? ", " : "", access, EN_ES("at", "en"), where);
    char loc[256] = "";
    if (!line_from(loc, sizeof loc, report, " is located ")) return true;
    long bytes = 0;
    const char *r = strstr(loc, "-byte region [0x");
    if (sscanf(loc, "%ld bytes", &bytes) != 1 || !r) return true;
    const char *m = r;
    while (m > loc && m[-1] != ' ') m--;
    long region = strtol(m, NULL, 10);
    unsigned long long start = strtoull(r + strlen("-byte region [0x"), NULL, 16);
    for (int i = 0; i < n_bufs; i++) {
        if (!bufs[i] || (unsigned long long)x->ctl.copy[i] != start) continue;
        long at = strstr(loc, "inside of") ? bytes
                : strstr(loc, "to the left of") || strstr(loc, "before") ? -bytes
                : region + bytes;
        long es = (long)lab_elem_size(bufs[i]);
        long element = at >= LAB_SAN_PAD ? (at - LAB_SAN_PAD) / es
                                         : -((LAB_SAN_PAD - at + es - 1) / es);
        char what[256];
        outside_text(what, sizeof what, bufs[i], element);
        snprintf(buf, size, EN_ES("%s %s\nAddressSanitizer stopped your code there: %s",
                                  "%s %s\nAddressSanitizer detuvo tu código ahí: %s"),
                 strncmp(access, "WRITE", 5) == 0 ? EN_ES("wrote", "escribió")
                                                  : EN_ES("read", "leyó"), what, where);
        return true;
    }
    if (strstr(kind, "heap") && len < (int)size)
        snprintf(buf + len, size - len,
                 EN_ES("\n(next to a block of %ld bytes that your code allocated)",
                       "\n(junto a un bloque de %ld bytes que reservó tu código)"),
                 region);
    return true;
}

/* died_text - the message of a call that did not return */
static void died_text(char *buf, size_t size, const lab_exchange *x, const char *fn,
                      const char *shown, lab_mat *const bufs[], int n_bufs,
                      const lab_request *req)
{
    char pre[512], what[1200] = "", tail[800] = "";
    lab_prefix(pre, sizeof pre);
    const lab_control *ctl = &x->ctl;
    bool in_call = ctl->phase == LAB_PHASE_CALL && ctl->seq == req->seq;
    bool after = ctl->phase == LAB_PHASE_AFTER && ctl->seq == req->seq;
    bool segv = false;
    char san[900];
    bool sanitizer = ctl->sanitize && sanitizer_text(san, sizeof san, x, bufs, n_bufs, &segv);

    if (x->end == END_HUNG) {
        snprintf(what, sizeof what, EN_ES("did not return within %g s (an endless loop?); "
                                          "the harness stopped it",
                                          "no volvió en %g s (¿un bucle sin fin?); el arnés "
                                          "la detuvo"), lab_timeout());
    } else if (x->end == END_BROKEN) {
        snprintf(what, sizeof what, "%s",
                 EN_ES("stopped answering the harness: the channel between the harness and "
                       "your code's process was closed or written to by your code",
                       "dejó de responder al arnés: tu código cerró o escribió en el canal "
                       "entre el arnés y su proceso"));
    } else if (sanitizer && !segv) {
        snprintf(what, sizeof what, "%s", san);
    } else if (WIFSIGNALED(x->wstatus) || segv) {
        int sig = segv ? SIGSEGV : WTERMSIG(x->wstatus);
        char hit[300] = "";
        bool near_buffer = false;
        if (sig == SIGSYS && ctl->signal == SIGSYS) {
            char call[160];
            syscall_text(call, sizeof call, ctl->syscall_nr);
            snprintf(what, sizeof what, EN_ES("made a system call that a lab function may not "
                                              "make: %s; the harness stopped it",
                                              "hizo una llamada al sistema que una función del "
                                              "laboratorio no puede hacer: %s; el arnés la detuvo"),
                     call);
        } else {
            if ((sig == SIGSEGV || sig == SIGBUS) && ctl->signal == sig && ctl->base) {
                int64_t off = (int64_t)(ctl->fault_addr - ctl->base);
                long element = 0;
                lab_mat *m = off >= 0 && off < LAB_SHM_SIZE
                           ? buffer_at(req, bufs, n_bufs, off, &element) : NULL;
                if (m) {
                    char where[256];
                    outside_text(where, sizeof where, m, element);
                    near_buffer = true;
                    snprintf(hit, sizeof hit, "%s %s",
                             ctl->fault_write == 1 ? EN_ES("wrote", "escribió")
                             : ctl->fault_write == 0 ? EN_ES("read", "leyó")
                             : EN_ES("touched memory", "tocó memoria"), where);
                } else if (ctl->fault_addr < 4096) {
                    snprintf(hit, sizeof hit, EN_ES("it %s address %#llx: a NULL pointer",
                                                    "%s la dirección %#llx: un puntero NULL"),
                             ctl->fault_write == 1 ? EN_ES("wrote to", "escribió en")
                                                   : EN_ES("touched", "tocó"),
                             (unsigned long long)ctl->fault_addr);
                }
            }
            if (near_buffer)
                snprintf(what, sizeof what, EN_ES("%s: the page there is protected, so the "
                                                  "access stopped your code at once "
                                                  "(signal %d)",
                                                  "%s: esa página está protegida, así que el "
                                                  "acceso detuvo tu código en el acto "
                                                  "(señal %d)"), hit, sig);
            else
                snprintf(what, sizeof what, EN_ES("crashed (signal %d, %s)%s%s",
                                                  "se detuvo (señal %d, %s)%s%s"),
                         sig, signal_text(sig, ctl->sanitize), hit[0] ? "; " : "", hit);
            if (sanitizer) {
                size_t n = strlen(what);
                snprintf(what + n, sizeof what - n, "\n%s", san);
            }
        }
    } else if (WIFEXITED(x->wstatus)) {
        snprintf(what, sizeof what, EN_ES("ended the process with exit status %d, from "
                                          "inside %s: a library function returns a status "
                                          "(MM_EINVAL, ...) and never ends the program",
                                          "terminó el proceso con estado de salida %d, desde "
                                          "dentro de %s: una función de biblioteca devuelve "
                                          "un estado (MM_EINVAL, ...) y nunca termina el "
                                          "programa"),
                 WEXITSTATUS(x->wstatus), fn);
    }

    char block[200] = "";
    if (after && ctl->damaged_size)
        snprintf(block, sizeof block, EN_ES(" (it wrote past the end of a block of %lld bytes "
                                            "that it allocated)",
                                            " (escribió más allá del final de un bloque de "
                                            "%lld bytes que reservó)"),
                 (long long)ctl->damaged_size);
    if (after)
        snprintf(tail, sizeof tail,
                 EN_ES("\n%s returned, and then the program stopped in the harness's own code "
                       "that runs after each call: your call damaged memory the program uses "
                       "later%s. The damage is yours; make lab NN=%s LAB_SANITIZE=1 shows the "
                       "line that does it.",
                       "\n%s volvió, y después el programa se detuvo en el código del arnés "
                       "que corre tras cada llamada: tu llamada dañó memoria que el programa "
                       "usa después%s. El daño es tuyo; make lab NN=%s LAB_SANITIZE=1 muestra "
                       "la línea que lo hace."), fn, block[0] ? block : EN_ES(" (it wrote "
                       "outside a buffer or a block it allocated)", " (escribió fuera de un "
                       "búfer o de un bloque que reservó)"), lab_id);
    else if (!in_call && x->end != END_HUNG)
        snprintf(tail, sizeof tail,
                 EN_ES("\n(it happened between calls, not inside one)",
                       "\n(ocurrió entre llamadas, no dentro de una)"));
    snprintf(buf, size, "%s%s%s\n%s%s", pre, what, tail,
             EN_ES("call in flight: ", "llamada en curso: "), shown);
}

/* ---- lab_call ----------------------------------------------------------------------- */

/* memory_report - leaks, bad frees and damaged blocks of a returned call */
static bool memory_report(const char *fn, const lab_reply *r)
{
    bool ok = true;
    if (r->leaked_blocks) {
        bool one = r->leaked_blocks == 1;
        lab_fail(EN_ES("leaked memory: %s allocated %lld block%s (%lld bytes) with "
                       "malloc/calloc/realloc and did not free %s",
                       "memoria perdida: %s reservó %lld bloque%s (%lld bytes) con "
                       "malloc/calloc/realloc y no %s liberó"),
                 fn, (long long)r->leaked_blocks, one ? "" : "s", (long long)r->leaked_bytes,
                 one ? EN_ES("it", "lo") : EN_ES("them", "los"));
        ok = false;
    }
    if (r->bad_frees) {
        lab_fail(EN_ES("%s called free or realloc %lld %s on memory it did not allocate "
                       "(a buffer belongs to whoever allocated it)",
                       "%s llamó a free o realloc %lld %s sobre memoria que no reservó "
                       "(un búfer es de quien lo reservó)"),
                 fn, (long long)r->bad_frees,
                 r->bad_frees == 1 ? EN_ES("time", "vez") : EN_ES("times", "veces"));
        ok = false;
    }
    if (r->damaged_blocks) {
        lab_fail(EN_ES("%s wrote past the end of a block it allocated (%lld bytes, with "
                       "malloc/calloc/realloc): found after the call, and the damage is "
                       "yours; make lab NN=%s LAB_SANITIZE=1 shows the line that does it",
                       "%s escribió más allá del final de un bloque que reservó (%lld bytes, "
                       "con malloc/calloc/realloc): se vio tras la llamada, y el daño es "
                       "tuyo; make lab NN=%s LAB_SANITIZE=1 muestra la línea que lo hace"),
                 fn, (long long)r->damaged_size, lab_id);
        ok = false;
    }
    return ok;
}

static uint64_t nonce(void)
{
    uint64_t n = 0;
    if (getrandom(&n, sizeof n, 0) != sizeof n) n = (uint64_t)rand() << 32 ^ (uint64_t)rand();
    return n;
}

/* call - the call, as lab_call (quiet = false) or lab_probe (quiet) make it;
 * returns how it ended, and the status in *status */
static int call(const char *fn, int n_bufs, lab_mat *const bufs[], int n_ints,
                const long ints[], bool quiet, mm_status *status, char *died, size_t died_size)
{
    if (n_bufs > LAB_MAX_ARGS || n_ints > LAB_MAX_ARGS) lab_bug("%s: too many arguments", fn);
    lab_child *c = lab_child_now();
    lab_request req;
    memset(&req, 0, sizeof req);
    req.magic = LAB_MAGIC;
    req.seq = next_seq++;
    req.nonce = nonce();
    req.fn = fn_index(fn);
    req.n_bufs = n_bufs;
    req.n_ints = n_ints;
    for (int i = 0; i < n_ints; i++) req.ints[i] = ints[i];
    lay_out(c, &req, bufs, n_bufs);
    char shown[300];
    shown_text(shown, sizeof shown, fn, n_bufs, bufs, n_ints, ints);

    static lab_exchange x;
    child_exchange(c, &req, lab_timeout(), &x);
    if (!quiet) lab_output(&x);
    if (x.end != END_REPLY) {
        died_text(died, died_size, &x, fn, shown, bufs, n_bufs, &req);
        lab_child_lost();
        return x.end == END_HUNG ? MSG_HANG : MSG_CRASH;
    }
    size_t h = strlen(c->history);
    snprintf(c->history + h, sizeof c->history - h, "%s%s", h ? "; " : "", shown);
    if (x.rep.kind == LAB_REPLY_TODO) {
        snprintf(died, died_size, "%s", x.rep.todo_fn);
        lab_note_call(fn, x.rep.todo_fn);
        return -1;
    }
    lab_note_call(fn, NULL);
    lab_set_learner_error(x.rep.last_error);
    *status = (mm_status)x.rep.status;
    take_back(c, &req, bufs, n_bufs, quiet);
    if (!quiet) memory_report(fn, &x.rep);
    bool segv;
    char san[900];
    if (!quiet && x.ctl.sanitize && sanitizer_text(san, sizeof san, &x, bufs, n_bufs, &segv))
        lab_fail("%s", san);
    return 0;
}

mm_status lab_call(const char *fn, int n_bufs, lab_mat *const bufs[], int n_ints,
                   const long ints[])
{
    mm_status status = MM_OK;
    char died[2400];
    int how = call(fn, n_bufs, bufs, n_ints, ints, false, &status, died, sizeof died);
    if (how < 0) lab_end_check(OUTCOME_PENDING);
    if (how > 0) {
        lab_message((lab_msg_kind)how, died);
        lab_end_check(OUTCOME_FAILED);
    }
    return status;
}

bool lab_probe(mm_status *status, bool *todo, const char *fn, int n_bufs,
               lab_mat *const bufs[], int n_ints, const long ints[])
{
    char died[2400];
    int how = call(fn, n_bufs, bufs, n_ints, ints, true, status, died, sizeof died);
    *todo = how < 0;
    if (how > 0) {
        const char *what = strstr(died, "': ");
        lab_detail(EN_ES("(to locate the mistake the check called %s once more, and that "
                         "call did not return: %.*s)",
                         "(para localizar el error la comprobación llamó a %s otra vez, y "
                         "esa llamada no volvió: %.*s)"),
                   fn, (int)strcspn(what ? what + 3 : died, "\n"), what ? what + 3 : died);
    }
    return how == 0;
}

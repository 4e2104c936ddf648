/* call.c - one call of the learner's function, from the judge's side:
 * lab_call and lab_probe, what is reported around a call that returned
 * (memory, a sanitizer's report, a changed control block), and what a
 * call that did not return is reported as: a crash (with the buffer a
 * stray access hit), a refused system call, the C library stopping the
 * program, the channel to the judge closed, the process ending, a hang
 * (what the driver's sample saw it doing just before the deadline), or
 * damage found after the call returned - still the learner's. Before a
 * call, record.c keeps it for make lab-debug. */
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

static uint32_t next_seq = 1;

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
    case SIGFPE:  return EN_ES("SIGFPE, an arithmetic exception: an integer division by zero, "
                               "or one that overflows (INT_MIN / -1)",
                               "SIGFPE, una excepción aritmética: una división entera por cero, "
                               "o una que desborda (INT_MIN / -1)");
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
#define CONFINED(name, what) { SYS_##name, #name, what },
    static const struct { int nr; const char *name; int what; } calls[] = {
        LAB_CONFINED(CONFINED) { SYS_kill, "kill", 2 }, { SYS_tgkill, "tgkill", 2 },
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

/* ---- what a call that did not return was doing ----------------------------------------- */

/* waited_in - a system call that would have been restarted after the
 * sample's signal (the others are cut short, and their number is lost), as
 * a learner would know it; NULL if none of these */
static const char *waited_in(int nr)
{
    static const struct { int nr; const char *what[2]; } calls[] = {
        { SYS_read, { "read (a read of the standard input?)",
                      "read (¿una lectura de la entrada estándar?)" } },
        { SYS_write, { "write (a write to a full pipe?)",
                       "write (¿una escritura en una tubería llena?)" } },
        { SYS_futex, { "futex (a lock?)", "futex (¿un cerrojo?)" } },
        { SYS_wait4, { "wait4 (wait?)", "wait4 (¿wait?)" } },
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (calls[i].nr == nr) return calls[i].what[lab_es()];
    return NULL;
}

/* hang_text - a call that did not return by the deadline, and what the
 * driver's sample, taken just before it, saw it doing: allocating without
 * end, computing, or waiting in a system call; no sample from a timer
 * armed for the call means that the process did not run then (stopped by
 * a signal). Without a timer, only the deadline. */
static void hang_text(char *buf, size_t size, const lab_control *ctl)
{
    double limit = lab_timeout();
    int n = snprintf(buf, size, EN_ES("did not return within %g s", "no volvió en %g s"), limit);
    const char *end = EN_ES("; the harness stopped it", "; el arnés la detuvo");
    if (ctl->phase != LAB_PHASE_CALL || ctl->sampled == LAB_SAMPLE_NONE) {
        snprintf(buf + n, size - n, "%s", end);
        return;
    }
    if (ctl->sampled == LAB_SAMPLE_ARMED) {
        snprintf(buf + n, size - n,
                 EN_ES(": its process was not running near the deadline: it was stopped by a "
                       "signal (SIGSTOP or SIGTSTP: raise(SIGSTOP)?)%s",
                       ": su proceso no corría cerca del plazo: lo detuvo una señal (SIGSTOP o "
                       "SIGTSTP: ¿raise(SIGSTOP)?)%s"), end);
        return;
    }
    double ran = (double)(ctl->sample_ns - ctl->call_ns) / 1e9;
    double cpu = (double)(ctl->sample_cpu_ns - ctl->call_cpu_ns) / 1e9;
    double mib = (double)ctl->heap_bytes / (1 << 20);
    if (ctl->heap_refused || ctl->heap_bytes >= LAB_HEAP_LIMIT / 16) {
        char refused[160] = "";
        if (ctl->heap_refused)
            snprintf(refused, sizeof refused, EN_ES(", %lld of them refused at the limit of "
                                                    "%lld MiB", ", %lld de ellas rechazadas en "
                                                    "el límite de %lld MiB"),
                     (long long)ctl->heap_refused, (long long)(LAB_HEAP_LIMIT >> 20));
        snprintf(buf + n, size - n,
                 EN_ES(": it kept allocating memory: its blocks held %.0f MiB near the deadline, "
                       "after %lld requests in this call%s; memory that is never freed, not an "
                       "endless loop of arithmetic (it used %.2f s of CPU)%s",
                       ": no dejaba de reservar memoria: sus bloques ocupaban %.0f MiB cerca "
                       "del plazo, tras %lld peticiones en esta llamada%s; memoria que nunca se "
                       "libera, no un bucle sin fin de aritmética (usó %.2f s de CPU)%s"),
                 mib, (long long)ctl->heap_asks, refused, cpu, end);
    }
    else if (ctl->sample_state == LAB_STATE_RUNNING ||
             (ctl->sample_state == LAB_STATE_UNKNOWN && cpu > 0.25 * ran))
        snprintf(buf + n, size - n,
                 EN_ES(": it was computing (it used %.2f s of CPU in %.2f s): an endless "
                       "loop?%s",
                       ": estaba calculando (usó %.2f s de CPU en %.2f s): ¿un bucle sin "
                       "fin?%s"), cpu, ran, end);
    else {
        const char *in = waited_in(ctl->sample_state);
        char where[200];
        if (in) snprintf(where, sizeof where, EN_ES("; it was in the system call %s",
                                                    "; estaba en la llamada al sistema %s"), in);
        else if (ctl->sample_state >= 0)
            snprintf(where, sizeof where, EN_ES("; it was in system call number %d",
                                                "; estaba en la llamada al sistema número %d"),
                     (int)ctl->sample_state);
        else snprintf(where, sizeof where, "%s", EN_ES(": sleep, pause, a read?",
                                                       ": ¿sleep, pause, una lectura?"));
        snprintf(buf + n, size - n,
                 EN_ES(": it was waiting, not computing (it used %.2f s of CPU in %.2f s%s)%s",
                       ": estaba esperando, sin calcular (usó %.2f s de CPU en %.2f s%s)%s"),
                 cpu, ran, where, end);
    }
}

/* ---- the C library's own messages ----------------------------------------------------- */

/* libc_kind - 0 if line is not one of the C library's fatal messages; else
 * 1 the allocator's, 2 the stack protector's, 3 a checked copy's, 4 other */
static int libc_kind(const char *line)
{
    static const char *const heap[] = {
        "malloc(): ", "free(): ", "realloc(): ", "calloc(): ", "malloc_consolidate(): ",
        "munmap_chunk(): ", "_int_malloc(): ", "_int_free(): ", "tcache_thread_shutdown(): ",
        "corrupted size vs. prev_size", "corrupted double-linked list", "double free or corruption",
    };
    for (size_t i = 0; i < sizeof heap / sizeof heap[0]; i++)
        if (strncmp(line, heap[i], strlen(heap[i])) == 0) return 1;
    if (strncmp(line, "*** stack smashing detected ***", 31) == 0) return 2;
    if (strncmp(line, "*** buffer overflow detected ***", 32) == 0) return 3;
    if (strncmp(line, "Fatal glibc error: ", 19) == 0) return 4;
    return 0;
}

/* libc_take - the C library's fatal messages in the raw part of x's output
 * (what did not come through the learner's stdio) are the C library's, not
 * the learner's: taken out of it (so that they are not shown as printed
 * by the learner's code), the first one into msg; its kind (libc_kind) */
static int libc_take(lab_exchange *x, char *msg, size_t size)
{
    int first = 0;
    msg[0] = '\0';
    for (size_t at = x->printed; at < x->out_len; ) {
        size_t n = strcspn(x->out + at, "\n");
        size_t whole = n + (at + n < x->out_len);
        int kind = libc_kind(x->out + at);
        if (!kind) {
            at += whole;
            continue;
        }
        if (!first) {
            first = kind;
            snprintf(msg, size, "%.*s", (int)(n < 300 ? n : 300), x->out + at);
        }
        memmove(x->out + at, x->out + at + whole, x->out_len - at - whole + 1);
        x->out_len -= whole;
        x->out_total -= whole;
    }
    return first;
}

/* libc_text - what the C library's message of kind says */
static const char *libc_text(int kind)
{
    switch (kind) {
    case 1: return EN_ES("its memory allocator found its records of the heap damaged: your code "
                         "wrote outside a block from malloc (before its start or past its end), "
                         "or into a block after freeing it (a double free, or a free of memory "
                         "your code did not allocate, is refused by the harness and does not "
                         "reach the C library)",
                         "su gestor de memoria encontró dañados sus registros del montículo: tu "
                         "código escribió fuera de un bloque de malloc (antes de su principio o "
                         "más allá de su final), o en un bloque ya liberado (el arnés rechaza "
                         "liberar dos veces, o liberar memoria que tu código no reservó, y eso no "
                         "llega a la biblioteca de C)");
    case 2: return EN_ES("its stack protector found a local array written past its end",
                         "su protector de pila encontró un array local escrito más allá de "
                         "su final");
    case 3: return EN_ES("a copy it checks (memcpy, strcpy, sprintf, ...) was larger than its "
                         "destination",
                         "una copia que comprueba (memcpy, strcpy, sprintf, ...) era mayor que "
                         "su destino");
    default: return EN_ES("it found an error it cannot go on from",
                          "encontró un error tras el que no puede seguir");
    }
}

/* control_text - an access at offset off of the shared memory, in its
 * first LAB_BUFS_OFF bytes: the harness's own */
static void control_text(char *buf, size_t size, int64_t off, int write)
{
    snprintf(buf, size,
             EN_ES("it %s the harness's %s (byte %lld of the memory the harness shares with "
                   "your code's process), which your code must not touch: a pointer far "
                   "outside its buffers?",
                   "%s el %s del arnés (byte %lld de la memoria que el arnés comparte con el "
                   "proceso de tu código), que tu código no debe tocar: ¿un puntero muy fuera "
                   "de sus búferes?"),
             write == 1 ? EN_ES("wrote into", "escribió en") : EN_ES("touched", "tocó"),
             off < LAB_OUT_OFF ? EN_ES("control block", "bloque de control")
                               : EN_ES("output area", "área de salida"),
             (long long)off);
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
        if (strstr(file, "libsanitizer") || strstr(file, "judge/harness/") ||
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

/* ub_hint - what UndefinedBehaviorSanitizer's report (text, n bytes from
 * "runtime error: ") means for an integer, or NULL */
static const char *ub_hint(const char *text, size_t n)
{
    char r[400];
    snprintf(r, sizeof r, "%.*s", (int)n, text);
    if (strstr(r, "signed integer overflow"))
        return EN_ES("(a signed integer overflowed: the exact result does not fit in its type "
                     "- an int holds -2147483648 to 2147483647 -; do that arithmetic in a "
                     "wider type (long, int64_t), or check the values before it)",
                     "(un entero con signo se desbordó: el resultado exacto no cabe en su tipo "
                     "- un int va de -2147483648 a 2147483647 -; haz esa aritmética en un tipo "
                     "más ancho (long, int64_t), o comprueba los valores antes)");
    if (strstr(r, "by -1 cannot be represented"))
        return EN_ES("(the most negative value of a signed type divided by -1 overflows: "
                     "INT_MIN / -1 would be 2147483648, one past INT_MAX; so does INT_MIN % -1)",
                     "(el valor más negativo de un tipo con signo dividido entre -1 desborda: "
                     "INT_MIN / -1 sería 2147483648, uno más que INT_MAX; y también INT_MIN % -1)");
    if (strstr(r, "negation of"))
        return EN_ES("(the negation of the most negative value of a signed type overflows: "
                     "-INT_MIN does not fit in an int)",
                     "(cambiar de signo el valor más negativo de un tipo con signo desborda: "
                     "-INT_MIN no cabe en un int)");
    if (strstr(r, "division by zero"))
        return EN_ES("(an integer division by zero: check the divisor before dividing)",
                     "(una división entera por cero: comprueba el divisor antes de dividir)");
    return NULL;
}

/* ub_text - UndefinedBehaviorSanitizer's report in out (ub: its "runtime
 * error: "), its line and what it means */
static void ub_text(char *buf, size_t size, const char *out, const char *ub)
{
    const char *bol = ub;
    while (bol > out && bol[-1] != '\n') bol--;
    size_t n = strcspn(bol, "\n");
    int len = snprintf(buf, size, "UndefinedBehaviorSanitizer: %.*s", (int)n, bol);
    const char *hint = ub_hint(ub, (size_t)(bol + n - ub));
    if (hint && len < (int)size) snprintf(buf + len, size - len, "\n%s", hint);
}

/* asan_segv_text - AddressSanitizer's SEGV report, at where (the learner's
 * frame), and the harness's pages if it hit them */
static void asan_segv_text(char *buf, size_t size, const lab_exchange *x, const char *report,
                           const char *where)
{
    char cause[128] = "";
    if (line_from(cause, sizeof cause, report, "The signal is caused by a "))
        cause[strcspn(cause, " ")] = '\0';
    int len = snprintf(buf, size, EN_ES("AddressSanitizer: SEGV%s%s at %s",
                                        "AddressSanitizer: SEGV%s%s en %s"),
                       cause[0] ? EN_ES(" on a ", " en un ") : "", cause, where);
    const char *a = strstr(report, "SEGV on unknown address ");
    int64_t off = a ? (int64_t)(strtoull(a + 24, NULL, 16) - x->ctl.base) : -1;
    if (x->ctl.base && off >= 0 && off < LAB_BUFS_OFF && len < (int)size) {
        char what[400];
        control_text(what, sizeof what, off, strcmp(cause, "WRITE") == 0);
        snprintf(buf + len, size - len, "\n%s", what);
    }
}

/* asan_buffer_text - the access of AddressSanitizer's report (access: "WRITE
 * of size 8", at where) next to a buffer of the call, said as where in it;
 * its location line says "... is located N bytes inside of / to the right
 * of M-byte region [0xA,0xB)". False if it was not next to one: then
 * *region is the size of the block it was next to (-1 if not said) */
static bool asan_buffer_text(char *buf, size_t size, const lab_exchange *x, const char *report,
                             const char *access, const char *where,
                             lab_mat *const bufs[], int n_bufs, long *region)
{
    char loc[256] = "";
    *region = -1;
    if (!line_from(loc, sizeof loc, report, " is located ")) return false;
    long bytes = 0;
    const char *r = strstr(loc, "-byte region [0x");
    if (sscanf(loc, "%ld bytes", &bytes) != 1 || !r) return false;
    const char *m = r;
    while (m > loc && m[-1] != ' ') m--;
    *region = strtol(m, NULL, 10);
    unsigned long long start = strtoull(r + strlen("-byte region [0x"), NULL, 16);
    for (int i = 0; i < n_bufs; i++) {
        if (!bufs[i] || (unsigned long long)x->ctl.copy[i] != start) continue;
        long at = strstr(loc, "inside of") ? bytes
                : strstr(loc, "to the left of") || strstr(loc, "before") ? -bytes
                : *region + bytes;
        char what[256];
        outside_text(what, sizeof what, bufs[i], lab_element_at(bufs[i], at - LAB_SAN_PAD));
        snprintf(buf, size, EN_ES("%s %s\nAddressSanitizer stopped your code there: %s",
                                  "%s %s\nAddressSanitizer detuvo tu código ahí: %s"),
                 strncmp(access, "WRITE", 5) == 0 ? EN_ES("wrote", "escribió")
                                                  : EN_ES("read", "leyó"), what, where);
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
        ub_text(buf, size, out, ub);
        return true;
    }
    if (!line_from(kind, sizeof kind, out, "ERROR: AddressSanitizer: ")) return false;
    const char *report = strstr(out, "ERROR: AddressSanitizer: ");
    kind[strcspn(kind, " ")] = '\0';
    const char *nl = strchr(report, '\n');
    if (nl && (strncmp(nl + 1, "WRITE of size", 13) == 0 ||
               strncmp(nl + 1, "READ of size", 12) == 0)) {
        snprintf(access, sizeof access, "%.*s", (int)strcspn(nl + 1, "\n"), nl + 1);
        char *at = strstr(access, " at ");
        if (at) *at = '\0';
    }
    if (!learner_frame(where, sizeof where, report)) snprintf(where, sizeof where, "?");
    *segv = strcmp(kind, "SEGV") == 0;
    if (*segv) {
        asan_segv_text(buf, size, x, report, where);
        return true;
    }
    int len = snprintf(buf, size, "AddressSanitizer: %s%s%s %s %s", kind,
                       access[0] ? ", " : "", access, EN_ES("at", "en"), where);
    long region;
    if (!asan_buffer_text(buf, size, x, report, access, where, bufs, n_bufs, &region) &&
        region >= 0 && strstr(kind, "heap") && len < (int)size)
        snprintf(buf + len, size - len,
                 EN_ES("\n(next to a block of %ld bytes that your code allocated)",
                       "\n(junto a un bloque de %ld bytes que reservó tu código)"),
                 region);
    return true;
}

/* channel_text - the channel to the judge was closed by the learner's code
 * (fd, or 0 if only the judge's end showed it: LAB_FD_REP) */
static void channel_text(char *buf, size_t size, int fd)
{
    if (!fd) fd = LAB_FD_REP;
    snprintf(buf, size,
             EN_ES("closed the channel to the judge: descriptor %d, on which the harness's code "
                   "in your process %s, was closed by your code (close(%d), or a loop that "
                   "closes descriptors it did not open), and the process could no longer "
                   "answer; a lab function closes only what it opened",
                   "cerró el canal con el juez: el descriptor %d, por el que el código del "
                   "arnés en tu proceso %s, lo cerró tu código (close(%d), o un bucle que "
                   "cierra descriptores que no abrió), y el proceso ya no podía responder; una "
                   "función del laboratorio solo cierra lo que abrió"),
             fd, fd == LAB_FD_REQ ? EN_ES("receives the judge's requests",
                                          "recibe las peticiones del juez")
                                  : EN_ES("sends its replies", "envía sus respuestas"), fd);
}

/* fault_text - where a SIGSEGV or SIGBUS the driver caught hit: next to a
 * buffer (true), the harness's own pages, or a NULL pointer (hit empty if
 * none) */
static bool fault_text(char *hit, size_t size, const lab_control *ctl, const lab_request *req,
                       lab_mat *const bufs[], int n_bufs)
{
    int64_t off = (int64_t)(ctl->fault_addr - ctl->base);
    long element = 0;
    lab_mat *m = off >= 0 && off < LAB_SHM_SIZE ? buffer_at(req, bufs, n_bufs, off, &element)
                                                : NULL;
    if (m) {
        char where[256];
        outside_text(where, sizeof where, m, element);
        snprintf(hit, size, "%s %s",
                 ctl->fault_write == 1 ? EN_ES("wrote", "escribió")
                 : ctl->fault_write == 0 ? EN_ES("read", "leyó")
                 : EN_ES("touched memory", "tocó memoria"), where);
        return true;
    }
    if (off >= 0 && off < LAB_BUFS_OFF) {
        control_text(hit, size, off, ctl->fault_write);
        return true;
    }
    if (ctl->fault_addr < 4096)
        snprintf(hit, size, EN_ES("it %s address %#llx: a NULL pointer",
                                  "%s la dirección %#llx: un puntero NULL"),
                 ctl->fault_write == 1 ? EN_ES("wrote to", "escribió en")
                                       : EN_ES("touched", "tocó"),
                 (unsigned long long)ctl->fault_addr);
    return false;
}

/* signal_what - the message of a call that a signal stopped */
static void signal_what(char *what, size_t size, int sig, const lab_exchange *x,
                        const lab_request *req, lab_mat *const bufs[], int n_bufs,
                        int libc, const char *libc_msg)
{
    const lab_control *ctl = &x->ctl;
    if (sig == SIGSYS && ctl->signal == SIGSYS) {
        char call[160];
        syscall_text(call, sizeof call, ctl->syscall_nr);
        snprintf(what, size, EN_ES("made a system call that a lab function may not "
                                   "make: %s; the harness stopped it",
                                   "hizo una llamada al sistema que una función del "
                                   "laboratorio no puede hacer: %s; el arnés la detuvo"),
                 call);
        return;
    }
    char hit[500] = "";
    bool located = (sig == SIGSEGV || sig == SIGBUS) && ctl->signal == sig && ctl->base &&
                   fault_text(hit, sizeof hit, ctl, req, bufs, n_bufs);
    if (located)
        snprintf(what, size, EN_ES("%s: the page there is protected, so the access stopped "
                                   "your code at once (signal %d)",
                                   "%s: esa página está protegida, así que el acceso detuvo "
                                   "tu código en el acto (señal %d)"), hit, sig);
    else if (libc)
        snprintf(what, size, EN_ES("was stopped by the C library (signal %d, %s), which "
                                   "printed \"%s\": %s",
                                   "la detuvo la biblioteca de C (señal %d, %s), que "
                                   "imprimió \"%s\": %s"),
                 sig, strsignal(sig), libc_msg, libc_text(libc));
    else
        snprintf(what, size, EN_ES("crashed (signal %d, %s)%s%s",
                                   "se detuvo (señal %d, %s)%s%s"),
                 sig, signal_text(sig, ctl->sanitize), hit[0] ? "; " : "", hit);
}

/* channel_closed - the learner's code closed the channel to the judge: the
 * driver saw it, or the judge's end of the reply channel closed and the
 * process did not end */
static bool channel_closed(const lab_exchange *x)
{
    return x->ctl.channel_lost || (x->end == END_BROKEN && !x->rep.magic && !x->rep.seq);
}

/* died_what - what a call that did not return did; libc is the kind of the
 * C library's message libc_msg it printed (libc_take), or 0 */
static void died_what(char *what, size_t size, const lab_exchange *x, const char *fn,
                      lab_mat *const bufs[], int n_bufs, const lab_request *req,
                      int libc, const char *libc_msg)
{
    const lab_control *ctl = &x->ctl;
    bool segv = false;
    char san[1200];
    bool sanitizer = ctl->sanitize && sanitizer_text(san, sizeof san, x, bufs, n_bufs, &segv);
    if (channel_closed(x)) {
        channel_text(what, size, ctl->channel_lost);
    } else if (x->end == END_HUNG) {
        hang_text(what, size, ctl);
    } else if (x->end == END_BROKEN) {
        snprintf(what, size, "%s",
                 EN_ES("stopped answering the harness: what came on the channel between the "
                       "harness and your code's process did not answer the harness's request "
                       "(your code wrote to that channel)",
                       "dejó de responder al arnés: lo que llegó por el canal entre el arnés y "
                       "el proceso de tu código no respondía a la petición del arnés (tu código "
                       "escribió en ese canal)"));
    } else if (sanitizer && !segv) {
        snprintf(what, size, "%s", san);
    } else if (WIFSIGNALED(x->wstatus) || segv) {
        signal_what(what, size, segv ? SIGSEGV : WTERMSIG(x->wstatus), x, req, bufs,
                    n_bufs, libc, libc_msg);
        if (sanitizer) {
            size_t n = strlen(what);
            snprintf(what + n, size - n, "\n%s", san);
        }
    } else if (WIFEXITED(x->wstatus)) {
        snprintf(what, size, EN_ES("ended the process with exit status %d, from inside %s: "
                                   "a library function returns a status (MM_EINVAL, ...) "
                                   "and never ends the program",
                                   "terminó el proceso con estado de salida %d, desde dentro "
                                   "de %s: una función de biblioteca devuelve un estado "
                                   "(MM_EINVAL, ...) y nunca termina el programa"),
                 WEXITSTATUS(x->wstatus), fn);
    }
}

/* died_when - when it did it, if that needs saying: after the call
 * returned (the damage is still the learner's), or between calls */
static void died_when(char *tail, size_t size, const lab_exchange *x, const char *fn,
                      const lab_request *req, int libc)
{
    const lab_control *ctl = &x->ctl;
    bool channel = channel_closed(x);          /* said as a thing done in the call */
    bool in_call = channel || (ctl->phase == LAB_PHASE_CALL && ctl->seq == req->seq);
    bool after = !channel && ctl->phase == LAB_PHASE_AFTER && ctl->seq == req->seq;
    char block[200] = "";
    if (after && ctl->damaged_size)
        snprintf(block, sizeof block, EN_ES(" (it wrote past the end of a block of %lld bytes "
                                            "that it allocated)",
                                            " (escribió más allá del final de un bloque de "
                                            "%lld bytes que reservó)"),
                 (long long)ctl->damaged_size);
    if (after)
        snprintf(tail, size,
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
    else if (in_call && libc == 1 && !ctl->sanitize)
        snprintf(tail, size,
                 EN_ES("\nmake lab NN=%s LAB_SANITIZE=1 shows the line that does it.",
                       "\nmake lab NN=%s LAB_SANITIZE=1 muestra la línea que lo hace."),
                 lab_id);
    else if (!in_call && x->end != END_HUNG)
        snprintf(tail, size,
                 EN_ES("\n(it happened between calls, not inside one)",
                       "\n(ocurrió entre llamadas, no dentro de una)"));
}

/* died_text - the message of a call that did not return (died_what,
 * died_when, and the call) */
static void died_text(char *buf, size_t size, const lab_exchange *x, const char *fn,
                      const char *shown, lab_mat *const bufs[], int n_bufs,
                      const lab_request *req, int libc, const char *libc_msg)
{
    char pre[512], what[1600] = "", tail[800] = "";
    lab_prefix(pre, sizeof pre);
    died_what(what, sizeof what, x, fn, bufs, n_bufs, req, libc, libc_msg);
    died_when(tail, sizeof tail, x, fn, req, libc);
    snprintf(buf, size, "%s%s%s\n%s%s", pre, what, tail,
             EN_ES("call in flight: ", "llamada en curso: "), shown);
}

/* control_changed - a field of the control block c's driver must not have
 * changed, or that an idle driver holds, that does not hold it after the
 * call seq returned: its name, with what it holds and what it should in
 * *is and *want; NULL if every one does */
static const char *control_changed(const lab_child *c, const lab_control *now, uint32_t seq,
                                   long long *is, long long *want)
{
    const lab_control *s = &c->started;
    const struct { const char *name; long long is, want; } f[] = {
        { "phase", now->phase, LAB_PHASE_IDLE }, { "seq", now->seq, seq },
        { "signal", now->signal, 0 }, { "fault_addr", (long long)now->fault_addr, 0 },
        { "fault_write", now->fault_write, 0 }, { "syscall_nr", now->syscall_nr, 0 },
        { "channel_lost", now->channel_lost, 0 },
        { "sanitize", now->sanitize, s->sanitize },
        { "base", (long long)now->base, (long long)s->base },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].is != f[i].want) {
            *is = f[i].is;
            *want = f[i].want;
            return f[i].name;
        }
    for (int i = 0; i < LAB_MAX_ARGS; i++)
        if (now->copy[i]) {
            *is = (long long)now->copy[i];
            *want = 0;
            return "copy";
        }
    *is = *want = 0;
    return NULL;
}

/* changed_text - the message of a control block changed in a call */
static void changed_text(char *buf, size_t size, const char *field, long long is,
                         long long want, const char *shown)
{
    char pre[512];
    lab_prefix(pre, sizeof pre);
    snprintf(buf, size,
             EN_ES("%schanged the harness's control block: after the call its field %s held "
                   "%lld where it must hold %lld. That page is where the harness's code in "
                   "your process notes what it is doing; it is protected from your code, so "
                   "your code made it writable (mprotect?) and wrote there\n"
                   "call in flight: %s",
                   "%scambió el bloque de control del arnés: tras la llamada su campo %s "
                   "valía %lld y debe valer %lld. Esa página es donde el código del arnés en "
                   "tu proceso anota lo que está haciendo; está protegida de tu código, así "
                   "que tu código la hizo escribible (¿mprotect?) y escribió en ella\n"
                   "llamada en curso: %s"),
             pre, field, is, want, shown);
}

/* ---- lab_call ----------------------------------------------------------------------- */

/* bad_free_text - the first bad free of a returned call, said as what the
 * pointer was: a block freed already, a pointer inside a block, a buffer of
 * the call, or other memory */
static void bad_free_text(char *buf, size_t size, const lab_reply *r, uint32_t seq,
                          lab_mat *const bufs[], int n_bufs)
{
    const char *now = EN_ES("in this call", "en esta llamada");
    const char *before = EN_ES("in an earlier call", "en una llamada anterior");
    if (r->bad_kind == LAB_FREE_TWICE)
        snprintf(buf, size, EN_ES("freed a block twice: a block of %lld bytes that it "
                                  "allocated (%s) and had already freed (%s; free, or realloc "
                                  "when it moves a block, frees it); the second free is "
                                  "refused (outside the harness a double free damages the C "
                                  "library's records of the heap)",
                                  "liberó un bloque dos veces: un bloque de %lld bytes que "
                                  "reservó (%s) y ya había liberado (%s; free, o realloc "
                                  "cuando mueve un bloque, lo libera); la segunda liberación "
                                  "se rechaza (fuera del arnés liberar dos veces daña los "
                                  "registros del montículo de la biblioteca de C)"),
                 (long long)r->bad_size, r->bad_alloc_seq == seq ? now : before,
                 r->bad_free_seq == seq ? now : before);
    else if (r->bad_kind == LAB_FREE_INSIDE)
        snprintf(buf, size, EN_ES("a pointer %lld bytes inside a block of %lld bytes that it "
                                  "allocated (free takes the pointer malloc returned)",
                                  "un puntero %lld bytes dentro de un bloque de %lld bytes que "
                                  "reservó (free toma el puntero que devolvió malloc)"),
                 (long long)r->bad_offset, (long long)r->bad_size);
    else if (r->bad_kind == LAB_FREE_ARG && r->bad_arg >= 0 && r->bad_arg < n_bufs &&
             bufs[r->bad_arg])
        snprintf(buf, size, EN_ES("%s%s, a buffer it was given (a buffer belongs to whoever "
                                  "allocated it)",
                                  "%s%s, un búfer que recibió (un búfer es de quien lo "
                                  "reservó)"),
                 r->bad_offset ? EN_ES("a pointer into ", "un puntero dentro de ") : "",
                 bufs[r->bad_arg]->name);
    else
        snprintf(buf, size, "%s", EN_ES("memory that malloc, calloc or realloc did not return "
                                        "to it (a local or static array, or a pointer from "
                                        "elsewhere)",
                                        "memoria que malloc, calloc o realloc no le dio (un "
                                        "array local o estático, o un puntero de otra parte)"));
}

/* memory_report - leaks, bad frees and damaged blocks of a returned call */
static bool memory_report(const char *fn, const lab_reply *r, uint32_t seq,
                          lab_mat *const bufs[], int n_bufs)
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
        char what[600];
        bad_free_text(what, sizeof what, r, seq, bufs, n_bufs);
        const char *times = r->bad_frees == 1 ? EN_ES("time", "vez") : EN_ES("times", "veces");
        if (r->bad_kind == LAB_FREE_TWICE && r->bad_frees == 1)
            lab_fail("%s %s", fn, what);
        else if (r->bad_kind == LAB_FREE_TWICE)
            lab_fail(EN_ES("%s %s (it called free or realloc %lld times on memory that was not "
                           "a block of its own)",
                           "%s %s (llamó a free o realloc %lld veces sobre memoria que no era "
                           "un bloque suyo)"), fn, what, (long long)r->bad_frees);
        else
            lab_fail(EN_ES("%s called free or realloc %lld %s on memory it did not allocate: %s",
                           "%s llamó a free o realloc %lld %s sobre memoria que no reservó: %s"),
                     fn, (long long)r->bad_frees, times, what);
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
    req.fn = lab_function_index(fn);
    if (!lab_functions[req.fn]) lab_bug("%s is not one of the lab's functions", fn);
    req.n_bufs = n_bufs;
    req.n_ints = n_ints;
    req.timeout_ns = (int64_t)(lab_timeout() * 1e9);
    for (int i = 0; i < n_ints; i++) req.ints[i] = ints[i];
    lay_out(c, &req, bufs, n_bufs);
    lab_record_keep(c, fn, &req, bufs, quiet);
    char shown[300];
    shown_text(shown, sizeof shown, fn, n_bufs, bufs, n_ints, ints);

    if (!c->started_known) {
        memcpy(&c->started, c->ctl, sizeof c->started);
        c->started_known = true;
    }
    static lab_exchange x;
    child_exchange(c, &req, lab_timeout(), &x);
    char libc_msg[320];
    int libc = libc_take(&x, libc_msg, sizeof libc_msg);
    if (!quiet) lab_output(&x);
    if (x.end != END_REPLY) {
        died_text(died, died_size, &x, fn, shown, bufs, n_bufs, &req, libc, libc_msg);
        lab_child_lost();
        return x.end == END_HUNG ? MSG_HANG : MSG_CRASH;
    }
    long long is, want;
    const char *field = control_changed(c, &x.ctl, req.seq, &is, &want);
    if (field) {
        changed_text(died, died_size, field, is, want, shown);
        lab_child_lost();
        return MSG_CRASH;
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
    if (!quiet) memory_report(fn, &x.rep, req.seq, bufs, n_bufs);
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
    const char *lost_hint = lab_now.lost_hint;
    lab_now.lost_hint = NULL;
    if (how < 0) lab_end_check(OUTCOME_PENDING);
    if (how > 0) {
        lab_message((lab_msg_kind)how, died);
        if (lost_hint) lab_hint("%s", lost_hint);
        lab_record_if_failed();
        lab_end_check(OUTCOME_FAILED);
    }
    lab_record_if_failed();                        /* said in the call: its memory, a sanitizer */
    return status;
}

void lab_hint_if_lost(const char *text)
{
    lab_now.lost_hint = text;
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

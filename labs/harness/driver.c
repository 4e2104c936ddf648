/* driver.c - the child process that runs the learner's code, and nothing
 * of the judge: it is linked with the learner's object, the lab's table of
 * adapters (driver.h) and the public library only.
 *
 * It maps the shared memory, confines itself (no new processes, no
 * programs, no signals to others, no files; see confine), says hello, and
 * then serves calls (wire.h) until its request pipe closes or the judge
 * kills it. Around each call it:
 *   - opens the pages of the call's buffers, and closes them after (every
 *     other page of the shared memory stays PROT_NONE, so a stray access
 *     faults at once, and the fault handler notes the address for the
 *     judge); in the sanitizer build it hands the learner heap copies
 *     instead, which AddressSanitizer watches, and copies them back;
 *   - counts the blocks the learner allocates and does not free, refuses a
 *     free of memory it did not allocate, fills fresh memory with
 *     LAB_POISON, and (plain build) keeps a canary after each block;
 *   - keeps what the learner prints with stdio in the shared memory;
 *   - notes the phase (in the call, after it) in the control block, and
 *     after the call exercises the heap, so that damage the call did shows
 *     while it is still the call's.
 * LAB_TODO() jumps back out of the learner's code and is replied as such. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <unistd.h>
#include <linux/capability.h>
#include "driver.h"
#include "lab.h"
#include "wire.h"

#ifdef LAB_SANITIZE
#include <sanitizer/asan_interface.h>
#endif

#ifdef LAB_SANITIZE
#define SANITIZE 1
#define CANARY 0                 /* AddressSanitizer's redzones do it */
#else
#define SANITIZE 0
#define CANARY 32                /* bytes of canary after each learner block */
#endif
#define CANARY_BYTE 0xcb
static const size_t canary_len = CANARY;

static char *shm;
static lab_control *ctl;
static long page;

static _Noreturn void die(const char *what);

/* ---- the learner's allocations -------------------------------------------------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);

typedef struct {
    char *p;                     /* what the learner got */
    size_t size;
    uint32_t seq;                /* the call that allocated it */
    int damage_told;             /* its canary damage was already replied */
} block;

static block *blocks;
static size_t n_blocks, cap_blocks;
static int64_t bad_frees, damaged_blocks, damaged_size;
static uint32_t call_seq;

static void poison(char *p, size_t n)
{
    const double v = LAB_POISON;
    size_t i = 0;
    for (; i + sizeof v <= n; i += sizeof v) memcpy(p + i, &v, sizeof v);
    memcpy(p + i, &v, n - i);
}

static int canary_ok(const block *b)
{
    for (size_t i = 0; i < canary_len; i++)
        if ((unsigned char)b->p[b->size + i] != CANARY_BYTE) return 0;
    return 1;
}

static void note_damage(block *b)
{
    if (b->damage_told || canary_ok(b)) return;
    if (damaged_blocks++ == 0) damaged_size = (int64_t)b->size;
    ctl->damaged_size = (int64_t)b->size;
    b->damage_told = 1;
}

static long find_block(const void *p)
{
    for (size_t i = n_blocks; i-- > 0; )
        if (blocks[i].p == p) return (long)i;
    return -1;
}

/* new_block - a block of size bytes for the learner, poisoned or zeroed */
static void *new_block(size_t size, int zero)
{
    if (size > (size_t)-1 / 2) return NULL;
    if (n_blocks == cap_blocks) {
        size_t cap = cap_blocks ? 2 * cap_blocks : 64;
        block *nb = __real_realloc(blocks, cap * sizeof *nb);
        if (!nb) return NULL;
        blocks = nb;
        cap_blocks = cap;
    }
    char *p = __real_malloc(size + canary_len > 0 ? size + canary_len : 1);
    if (!p) return NULL;
    if (zero) memset(p, 0, size);
    else poison(p, size);
    if (canary_len) memset(p + size, CANARY_BYTE, canary_len);
    blocks[n_blocks++] = (block){ p, size, call_seq, 0 };
    return p;
}

static void drop_block(long i)
{
    note_damage(&blocks[i]);
    __real_free(blocks[i].p);
    blocks[i] = blocks[--n_blocks];
}

void *__wrap_malloc(size_t size) { return new_block(size, 0); }

void *__wrap_calloc(size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size) return NULL;
    return new_block(n * size, 1);
}

void __wrap_free(void *p)
{
    if (!p) return;
    long i = find_block(p);
    if (i < 0) bad_frees++;      /* not the learner's: left alone */
    else drop_block(i);
}

void *__wrap_realloc(void *p, size_t size)
{
    if (!p) return new_block(size, 0);
    long i = find_block(p);
    if (i < 0) {
        bad_frees++;
        return NULL;
    }
    if (size == 0) {
        drop_block(i);
        return NULL;
    }
    size_t old = blocks[i].size;
    char *q = new_block(size, 0);            /* may move blocks[] */
    if (!q) return NULL;
    i = find_block(p);
    memcpy(q, p, old < size ? old : size);
    drop_block(i);
    return q;
}

/* ---- what the learner prints ------------------------------------------------------ */

/* print_to_shm - a stdio stream's writes, into the shared memory */
static ssize_t print_to_shm(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    uint64_t at = ctl->out_total;
    if (at < LAB_OUT_CAP)
        memcpy(shm + LAB_OUT_OFF + at, buf, size < LAB_OUT_CAP - at ? size : LAB_OUT_CAP - at);
    ctl->out_total = at + size;
    return (ssize_t)size;
}

/* print_setup - stdout and stderr write to the shared memory, unbuffered */
static void print_setup(void)
{
    cookie_io_functions_t io = { .write = print_to_shm };
    FILE *out = fopencookie(NULL, "w", io), *err = fopencookie(NULL, "w", io);
    if (!out || !err) die("fopencookie");
    setvbuf(out, NULL, _IONBF, 0);
    setvbuf(err, NULL, _IONBF, 0);
    stdout = out;
    stderr = err;
}

/* ---- LAB_TODO() --------------------------------------------------------------------- */

static sigjmp_buf todo_jmp;
static char todo_fn[64];

_Noreturn void lab_todo(const char *fn)
{
    if (ctl->phase != LAB_PHASE_CALL) _exit(3);
    snprintf(todo_fn, sizeof todo_fn, "%s", fn ? fn : "?");
    siglongjmp(todo_jmp, 1);
}

/* ---- fatal signals: note what happened for the judge, then die of it ------------------- */

static void on_fatal(int sig, siginfo_t *si, void *uc_)
{
    ctl->signal = sig;
    if (sig == SIGSYS) {
        ctl->syscall_nr = si->si_syscall;
    } else {
        ctl->fault_addr = (uint64_t)(uintptr_t)si->si_addr;
#if defined(__x86_64__)
        ucontext_t *uc = uc_;
        ctl->fault_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
        (void)uc_;
        ctl->fault_write = -1;
#endif
    }
    raise(sig);                  /* the handler was reset: delivered on return */
}

static void catch_fatal(void)
{
    static char alt[64 * 1024];  /* a stack for the handler, even after a stack overflow */
    stack_t st = { .ss_sp = alt, .ss_size = sizeof alt };
    sigaltstack(&st, NULL);
    struct sigaction sa = { .sa_sigaction = on_fatal,
                            .sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSYS, &sa, NULL);
    if (!SANITIZE) {             /* AddressSanitizer reports these itself */
        sigaction(SIGSEGV, &sa, NULL);
        sigaction(SIGBUS, &sa, NULL);
    }
}

/* ---- confinement ------------------------------------------------------------------------- */

static _Noreturn void die(const char *what)
{
    dprintf(2, "lab driver: %s: %s\n", what, strerror(errno));
    _exit(4);
}

/* drop_capabilities - a driver started as root keeps no privilege */
static void drop_capabilities(void)
{
    if (geteuid() != 0) return;
    struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct d[2];
    memset(d, 0, sizeof d);
    if (syscall(SYS_capset, &h, d) != 0) die("capset");
}

/* confine - what the learner's code may not do from here on: start a process
 * or a program, signal or trace another process, leave its process group,
 * undo its parent-death signal, open files (the sanitizer build may read
 * them: its reports read /proc/self/maps), change signal handlers (plain
 * build: the fault handler stays). A refused call stops the driver with
 * SIGSYS, and the handler notes which call it was. */
static void confine(void)
{
    drop_capabilities();
    /* memory: 1 GiB of address space for the learner's code and the
     * driver (the labs' largest cases need a few MiB), no core file; the
     * sanitizer build reserves terabytes of shadow and keeps its own limits */
    struct rlimit as = { 1ul << 30, 1ul << 30 }, core = { 0, 0 };
    if ((!SANITIZE && setrlimit(RLIMIT_AS, &as) != 0) || setrlimit(RLIMIT_CORE, &core) != 0)
        die("setrlimit");
    scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
    if (!c) die("seccomp_init");
    const int trapped[] = {
        SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(clone), SCMP_SYS(clone3),
        SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(ptrace),
        SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
        SCMP_SYS(setsid), SCMP_SYS(setpgid), SCMP_SYS(tkill),
        SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo),
        SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_send_signal), SCMP_SYS(prctl),
        SCMP_SYS(socket), SCMP_SYS(unshare), SCMP_SYS(setns),
        SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter),  /* opens files */
        SCMP_SYS(io_uring_register), SCMP_SYS(open_by_handle_at),
        SCMP_SYS(name_to_handle_at), SCMP_SYS(bpf), SCMP_SYS(userfaultfd),
        SCMP_SYS(perf_event_open), SCMP_SYS(mount), SCMP_SYS(personality),
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof trapped / sizeof trapped[0]; i++)
        bad |= seccomp_rule_add(c, SCMP_ACT_TRAP, trapped[i], 0);
    scmp_datum_t me = (scmp_datum_t)getpid();
    bad |= seccomp_rule_add(c, SCMP_ACT_TRAP, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_NE, me));
    bad |= seccomp_rule_add(c, SCMP_ACT_TRAP, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_NE, me));
    if (SANITIZE) {
        for (int mode = O_WRONLY; mode <= O_RDWR; mode++) {
            bad |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1,
                                    SCMP_A1(SCMP_CMP_MASKED_EQ, O_ACCMODE, mode));
            bad |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1,
                                    SCMP_A2(SCMP_CMP_MASKED_EQ, O_ACCMODE, mode));
        }
        bad |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(creat), 0);
        bad |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat2), 0);
    } else {
        const int refused[] = { SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(openat2),
                                SCMP_SYS(creat), SCMP_SYS(rt_sigaction) };
        for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
            bad |= seccomp_rule_add(c, SCMP_ACT_ERRNO(EPERM), refused[i], 0);
    }
    if (bad || seccomp_load(c) != 0) die("seccomp");
    seccomp_release(c);
}

/* ---- the calls ------------------------------------------------------------------------ */

static int n_entries;

static int read_full(int fd, void *buf, size_t n)
{
    for (size_t got = 0; got < n; ) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        got += (size_t)r;
    }
    return 1;
}

static void write_full(int fd, const void *buf, size_t n)
{
    for (size_t done = 0; done < n; ) {
        ssize_t w = write(fd, (const char *)buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(5);
        done += (size_t)w;
    }
}

/* request_ok - the judge's request is well formed (it always is; this keeps
 * a damaged driver from acting on garbage) */
static int request_ok(const lab_request *r)
{
    if (r->magic != LAB_MAGIC || r->fn < 0 || r->fn >= n_entries) return 0;
    if (r->n_bufs < 0 || r->n_bufs > LAB_MAX_ARGS || r->n_ints < 0 || r->n_ints > LAB_MAX_ARGS)
        return 0;
    for (int i = 0; i < r->n_bufs; i++) {
        const lab_wire_buf *b = &r->bufs[i];
        if (b->kind == LAB_BUF_NULL) continue;
        if (b->span < page || b->span % page || b->span_len <= 0 || b->span_len % page ||
            b->span + b->span_len > LAB_SHM_SIZE || b->off < b->span ||
            b->len <= 0 || b->off + b->len > b->span + b->span_len)
            return 0;
    }
    return 1;
}

/* exercise_heap - allocate and free a few sizes: damage the call did to the
 * allocator's own records shows now, while the phase says whose it is */
static void exercise_heap(void)
{
    static const size_t sizes[] = { 24, 200, 1500, 70000 };
    void *p[4];
    for (int i = 0; i < 4; i++) p[i] = __real_malloc(sizes[i]);
    for (int i = 0; i < 4; i++) __real_free(p[i]);
}

static void serve(const lab_request *r)
{
    void *arg[LAB_MAX_ARGS] = { 0 };
    long n[LAB_MAX_ARGS] = { 0 };
    for (int i = 0; i < r->n_bufs; i++) {
        const lab_wire_buf *b = &r->bufs[i];
        ctl->copy[i] = 0;
        if (b->kind == LAB_BUF_NULL) continue;
        if (mprotect(shm + b->span, (size_t)b->span_len, PROT_READ | PROT_WRITE) != 0)
            die("mprotect");
        arg[i] = shm + b->off;
#ifdef LAB_SANITIZE
        /* a heap copy between poisoned pads: AddressSanitizer stops any
         * access outside it, however far (a redzone is only a few bytes) */
        char *copy = __real_malloc((size_t)b->len + 2 * LAB_SAN_PAD);
        if (!copy) die("malloc");
        memcpy(copy + LAB_SAN_PAD, arg[i], (size_t)b->len);
        ASAN_POISON_MEMORY_REGION(copy, LAB_SAN_PAD);
        ASAN_POISON_MEMORY_REGION(copy + LAB_SAN_PAD + b->len, LAB_SAN_PAD);
        arg[i] = copy + LAB_SAN_PAD;
        ctl->copy[i] = (uint64_t)(uintptr_t)copy;
#endif
    }
    for (int i = 0; i < r->n_ints; i++) n[i] = (long)r->ints[i];

    lab_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.magic = LAB_MAGIC;
    rep.seq = r->seq;
    rep.nonce = r->nonce;
    bad_frees = damaged_blocks = damaged_size = 0;
    ctl->damaged_size = 0;
    ctl->out_total = 0;
    call_seq = r->seq;
    ctl->seq = r->seq;
    ctl->phase = LAB_PHASE_CALL;
    if (sigsetjmp(todo_jmp, 0) == 0) {
        rep.status = (int32_t)lab_entries[r->fn].call(arg, n);
        rep.kind = LAB_REPLY_RETURNED;
    } else {
        rep.kind = LAB_REPLY_TODO;
        memcpy(rep.todo_fn, todo_fn, sizeof rep.todo_fn);
    }
    ctl->phase = LAB_PHASE_AFTER;

    snprintf(rep.last_error, sizeof rep.last_error, "%s", mm_last_error());
    for (size_t i = 0; i < n_blocks; i++) {
        note_damage(&blocks[i]);
        if (blocks[i].seq == r->seq) {
            rep.leaked_blocks++;
            rep.leaked_bytes += (int64_t)blocks[i].size;
        }
    }
    rep.bad_frees = bad_frees;
    rep.damaged_blocks = damaged_blocks;
    rep.damaged_size = damaged_size;
    exercise_heap();
    for (int i = 0; i < r->n_bufs; i++) {
        const lab_wire_buf *b = &r->bufs[i];
        if (b->kind == LAB_BUF_NULL) continue;
#ifdef LAB_SANITIZE
        char *copy = (char *)arg[i] - LAB_SAN_PAD;
        memcpy(shm + b->off, arg[i], (size_t)b->len);
        ASAN_UNPOISON_MEMORY_REGION(copy, (size_t)b->len + 2 * LAB_SAN_PAD);
        __real_free(copy);
        ctl->copy[i] = 0;
#endif
        mprotect(shm + b->span, (size_t)b->span_len, PROT_NONE);
    }
    ctl->phase = LAB_PHASE_IDLE;
    write_full(LAB_FD_REP, &rep, sizeof rep);
}

int main(void)
{
    page = sysconf(_SC_PAGESIZE);
    shm = mmap(NULL, (size_t)LAB_SHM_SIZE, PROT_NONE, MAP_SHARED, LAB_FD_SHM, 0);
    if (shm == MAP_FAILED) die("mmap");
    if (mprotect(shm, LAB_BUFS_OFF, PROT_READ | PROT_WRITE) != 0) die("mprotect");
    ctl = (lab_control *)shm;
    ctl->base = (uint64_t)(uintptr_t)shm;
    ctl->sanitize = SANITIZE;
    while (lab_entries[n_entries].name && n_entries < LAB_MAX_FUNCTIONS) {
        snprintf(ctl->functions[n_entries], sizeof ctl->functions[0], "%s",
                 lab_entries[n_entries].name);
        n_entries++;
    }
    ctl->n_functions = n_entries;
    print_setup();
    catch_fatal();
    confine();

    lab_reply hello;
    memset(&hello, 0, sizeof hello);
    hello.magic = LAB_MAGIC;
    hello.kind = LAB_REPLY_HELLO;
    ctl->phase = LAB_PHASE_IDLE;
    write_full(LAB_FD_REP, &hello, sizeof hello);

    lab_request r;
    while (read_full(LAB_FD_REQ, &r, sizeof r)) {
        if (!request_ok(&r)) _exit(6);
        serve(&r);
    }
    _exit(0);
}

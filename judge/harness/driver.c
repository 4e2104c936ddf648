/* driver.c - the child process that runs the learner's code, and nothing
 * of the judge: linked with the learner's object, the lab's adapters
 * (driver.h) and the public library only (README.md says what it guards).
 * It maps the shared memory, confines itself (confine), says hello, and
 * serves calls (wire.h) until its request pipe closes or the judge kills
 * it. Around each call it opens the pages of the call's buffers (or, in
 * the sanitizer build, hands over heap copies AddressSanitizer watches),
 * follows the learner's allocations, keeps what it prints, notes the phase
 * in the control block, exercises the heap after the call (so that damage
 * shows while it is still the call's) and verifies its channel to the
 * judge. The control block and the output area are written through a
 * mapping of their own. LAB_TODO() jumps back out of the learner's code.
 * `driver --replay FILE` instead makes one call recorded by the judge
 * (wire.h) in its own process, for make lab-debug's debugger. */
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <time.h>
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

static char *shm;                /* the shared memory, where the learner's code sees it */
static char *notes;              /* its first LAB_BUFS_OFF bytes, as the driver writes them */
static lab_control *ctl;         /* = notes */
static long page;

static _Noreturn void die(const char *what);

/* ---- the learner's allocations -------------------------------------------------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
void __real_free(void *p);

typedef struct {
    char *p;                     /* what the learner got */
    size_t size;
    uint32_t seq;                /* the call that allocated it */
    int damage_told;             /* its canary damage was already replied */
} block;

static block *blocks;
static size_t n_blocks, cap_blocks;
static uint32_t call_seq;

/* the learner's freed blocks, the latest FREED_KEPT: a free of one of
 * them again is a double free, not a free of memory never allocated */
#define FREED_KEPT 4096
typedef struct { const char *p; size_t size; uint32_t alloc_seq, free_seq; } freed_block;
static freed_block freed[FREED_KEPT];
static size_t n_freed;           /* ever; the latest is freed[(n_freed - 1) % FREED_KEPT] */

/* the buffers of the call in flight, as the learner's code got them */
static char *call_arg[LAB_MAX_ARGS];
static int64_t call_len[LAB_MAX_ARGS];
static int n_call_args;

/* the reply of the call in flight: the bad frees (how many, and what the
 * first one was) and the damaged blocks are counted into it as they happen */
static lab_reply reply;

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
    if (reply.damaged_blocks++ == 0) reply.damaged_size = (int64_t)b->size;
    ctl->damaged_size = (int64_t)b->size;
    b->damage_told = 1;
}

static long find_block(const void *p)
{
    for (size_t i = n_blocks; i-- > 0; )
        if (blocks[i].p == p) return (long)i;
    return -1;
}

/* new_block - a block of size bytes for the learner, poisoned or zeroed,
 * aligned to align bytes (0: as malloc aligns); NULL past LAB_HEAP_LIMIT */
static void *new_block(size_t size, int zero, size_t align)
{
    ctl->heap_asks++;
    if (size > (size_t)LAB_HEAP_LIMIT || (int64_t)size > LAB_HEAP_LIMIT - ctl->heap_bytes) {
        ctl->heap_refused++;
        return NULL;
    }
    if (n_blocks == cap_blocks) {
        size_t cap = cap_blocks ? 2 * cap_blocks : 64;
        block *nb = __real_realloc(blocks, cap * sizeof *nb);
        if (!nb) return NULL;
        blocks = nb;
        cap_blocks = cap;
    }
    size_t total = size + canary_len > 0 ? size + canary_len : 1;
    char *p = align ? __real_aligned_alloc(align, (total + align - 1) / align * align)
                    : __real_malloc(total);
    if (!p) {
        ctl->heap_refused++;
        return NULL;
    }
    if (zero) memset(p, 0, size);
    else poison(p, size);
    if (canary_len) memset(p + size, CANARY_BYTE, canary_len);
    blocks[n_blocks++] = (block){ p, size, call_seq, 0 };
    ctl->heap_bytes += (int64_t)size;
    return p;
}

static void drop_block(long i)
{
    note_damage(&blocks[i]);
    freed[n_freed++ % FREED_KEPT] = (freed_block){ blocks[i].p, blocks[i].size,
                                                   blocks[i].seq, call_seq };
    ctl->heap_bytes -= (int64_t)blocks[i].size;
    __real_free(blocks[i].p);
    blocks[i] = blocks[--n_blocks];
}

/* bad_free - p, given to free or realloc, is not a live block of the
 * learner's: refused (left alone), counted, and the first one described */
static void bad_free(const char *p)
{
    if (reply.bad_frees++) return;
    lab_reply *r = &reply;
    r->bad_kind = LAB_FREE_OTHER;
    size_t kept = n_freed < FREED_KEPT ? n_freed : FREED_KEPT;
    for (size_t k = 1; k <= kept; k++) {
        const freed_block *f = &freed[(n_freed - k) % FREED_KEPT];
        if (f->p != p) continue;
        r->bad_kind = LAB_FREE_TWICE;
        r->bad_size = (int64_t)f->size;
        r->bad_alloc_seq = f->alloc_seq;
        r->bad_free_seq = f->free_seq;
        return;
    }
    for (size_t i = 0; i < n_blocks; i++)
        if (p > blocks[i].p && p < blocks[i].p + blocks[i].size) {
            r->bad_kind = LAB_FREE_INSIDE;
            r->bad_size = (int64_t)blocks[i].size;
            r->bad_offset = p - blocks[i].p;
            return;
        }
    for (int i = 0; i < n_call_args; i++)
        if (call_arg[i] && p >= call_arg[i] && p < call_arg[i] + call_len[i]) {
            r->bad_kind = LAB_FREE_ARG;
            r->bad_arg = i;
            r->bad_offset = p - call_arg[i];
            return;
        }
}

void *__wrap_malloc(size_t size) { return new_block(size, 0, 0); }

void *__wrap_calloc(size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size) return NULL;
    return new_block(n * size, 1, 0);
}

void __wrap_free(void *p)
{
    if (!p) return;
    long i = find_block(p);
    if (i < 0) bad_free(p);      /* not the learner's: left alone */
    else drop_block(i);
}

void *__wrap_realloc(void *p, size_t size)
{
    if (!p) return new_block(size, 0, 0);
    long i = find_block(p);
    if (i < 0) {
        bad_free(p);
        return NULL;
    }
    if (size == 0) {
        drop_block(i);
        return NULL;
    }
    size_t old = blocks[i].size;
    char *q = new_block(size, 0, 0);         /* may move blocks[] */
    if (!q) return NULL;
    i = find_block(p);
    memcpy(q, p, old < size ? old : size);
    drop_block(i);
    return q;
}

/* the C library's other ways to allocate, followed the same way */
void *__wrap_reallocarray(void *p, size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size) {
        errno = ENOMEM;
        return NULL;
    }
    return __wrap_realloc(p, n * size);
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
    if (align == 0 || (align & (align - 1))) {
        errno = EINVAL;
        return NULL;
    }
    return new_block(size, 0, align < 16 ? 16 : align);
}

int __wrap_posix_memalign(void **out, size_t align, size_t size)
{
    if (align == 0 || align % sizeof(void *) || (align & (align - 1))) return EINVAL;
    void *p = new_block(size, 0, align < 16 ? 16 : align);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

char *__wrap_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = new_block(len + 1, 0, 0);
    if (!p) return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *__wrap_strdup(const char *s) { return __wrap_strndup(s, (size_t)-1); }

/* ---- what the learner prints ------------------------------------------------------ */

/* print_to_shm - a stdio stream's writes, into the shared memory */
static ssize_t print_to_shm(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    uint64_t at = ctl->out_total;
    if (at < LAB_OUT_CAP)
        memcpy(notes + LAB_OUT_OFF + at, buf, size < LAB_OUT_CAP - at ? size : LAB_OUT_CAP - at);
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

/* ---- the sample: what the learner's code is doing near the deadline ------------------- */

static timer_t sampler;
static int have_sampler;
#define SAMPLE_SIG (SIGRTMAX - 1)

static int64_t ns_of(const struct timespec *t) { return t->tv_sec * 1000000000LL + t->tv_nsec; }

/* interrupted_state - what the code the signal interrupted was doing
 * (LAB_STATE_*, or the number of a system call about to be restarted) */
static int32_t interrupted_state(void *uc_)
{
#if defined(__x86_64__)
    const ucontext_t *uc = uc_;
    const unsigned char *ip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
    long long ax = uc->uc_mcontext.gregs[REG_RAX];
    /* a system call cut short returns -EINTR, just after its instruction
     * (0f 05); one that is restarted (SA_RESTART) has its number back in
     * rax, and the instruction pointer on the instruction again */
    if (ax == -EINTR && ip[-2] == 0x0f && ip[-1] == 0x05) return LAB_STATE_WAITING;
    if (ax >= 0 && ax < 512 && ip[0] == 0x0f && ip[1] == 0x05) return (int32_t)ax;
    return LAB_STATE_RUNNING;
#else
    (void)uc_;
    return LAB_STATE_UNKNOWN;
#endif
}

/* on_sample - the timer fired in a call: note the times and the state for
 * the judge, and hold the process (every signal blocked) until the judge
 * stops it at the deadline: the learner's code does not go on, so a system
 * call the signal cut short does not return early into it */
static void on_sample(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)si;
    if (ctl->phase != LAB_PHASE_CALL) return;
    struct timespec now, cpu;
    clock_gettime(CLOCK_MONOTONIC, &now);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    ctl->sample_ns = ns_of(&now);
    ctl->sample_cpu_ns = ns_of(&cpu);
    ctl->sample_state = interrupted_state(uc);
    ctl->sampled = LAB_SAMPLE_TAKEN;
    sigset_t all;
    sigfillset(&all);
    for (;;) sigsuspend(&all);
}

/* sampler_setup - the timer of the sample, and its handler */
static void sampler_setup(void)
{
    struct sigaction sa = { .sa_sigaction = on_sample,
                            .sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK };
    sigfillset(&sa.sa_mask);
    struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SAMPLE_SIG };
    have_sampler = sigaction(SAMPLE_SIG, &sa, NULL) == 0 &&
                   timer_create(CLOCK_MONOTONIC, &ev, &sampler) == 0;
}

/* sampler_arm - the timer, for the call in flight: LAB_SAMPLE_EARLY before
 * its deadline (a quarter of it before, for a short one); 0 disarms it */
static void sampler_arm(int64_t timeout_ns)
{
    if (!have_sampler) return;
    int64_t early = timeout_ns / 4 < LAB_SAMPLE_EARLY ? timeout_ns / 4 : LAB_SAMPLE_EARLY;
    int64_t at = timeout_ns > 0 ? timeout_ns - early : 0;
    struct itimerspec t = { { 0, 0 }, { at / 1000000000, at % 1000000000 } };
    if (timer_settime(sampler, 0, &t, NULL) == 0 && at > 0) ctl->sampled = LAB_SAMPLE_ARMED;
    else ctl->sampled = LAB_SAMPLE_NONE;
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
#define TRAPPED(name, what) SCMP_SYS(name),
    const int trapped[] = { LAB_CONFINED(TRAPPED) };     /* io_uring opens files */
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

/* channel_lost - a descriptor of the channel to the judge is gone: the
 * learner's code closed it (or put something else in its place). Noted
 * for the judge, and the driver ends: it can no longer answer. */
static _Noreturn void channel_lost(int fd)
{
    ctl->channel_lost = fd;
    _exit(LAB_EXIT_CHANNEL);
}

/* read_full - 1 with n bytes read, 0 at the end of the requests (the judge
 * is done) */
static int read_full(int fd, void *buf, size_t n)
{
    for (size_t got = 0; got < n; ) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) channel_lost(fd);
        if (r == 0) return 0;
        got += (size_t)r;
    }
    return 1;
}

static void write_full(int fd, const void *buf, size_t n)
{
    for (size_t done = 0; done < n; ) {
        ssize_t w = write(fd, (const char *)buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno != EPIPE) channel_lost(fd);
        if (w <= 0) _exit(0);    /* the judge is gone */
        done += (size_t)w;
    }
}

/* the channel's descriptors as they were at the start */
static struct stat channel[2];

static void channel_note(void)
{
    if (fstat(LAB_FD_REQ, &channel[0]) != 0 || fstat(LAB_FD_REP, &channel[1]) != 0)
        die("fstat");
}

/* channel_check - after a call: the channel's descriptors are still the
 * pipes to the judge */
static void channel_check(void)
{
    const int fds[2] = { LAB_FD_REQ, LAB_FD_REP };
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (fstat(fds[i], &st) != 0 || st.st_dev != channel[i].st_dev ||
            st.st_ino != channel[i].st_ino)
            channel_lost(fds[i]);
    }
}

/* request_ok - the judge's request is well formed (it always is; this keeps
 * a damaged driver from acting on garbage) */
static int request_ok(const lab_request *r)
{
    if (r->magic != LAB_MAGIC || r->fn < 0 || r->fn >= n_entries || r->timeout_ns < 0) return 0;
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

/* open_buffers - the call's buffers, as the learner's code gets them in arg */
static void open_buffers(const lab_request *r, void *arg[])
{
    n_call_args = r->n_bufs;
    for (int i = 0; i < r->n_bufs; i++) {
        const lab_wire_buf *b = &r->bufs[i];
        ctl->copy[i] = 0;
        arg[i] = NULL;
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
        call_arg[i] = arg[i];
        call_len[i] = b->len;
    }
}

/* close_buffers - after the call: the copies back (sanitizer build), the
 * pages closed again */
static void close_buffers(const lab_request *r, void *arg[])
{
    for (int i = 0; i < r->n_bufs; i++) {
        const lab_wire_buf *b = &r->bufs[i];
        call_arg[i] = NULL;
        if (b->kind == LAB_BUF_NULL) continue;
#ifdef LAB_SANITIZE
        char *copy = (char *)arg[i] - LAB_SAN_PAD;
        memcpy(shm + b->off, arg[i], (size_t)b->len);
        ASAN_UNPOISON_MEMORY_REGION(copy, (size_t)b->len + 2 * LAB_SAN_PAD);
        __real_free(copy);
        ctl->copy[i] = 0;
#else
        (void)arg;
#endif
        mprotect(shm + b->span, (size_t)b->span_len, PROT_NONE);
    }
    n_call_args = 0;
}

/* call_begins - a fresh reply, the phase, the times the sample measures
 * from, the timer */
static void call_begins(const lab_request *r)
{
    struct timespec now, cpu;
    clock_gettime(CLOCK_MONOTONIC, &now);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    memset(&reply, 0, sizeof reply);
    reply.magic = LAB_MAGIC;
    reply.seq = r->seq;
    reply.nonce = r->nonce;
    ctl->damaged_size = 0;
    ctl->out_total = 0;
    ctl->heap_asks = ctl->heap_refused = 0;
    ctl->call_ns = ns_of(&now);
    ctl->call_cpu_ns = ns_of(&cpu);
    call_seq = r->seq;
    ctl->seq = r->seq;
    ctl->phase = LAB_PHASE_CALL;
    sampler_arm(r->timeout_ns);
}

static void serve(const lab_request *r)
{
    void *arg[LAB_MAX_ARGS] = { 0 };
    long n[LAB_MAX_ARGS] = { 0 };
    open_buffers(r, arg);
    for (int i = 0; i < r->n_ints; i++) n[i] = (long)r->ints[i];
    call_begins(r);
    if (sigsetjmp(todo_jmp, 0) == 0) {
        reply.status = (int32_t)lab_entries[r->fn].call(arg, n);
        reply.kind = LAB_REPLY_RETURNED;
    } else {
        reply.kind = LAB_REPLY_TODO;
        memcpy(reply.todo_fn, todo_fn, sizeof reply.todo_fn);
    }
    ctl->phase = LAB_PHASE_AFTER;
    sampler_arm(0);
    channel_check();
    snprintf(reply.last_error, sizeof reply.last_error, "%s", mm_last_error());
    for (size_t i = 0; i < n_blocks; i++) {
        note_damage(&blocks[i]);
        if (blocks[i].seq == r->seq) {
            reply.leaked_blocks++;
            reply.leaked_bytes += (int64_t)blocks[i].size;
        }
    }
    exercise_heap();
    close_buffers(r, arg);
    ctl->phase = LAB_PHASE_IDLE;
    write_full(LAB_FD_REP, &reply, sizeof reply);
}

/* ---- --replay FILE: one recorded call, in the learner's own process ------------------------ */

/* replay_shape_ok - buffer i of rec holds what its shape and form say */
static int replay_shape_ok(lab_recorded *rec, int i)
{
    const int64_t len = rec->req.bufs[i].len;
    const int64_t n = (int64_t)rec->rows[i] * rec->cols[i];
    rec->names[i][sizeof rec->names[i] - 1] = '\0';
    if (rec->rows[i] <= 0 || rec->cols[i] <= 0) return 0;
    if (rec->form[i] == LAB_FORM_LONG) return len == (int64_t)sizeof(long);
    if (rec->form[i] == LAB_FORM_BYTES) return len == n;
    return rec->form[i] == LAB_FORM_DOUBLES && len == n * (int64_t)sizeof(double);
}

/* replay_load - the call recorded in path (wire.h) into rec, and its
 * buffers' pages into their places in shm; NULL, or what is wrong */
static const char *replay_load(const char *path, lab_recorded *rec)
{
    FILE *f = fopen(path, "rb");
    if (!f) return strerror(errno);
    int ok = fread(rec, sizeof *rec, 1, f) == 1 && rec->magic == LAB_RECORD_MAGIC &&
             rec->size == sizeof *rec && request_ok(&rec->req) &&
             strncmp(lab_entries[rec->req.fn].name, rec->function, sizeof rec->function) == 0;
    for (int i = 0; ok && i < rec->req.n_bufs; i++) {
        const lab_wire_buf *b = &rec->req.bufs[i];
        if (b->kind == LAB_BUF_NULL) continue;
        ok = replay_shape_ok(rec, i) &&
             mprotect(shm + b->span, (size_t)b->span_len, PROT_READ | PROT_WRITE) == 0 &&
             fread(shm + b->span, 1, (size_t)b->span_len, f) == (size_t)b->span_len;
    }
    fclose(f);
    return ok ? NULL : "not a call recorded for this lab (make lab-debug records one)";
}

/* replay_show - output i of the recorded call, after it: a count's value,
 * or a matrix's first rows and columns */
static void replay_show(const lab_recorded *rec, int i, const void *p)
{
    const int rows = rec->rows[i], cols = rec->cols[i];
    if (rec->form[i] == LAB_FORM_LONG) {
        long v;
        memcpy(&v, p, sizeof v);
        printf("  %s = %ld\n", rec->names[i], v);
        return;
    }
    if (rec->form[i] != LAB_FORM_DOUBLES) return;
    printf("  %s (%d, %d):\n", rec->names[i], rows, cols);
    for (int r = 0; r < rows && r < 6; r++) {
        printf("   ");
        for (int c = 0; c < cols && c < 8; c++)
            printf(" %11.5g", ((const double *)p)[(size_t)r * cols + c]);
        printf("%s\n", cols > 8 ? " ..." : "");
    }
    if (rows > 6) printf("    ...\n");
}

/* replay_report - the call as made, what it returned, and its outputs */
static void replay_report(const lab_recorded *rec, void *const arg[], mm_status st, int es)
{
    const lab_request *r = &rec->req;
    printf("%s(", rec->function);
    for (int i = 0; i < r->n_bufs + r->n_ints; i++) {
        const char *sep = i ? ", " : "";
        if (i >= r->n_bufs) printf("%s%lld", sep, (long long)r->ints[i - r->n_bufs]);
        else printf("%s%s", sep, r->bufs[i].kind == LAB_BUF_NULL ? "NULL" : rec->names[i]);
    }
    printf(es ? ") devolvió %s\n" : ") returned %s\n", mm_status_name(st));
    if (st != MM_OK) printf("  mm_last_error(): %s\n", mm_last_error());
    for (int i = 0; i < r->n_bufs; i++)
        if (r->bufs[i].kind == LAB_BUF_OUT) replay_show(rec, i, arg[i]);
}

/* replay - --replay path: the recorded call made once, in this process
 * (no judge, no sandbox, no confinement: what a debugger needs), and what
 * it returned printed; 0 when it returned, 3 at LAB_TODO(), 2 on a file
 * that is not a recorded call */
static int replay(const char *path)
{
    int es = getenv("LAB_LANG") && strcmp(getenv("LAB_LANG"), "es") == 0;
    page = sysconf(_SC_PAGESIZE);
    while (lab_entries[n_entries].name) n_entries++;
    shm = mmap(NULL, (size_t)LAB_SHM_SIZE, PROT_NONE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    notes = mmap(NULL, LAB_BUFS_OFF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (shm == MAP_FAILED || notes == MAP_FAILED) die("mmap");
    ctl = (lab_control *)notes;
    static lab_recorded rec;
    const char *bad = replay_load(path, &rec);
    if (bad) {
        fprintf(stderr, "lab driver: --replay %s: %s\n", path, bad);
        return 2;
    }
    void *arg[LAB_MAX_ARGS] = { 0 };
    long n[LAB_MAX_ARGS] = { 0 };
    open_buffers(&rec.req, arg);
    for (int i = 0; i < rec.req.n_ints; i++) n[i] = (long)rec.req.ints[i];
    call_begins(&rec.req);
    if (sigsetjmp(todo_jmp, 0) != 0) {
        printf(es ? "%s: llegó a LAB_TODO(): sin empezar\n"
                  : "%s: reached LAB_TODO(): not started\n", todo_fn);
        return 3;
    }
    mm_status st = lab_entries[rec.req.fn].call(arg, n);
    ctl->phase = LAB_PHASE_IDLE;
    replay_report(&rec, arg, st, es);
    return 0;
}

/* map_shared - the shared memory where the learner's code sees it (all
 * PROT_NONE until a call opens its buffers), and its first LAB_BUFS_OFF
 * bytes (the control block, the output area) again, for the driver, with
 * PROT_NONE pages around them so that no stray access reaches them */
static void map_shared(void)
{
    shm = mmap(NULL, (size_t)LAB_SHM_SIZE, PROT_NONE, MAP_SHARED, LAB_FD_SHM, 0);
    if (shm == MAP_FAILED) die("mmap");
    const size_t gap = LAB_GUARD_PAGES * (size_t)page;
    char *room = mmap(NULL, LAB_BUFS_OFF + 2 * gap, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (room == MAP_FAILED) die("mmap");
    notes = mmap(room + gap, LAB_BUFS_OFF, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                 LAB_FD_SHM, 0);
    if (notes == MAP_FAILED) die("mmap");
    ctl = (lab_control *)notes;
    ctl->base = (uint64_t)(uintptr_t)shm;
}

int main(int argc, char *argv[])
{
    if (argc == 3 && strcmp(argv[1], "--replay") == 0) return replay(argv[2]);
    page = sysconf(_SC_PAGESIZE);
    map_shared();
    ctl->sanitize = SANITIZE;
    while (lab_entries[n_entries].name) n_entries++;
    channel_note();
    print_setup();
    catch_fatal();
    sampler_setup();
    confine();

    static const lab_reply hello = { .magic = LAB_MAGIC, .kind = LAB_REPLY_HELLO };
    ctl->phase = LAB_PHASE_IDLE;
    write_full(LAB_FD_REP, &hello, sizeof hello);

    lab_request r;
    while (read_full(LAB_FD_REQ, &r, sizeof r)) {
        if (!request_ok(&r)) _exit(6);
        serve(&r);
    }
    _exit(0);
}

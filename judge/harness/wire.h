/* wire.h - what the judge and the driver say to each other (README.md).
 * The driver gets requests on LAB_FD_REQ, writes replies on LAB_FD_REP,
 * finds a call's buffers in shared memory (LAB_FD_SHM), and its stdout and
 * stderr are one pipe the judge reads as the learner's output. One call:
 * the judge lays the buffers out (each ending at a page boundary, protected
 * pages between them) and writes a lab_request; the driver opens the
 * buffers' pages, calls the learner's function and writes a lab_reply,
 * trusted only about the learner's own call (the judge reads the outputs
 * itself). The control block, the first page, says what the driver was
 * doing when it died. */
#ifndef LAB_WIRE_H
#define LAB_WIRE_H

#include <stdint.h>

enum { LAB_FD_REQ = 3, LAB_FD_REP = 4, LAB_FD_SHM = 5 };

#define LAB_SHM_SIZE   ((int64_t)64 << 20)   /* bytes of shared memory (sparse) */
#define LAB_GUARD_PAGES 16                   /* protected pages around each buffer */
#define LAB_MAX_ARGS   8                     /* buffers, and integers, per call */
#define LAB_MAGIC      0x4c616230u           /* "Lab0" */
#define LAB_SAN_PAD    4096                  /* sanitizer build: see lab_control.copy */
#define LAB_SAMPLE_EARLY ((int64_t)150000000) /* ns before the deadline the sample is taken */
#define LAB_HEAP_LIMIT ((int64_t)1 << 30)    /* bytes the learner's live blocks may hold */
#define LAB_EXIT_CHANNEL 5                   /* the driver's status: its channel was closed */

/* LAB_CONFINED(X) - the system calls the driver refuses the learner's code
 * (besides kill and tgkill aimed at another process), as X(name, what):
 * what they would do, as the judge says it (call.c's syscall_text) */
#define LAB_CONFINED(X) X(fork, 0) X(vfork, 0) X(clone, 0) X(clone3, 0) X(execve, 1)      \
    X(execveat, 1) X(ptrace, 3) X(process_vm_readv, 3) X(process_vm_writev, 3)            \
    X(setsid, 4) X(setpgid, 4) X(tkill, 2) X(rt_sigqueueinfo, 2) X(rt_tgsigqueueinfo, 2)  \
    X(pidfd_open, 2) X(pidfd_send_signal, 2) X(prctl, 4) X(socket, 5) X(unshare, 4)       \
    X(setns, 4) X(io_uring_setup, 6) X(io_uring_enter, 6) X(io_uring_register, 6)         \
    X(open_by_handle_at, 6) X(name_to_handle_at, 6) X(bpf, 4) X(userfaultfd, 4)           \
    X(perf_event_open, 3) X(mount, 4) X(personality, 4)

/* what the learner's code prints with stdio during a call goes to shared
 * memory (no system call, and it survives a crash): the first LAB_OUT_CAP
 * bytes, at LAB_OUT_OFF (out_total counts them all); raw writes to
 * descriptors 1 and 2 (glibc's fatal messages, a sanitizer's report) go to
 * the pipe. The buffers of a call start after it. */
#define LAB_OUT_OFF    4096
#define LAB_OUT_CAP    (15 * 4096)
#define LAB_BUFS_OFF   (LAB_OUT_OFF + LAB_OUT_CAP)

/* fresh memory from the learner's malloc holds this in every aligned double
 * (finite: it survives arithmetic visibly) */
#define LAB_POISON (-8765432.5)

/* what a buffer is to the learner's function */
enum { LAB_BUF_NULL, LAB_BUF_IN, LAB_BUF_OUT };

/* lab_wire_buf - one buffer argument of a call */
typedef struct {
    int64_t off, len;               /* data at shm + off, len bytes */
    int64_t span, span_len;         /* the pages that hold it (page-aligned) */
    int32_t kind;                   /* LAB_BUF_* */
    int32_t pad;
} lab_wire_buf;

typedef struct {
    uint32_t magic, seq;
    uint64_t nonce;                 /* echoed in the reply */
    int32_t fn;                     /* index in the driver's table */
    int32_t n_bufs, n_ints;
    int32_t pad;
    int64_t timeout_ns;             /* the call's deadline, counted from the request */
    int64_t ints[LAB_MAX_ARGS];
    lab_wire_buf bufs[LAB_MAX_ARGS];
} lab_request;

/* how a call ended, as the driver saw it */
enum { LAB_REPLY_HELLO = 1, LAB_REPLY_RETURNED, LAB_REPLY_TODO };

typedef struct {
    uint32_t magic, seq;
    uint64_t nonce;
    int32_t kind;                   /* LAB_REPLY_* */
    int32_t status;                 /* the learner's mm_status */
    int64_t leaked_blocks, leaked_bytes;   /* allocated in the call, not freed */
    int64_t bad_frees;              /* free/realloc of memory it did not allocate */
    /* the first: what the pointer was (LAB_FREE_*); TWICE: the block's size,
     * the calls that allocated and freed it; INSIDE: size and offset; ARG:
     * the buffer's index */
    int32_t bad_kind, bad_arg;
    int64_t bad_size, bad_offset;
    uint32_t bad_alloc_seq, bad_free_seq;
    int64_t damaged_blocks;         /* its own blocks written past (plain build) */
    int64_t damaged_size;           /* the size of the first of them */
    char todo_fn[64];               /* LAB_TODO(): the function that called it */
    char last_error[512];           /* mm_last_error() after the call */
} lab_reply;

/* lab_reply.bad_kind: what a pointer freed was, if not a live learner block */
enum { LAB_FREE_OTHER, LAB_FREE_TWICE, LAB_FREE_INSIDE, LAB_FREE_ARG };

/* what the driver is doing (lab_control.phase) */
enum { LAB_PHASE_START, LAB_PHASE_IDLE, LAB_PHASE_CALL, LAB_PHASE_AFTER };

/* lab_control.sampled: no timer (none could be made), one armed for the
 * call in flight, or its sample taken */
enum { LAB_SAMPLE_NONE, LAB_SAMPLE_ARMED, LAB_SAMPLE_TAKEN };
/* lab_control.sample_state: computing, waiting in a system call the sample
 * cut short (which one unknown), unknown; or a restarted system call's number */
enum { LAB_STATE_RUNNING = -1, LAB_STATE_WAITING = -2, LAB_STATE_UNKNOWN = -3 };

/* The control block. The driver writes it through a mapping of its own;
 * where the learner's code sees the shared memory (base) the first
 * LAB_BUFS_OFF bytes are PROT_NONE. After each call the judge verifies the
 * fields fixed at the start and those of an idle driver. */
typedef struct {
    volatile int32_t phase;         /* LAB_PHASE_* */
    volatile uint32_t seq;          /* of the call in phase CALL or AFTER */
    volatile int32_t signal;        /* a fatal signal the driver caught, or 0 */
    volatile int32_t fault_write;   /* 1 write, 0 read, -1 unknown */
    volatile uint64_t fault_addr;   /* SIGSEGV, SIGBUS: the address */
    volatile int32_t syscall_nr;    /* SIGSYS: the refused system call */
    volatile int32_t sanitize;      /* the driver is built with the sanitizers */
    volatile uint64_t base;         /* where the learner's code sees the shared memory */
    /* sanitizer build: the heap copies of the buffers of the call in flight,
     * each LAB_SAN_PAD poisoned bytes, the data, LAB_SAN_PAD poisoned bytes */
    volatile uint64_t copy[LAB_MAX_ARGS];
    volatile int64_t damaged_size;  /* a learner block found written past, or 0 */
    volatile uint64_t out_total;    /* bytes printed with stdio in this call */
    /* LAB_FD_REQ or LAB_FD_REP found closed or replaced by the learner's
     * code (the driver then exits LAB_EXIT_CHANNEL), or 0 */
    volatile int32_t channel_lost;
    /* what the learner's code was doing near the deadline: a timer armed
     * for each call (timeout_ns less LAB_SAMPLE_EARLY at most) notes the
     * times and the state, then holds the process until the judge stops it */
    volatile int32_t sampled;       /* LAB_SAMPLE_* */
    volatile int32_t sample_state;  /* LAB_STATE_* or a system call's number */
    volatile int64_t sample_ns, sample_cpu_ns;   /* CLOCK_MONOTONIC, CPU time then */
    volatile int64_t call_ns, call_cpu_ns;       /* the same, when the call began */
    /* the learner's live bytes; this call's blocks asked for, and refused */
    volatile int64_t heap_bytes, heap_asks, heap_refused;
} lab_control;

_Static_assert(sizeof(lab_control) <= LAB_OUT_OFF, "the control block fits its page");

/* A recorded call (LAB_RECORD=DIR, which make lab-debug sets): the judge
 * writes DIR/call.rec for the first call of a run after which a check
 * failed, and the driver's --replay makes that call again. The file holds
 * a lab_recorded, then the pages of each buffer of the request that is not
 * NULL (bufs[i].span_len bytes each, in order) as the call found them; and
 * DIR/call.txt, three lines: the function, the check, the case. */
#define LAB_RECORD_MAGIC 0x4c616252u         /* "LabR" */
/* lab_recorded.form: what a buffer's elements are */
enum { LAB_FORM_DOUBLES, LAB_FORM_LONG, LAB_FORM_BYTES };

typedef struct {
    uint32_t magic, size;           /* LAB_RECORD_MAGIC, sizeof (lab_recorded) */
    char function[64];              /* as lab_entries names it */
    char names[LAB_MAX_ARGS][32];   /* each buffer's name, as the function calls it */
    int32_t rows[LAB_MAX_ARGS], cols[LAB_MAX_ARGS], form[LAB_MAX_ARGS];
    lab_request req;                /* as the driver got it */
} lab_recorded;

#endif

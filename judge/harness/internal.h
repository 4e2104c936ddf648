/* internal.h - what the judge's own files share, and a check's code does
 * not see (harness.h is the check's view). They are layered, each using
 * only those before it:
 *   lang.c     the report's language
 *   child.c    the learner's process: start (sandbox, early filter), exchange, stop
 *   running.c  the running check: its record, its process, its memory, its end
 *   verdict.c  failures, hints, refused calls left as they were, comparisons,
 *              lab_check_values
 *   buffers.c  a check's buffers, laid out for a call and read back
 *   cases.c    what cases are made of
 *   record.c   a failing call kept for make lab-debug (LAB_RECORD=DIR)
 *   call.c     one learner call, and what one that did not return is said as
 *   runner.c   main: the checks in order, the re-runs, the report, --summary */
#ifndef LAB_INTERNAL_H
#define LAB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "harness.h"
#include "wire.h"

/* ---- lang.c -------------------------------------------------------------------- */
/* lab_lang_setup - take --lang=en|es (--lang=: as the locale says) out of argv
 * and decide the language; false on a --lang value it does not know */
bool lab_lang_setup(int *argc, char *argv[]);

/* ---- child.c: the learner's process -------------------------------------------- */
typedef struct {
    pid_t pid;                   /* also its process group */
    int req, rep, out;           /* the judge's ends of its pipes */
    char *shm;                   /* the shared memory, as the judge maps it */
    lab_control *ctl;            /* its first page */
    int calls;                   /* calls it has served */
    char history[512];           /* those calls, as messages show them */
    bool started_known;          /* started holds the control block before the first call */
    lab_control started;         /* (call.c: the fields fixed at the start are verified) */
} lab_child;

/* how one exchange with the child ended */
typedef enum {
    END_REPLY,                   /* a reply came (RETURNED or TODO) */
    END_DIED,                    /* the process ended (status in wstatus) */
    END_HUNG,                    /* the deadline passed; the harness killed it */
    END_BROKEN                   /* it answered nonsense or closed its channel */
} lab_end;

typedef struct {
    lab_end end;
    lab_reply rep;
    int wstatus;
    lab_control ctl;             /* the control block when it ended */
    char out[8192];              /* what it printed during the call (the start of it): */
    size_t out_len, out_total;
    size_t printed;              /* out[0, printed) came through stdio, the rest raw */
} lab_exchange;

lab_child *child_start(const char *path, lab_exchange *x);   /* NULL, x says why */
/* child_exchange - send req and wait (timeout seconds) for the reply */
void child_exchange(lab_child *c, const lab_request *req, double timeout, lab_exchange *x);
void child_stop(lab_child *c);    /* kill its process group, reap it, free c */
/* child_setup - once: become the reaper of what the children leave, make
 * the judge's memory unreadable to them */
void child_setup(void);
/* child_sandbox_note - NULL if the drivers run in the sandbox, else why not */
const char *child_sandbox_note(void);
void child_sweep(void);           /* kill and reap any process left under the judge */

/* ---- running.c: the running check, the state every file above shares ---------------- */
typedef enum { MSG_FAIL, MSG_CRASH, MSG_HANG, MSG_HINT, MSG_DETAIL } lab_msg_kind;
enum { OUTCOME_PASSED, OUTCOME_PENDING, OUTCOME_FAILED };

typedef struct {
    lab_msg_kind kind;
    char *text;
} lab_said;

/* lab_record - one check of the run, and what the report says of it */
typedef struct {
    const lab_check *check;
    bool ran;
    int outcome;               /* OUTCOME_* */
    char case_text[256];
    char todo_fn[64];          /* the LAB_TODO() that made it pending */
    lab_said *msgs;
    int n_msgs;
    char *output;              /* what the learner's code printed, the start of it */
    size_t output_len, output_total;
} lab_record;

/* lab_run - the run's settings (runner.c's options) and the running check */
typedef struct {
    const char *driver;        /* the learner's driver */
    double timeout;            /* seconds a call may take */
    uint64_t seed;             /* of the random cases */
    lab_record *check;         /* the running check */
    bool quiet;                /* a quiet re-run: its messages are not kept */
    bool failed, hung;         /* what this run of the check has said so far */
    lab_child *child;          /* the learner's process the check calls (started when needed) */
    char start_failure[2400];  /* why the learner's process could not start, if it could not */
    bool *returned;            /* per function (lab_function_index): a call of it returned */
    int n_buffers;             /* the buffers the check made so far */
    const char *lost_hint;     /* lab_hint_if_lost's, for the next lab_call */
} lab_run;
extern lab_run lab_now;

/* lab_run_check - run c as lab_now.check until it returns or lab_end_check;
 * its outcome (its temporaries freed) */
int lab_run_check(const lab_check *c);
_Noreturn void lab_end_check(int outcome);   /* end it here: pending or failed */
/* lab_message - add a message to the running check (not in a quiet re-run) */
void lab_message(lab_msg_kind kind, const char *text);
void lab_insert_message(lab_record *r, int at, lab_msg_kind kind, const char *text);
void lab_prefix(char *buf, size_t size);     /* "qkv_split, case '...': " */
void lab_output(const lab_exchange *x);      /* what the learner printed in a call */
/* lab_child_now - the running check's learner process, started if needed
 * (a failure to start ends the check); lab_child_lost - it was stopped */
lab_child *lab_child_now(void);
void lab_child_lost(void);
double lab_timeout(void);                    /* seconds a call may take */
/* lab_function_index - name's index in lab_functions (their count if absent) */
int lab_function_index(const char *name);
/* lab_note_call - a call of fn returned (todo_fn NULL) or reached LAB_TODO()
 * in the learner's todo_fn */
void lab_note_call(const char *fn, const char *todo_fn);
void lab_set_learner_error(const char *text);   /* mm_last_error() of the last call */

/* ---- buffers.c ---------------------------------------------------------------------- */
/* lay_out - place the call's buffers in c's shared memory (req->bufs) */
void lay_out(lab_child *c, lab_request *req, lab_mat *const bufs[], int n_bufs);
/* take_back - after a returned call: read the outputs, report (unless
 * quiet) writes next to a buffer and changed inputs; true if none */
bool take_back(lab_child *c, const lab_request *req, lab_mat *const bufs[], int n_bufs,
               bool quiet);
/* lab_element_at - m's element holding byte bytes of its data (< 0: before) */
long lab_element_at(const lab_mat *m, int64_t bytes);
/* buffer_at - the buffer of req whose data or guard holds shm offset off,
 * and the element there (negative before the start); NULL if none */
lab_mat *buffer_at(const lab_request *req, lab_mat *const bufs[], int n_bufs,
                   int64_t off, long *element);
/* outside_text - "past the end of v (element 10; v is (5, 2), elements 0 to 9)" */
void outside_text(char *buf, size_t size, const lab_mat *m, long element);

/* ---- record.c ----------------------------------------------------------------------- */
/* lab_record_keep - before call req of fn (laid out in c's shared memory),
 * with LAB_RECORD set: the call kept before it written if a failure was
 * said after it, then this one kept (unless quiet: a probe or a re-run) */
void lab_record_keep(const lab_child *c, const char *fn, const lab_request *req,
                     lab_mat *const bufs[], bool quiet);
/* lab_record_if_failed - the kept call written, if a failure was said after it */
void lab_record_if_failed(void);

#endif

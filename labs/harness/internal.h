/* internal.h - what the harness's own files share, and a check's code does
 * not see (harness.h is the check's view). */
#ifndef LAB_INTERNAL_H
#define LAB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <criterion/criterion.h>
#include "harness.h"

/* ---- lang.c -------------------------------------------------------------------- */
/* lab_lang_setup - take --lang=en|es (or --lang=, "as the locale says") out
 * of argv, decide the language, and pass it on to the worker processes
 * through the environment; false on a --lang value it does not know */
bool lab_lang_setup(int *argc, char *argv[]);

/* ---- buffers.c: the learner's allocations and the guarded matrices ------------- */
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void __real_free(void *p);

/* lab_alloc_watch - from now on, count the learner's allocations and frees */
void lab_alloc_watch(void);
/* lab_alloc_stop - stop counting (the counts stay for lab_alloc_report) */
void lab_alloc_stop(void);
/* lab_alloc_report - fail on the leaks and bad frees of callee's call; free
 * the leaked blocks; true if there were none */
bool lab_alloc_report(const char *callee);
/* lab_alloc_forget - free the blocks of a call that will not be judged */
void lab_alloc_forget(void);
/* lab_mats_report - fail on any write outside a lab_mat and any change to an
 * input since the last look; repair them; true if there were none */
bool lab_mats_report(void);

/* ---- journal.c: the call in flight, as the runner reads it ------------------- */
/* lab_journal_dir - where the notes go (set by the runner for its workers) */
#define LAB_NOTE_ENV "LAB_NOTE_DIR"
/* lab_case_text - the case of the running check (lab_case), for messages */
const char *lab_case_text(void);
/* lab_died_text - the message of check t, which crashed or hung (what):
 * the function, the case and the call in flight, from its note; the note
 * is removed */
void lab_died_text(char *buf, size_t size, const struct criterion_test *t,
                   const char *what);
/* lab_signal_text - what a signal usually means, for a crash message */
const char *lab_signal_text(int sig);
/* lab_journal_forget - remove the note of check t (it ended normally) */
void lab_journal_forget(const struct criterion_test *t);

/* ---- verdict.c ------------------------------------------------------------------ */
#define LAB_MSG_SEP '\x1e'          /* between the messages of one check */

#endif

/* record.c - with LAB_RECORD=DIR (make lab-debug), the first call after
 * which a check failed, written into DIR for the driver's --replay: call.rec
 * (its request and its buffers' pages, wire.h's lab_recorded) and call.txt
 * (function, check, case). Without LAB_RECORD nothing is kept. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* The last call of the running check (not a quiet one), kept until it is
 * known whether a failure was said after it: then it is written, once a run */
static struct {
    const char *dir;           /* LAB_RECORD, or NULL: no record */
    bool done;                 /* written (or tried) */
    const lab_record *check;   /* the check that made the kept call, or NULL */
    lab_recorded head;
    char *pages;               /* its buffers' pages, one after the other */
    size_t size;
} kept;

/* record_write - the kept call into kept.dir: call.rec and call.txt; a
 * file that cannot be written is said on stderr */
static void record_write(void)
{
    const char *name[2] = { "call.rec", "call.txt" };
    const lab_check *c = kept.check->check;
    kept.done = true;
    for (int i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", kept.dir, name[i]);
        FILE *f = fopen(path, "we");
        bool ok = f != NULL;
        if (ok && i == 0)
            ok = fwrite(&kept.head, sizeof kept.head, 1, f) == 1 &&
                 fwrite(kept.pages, 1, kept.size, f) == kept.size;
        if (ok && i == 1)
            ok = fprintf(f, "%s\n%s/%s\n%s\n", kept.head.function, c->function, c->name,
                         kept.check->case_text) > 0;
        if (f && fclose(f) != 0) ok = false;
        if (!ok) fprintf(stderr, "lab harness: LAB_RECORD=%s: cannot write %s: %s\n",
                         kept.dir, path, strerror(errno));
    }
}

/* lab_record_if_failed - the kept call, written if a failure was said after it:
 * its check failed, or is running and has failed (not in a quiet re-run) */
void lab_record_if_failed(void)
{
    if (!kept.check || kept.done) return;
    bool now = kept.check == lab_now.check && lab_now.failed && !lab_now.quiet;
    if (now || (kept.check->ran && kept.check->outcome == OUTCOME_FAILED)) record_write();
}

static void record_at_exit(void) { lab_record_if_failed(); }

/* lab_record_keep - before a call: the call kept, written if a failure was
 * said after it; then this call kept in its place (unless quiet: a probe,
 * or a quiet re-run), its request and its buffers' pages as c's shared
 * memory holds them */
void lab_record_keep(const lab_child *c, const char *fn, const lab_request *req,
                     lab_mat *const bufs[], bool quiet)
{
    static bool looked;
    if (!looked) {
        looked = true;
        kept.dir = getenv("LAB_RECORD");
        if (kept.dir && !kept.dir[0]) kept.dir = NULL;
        if (kept.dir) atexit(record_at_exit);
    }
    lab_record_if_failed();
    if (!kept.dir || kept.done || quiet || lab_now.quiet) return;
    lab_recorded *h = &kept.head;
    memset(h, 0, sizeof *h);
    h->magic = LAB_RECORD_MAGIC;
    h->size = sizeof *h;
    snprintf(h->function, sizeof h->function, "%s", fn);
    h->req = *req;
    size_t size = 0;
    for (int i = 0; i < req->n_bufs; i++)
        if (bufs[i]) {
            snprintf(h->names[i], sizeof h->names[i], "%s", bufs[i]->name);
            h->rows[i] = bufs[i]->rows;
            h->cols[i] = bufs[i]->cols;
            h->form[i] = bufs[i]->is_long ? LAB_FORM_LONG
                       : bufs[i]->is_bytes ? LAB_FORM_BYTES : LAB_FORM_DOUBLES;
            size += (size_t)req->bufs[i].span_len;
        }
    char *pages = realloc(kept.pages, size ? size : 1);
    if (!pages) lab_bug("out of memory");
    kept.pages = pages;
    kept.size = 0;
    for (int i = 0; i < req->n_bufs; i++)
        if (bufs[i]) {
            memcpy(pages + kept.size, c->shm + req->bufs[i].span, (size_t)req->bufs[i].span_len);
            kept.size += (size_t)req->bufs[i].span_len;
        }
    kept.check = lab_now.check;
}

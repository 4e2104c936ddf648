/* buffers.c - the buffers a check hands the learner's function, from the
 * judge's side: made by lab_in and lab_out, laid out in the shared memory
 * for a call (each ending at the end of its last page, LAB_GUARD_PAGES
 * protected pages after it, LAB_GUARD - its number in the bytes before its
 * data; an input of bytes, one an element, alike), and read back and
 * verified after it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

/* ---- the buffers of a check ----------------------------------------------------------- */

#define MAX_MATS 64

static lab_mat *new_mat(const char *name, int rows, int cols, bool input)
{
    if (lab_now.n_buffers == MAX_MATS) lab_bug("more than %d buffers in one check", MAX_MATS);
    if (rows <= 0 || cols <= 0) lab_bug("buffer %s of shape (%d, %d)", name, rows, cols);
    lab_mat *m = lab_temp(sizeof *m);
    m->name = name;
    m->rows = rows;
    m->cols = cols;
    m->n = (size_t)rows * cols;
    m->p = lab_temp(m->n * sizeof *m->p);
    m->input = input;
    m->id = lab_now.n_buffers++;
    return m;
}

lab_mat *lab_in(const char *name, int rows, int cols, const double *values)
{
    lab_mat *m = new_mat(name, rows, cols, true);
    double *given = lab_temp(m->n * sizeof *given);
    if (values) memcpy(given, values, m->n * sizeof *given);
    memcpy(m->p, given, m->n * sizeof *m->p);
    m->given = given;
    return m;
}

void lab_refill(lab_mat *m)
{
    for (size_t i = 0; i < m->n; i++) m->p[i] = LAB_UNWRITTEN;
}

lab_mat *lab_in_bytes(const char *name, int rows, int cols, const unsigned char *values)
{
    lab_mat *m = new_mat(name, rows, cols, true);   /* p has room for n doubles */
    unsigned char *given = lab_temp(m->n);
    if (values) memcpy(given, values, m->n);
    memcpy(m->p, given, m->n);
    m->given = (const double *)(void *)given;       /* bytes, as is_bytes says */
    m->is_bytes = true;
    return m;
}

/* elem_size - the bytes of one element of m: 1 for lab_in_bytes, else 8 */
static size_t elem_size(const lab_mat *m) { return m->is_bytes ? 1 : sizeof(double); }

long lab_element_at(const lab_mat *m, int64_t bytes)
{
    int64_t es = (int64_t)elem_size(m);
    return (long)(bytes >= 0 ? bytes / es : -((-bytes + es - 1) / es));
}

lab_mat *lab_out(const char *name, int rows, int cols)
{
    lab_mat *m = new_mat(name, rows, cols, false);
    lab_refill(m);
    return m;
}

lab_mat *lab_out_long(const char *name, long value)
{
    lab_mat *m = new_mat(name, 1, 1, false);
    m->is_long = true;
    memcpy(m->p, &value, sizeof value);
    return m;
}

long lab_long(const lab_mat *m)
{
    long v;
    memcpy(&v, m->p, sizeof v);
    return v;
}

/* ---- the layout of a call ------------------------------------------------------------- */

static int64_t page_size(void)
{
    static long page;
    if (!page) page = sysconf(_SC_PAGESIZE);
    return page;
}

static double guard_value(const lab_mat *m) { return LAB_GUARD - m->id; }

void lay_out(lab_child *c, lab_request *req, lab_mat *const bufs[], int n_bufs)
{
    const int64_t page = page_size();
    int64_t at = LAB_BUFS_OFF + LAB_GUARD_PAGES * page;  /* after the control pages */
    for (int i = 0; i < n_bufs; i++) {
        lab_wire_buf *b = &req->bufs[i];
        const lab_mat *m = bufs[i];
        if (!m) {
            b->kind = LAB_BUF_NULL;
            continue;
        }
        int64_t len = (int64_t)(m->n * elem_size(m));
        b->kind = m->input ? LAB_BUF_IN : LAB_BUF_OUT;
        b->span = at;
        b->span_len = (len + page - 1) / page * page;
        b->off = b->span + b->span_len - len;
        b->len = len;
        if (b->span + b->span_len + LAB_GUARD_PAGES * page > LAB_SHM_SIZE)
            lab_bug("the buffers of one call need more than %lld bytes",
                    (long long)LAB_SHM_SIZE);
        double g = guard_value(m);
        double *span = (double *)(c->shm + b->span);
        for (int64_t k = 0; k < b->span_len / 8; k++) span[k] = g;
        memcpy(c->shm + b->off, m->p, (size_t)len);
        at = b->span + b->span_len + LAB_GUARD_PAGES * page;
    }
}

void outside_text(char *buf, size_t size, const lab_mat *m, long element)
{
    snprintf(buf, size, EN_ES("%s %s (element %ld; %s is (%d, %d), elements 0 to %zu)",
                              "%s %s (elemento %ld; %s es (%d, %d), elementos 0 a %zu)"),
             element >= (long)m->n ? EN_ES("past the end of", "más allá del final de")
                                   : EN_ES("before the start of", "antes del principio de"),
             m->name, element, m->name, m->rows, m->cols, m->n - 1);
}

lab_mat *buffer_at(const lab_request *req, lab_mat *const bufs[], int n_bufs,
                   int64_t off, long *element)
{
    const int64_t reach = LAB_GUARD_PAGES * page_size();
    lab_mat *best = NULL;
    int64_t best_distance = 0;
    for (int i = 0; i < n_bufs; i++) {
        const lab_wire_buf *b = &req->bufs[i];
        if (b->kind == LAB_BUF_NULL) continue;
        int64_t end = b->off + b->len, distance;
        if (off >= end && off < b->span + b->span_len + reach) distance = off - end;
        else if (off < b->off && off >= b->span - reach) distance = b->off - off;
        else continue;
        if (!best || distance < best_distance) {
            best = bufs[i];
            best_distance = distance;
            *element = lab_element_at(bufs[i], off - b->off);
        }
    }
    return best;
}

/* ---- after the call ------------------------------------------------------------------ */

/* guard_wrong - the first byte of b's pages, from at on by step, that no
 * longer holds m's guard (the double guard_value(m), repeated from the
 * start of its pages: byte at holds byte (at - span) % 8 of it), as an
 * element of m in *element; false if none */
static bool guard_wrong(const lab_child *c, const lab_wire_buf *b, const lab_mat *m,
                        int64_t at, int step, long *element)
{
    double g = guard_value(m);
    unsigned char pattern[8];
    memcpy(pattern, &g, 8);
    for (; at >= b->span && at < b->span + b->span_len; at += step)
        if ((unsigned char)c->shm[at] != pattern[(at - b->span) % 8]) {
            *element = lab_element_at(m, at - b->off);
            return true;
        }
    return false;
}

/* guard_ok - the bytes of m's pages outside its data still hold its guard;
 * else the wrong ones nearest the data are said, past the end first */
static bool guard_ok(lab_child *c, const lab_wire_buf *b, lab_mat *m, bool quiet)
{
    long element[2];
    bool wrong[2] = { guard_wrong(c, b, m, b->off + b->len, 1, &element[0]),
                      guard_wrong(c, b, m, b->off - 1, -1, &element[1]) };
    if (!wrong[0] && !wrong[1]) return true;
    for (int k = 0; k < 2 && !quiet && !m->damaged; k++)
        if (wrong[k]) {
            char where[256];
            outside_text(where, sizeof where, m, element[k]);
            lab_fail(EN_ES("wrote %s", "escribió %s"), where);
        }
    m->damaged = true;
    return false;
}

/* input_ok - the input m holds the values given (now: its data in the
 * shared memory) */
static bool input_ok(const char *now, lab_mat *m, bool quiet)
{
    size_t es = elem_size(m);
    const char *given = (const char *)m->given;
    if (memcmp(now, given, m->n * es) == 0) return true;
    size_t i = 0;
    while (memcmp(now + i * es, given + i * es, es) == 0) i++;
    char was[32], is[32];
    if (m->is_bytes) {
        snprintf(was, sizeof was, "%d", (unsigned char)given[i]);
        snprintf(is, sizeof is, "%d", (unsigned char)now[i]);
    } else {
        double w, v;
        memcpy(&w, given + i * es, sizeof w);
        memcpy(&v, now + i * es, sizeof v);
        snprintf(was, sizeof was, "%.10g", w);
        snprintf(is, sizeof is, "%.10g", v);
    }
    if (!quiet && !m->damaged)
        lab_fail(EN_ES("changed its input %s: element (%zu, %zu) was %s, is now %s "
                       "(inputs are read-only)",
                       "cambió su entrada %s: el elemento (%zu, %zu) era %s y ahora "
                       "es %s (las entradas son de solo lectura)"),
                 m->name, i / m->cols, i % m->cols, was, is);
    m->damaged = true;
    return false;
}

bool take_back(lab_child *c, const lab_request *req, lab_mat *const bufs[], int n_bufs,
               bool quiet)
{
    bool ok = true;
    for (int i = 0; i < n_bufs; i++) {
        const lab_wire_buf *b = &req->bufs[i];
        lab_mat *m = bufs[i];
        if (!m) continue;
        const char *data = c->shm + b->off;
        ok &= guard_ok(c, b, m, quiet);
        if (m->input) ok &= input_ok(data, m, quiet);
        else memcpy(m->p, data, m->n * elem_size(m));
    }
    return ok;
}

/* buffers.c - the memory a learner's call touches: the guarded matrices
 * that a check hands it (lab_in, lab_out), and the allocations it makes.
 *
 * Every lab_mat sits between two guard zones, each holding its own value
 * (LAB_GUARD - its number), so a write past an edge, or a value copied from
 * one buffer's guard into another, is seen; inputs keep a copy, so a change
 * is seen. malloc, calloc, realloc and free reach the learner through the
 * linker's --wrap: during a call the blocks it allocates are counted (a
 * leak), and a free of memory it did not allocate is refused and counted. */
#include <string.h>
#include "internal.h"

/* ======================================================================
 * Allocations made during a learner call
 * ====================================================================== */

void *__real_realloc(void *p, size_t size);

#define MAX_BLOCKS 256
static bool tracking;                      /* inside a learner call */
static struct { void *p; size_t size; } blocks[MAX_BLOCKS];
static int n_blocks;                       /* live blocks the learner allocated */
static int lost_blocks;                    /* allocations beyond MAX_BLOCKS */
static int bad_frees;                      /* frees of memory it did not allocate */

static int find_block(const void *p)
{
    for (int i = 0; i < n_blocks; i++)
        if (blocks[i].p == p) return i;
    return -1;
}

static void add_block(void *p, size_t size)
{
    if (!p) return;
    if (n_blocks < MAX_BLOCKS) {
        blocks[n_blocks].p = p;
        blocks[n_blocks].size = size;
        n_blocks++;
    } else {
        lost_blocks++;
    }
}

static void drop_block(int i) { blocks[i] = blocks[--n_blocks]; }

void *__wrap_malloc(size_t size)
{
    void *p = __real_malloc(size);
    if (tracking) add_block(p, size);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = __real_calloc(n, size);
    if (tracking) add_block(p, n * size);
    return p;
}

void *__wrap_realloc(void *p, size_t size)
{
    if (!tracking || !p) {
        void *q = __real_realloc(p, size);
        if (tracking) add_block(q, size);
        return q;
    }
    int i = find_block(p);
    if (i < 0) {                   /* not the learner's: leave it alone */
        bad_frees++;
        return NULL;
    }
    void *q = __real_realloc(p, size);
    if (q) {
        blocks[i].p = q;
        blocks[i].size = size;
    }
    return q;
}

void __wrap_free(void *p)
{
    if (tracking && p) {
        int i = find_block(p);
        if (i < 0) {               /* not the learner's: leave it alone */
            bad_frees++;
            return;
        }
        drop_block(i);
    }
    __real_free(p);
}

void lab_alloc_watch(void)
{
    n_blocks = lost_blocks = bad_frees = 0;
    tracking = true;
}

void lab_alloc_stop(void) { tracking = false; }

void lab_alloc_forget(void)
{
    for (int i = 0; i < n_blocks; i++) __real_free(blocks[i].p);
    n_blocks = lost_blocks = bad_frees = 0;
}

bool lab_alloc_report(const char *callee)
{
    bool ok = true;
    if (n_blocks || lost_blocks) {
        size_t bytes = 0;
        for (int i = 0; i < n_blocks; i++) bytes += blocks[i].size;
        int count = n_blocks + lost_blocks;
        bool one = count == 1;
        lab_fail(EN_ES("leaked memory: %s allocated %d block%s (%zu bytes%s) with "
                       "malloc/calloc/realloc and did not free %s",
                       "memoria perdida: %s reservó %d bloque%s (%zu bytes%s) con "
                       "malloc/calloc/realloc y no %s liberó"),
                 callee, count, one ? "" : EN_ES("s", "s"), bytes,
                 lost_blocks ? EN_ES(" or more", " o más") : "",
                 one ? EN_ES("it", "lo") : EN_ES("them", "los"));
        ok = false;
    }
    if (bad_frees)
        lab_fail(EN_ES("%s called free or realloc %d %s on memory it did not "
                       "allocate (a buffer belongs to whoever allocated it)",
                       "%s llamó a free o realloc %d %s sobre memoria que no "
                       "reservó (un búfer es de quien lo reservó)"),
                 callee, bad_frees,
                 bad_frees == 1 ? EN_ES("time", "vez") : EN_ES("times", "veces"));
    ok &= bad_frees == 0;
    lab_alloc_forget();
    return ok;
}

/* ======================================================================
 * Guarded matrices
 * ====================================================================== */

#define MAX_MATS 64
static lab_mat *mats[MAX_MATS];
static int n_mats;

/* guard_value - the guard of mats[id]: each buffer has its own, so a value
 * copied from one buffer's guard into another's is still seen */
static double guard_value(int id) { return LAB_GUARD - id; }

static lab_mat *new_mat(const char *name, int rows, int cols)
{
    cr_assert(n_mats < MAX_MATS, "harness: more than %d buffers in one check", MAX_MATS);
    cr_assert(rows > 0 && cols > 0, "harness: buffer %s of shape (%d, %d)", name, rows, cols);
    lab_mat *m = __real_calloc(1, sizeof *m);
    size_t n = (size_t)rows * cols;
    double *base = __real_malloc((n + 2 * LAB_GUARD_LEN) * sizeof *base);
    cr_assert(m && base, "harness: out of memory");
    m->id = n_mats;
    for (size_t i = 0; i < n + 2 * LAB_GUARD_LEN; i++) base[i] = guard_value(m->id);
    m->name = name;
    m->rows = rows;
    m->cols = cols;
    m->n = n;
    m->p = base + LAB_GUARD_LEN;
    mats[n_mats++] = m;
    return m;
}

lab_mat *lab_in(const char *name, int rows, int cols, const double *values)
{
    lab_mat *m = new_mat(name, rows, cols);
    m->copy = __real_malloc(m->n * sizeof *m->copy);
    cr_assert(m->copy, "harness: out of memory");
    for (size_t i = 0; i < m->n; i++) m->p[i] = m->copy[i] = values ? values[i] : 0.0;
    return m;
}

void lab_refill(lab_mat *m)
{
    for (size_t i = 0; i < m->n; i++) m->p[i] = LAB_UNWRITTEN;
}

lab_mat *lab_out(const char *name, int rows, int cols)
{
    lab_mat *m = new_mat(name, rows, cols);
    lab_refill(m);
    return m;
}

/* guards_ok - report the first write outside m; repair the guards */
static bool guards_ok(lab_mat *m)
{
    const double guard = guard_value(m->id);
    long before = 0, after = 0;                 /* first bad element, 0 if none */
    for (long i = 1; i <= LAB_GUARD_LEN; i++)
        if (memcmp(&m->p[-i], &guard, sizeof guard) != 0) {
            before = -i;
            break;
        }
    for (long i = 0; i < LAB_GUARD_LEN; i++)
        if (memcmp(&m->p[m->n + i], &guard, sizeof guard) != 0) {
            after = (long)m->n + i;
            break;
        }
    if (!before && !after) return true;
    if (!m->damaged) {
        if (after)
            lab_fail(EN_ES("wrote past the end of %s (element %ld; %s is (%d, %d), "
                           "elements 0 to %zu)",
                           "escribió más allá del final de %s (elemento %ld; %s es "
                           "(%d, %d), elementos 0 a %zu)"),
                     m->name, after, m->name, m->rows, m->cols, m->n - 1);
        if (before)
            lab_fail(EN_ES("wrote before the start of %s (element %ld)",
                           "escribió antes del principio de %s (elemento %ld)"),
                     m->name, before);
    }
    m->damaged = true;
    for (long i = 1; i <= LAB_GUARD_LEN; i++) m->p[-i] = m->p[m->n + i - 1] = guard;
    return false;
}

/* input_ok - report the first change to the input m; restore it */
static bool input_ok(lab_mat *m)
{
    if (!m->copy || memcmp(m->p, m->copy, m->n * sizeof *m->p) == 0) return true;
    size_t i = 0;
    while (memcmp(&m->p[i], &m->copy[i], sizeof *m->p) == 0) i++;
    if (!m->damaged)
        lab_fail(EN_ES("changed its input %s: element (%zu, %zu) was %.10g, is now %.10g "
                       "(inputs are read-only)",
                       "cambió su entrada %s: el elemento (%zu, %zu) era %.10g y ahora "
                       "es %.10g (las entradas son de solo lectura)"),
                 m->name, i / m->cols, i % m->cols, m->copy[i], m->p[i]);
    m->damaged = true;
    memcpy(m->p, m->copy, m->n * sizeof *m->p);
    return false;
}

bool lab_mats_report(void)
{
    bool ok = true;
    for (int i = 0; i < n_mats; i++) {
        ok &= guards_ok(mats[i]);
        ok &= input_ok(mats[i]);
    }
    return ok;
}

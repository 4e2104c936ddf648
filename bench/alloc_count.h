/* alloc_count.h - how many bytes a stretch of code holds allocated at most.
 * alloc_count.c is built two ways (bench/bench.mk):
 *   linked into mha_bench, it defines __wrap_malloc, __wrap_calloc,
 *     __wrap_realloc and __wrap_free; the program is linked with
 *     -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free, which
 *     sends every such call of its own objects and of the static library
 *     (libminimodel.a) through them;
 *   with -DALLOC_COUNT_PRELOAD, as a shared object for LD_PRELOAD, it
 *     defines malloc, calloc, realloc, free, posix_memalign, aligned_alloc,
 *     memalign and valloc themselves (on glibc's __libc_ functions), so
 *     that it sees every allocation of a process: Python's, NumPy's,
 *     PyTorch's (c10's CPU allocator uses posix_memalign).
 * Between alloc_count_start() and alloc_count_stop() each block allocated is
 * tracked with the size asked for, until it is freed; blocks allocated
 * before the start are not counted, nor is their free.
 *
 * Linked into mha_bench (not preloaded), it also defines mmap and munmap.
 * A definition in the program takes the place of glibc's for the shared
 * libraries too (the dynamic linker looks in the program first), so the
 * calls of libopenblas (its buffer pool is an mmap, not a malloc) come
 * here; glibc's own (malloc's large blocks) do not, and never count twice.
 * They are counted like blocks (bytes mapped, map_peak and map_calls), and
 * every region mapped this way is remembered, counting or not, so that
 * alloc_count_mapped can say how much of it is resident (mincore): the
 * pages a program touched. The preloaded build leaves mmap alone (Python
 * maps its own arenas). */
#ifndef BENCH_ALLOC_COUNT_H
#define BENCH_ALLOC_COUNT_H

#include <stddef.h>

typedef struct {
    size_t peak;     /* the most bytes held at once since the start */
    size_t now;      /* bytes still held (allocated since the start) */
    size_t blocks;   /* blocks allocated since the start */
    int lost;        /* 1: more blocks alive at once than the table holds */
    size_t map_peak;   /* the most bytes mapped at once by mmap since the start
                          (not counting regions mapped before it) */
    size_t map_now;    /* bytes mapped since the start, still mapped */
    size_t map_calls;  /* mmap calls since the start */
} alloc_count;

void alloc_count_start(void);
void alloc_count_stop(void);
alloc_count alloc_counted(void);
/* the same, one number at a time (for Python's ctypes) */
size_t alloc_count_peak(void);
size_t alloc_count_blocks(void);
int alloc_count_lost(void);
/* the regions mapped by mmap through this file since the program started
 * (the program's build only): bytes still mapped, and in *resident how many
 * of them are in memory now (mincore; anonymous pages: touched ones) */
size_t alloc_count_mapped(size_t *resident);

#endif

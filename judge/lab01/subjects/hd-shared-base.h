/* hd-shared-base.h - where a learner's code finds the memory the harness
 * shares with its process (the subjects hd-control-*.c, which write into
 * the harness's control block at its start): from /proc/self/maps where
 * the process may read it (the sanitizer build), the mapping of 64 MiB of
 * the memory file "lab-shm"; else (the plain build, where the process may
 * open no file) from where the first buffer of a call of qkv_pack, w_qkv
 * (d_model, 2 d_k + d_v), lies in it: its data ends at the end of its last
 * page, its pages start after the control block, the output area (16
 * pages in all) and 16 guard pages (judge/harness/wire.h, buffers.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char *shared_base(const double *w_qkv, int d_model, int d_k, int d_v)
{
    /* the mapping of "lab-shm" that spans the most (its parts, as their
     * pages' protections split it, share start - offset) */
    unsigned long base[8], span[8];
    int n = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long start, end, off;
        if (!strstr(line, "lab-shm") || sscanf(line, "%lx-%lx %*s %lx", &start, &end, &off) != 3)
            continue;
        int i = 0;
        while (i < n && base[i] != start - off) i++;
        if (i == n && n < 8) {
            base[n] = start - off;
            span[n++] = 0;
        }
        if (i < n) span[i] += end - start;
    }
    if (maps) fclose(maps);
    if (n) {
        int at = 0;
        for (int i = 1; i < n; i++)
            if (span[i] > span[at]) at = i;
        return (char *)base[at];
    }
    long page = sysconf(_SC_PAGESIZE);
    long len = (long)d_model * (2 * d_k + d_v) * (long)sizeof(double);
    long pages = (len + page - 1) / page * page;
    return (char *)((uintptr_t)w_qkv + len - pages - 16 * 4096 - 16 * page);
}

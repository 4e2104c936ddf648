/* hd-refused-calls.c - a file whose qkv_pack "logs" and "times" its work
 * with calls a lab function may not make: each is refused for what it can
 * do, named with its line (the old vetting said of all but four of them
 * only "which a lab file may not call").
 * expect-exit: 1
 * expect: Your file judge/lab01/subjects/hd-refused-calls.c was not run: the harness refuses it.
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses fopen, which works on files, directories or descriptors: a lab function reads its arguments and writes its buffers, nothing else
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses read, which works on files
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses socket, which talks to other processes or to the network
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses dlopen, which loads code while the program runs
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses setenv, which changes the program's environment
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses signal: a lab function starts no process, program or thread, and handles no signal \(signal sends, handles or blocks signals\)
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses pthread_create: a lab function starts no process, program or thread, and handles no signal \(pthread_create starts, ends or waits for a thread\)
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses execv: .*\(execv runs a program\)
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses waitpid: .*\(waitpid starts, waits for or changes a process\)
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses syscall, which makes any system call by its number
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses mprotect, which changes the program's memory map, whose pages are the harness's
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses asprintf, which allocates memory the harness cannot follow
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses __libc_malloc, a name the C library keeps for its own inside
 * expect-re: ^  judge/lab01/subjects/hd-refused-calls.c:[0-9]+: uses cblas_dgemm, which a lab file may not call: it is neither the library's \(mm_\*\), nor LAB_TODO\(\), nor a function of the C library
 * expect-not: uses fma
 * expect-not: uses strlen
 * expect-not: uses close
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#define MUTANT_qkv_pack
#include "base.h"

void *__libc_malloc(size_t size);
void cblas_dgemm(void);

static void *worker(void *arg) { return arg; }

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    FILE *log = fopen("pack.log", "w");
    char buf[8], *text;
    if (read(0, buf, sizeof buf) < 0) close(0);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    void *blas = dlopen("libblas.so", RTLD_NOW);
    setenv("OMP_NUM_THREADS", "1", 1);
    signal(SIGALRM, SIG_IGN);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    char *argv[] = { "true", NULL };
    execv("/bin/true", argv);
    waitpid(-1, NULL, 0);
    syscall(SYS_getpid);
    mprotect(w_qkv, 4096, PROT_READ);
    if (asprintf(&text, "%d", d_model) > 0) free(text);
    free(__libc_malloc(strlen("x")));
    cblas_dgemm();
    w_qkv[0] = fma(w_q[0], w_k[0], w_v[0]) + s + (log != NULL) + (blas != NULL);
    return d_k + d_v > 0 ? MM_OK : MM_EINVAL;
}

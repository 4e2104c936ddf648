/* hd-control-mprotect.c - qkv_pack is right, but makes the page of the
 * harness's control block writable (mprotect, which the vetting refuses:
 * linked unvetted) and changes a note in it (the number of the call in
 * flight), which the old judge never saw. The judge verifies after each
 * call the fields that the learner's code must not change and that an idle
 * driver holds, and fails the check, naming the field.
 * build: unvetted
 * run-only: qkv_pack
 * expect-exit: 1
 * expect: CRASH qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': changed the harness's control block: after the call its field seq held 4660 where it must hold
 * expect: That page is where the harness's code in your process notes what it is doing; it is protected from your code, so your code made it writable (mprotect?) and wrote there
 * expect: call in flight: qkv_pack(w_qkv, w_q, w_k, w_v, 2, 2, 2)
 * expect-re: ^qkv_pack +0 +0 +9$ */
#include <stdint.h>
#include <sys/mman.h>
#include "hd-shared-base.h"
#define MUTANT_qkv_pack
#include "base.h"

mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v)
{
    char *control = shared_base(w_qkv, d_model, d_k, d_v);
    if (mprotect(control, 4096, PROT_READ | PROT_WRITE) == 0)
        ((volatile int32_t *)control)[1] = 0x1234;     /* seq */
    int width = 2 * d_k + d_v;
    for (int i = 0; i < d_model; i++)
        for (int j = 0; j < width; j++)
            w_qkv[i * width + j] = j < d_k ? w_q[i * d_k + j]
                                 : j < 2 * d_k ? w_k[i * d_k + j - d_k]
                                 : w_v[i * d_v + j - 2 * d_k];
    return MM_OK;
}

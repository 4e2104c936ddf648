/* u-exit.c - r-exit.c (a leftover exit(0) in qkv_pack) linked without the
 * symbol checks: the process ends inside the call, and the check fails
 * with the call in flight.
 * build: unvetted
 * run-only: qkv_pack
 * expect-exit: 1
 * expect: CRASH qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': ended the process with exit status 0, from inside qkv_pack
 * expect-re: ^        \| packed 2 x 6$
 * expect-re: ^qkv_pack +0 +2 +7$ */
#include "r-exit.c"

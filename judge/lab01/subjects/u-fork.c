/* u-fork.c - h-fork.c linked without the symbol checks: the learner's
 * process may not start one (seccomp); the call is named and stopped, every
 * check of qkv_pack fails, and no process is left (the self-test looks).
 * build: unvetted
 * expect-exit: 1
 * expect: CRASH qkv_pack, case 'worked example of chapter 01: X = [[1,0],[0,1]], W_Q = [[1,0],[0,1]], W_K = [[0,1],[1,0]], W_V = [[2,0],[0,3]]': made a system call that a lab function may not make: clone (to start a process)
 * expect-re: ^qkv_pack +0 +0 +9$
 * expect-re: ^total +0 +36 +9$ */
#include "h-fork.c"

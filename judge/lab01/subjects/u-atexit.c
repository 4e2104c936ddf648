/* u-atexit.c - h-atexit.c linked without the symbol checks: the exit
 * handler never decides anything (the learner's process is killed, not
 * ended, and its exit status is no verdict); the stub qkv_pack fails every
 * check, and the rest pass.
 * build: unvetted
 * expect-exit: 1
 * expect-re: ^qkv_pack +0 +0 +9$
 * expect-re: ^total +0 +36 +9$ */
#include "h-atexit.c"

/* u-atexit.c - h-atexit.c linked without the symbol checks: its exit
 * handler decides nothing (the learner's process is killed, not ended, and
 * no exit status is a verdict); the stub qkv_pack fails, the rest pass.
 * build: unvetted
 * expect-exit: 1
 * expect-re: ^qkv_pack +0 +0 +9$
 * expect-re: ^total +0 +36 +9$ */
#include "h-atexit.c"

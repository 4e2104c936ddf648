# mallory-fork: a hostile NumPy file. It writes to /tmp, /var/tmp and
# /dev/shm, leaves a daemon, asks for memory without bound (and writes it),
# floods every descriptor it has, then returns nothing. judge/grade/tests/check.sh
# verifies that nothing of it is left: no file, no process, and that the
# grader's memory stayed bounded.
import os


def attention_tables(X, W_Q, W_K, W_V):
    for p in ("/tmp/grade-PWNED-py", "/var/tmp/grade-PWNED-py", "/dev/shm/grade-PWNED-py"):
        try:
            with open(p, "w") as f:
                f.write("mallory was here\n")
        except OSError:
            pass
    try:
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                import time
                time.sleep(3600)
            os._exit(0)
    except OSError:
        pass
    hog = []
    try:
        while True:
            hog.append(b"x" * (64 << 20))
    except MemoryError:
        pass
    del hog
    block = b"x" * (1 << 20)
    for _ in range(64):
        for fd in range(1, 8):
            try:
                os.write(fd, block)
            except OSError:
                pass
    return None

# mallory-hang: leaves a process behind. It starts a detached grandchild (a
# session of its own, so out of the checker's process group) that waits, then
# tries to overwrite the reports once grading is over; and then it spins until
# the checker's deadline. judge/grade/tests/check.sh verifies that no process of a
# learner's is left when grading ends.
import os
import time


def attention_tables(X, W_Q, W_K, W_V):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            work = os.path.abspath(__file__).split("/mallory-hang/")[0]
            out = work[:-len(".work")] if work.endswith(".work") else work
            time.sleep(20)
            for name in ("gradebook.csv", "junit.xml", "results.tap", "PWNED"):
                try:
                    with open(os.path.join(out, name), "w") as f:
                        f.write("mallory was here\n")
                except OSError:
                    pass
        os._exit(0)
    while True:
        pass

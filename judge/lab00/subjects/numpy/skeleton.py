# The untouched skeleton, labs/lab00-by-hand/numpy_attention.py as shipped
# (judge/selftest/pristine.sh chooses the copy: the file itself until the
# learner has started it). This file only states what the checker must say:
# the make rule (judge/lab00/selftest.mk) gives the checker that copy, not this.
#
# run-args: --answers build/labs/lab00/selftest/subjects/correct-2dp.txt
# expect-exit: 0
# expect: NumPy: 0 of 10 tables right, 0 wrong, 10 pending; large inputs: pending.
# expect: [Q]       Q = X W_Q                    pending    ok
# expect: Next: [Q] in
# expect-not: WRONG
# expect-not: raised

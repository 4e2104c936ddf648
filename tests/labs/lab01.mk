# tests/labs/lab01.mk - the self-test of lab 01's checker (make check-harness-lab01):
# the subjects of tests/labs/lab01/ - the reference, a learner's solution,
# the untouched skeleton, a mutant for each known mistake, and learner's
# files that crash, hang, exit, leak, write out of bounds or change inputs -
# each compiled as the learner's qkv.c and held to what it states.
include labs/lab01-qkv/lab.mk
include tests/labs/selftest.mk
$(eval $(call lab_c_selftest,01))

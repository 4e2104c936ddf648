# judge/lab03/selftest.mk - the self-test of lab 03's checker (make check-harness-lab03,
# and make check-harness-lab03 LAB_SANITIZE=1 for the sanitizer build): the
# subjects of judge/lab03/subjects/ - the library's three functions, a learner's
# solution and one in another style, the untouched skeleton, a file with
# one function still pending, a mutant for each known mistake (each must be
# rejected with its own hint), Spanish reports, and files that write past a
# buffer, leak, hang, call exit or keep state - each built as the learner's
# mha.c and held to what it states. The harness's own behaviour (crashes,
# hangs, forging, signals) is Lab 01's self-test.
#
# Lab 03 needs chapter 03's module (tangled/minimodel/attention/mha.c) as
# its reference: until that chapter is in the book, this self-test is not
# part of make check, and make check-harness-lab03 only says so.
ifneq ($(filter tangled/minimodel/attention/mha.c,$(ROOTS)),)
include judge/lab03/lab.mk
include judge/selftest/selftest.mk
$(eval $(call lab_c_selftest,03))
# es-skeleton.c includes the untouched skeleton too
$(lab03_st)/es-skeleton/build.out: $(lab03_st)/pristine/pristine-skeleton.c
else
.PHONY: check-harness-lab03
check-harness-lab03:
	@echo "lab 03 harness self-test: skipped (chapter 03, tangled/minimodel/attention/mha.c, is not in the book yet)"
endif

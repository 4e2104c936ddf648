# judge/lab02/selftest.mk - the self-test of lab 02's checker (make check-harness-lab02,
# and make check-harness-lab02 LAB_SANITIZE=1 for the sanitizer build): the
# subjects of judge/lab02/subjects/ - the library's module, a learner's
# solution and one in another style, the untouched skeleton, a mutant for
# each known mistake (each must be rejected with its own hint), Spanish
# reports, files that write past a row, overrun their scratch, leak or
# keep state, and files that would pass fixed cases only (a memo by shape,
# a static buffer of 32 rows, a float maximum, a shortcut for one score or
# one key, a table of the old cases), which the cases drawn from each run's
# seed catch - each built as the learner's sdpa.c and held to what it
# states, whatever the seed (LAB_SEED=N fixes it). The harness's own
# behaviour (crashes, hangs, forging, signals) is Lab 01's self-test.
#
# Lab 02 needs chapter 02's module (tangled/minimodel/attention/sdpa.c) as
# its reference: until that chapter is in the book, this self-test is not
# part of make check, and make check-harness-lab02 only says so.
ifneq ($(filter tangled/minimodel/attention/sdpa.c,$(ROOTS)),)
include judge/lab02/lab.mk
include judge/selftest/selftest.mk
$(eval $(call lab_c_selftest,02))
# es-skeleton.c includes the untouched skeleton too
$(lab02_st)/es-skeleton/build.out: $(lab02_st)/pristine/pristine-skeleton.c
else
.PHONY: check-harness-lab02
check-harness-lab02:
	@echo "lab 02 harness self-test: skipped (chapter 02, tangled/minimodel/attention/sdpa.c, is not in the book yet)"
endif

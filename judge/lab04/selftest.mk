# judge/lab04/selftest.mk - the self-test of lab 04's checker (make check-harness-lab04,
# and make check-harness-lab04 LAB_SANITIZE=1 for the sanitizer build): the
# subjects of judge/lab04/subjects/ - the library's five functions, a learner's
# solution and two in other styles, the untouched skeleton, a file with
# mask_causal still pending, a mutant for each known mistake (each must be
# rejected with its own hint), Spanish reports, and files that write past a
# buffer, read past or write before the bools of allowed (a buffer of
# bytes), change them, leak, hang, call exit or keep state - each built as
# the learner's mask.c and held to what it states. The harness's own
# behaviour (crashes, hangs, forging, signals) is Lab 01's self-test.
#
# Lab 04 needs chapter 04's module (tangled/minimodel/attention/mask.c) as
# its reference: until that chapter is in the book, this self-test is not
# part of make check, and make check-harness-lab04 only says so.
ifneq ($(filter tangled/minimodel/attention/mask.c,$(ROOTS)),)
include judge/lab04/lab.mk
include judge/selftest/selftest.mk
$(eval $(call lab_c_selftest,04))
# es-skeleton.c includes the untouched skeleton too
$(lab04_st)/es-skeleton/build.out: $(lab04_st)/pristine/pristine-skeleton.c
else
.PHONY: check-harness-lab04
check-harness-lab04:
	@echo "lab 04 harness self-test: skipped (chapter 04, tangled/minimodel/attention/mask.c, is not in the book yet)"
endif

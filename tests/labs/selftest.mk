# tests/labs/selftest.mk - what the labs' self-tests share; each
# tests/labs/labNN.mk includes it (the guard lets the top Makefile's wildcard
# include it too).
#
# One format for every lab: a subject is a file of tests/labs/labNN/ that
# states, in `expect...:` and `run-...:` lines, what the lab's checker must
# print about it and its exit status (run-subject.sh reads them). A C lab's
# subject is a learner's file (compiled in place of the learner's); Lab 00's
# is an answers file.
ifndef LAB_SELFTEST_MK
LAB_SELFTEST_MK := 1

# run-subject.sh, quiet unless V=1
LAB_RUN_SUBJECT = sh tests/labs/run-subject.sh $(if $(filter 1,$(V)),-v)
LAB_PRISTINE   := sh tests/labs/pristine.sh
# the C labs' checks, under the self-test: short timeouts (a subject hangs on purpose)
LAB_SELFTEST_ARGS := --timeout 1 -j2

.PHONY: lab-selftest-always
lab-selftest-always:

# lab_c_selftest(NN) - check-harness-labNN for a C lab built by labs/harness/harness.mk:
# every tests/labs/labNN/*.c compiled as the learner's file into its own check
# binary, run, and held to what it states. The subject skeleton.c includes
# pristine-skeleton.c, the untouched learner's file (pristine.sh).
define lab_c_selftest
lab$(1)_st := $$(lab$(1)_b)/selftest
lab$(1)_subjects := $$(sort $$(notdir $$(basename $$(wildcard tests/labs/lab$(1)/*.c))))

$$(lab$(1)_st)/pristine/pristine-skeleton.c: $$(LAB$(1)_LEARNER) lab-selftest-always
	@$$(LAB_PRISTINE) $$(LAB$(1)_LEARNER) 'LAB_TODO();' $$@
$$(lab$(1)_st)/skeleton/learner.o: $$(lab$(1)_st)/pristine/pristine-skeleton.c
$$(lab$(1)_st)/%/learner.o: tests/labs/lab$(1)/%.c
	@mkdir -p $$(@D)
	$$(call say,CC,$$@)
	$$(Q)$$(LAB_COMPILE) -I$$(lab$(1)_st)/pristine -Wno-unused-parameter -c $$< -o $$@

# run: never a file, so every subject runs on every self-test
$$(lab$(1)_st)/%/run: $$(lab$(1)_st)/%/check
	@$$(LAB_RUN_ENV) $$(LAB_RUN_SUBJECT) tests/labs/lab$(1)/$$*.c $$(@D)/output \
	  $$< $$(LAB_SELFTEST_ARGS)

.PHONY: check-harness-lab$(1)
check-harness-lab$(1): $$(lab$(1)_subjects:%=$$(lab$(1)_st)/%/run)
	@echo "lab $(1) harness self-test: $$(words $$(lab$(1)_subjects)) subjects, each as it states"

.SECONDARY: $$(lab$(1)_subjects:%=$$(lab$(1)_st)/%/learner.o) \
            $$(lab$(1)_subjects:%=$$(lab$(1)_st)/%/ref.o) \
            $$(lab$(1)_subjects:%=$$(lab$(1)_st)/%/check)
-include $$(wildcard $$(lab$(1)_st)/*/learner.d)

CHECK_TARGETS += check-harness-lab$(1)
endef

endif

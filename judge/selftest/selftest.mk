# judge/selftest/selftest.mk - what the labs' self-tests share; each
# judge/labNN/selftest.mk includes it (the guard lets the top Makefile's wildcard
# include it too).
#
# One format for every lab: a subject is a file of judge/labNN/subjects/ that
# states, in `expect...:` and `run-...:` lines, what the lab's checker must
# print about it and its exit status (run-subject.sh reads them). A C lab's
# subject is a learner's file (built in place of the learner's); Lab 00's
# is an answers file.
ifndef LAB_SELFTEST_MK
LAB_SELFTEST_MK := 1

# run-subject.sh, quiet unless V=1
LAB_RUN_SUBJECT = sh judge/selftest/run-subject.sh $(if $(filter 1,$(V)),-v)
LAB_PRISTINE   := sh judge/selftest/pristine.sh
# the C labs' judge, under the self-test: a short deadline per call (some
# subjects hang on purpose)
LAB_SELFTEST_ARGS = --timeout $(if $(LAB_SANITIZE),6,3)

.PHONY: lab-selftest-always
lab-selftest-always:

# lab_c_selftest(NN) - check-harness-labNN for a C lab built by
# judge/harness/harness.mk: every judge/labNN/subjects/*.c made into a driver as
# if it were the learner's file (build.out: the build's messages, or its
# refusal; the subject's run-lang or run-env language), run by the judge,
# and held to what it states, in the build LAB_SANITIZE chooses (plain or
# sanitize: statements marked @plain or @sanitize hold in that one only).
# Then no process may be left from it. The subject skeleton.c includes
# pristine-skeleton.c, the untouched learner's file (pristine.sh). A lab's
# .mk may set labNN_selftest_extra, more targets the self-test runs, before
# the call.
define lab_c_selftest
lab$(1)_st := $$(lab$(1)_b)/selftest
# what a subject's build may see besides a learner's (sandbox.sh): the
# subjects' folder (they include each other) and the pristine skeleton; a
# subject's `build: sees PATH` lines add PATH
lab$(1)_sees = --ro judge/lab$(1)/subjects --ro $$(lab$(1)_st)/pristine
lab$(1)_subjects := $$(sort $$(notdir $$(basename $$(wildcard judge/lab$(1)/subjects/*.c))))

$$(lab$(1)_st)/pristine/pristine-skeleton.c: $$(LAB$(1)_LEARNER) lab-selftest-always
	@$$(LAB_PRISTINE) $$(LAB$(1)_LEARNER) 'LAB_TODO();' $$@
$$(lab$(1)_st)/skeleton/build.out: $$(lab$(1)_st)/pristine/pristine-skeleton.c
$$(lab$(1)_st)/%/build.out: judge/lab$(1)/subjects/%.c $$(lab$(1)_driver_deps)
	@mkdir -p $$(@D)
	$$(call lab_say,CCLD,$$(@D)/driver)
	@s=$$<; lang=$$$$(sed -n 's/^[[:space:]/*#]*run-lang: *\([a-z]*\).*/\1/p' $$$$s); \
	  envs=$$$$(sed -n 's/^[[:space:]/*#]*run-env: *\([A-Z_]*=[^ ]*\).*/\1/p' $$$$s); \
	  vet=$$$$(grep -q '^[[:space:]/*#]*build: unvetted' $$$$s && echo --unvetted); \
	  sees=$$$$(sed -n 's/^[[:space:]/*#]*build: sees \([^ ]*\).*/--ro \1/p' $$$$s); \
	  env -u LC_ALL -u LC_MESSAGES LANG=C LAB_LANG=$$$$lang $$$$envs \
	  $$(call lab_driver_cmd,$(1),$$$$s,$$(@D),$$$$vet,$$@,$$(lab$(1)_sees) $$$$sees) \
	  -I$$(lab$(1)_st)/pristine > $$@ 2>&1 || true

# run: never a file, so every subject runs on every self-test; a refused
# file prints its refusal and exits 1
$$(lab$(1)_st)/%/run: $$(lab$(1)_st)/%/build.out $$(lab$(1)_judge)
	@$$(LAB_RUN_SUBJECT) --variant $$(LAB_VARIANT) judge/lab$(1)/subjects/$$*.c $$(@D)/output \
	  sh -c 'cat "$$$$0"; [ -x "$$$$1" ] || exit 1; shift; exec "$$$$@"' $$< $$(@D)/driver \
	  $$(lab$(1)_judge) --driver $$(@D)/driver $$(LAB_SELFTEST_ARGS)

.PHONY: check-harness-lab$(1)
check-harness-lab$(1): $$(lab$(1)_subjects:%=$$(lab$(1)_st)/%/run) $$(lab$(1)_selftest_extra)
	@echo "lab $(1) harness self-test ($$(LAB_VARIANT) build): $$(words $$(lab$(1)_subjects)) subjects, each as it states"
	@left=$$$$(sh judge/selftest/leftovers.sh '^$$(lab$(1)_st)/'); \
	  if [ -n "$$$$left" ]; then \
	    echo "  FAIL  processes left behind by the self-test:"; ps -o pid=,args= -p "$$$$(echo $$$$left | tr ' ' ,)"; \
	    kill -9 $$$$left; exit 1; \
	  fi; echo "lab $(1) harness self-test: no process left behind"

.SECONDARY: $$(lab$(1)_subjects:%=$$(lab$(1)_st)/%/build.out)
-include $$(wildcard $$(lab$(1)_st)/*/learner.d)

CHECK_ALL_TARGETS += check-harness-lab$(1)
endef

endif

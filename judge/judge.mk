# judge/judge.mk - the judge of the C labs, 01 to 05 (judge/README.md; Lab
# 00's checkers: judge/lab00/lab.mk), included by the top Makefile after
# labs/labs.mk and judge/lab00/lab.mk. For each lab NN, the judge
# ($(BUILD)/judge/labNN/judge: the lab's checks, the harness, the library as
# the reference) and a driver per learner's file (built by build-driver.sh
# in the sandbox; LAB_SANITIZE=1: with the sanitizers, under sanitize/
# instead of plain/); and the targets
#   labNN          the learner's checks: the first failure in full, the others a
#                  line each, ALL=1 all in full (make lab NN=...)
#   check-labNN    the same, briefly (fails only if a started check fails)
#   check-harness-labNN   the judge's self-test on judge/labNN/subjects/
# LAB_ARGS passes options to the judge; with --summary the build's own lines
# go to stderr, so that stdout holds only the summary.

JUDGE_CLABS := 01 02 03 04 05
# the functions each lab's file defines, in the order of the lab's lab_functions:
# from the lab's descriptor, judge/labNN/labNN.def (its FUNCTION lines)
lab_def_functions = $(shell sed -n 's/^ *FUNCTION.\([a-z0-9_]*\),.*/\1/p' judge/lab$(1)/lab$(1).def)
$(foreach n,$(JUDGE_CLABS),$(eval LAB$(n)_FUNCS := $(call lab_def_functions,$(n))))
# the library parts a lab's file may call (default: the core)
LAB03_LIB := $(filter tangled/minimodel/core/%.c tangled/minimodel/attention/qkv.c \
               tangled/minimodel/attention/sdpa.c,$(LIB_SRCS))
LAB04_LIB := $(filter tangled/minimodel/core/%.c tangled/minimodel/attention/qkv.c \
               tangled/minimodel/attention/sdpa.c tangled/minimodel/attention/mha.c,$(LIB_SRCS))
# Lab 05: the library up to chapter 04, and chapter 05's fast.c for the
# functions the learner does not write (mha_cache_new, mha_cache_free,
# mha_forward_tiled): the driver's copy of it has the learner's three as
# local symbols (the rule after the labs' rules), out of the learner's reach
LAB05_LIB := $(filter tangled/minimodel/core/%.c tangled/minimodel/attention/qkv.c \
               tangled/minimodel/attention/sdpa.c tangled/minimodel/attention/mha.c \
               tangled/minimodel/attention/mask.c tangled/minimodel/attention/fast.c,$(LIB_SRCS))

LAB_HARNESS := judge/harness
# the judge's harness: every .c of judge/harness/ but the driver's own
LAB_JUDGE_SRCS := $(filter-out $(LAB_HARNESS)/driver.c,$(wildcard $(LAB_HARNESS)/*.c))
LAB_SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
                      -fno-omit-frame-pointer -DLAB_SANITIZE
LAB_VARIANT = $(if $(LAB_SANITIZE),sanitize,plain)
LAB_SAN = $(if $(LAB_SANITIZE),$(LAB_SANITIZE_FLAGS))
LAB_CFLAGS = $(MM_CPPFLAGS) $(CPPFLAGS) -I$(LAB_HARNESS) -Ilabs $(MM_CFLAGS) $(CFLAGS) -g
# the learner's file and the driver: -O1, quick to build, and what the
# sanitizers are meant for (speed does not matter on the checks' sizes)
LAB_DRIVER_CFLAGS = $(LAB_CFLAGS) -O1
LAB_LANG_ARG = $(if $(LAB_LANG),--lang=$(LAB_LANG))
# make lab NN=02 CHECK=sdpa/e2 (one check, or one function's) FIRST=1 (stop at the first failure)
# ALL=1 (every failing check in full; V=1 too, with the build's commands)
LAB_CHECK_ARGS = $(if $(CHECK),--filter '$(CHECK)') $(if $(filter 1,$(FIRST)),--first) \
  $(if $(filter 1,$(ALL) $(V)),--all)
# the build's lines: to stderr when stdout is a summary for a program to read
LAB_TO = $(if $(findstring --summary,$(LAB_ARGS)),>&2)
ifeq ($(V),1)
lab_say =
else
lab_say = @printf '  %-6s %s\n' '$(1)' '$(2)' $(LAB_TO)
endif
# lab_cc(FLAGS) - the recipe that compiles $< into $@ with FLAGS
define lab_cc
@mkdir -p $(@D)
$(call lab_say,CC,$@)
$(Q)$(CC) $(1) -MMD -MP -c $< -o $@
endef

# What a learner's build may see, in the sandbox (sandbox.sh): the library's
# headers and lab.h, the harness's build script, and the driver's own objects
lab_public = $(wildcard tangled/minimodel/*/*.h) labs/lab.h \
  $(LAB_HARNESS)/build-driver.sh $(LAB_HARNESS)/allowed.txt
# lab_driver_cmd(NN, SOURCE, DIR, EXTRA[, TARGET[, SEES]]) - build-driver.sh
# for SOURCE into DIR/driver, in the sandbox: it reads SOURCE, what
# lab_public names, the driver's objects and SEES (more sandbox.sh --ro
# PATH), and writes DIR only; the header dependencies go to DIR/learner.d
# for TARGET (DIR/driver)
lab_driver_cmd = sh $(LAB_HARNESS)/sandbox.sh --ro $(2) --rw $(3) \
  $(foreach f,$(lab_public) $(lab$(1)_b)/driver.o $(lab$(1)_b)/calls.o $(lab$(1)_libobjs),--ro $(f)) \
  $(6) -- sh $(LAB_HARNESS)/build-driver.sh --source $(2) --object $(3)/learner.o \
  --driver $(3)/driver --functions '$(LAB$(1)_FUNCS)' --lib '$(lab$(1)_libobjs)' \
  --with '$(lab$(1)_b)/driver.o $(lab$(1)_b)/calls.o' $(if $(LAB_SANITIZE),--sanitize '$(LAB_SANITIZE_FLAGS)') \
  $(4) -- $(CC) $(LAB_DRIVER_CFLAGS) -Wno-unused-parameter -MMD -MP -MT $(or $(5),$(3)/driver) -MF $(3)/learner.d

define lab_c_rules
LAB$(1)_LEARNER := $$(firstword $$(LAB$(1)_FILES))
LAB$(1)_CALLS := judge/lab$(1)/calls.c
LAB$(1)_LIB ?= $$(filter tangled/minimodel/core/%.c,$$(LIB_SRCS))
lab$(1)_top := $$(BUILD)/judge/lab$(1)
lab$(1)_judge := $$(lab$(1)_top)/judge
lab$(1)_b := $$(lab$(1)_top)/$$(LAB_VARIANT)
lab$(1)_checks := $$(filter-out $$(LAB$(1)_CALLS),$$(wildcard judge/lab$(1)/*.c))
lab$(1)_judge_objs := $$(patsubst judge/lab$(1)/%.c,$$(lab$(1)_top)/judge-obj/%.o,$$(lab$(1)_checks)) \
                      $$(patsubst $$(LAB_HARNESS)/%.c,$$(lab$(1)_top)/judge-obj/harness-%.o,$$(LAB_JUDGE_SRCS))
lab$(1)_libobjs := $$(patsubst tangled/%.c,$$(lab$(1)_b)/lib/%.o,$$(LAB$(1)_LIB))
lab$(1)_driver_deps := $$(lab$(1)_b)/driver.o $$(lab$(1)_b)/calls.o $$(lab$(1)_libobjs) \
                       $$(LAB_HARNESS)/build-driver.sh $$(LAB_HARNESS)/allowed.txt \
                       $$(LAB_HARNESS)/sandbox.sh

# the judge: the checks, the harness, the library as the reference
$$(lab$(1)_top)/judge-obj/%.o: judge/lab$(1)/%.c | $$(BUILD)/tangle.stamp
	$$(call lab_cc,$$(LAB_CFLAGS))
$$(lab$(1)_top)/judge-obj/harness-%.o: $$(LAB_HARNESS)/%.c | $$(BUILD)/tangle.stamp
	$$(call lab_cc,$$(LAB_CFLAGS) -DLAB_SANDBOX_SH='"$$(abspath $$(LAB_HARNESS)/sandbox.sh)"')
$$(lab$(1)_judge): $$(lab$(1)_judge_objs) $$(LIB)
	$$(call lab_say,CCLD,$$@)
	$$(Q)$$(CC) $$(MM_CFLAGS) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS) -lseccomp

# the driver's own parts, in the variant's flags
$$(lab$(1)_b)/driver.o: $$(LAB_HARNESS)/driver.c | $$(BUILD)/tangle.stamp
	$$(call lab_cc,$$(LAB_DRIVER_CFLAGS) $$(LAB_SAN))
$$(lab$(1)_b)/calls.o: $$(LAB$(1)_CALLS) | $$(BUILD)/tangle.stamp
	$$(call lab_cc,$$(LAB_DRIVER_CFLAGS) $$(LAB_SAN))
$$(lab$(1)_b)/lib/%.o: tangled/%.c
	$$(call lab_cc,$$(LAB_DRIVER_CFLAGS) $$(LAB_SAN))

# the learner's file: a plain message if it does not compile or is refused
$$(lab$(1)_b)/learner/driver: $$(LAB$(1)_LEARNER) $$(lab$(1)_driver_deps)
	@mkdir -p $$(@D)
	$$(call lab_say,CCLD,$$@)
	$$(Q)LAB_LANG='$$(LAB_LANG)' $$(call lab_driver_cmd,$(1),$$<,$$(@D)) $$(LAB_TO)

.PHONY: lab$(1) check-lab$(1)
lab$(1): $$(lab$(1)_judge) $$(lab$(1)_b)/learner/driver
	@$$(lab$(1)_judge) --driver $$(lab$(1)_b)/learner/driver $$(LAB_LANG_ARG) $$(LAB_CHECK_ARGS) $$(LAB_ARGS)
check-lab$(1): $$(lab$(1)_judge) $$(lab$(1)_b)/learner/driver
	@$$(lab$(1)_judge) --driver $$(lab$(1)_b)/learner/driver --brief $$(LAB_LANG_ARG) $$(LAB_ARGS)

-include $$(lab$(1)_judge_objs:.o=.d) $$(lab$(1)_libobjs:.o=.d) $$(lab$(1)_b)/driver.d \
         $$(lab$(1)_b)/calls.d $$(lab$(1)_b)/learner/learner.d

CHECK_TARGETS += check-lab$(1)
endef

# ---- the self-tests: a subject of judge/labNN/subjects/ states what the lab's
# checker must print about it (run-subject.sh reads it, quiet unless V=1)
LAB_RUN_SUBJECT = sh judge/selftest/run-subject.sh $(if $(filter 1,$(V)),-v)
LAB_PRISTINE   := sh judge/selftest/pristine.sh
# the C labs' judge, under the self-test: a short deadline per call (some
# subjects hang on purpose)
LAB_SELFTEST_ARGS = --timeout $(if $(LAB_SANITIZE),6,3)

.PHONY: lab-selftest-always
lab-selftest-always:

# lab_c_selftest(NN) - check-harness-labNN: every judge/labNN/subjects/*.c
# made into a driver as if it were the learner's file (build.out: the
# build's messages or refusal, in the subject's run-lang or run-env
# language), run by the judge and held to what it states in the build
# LAB_SANITIZE chooses; then no process may be left from it. The subject
# skeleton.c includes pristine-skeleton.c (pristine.sh). labNN_selftest_extra,
# set before the call: more targets the self-test runs.
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
	  [ -n "$$$$lang" ] || lang=$$$$(env -u LC_ALL -u LC_MESSAGES -u LAB_LANG LANG=C $$$$envs sh $$(LAB_HARNESS)/lang.sh); \
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

# Lab 01's self-test also stops the judge while a subject spins
lab01_spin := $(BUILD)/judge/lab01/$(LAB_VARIANT)/selftest/h-spin-signals
lab01_selftest_extra := $(lab01_spin)/interrupted

# interrupted: the judge stopped by SIGINT (Ctrl-C), then by SIGKILL, while
# the learner's code spins ignoring its signals: its process must go too.
# (A copy of the subject's driver, so that no other run matches its name.)
.PHONY: $(lab01_spin)/interrupted
$(lab01_spin)/interrupted: $(lab01_spin)/run $(lab01_judge)
	@cp $(@D)/driver $(@D)/interrupt-driver
	@for sig in INT KILL; do \
	  $(lab01_judge) --driver $(@D)/interrupt-driver --timeout 60 > $(@D)/interrupted.out 2>&1 & \
	  judge=$$!; sleep 0.5; kill -$$sig $$judge; wait $$judge 2>/dev/null; sleep 0.2; \
	  left=$$(sh judge/selftest/leftovers.sh '^$(@D)/interrupt-driver'); \
	  if [ -n "$$left" ]; then \
	    echo "  FAIL  SIG$$sig to the judge left the learner's process running: $$left"; \
	    kill -9 $$left; exit 1; \
	  fi; \
	done; echo "lab 01 harness self-test: SIGINT and SIGKILL to the judge leave no process"

$(foreach n,$(JUDGE_CLABS),$(eval $(call lab_c_rules,$(n)))$(eval $(call lab_c_selftest,$(n))))
# the Spanish skeleton subjects include the untouched learner's file
$(foreach n,02 03 04 05,$(eval $$(lab$(n)_st)/es-skeleton/build.out: $$(lab$(n)_st)/pristine/pristine-skeleton.c))

# Lab 05's copy of chapter 05's fast.c (LAB05_LIB): the learner's three
# functions made local symbols, so that the learner's file defines them and
# nothing links to the library's (make lab-try's copy: labs/labs.mk)
$(lab05_b)/lib/minimodel/attention/fast.o: tangled/minimodel/attention/fast.c | $(BUILD)/tangle.stamp
	$(call lab_cc,$(LAB_DRIVER_CFLAGS) $(LAB_SAN))
	$(Q)objcopy $(foreach f,$(LAB05_FUNCS),--localize-symbol=$(f)) $@

# The checkers' self-tests again, with the drivers under ASan and UBSan.
# The judges are shared with the plain self-tests: made here, by this make,
# so that two makes never build one at the same time.
.PHONY: check-harness-sanitize
check-harness-sanitize: $(foreach n,$(JUDGE_CLABS),$(lab$(n)_judge))
	$(Q)$(MAKE) LAB_SANITIZE=1 $(foreach n,$(JUDGE_CLABS),check-harness-lab$(n))

# ---- the learner's loop: make watch, make progress and make lab-reset, in a
# copy of the repository under $(BUILD)/learner-loop (learner-loop.sh says
# what is checked)
.PHONY: check-learner-loop
CHECK_ALL_TARGETS += check-learner-loop

check-learner-loop: $(LAB00_GEN)
	@mkdir -p $(BUILD)/learner-loop
	@MAKE='$(MAKE)' LAB00_SUBJECTS=$(abspath $(LAB00_GEN)) sh judge/selftest/learner-loop.sh $(abspath $(BUILD)/learner-loop) \
	  > $(BUILD)/learner-loop/log.txt 2>&1 \
	  || { cat $(BUILD)/learner-loop/log.txt; exit 1; }
	@tail -n 1 $(BUILD)/learner-loop/log.txt

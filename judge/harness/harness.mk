# judge/harness/harness.mk - the build rules every C lab (01 to 04) shares.
#
# A lab's lab.mk sets, for its number NN:
#   LABNN_DIR        its folder; the judge's check sources are judge/labNN/*.c
#                    except LABNN_CALLS
#   LABNN_LEARNER    the file the learner edits
#   LABNN_FUNCS      the learner's functions, in the order of lab_functions
#   LABNN_CALLS      the driver's table of adapters (driver.h), linked with
#                    the learner's object
#   LABNN_LIB        the library sources the learner may call (default: the
#                    core, tangled/minimodel/core/*.c)
# then includes this file and calls $(eval $(call lab_c_rules,NN)). That gives
#   labNN          the learner's checks with full detail
#   check-labNN    the same, briefly (fails only if a started check fails)
# and rules that make a driver DIR/driver from any learner's file (the
# self-tests under judge/selftest/ use them).
#
# Two programs: the judge ($(BUILD)/labs/labNN/judge: the checks, the
# harness and the whole library as the reference) and the driver (the
# learner's object, driver.c, the adapters and LABNN_LIB; built by
# build-driver.sh, which refuses a file with symbols a lab file may not
# have). LAB_SANITIZE=1 builds the driver with AddressSanitizer and UBSan
# (under $(BUILD)/labs/labNN/sanitize/ instead of plain/); the judge reads
# their reports. LAB_ARGS passes options to the judge (--filter FUNCTION,
# --timeout SECONDS, --summary); LAB_LANG=es (or a Spanish LANG) prints the
# report in Spanish. With --summary in LAB_ARGS the build's own lines go to
# stderr, so that stdout holds only the summary.
ifndef LAB_HARNESS_MK
LAB_HARNESS_MK := 1

LAB_HARNESS := judge/harness
LAB_JUDGE_SRCS := $(addprefix $(LAB_HARNESS)/,lang.c child.c buffers.c call.c verdict.c cases.c runner.c)
LAB_SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
                      -fno-omit-frame-pointer -DLAB_SANITIZE
LAB_VARIANT = $(if $(LAB_SANITIZE),sanitize,plain)
LAB_SAN = $(if $(LAB_SANITIZE),$(LAB_SANITIZE_FLAGS))
LAB_CFLAGS = $(MM_CPPFLAGS) $(CPPFLAGS) -I$(LAB_HARNESS) -Ilabs $(MM_CFLAGS) $(CFLAGS) -g
# the learner's file and the driver: -O1, quick to build, and what the
# sanitizers are meant for (speed does not matter on the checks' sizes)
LAB_DRIVER_CFLAGS = $(LAB_CFLAGS) -O1
LAB_LANG_ARG = $(if $(LAB_LANG),--lang=$(LAB_LANG))
# the build's lines: to stderr when stdout is a summary for a program to read
LAB_TO = $(if $(findstring --summary,$(LAB_ARGS)),>&2)
ifeq ($(V),1)
lab_say =
else
lab_say = @printf '  %-6s %s\n' '$(1)' '$(2)' $(LAB_TO)
endif

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
LAB$(1)_LIB ?= $$(filter tangled/minimodel/core/%.c,$$(LIB_SRCS))
lab$(1)_top := $$(BUILD)/labs/lab$(1)
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
$$(lab$(1)_top)/judge-obj/%.o: judge/lab$(1)/%.c
	@mkdir -p $$(@D)
	$$(call lab_say,CC,$$@)
	$$(Q)$$(CC) $$(LAB_CFLAGS) -MMD -MP -c $$< -o $$@
$$(lab$(1)_top)/judge-obj/harness-%.o: $$(LAB_HARNESS)/%.c
	@mkdir -p $$(@D)
	$$(call lab_say,CC,$$@)
	$$(Q)$$(CC) $$(LAB_CFLAGS) -DLAB_SANDBOX_SH='"$$(abspath $$(LAB_HARNESS)/sandbox.sh)"' \
	  -MMD -MP -c $$< -o $$@
$$(lab$(1)_judge): $$(lab$(1)_judge_objs) $$(LIB)
	$$(call lab_say,CCLD,$$@)
	$$(Q)$$(CC) $$(MM_CFLAGS) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS) -lseccomp

# the driver's own parts, in the variant's flags
$$(lab$(1)_b)/driver.o: $$(LAB_HARNESS)/driver.c
	@mkdir -p $$(@D)
	$$(call lab_say,CC,$$@)
	$$(Q)$$(CC) $$(LAB_DRIVER_CFLAGS) $$(LAB_SAN) -MMD -MP -c $$< -o $$@
$$(lab$(1)_b)/calls.o: $$(LAB$(1)_CALLS)
	@mkdir -p $$(@D)
	$$(call lab_say,CC,$$@)
	$$(Q)$$(CC) $$(LAB_DRIVER_CFLAGS) $$(LAB_SAN) -MMD -MP -c $$< -o $$@
$$(lab$(1)_b)/lib/%.o: tangled/%.c
	@mkdir -p $$(@D)
	$$(call lab_say,CC,$$@)
	$$(Q)$$(CC) $$(LAB_DRIVER_CFLAGS) $$(LAB_SAN) -MMD -MP -c $$< -o $$@

# the learner's file: a plain message if it does not compile or is refused
$$(lab$(1)_b)/learner/driver: $$(LAB$(1)_LEARNER) $$(lab$(1)_driver_deps)
	@mkdir -p $$(@D)
	$$(call lab_say,CCLD,$$@)
	$$(Q)LAB_LANG='$$(LAB_LANG)' $$(call lab_driver_cmd,$(1),$$<,$$(@D)) $$(LAB_TO)

.PHONY: lab$(1) check-lab$(1)
lab$(1): $$(lab$(1)_judge) $$(lab$(1)_b)/learner/driver
	@$$(lab$(1)_judge) --driver $$(lab$(1)_b)/learner/driver $$(LAB_LANG_ARG) $$(LAB_ARGS)
check-lab$(1): $$(lab$(1)_judge) $$(lab$(1)_b)/learner/driver
	@$$(lab$(1)_judge) --driver $$(lab$(1)_b)/learner/driver --brief $$(LAB_LANG_ARG) $$(LAB_ARGS)

-include $$(lab$(1)_judge_objs:.o=.d) $$(lab$(1)_libobjs:.o=.d) $$(lab$(1)_b)/driver.d \
         $$(lab$(1)_b)/calls.d $$(lab$(1)_b)/learner/learner.d

CHECK_TARGETS += check-lab$(1)
endef

endif

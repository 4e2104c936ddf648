# labs/harness/harness.mk - the build rules every C lab (01 to 04) shares.
#
# A lab's lab.mk sets, for its number NN:
#   LABNN_DIR        its folder; the check sources are LABNN_DIR/check/*.c
#   LABNN_LEARNER    the file the learner edits
#   LABNN_FUNCS      the learner's functions: the reference's copies are renamed
#                    ref_<name> (and so is any other symbol both define)
# then includes this file and calls $(eval $(call lab_c_rules,NN)). That gives
#   labNN          the learner's checks with full detail, one at a time
#   check-labNN    the same (fails only if a started check fails)
# and a rule that links a check binary DIR/check for any learner object
# DIR/learner.o under $(labNN_b) (the self-tests under tests/labs/ use it).
# Everything is built under $(BUILD)/labs/labNN/. LAB_ARGS passes options to
# the check binary, e.g. make lab01 LAB_ARGS='--filter qkv_split/*';
# LAB_LANG=es (or a Spanish LANG) prints the report in Spanish.
# LAB_SANITIZE=1 builds with AddressSanitizer and UBSan instead of guard zones
# (under $(BUILD)/labs/labNN/sanitize/): slower, and it also catches reads
# outside a buffer; its own report comes before the harness's.
ifndef LAB_HARNESS_MK
LAB_HARNESS_MK := 1

LAB_HARNESS := labs/harness
LAB_HARNESS_SRCS := $(sort $(wildcard $(LAB_HARNESS)/*.c))
LAB_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free \
            -Wl,--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit
LAB_LDLIBS := -lcriterion -lm
lab_comma := ,
LAB_SANITIZE_FLAGS := -fsanitize=address$(lab_comma)undefined -fno-sanitize-recover=all \
                      -fno-omit-frame-pointer -DLAB_SANITIZE
LAB_SAN = $(if $(LAB_SANITIZE),$(LAB_SANITIZE_FLAGS))
LAB_COMPILE = $(COMPILE) -I$(LAB_HARNESS) $(LAB_SAN) -g -MMD -MP
# a sanitizer's finding aborts the check (a crash); leaks are counted by the harness
LAB_RUN_ENV := ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
LAB_LANG_ARG = $(if $(LAB_LANG),--lang=$(LAB_LANG))

define lab_c_rules
lab$(1)_b := $$(BUILD)/labs/lab$(1)$$(if $$(LAB_SANITIZE),/sanitize)
lab$(1)_checks := $$(patsubst $$(LAB$(1)_DIR)/check/%.c,$$(lab$(1)_b)/check/%.o,\
                    $$(wildcard $$(LAB$(1)_DIR)/check/*.c)) \
                  $$(patsubst $$(LAB_HARNESS)/%.c,$$(lab$(1)_b)/harness/%.o,$$(LAB_HARNESS_SRCS))

# the check code and the harness
$$(lab$(1)_b)/check/%.o: $$(LAB$(1)_DIR)/check/%.c
	@mkdir -p $$(@D)
	$$(call say,CC,$$@)
	$$(Q)$$(LAB_COMPILE) -c $$< -o $$@
$$(lab$(1)_b)/harness/%.o: $$(LAB_HARNESS)/%.c
	@mkdir -p $$(@D)
	$$(call say,CC,$$@)
	$$(Q)$$(LAB_COMPILE) -c $$< -o $$@

# the reference: the whole library as one object, renamed per learner object
$$(lab$(1)_b)/ref/lib.o: $$(LIB_OBJS)
	@mkdir -p $$(@D)
	$$(call say,LD,$$@)
	$$(Q)$$(LD) -r -o $$@ $$^
$$(lab$(1)_b)/%/ref.o: $$(lab$(1)_b)/ref/lib.o $$(lab$(1)_b)/%/learner.o $$(LAB_HARNESS)/rename-ref.sh
	$$(Q)sh $$(LAB_HARNESS)/rename-ref.sh $$< $$(word 2,$$^) $$@ $$(LAB$(1)_FUNCS)
$$(lab$(1)_b)/%/check: $$(lab$(1)_b)/%/learner.o $$(lab$(1)_b)/%/ref.o $$(lab$(1)_checks)
	$$(call say,CCLD,$$@)
	$$(Q)$$(CC) $$(MM_CFLAGS) $$(CFLAGS) $$(LAB_SAN) $$(LDFLAGS) $$(LAB_WRAP) -o $$@ $$^ \
	  $$(LAB_LDLIBS) $$(LDLIBS)

# the learner's file
$$(lab$(1)_b)/learner/learner.o: $$(LAB$(1)_LEARNER)
	@mkdir -p $$(@D)
	$$(call say,CC,$$@)
	$$(Q)$$(LAB_COMPILE) -Wno-unused-parameter -c $$< -o $$@

.PHONY: lab$(1) check-lab$(1)
lab$(1): $$(lab$(1)_b)/learner/check
	@$$(LAB_RUN_ENV) $$< -j1 $$(LAB_LANG_ARG) $$(LAB_ARGS)
check-lab$(1): $$(lab$(1)_b)/learner/check
	@$$(LAB_RUN_ENV) $$< $$(LAB_LANG_ARG) $$(LAB_ARGS)

# pattern-made files are kept, so that nothing is rebuilt needlessly
.SECONDARY: $$(lab$(1)_checks) $$(lab$(1)_b)/learner/ref.o
-include $$(lab$(1)_checks:.o=.d) $$(lab$(1)_b)/learner/learner.d

CHECK_TARGETS += check-lab$(1)
endef

endif

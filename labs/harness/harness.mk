# labs/harness/harness.mk - the rules every C lab (01 to 04) shares.
#
# A lab's lab.mk sets, for its number NN:
#   LABNN_DIR        its folder; the check sources are LABNN_DIR/check/*.c
#   LABNN_LEARNER    the file the learner edits
#   LABNN_FUNCS      the learner's functions: the reference's copies are renamed
#                    ref_<name> (and so is any other symbol both define)
#   LABNN_REFERENCE  the library module that implements them, which the
#                    self-test compiles as if a learner had written it
# then includes this file and calls $(eval $(call lab_c_rules,NN)). That gives
#   labNN                 the learner's checks with full detail, one at a time
#   check-labNN           the same (fails only if a started check fails)
#   check-harness-labNN   the harness self-test: every tests/labNN/*.c file and
#                         the reference, each held to the expect: lines it (or
#                         tests/labNN/NAME.expect) states; see selftest.sh
# Everything is built under $(BUILD)/labs/labNN/. LAB_ARGS passes options to
# the check binary, e.g. make lab01 LAB_ARGS='--filter qkv_split/*'.
# LAB_SANITIZE=1 builds with AddressSanitizer and UBSan instead of guard zones
# (under $(BUILD)/labs/labNN/sanitize/): slower, and it also catches reads
# outside a buffer; its own report comes before the harness's. (The self-test
# states what the default build reports: an overflow is a crash under ASan.)
ifndef LAB_HARNESS_MK
LAB_HARNESS_MK := 1

LAB_HARNESS := labs/harness
LAB_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free \
            -Wl,--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit
LAB_LDLIBS := -lcriterion -lm
lab_comma := ,
LAB_SANITIZE_FLAGS := -fsanitize=address$(lab_comma)undefined -fno-sanitize-recover=all \
                      -fno-omit-frame-pointer -DLAB_SANITIZE
LAB_SAN = $(if $(LAB_SANITIZE),$(LAB_SANITIZE_FLAGS))
LAB_COMPILE = $(CC) $(CPPFLAGS) -I$(LAB_HARNESS) $(CFLAGS) $(LAB_SAN) -g -MMD -MP
# a sanitizer's finding aborts the check (a crash); leaks are counted by the harness
LAB_RUN_ENV := ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
# the self-test's runs: short timeouts (a hanging subject is expected)
LAB_SELFTEST_ARGS := --timeout 1 -j2

.PHONY: lab-harness-always
lab-harness-always:

define lab_c_rules
lab$(1)_b := $$(BUILD)/labs/lab$(1)$$(if $$(LAB_SANITIZE),/sanitize)
lab$(1)_checks := $$(patsubst $$(LAB$(1)_DIR)/check/%.c,$$(lab$(1)_b)/check/%.o,\
                    $$(wildcard $$(LAB$(1)_DIR)/check/*.c)) $$(lab$(1)_b)/check/harness.o
lab$(1)_subjects := reference $$(notdir $$(basename $$(wildcard tests/lab$(1)/*.c)))

# the check code and the harness
$$(lab$(1)_b)/check/%.o: $$(LAB$(1)_DIR)/check/%.c
	@mkdir -p $$(@D)
	$$(LAB_COMPILE) -c $$< -o $$@
$$(lab$(1)_b)/check/harness.o: $$(LAB_HARNESS)/harness.c
	@mkdir -p $$(@D)
	$$(LAB_COMPILE) -c $$< -o $$@

# the reference: the whole library as one object, renamed per learner object
$$(lab$(1)_b)/ref/lib.o: $$(LIB_OBJS)
	@mkdir -p $$(@D)
	$$(LD) -r -o $$@ $$^
$$(lab$(1)_b)/%/ref.o: $$(lab$(1)_b)/ref/lib.o $$(lab$(1)_b)/%/learner.o $$(LAB_HARNESS)/rename-ref.sh
	@sh $$(LAB_HARNESS)/rename-ref.sh $$< $$(word 2,$$^) $$@ $$(LAB$(1)_FUNCS)
$$(lab$(1)_b)/%/check: $$(lab$(1)_b)/%/learner.o $$(lab$(1)_b)/%/ref.o $$(lab$(1)_checks)
	$$(CC) $$(CFLAGS) $$(LAB_SAN) $$(LDFLAGS) $$(LAB_WRAP) -o $$@ $$^ $$(LAB_LDLIBS) $$(LDLIBS)

# the learner's file
$$(lab$(1)_b)/learner/learner.o: $$(LAB$(1)_LEARNER)
	@mkdir -p $$(@D)
	$$(LAB_COMPILE) -Wno-unused-parameter -c $$< -o $$@

.PHONY: lab$(1) check-lab$(1) check-harness-lab$(1)
lab$(1): $$(lab$(1)_b)/learner/check
	@$$(LAB_RUN_ENV) $$< -j1 $$(LAB_ARGS)
check-lab$(1): $$(lab$(1)_b)/learner/check
	@$$(LAB_RUN_ENV) $$< $$(LAB_ARGS)

# the self-test: mutants, the skeleton, the reference compiled as a learner's file
$$(lab$(1)_b)/selftest/%/learner.o: tests/lab$(1)/%.c
	@mkdir -p $$(@D)
	$$(LAB_COMPILE) -Wno-unused-parameter -c $$< -o $$@
$$(lab$(1)_b)/selftest/reference/learner.o: $$(LAB$(1)_REFERENCE)
	@mkdir -p $$(@D)
	$$(LAB_COMPILE) -c $$< -o $$@
$$(lab$(1)_b)/selftest/%/log: $$(lab$(1)_b)/selftest/%/check lab-harness-always
	@$$(LAB_RUN_ENV) sh $$(LAB_HARNESS)/selftest.sh $$* $$< \
	  $$(firstword $$(wildcard tests/lab$(1)/$$*.expect) tests/lab$(1)/$$*.c) \
	  $$@ $$(LAB_SELFTEST_ARGS)
check-harness-lab$(1): $$(lab$(1)_subjects:%=$$(lab$(1)_b)/selftest/%/log)
	@echo "lab $(1) harness self-test: $$(words $$(lab$(1)_subjects)) subjects, each as expected"

# pattern-made files are kept, so that nothing is rebuilt needlessly
.SECONDARY: $$(lab$(1)_checks) $$(lab$(1)_b)/learner/ref.o \
            $$(lab$(1)_subjects:%=$$(lab$(1)_b)/selftest/%/learner.o) \
            $$(lab$(1)_subjects:%=$$(lab$(1)_b)/selftest/%/ref.o) \
            $$(lab$(1)_subjects:%=$$(lab$(1)_b)/selftest/%/check)
-include $$(lab$(1)_checks:.o=.d) $$(lab$(1)_b)/learner/learner.d \
         $$(wildcard $$(lab$(1)_b)/selftest/*/learner.d)

CHECK_TARGETS += check-lab$(1) check-harness-lab$(1)
endef

endif

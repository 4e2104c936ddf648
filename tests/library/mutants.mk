# mutants.mk - make check-mutants: mutation testing of tangled/minimodel/*.c
# (included by library.mk). tests/library/mutants.py makes each mutant (the
# library with one operator, bound, constant, check, argument order or
# negation changed), builds it in $(BUILD)/mutants/run/NNNN and runs the
# test programs on it (the mutated file's own first, as test_mask for
# mask.c, then the cheapest) until one fails. A mutant that
# survives fails the target unless tests/library/mutants-equivalent.tsv
# lists it with the reason it behaves as the library does. Every mutant's
# verdict: $(BUILD)/mutants/report.tsv; a survivor's folder is kept.
#
#   MUTANTS_MAX=220     the budget: a sample spread over every file and
#                       operator, about 5 minutes on 2 cores (0: every
#                       candidate, about 1100, 35 minutes)
#   MUTANT_JOBS=N       mutants built and tested at once (default: nproc)
#   MUTANTS_ONLY=TEXT   only the sampled mutants whose id contains TEXT
#                       (with MUTANTS_MAX=0: any mutant)
#   MUTANTS_EQUIVALENT=FILE  another table (/dev/null: the self-test below)
#   make check-mutants-list  the sampled mutants, nothing run
#   make check-mutants-selftest  an unlisted survivor must fail the target
#
# The test programs are linked with the flags of the plain build at -O1 (the
# bits are the same: no contraction, see MM_CFLAGS), against objects built
# here once; a mutant recompiles only its own file.

ifeq ($(LIBT_TESTS),)
$(error mutants.mk: include it after LIBT_TESTS and LIBT_HELP are set (end of library.mk))
endif

MUTANTS_MAX        ?= 220
MUTANT_JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
MUTANTS_ONLY       ?=
MUTANTS_EQUIVALENT ?= $(LIBT_DIR)/mutants-equivalent.tsv

MUT_DIR   := $(BUILD)/mutants
MUT_BASE  := $(MUT_DIR)/base
MUT_FLAGS := -O1
# cheapest first; test_bad_args (about 1000 processes, 13 s) last, so that a
# mutant another program kills never pays for it; a program that is not
# named here runs just before it
MUT_FIRST := test_qkv test_sdpa test_mha test_mask test_errors test_alloc \
             test_fuzz test_threads
MUT_LAST  := test_bad_args
MUT_ORDER := $(filter $(MUT_FIRST),$(LIBT_TESTS)) \
             $(filter-out $(MUT_FIRST) $(MUT_LAST),$(LIBT_TESTS)) \
             $(filter $(MUT_LAST),$(LIBT_TESTS))
MUT_LIB_OBJS  := $(LIB_SRCS:tangled/%.c=$(MUT_BASE)/lib/%.o)
MUT_TEST_OBJS := $(patsubst %,$(MUT_BASE)/tests/%.o,$(LIBT_TESTS) \
                   $(basename $(notdir $(LIBT_HELP))))

$(MUT_LIB_OBJS): $(MUT_BASE)/lib/%.o: tangled/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(COMPILE) $(MUT_FLAGS) -MMD -MP -c $< -o $@
$(MUT_TEST_OBJS): $(MUT_BASE)/tests/%.o: $(LIBT_DIR)/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(COMPILE) $(MUT_FLAGS) -MMD -MP -c $< -o $@
-include $(MUT_LIB_OBJS:.o=.d) $(MUT_TEST_OBJS:.o=.d)

MUTANTS = python3 $(LIBT_DIR)/mutants.py --compile '$(COMPILE) $(MUT_FLAGS)' \
  --link '$(LIBT_WRAP) $(LIBT_LIBS)' --base $(MUT_BASE) \
  --tests $(MUT_ORDER) --helpers $(basename $(notdir $(LIBT_HELP))) \
  --max $(MUTANTS_MAX) --jobs $(MUTANT_JOBS) --only '$(MUTANTS_ONLY)'

.PHONY: check-mutants check-mutants-list check-mutants-selftest
check-mutants: $(MUT_LIB_OBJS) $(MUT_TEST_OBJS)
	$(Q)$(MUTANTS) --out $(MUT_DIR) --equivalent '$(MUTANTS_EQUIVALENT)' $(LIB_SRCS)
check-mutants-list:
	$(Q)$(MUTANTS) --out $(MUT_DIR) --list $(LIB_SRCS)

# The tool can fail: the first mutant of the table, run with an empty table,
# survives and must fail the run, named in its output (matched on its hash,
# the last field of its id, which a move of its line does not change).
MUT_SELFTEST_ID = $(shell sed -n '/^[^\#]/{s/\t.*//p;q}' $(MUTANTS_EQUIVALENT))
check-mutants-selftest: $(MUT_LIB_OBJS) $(MUT_TEST_OBJS)
	@id='$(MUT_SELFTEST_ID)'; hash=$${id##*:}; log=$(MUT_DIR)/selftest/log; \
	test -n "$$hash" || { echo "mutants self-test: $(MUTANTS_EQUIVALENT) lists no mutant"; exit 1; }; \
	mkdir -p $(MUT_DIR)/selftest; \
	if $(MUTANTS) --out $(MUT_DIR)/selftest --only ":$$hash" --max 0 --equivalent /dev/null \
	     $(LIB_SRCS) > $$log 2>&1; then \
	  cat $$log; echo "mutants self-test: the unlisted survivor $$id did NOT fail the run"; exit 1; \
	elif ! grep -q "^survived: .*:$$hash\]$$" $$log; then \
	  cat $$log; echo "mutants self-test: the run failed without naming $$id"; exit 1; \
	else grep '^survived: ' $$log; \
	  echo "mutants self-test: the unlisted survivor fails the target, as it must"; fi

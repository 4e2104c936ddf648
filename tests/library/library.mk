# library.mk - the gates of the library (tangled/minimodel/), in make check:
#   check-library            the Criterion tests (worked example, errors, ...)
#   check-library-bad-args   every bad argument of every public function
#   check-library-alloc      allocation failure, injected at each allocation
#   check-library-fuzz       a seeded fuzz pass against a long-double reference
#   check-library-threads    per-thread errors; the same bits from every thread
#   check-library-coverage   100 % of lines and branches (gcovr)
#   check-library-sanitize   all of the above under ASan + UBSan (+ LSan)
# and, for CI (too slow for make check):
#   check-library-valgrind   all of the above under valgrind memcheck (a sample
#                            of the bad arguments; -full: every case)
# and `make fuzz` (FUZZ_SECONDS=60): the random driver, and libFuzzer when
# clang is installed. Each test binary is built three ways: plain (the flags
# of the library), coverage (-O0 --coverage) and sanitized.

LIBT_DIR    := tests/library
LIBT_TESTS  := test_qkv test_sdpa test_mha test_mask test_fast test_errors test_bad_args \
               test_alloc test_fuzz test_threads
LIBT_HELP   := $(LIBT_DIR)/alloc_fail.c $(LIBT_DIR)/fuzz_core.c
LIBT_HDRS   := $(wildcard $(LIBT_DIR)/*.h) $(wildcard tangled/examples/*.h)
LIBT_WRAP   := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
LIBT_LIBS   := -lcriterion -lpthread $(LDLIBS)
LIBT_RUN     = --jobs 1 --short-filename

# ---- three builds of the library and its tests ----------------------------------
LIBT_FLAGS_plain :=
LIBT_FLAGS_cov   := -O0 -g --coverage -fprofile-update=atomic  # threads share counters
LIBT_FLAGS_asan  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                    -fno-sanitize-recover=all

# libt_build(variant): objects of the library and the tests, in $(BUILD)/libtest-variant
define libt_build
LIBT_OUT_$(1)  := $$(BUILD)/libtest-$(1)
LIBT_OBJS_$(1) := $$(LIB_SRCS:tangled/%.c=$$(LIBT_OUT_$(1))/obj/%.o)
LIBT_BINS_$(1) := $$(LIBT_TESTS:%=$$(LIBT_OUT_$(1))/%)
$$(LIBT_OBJS_$(1)): $$(LIBT_OUT_$(1))/obj/%.o: tangled/%.c
	@mkdir -p $$(@D)
	$$(call say,CC,$$@)
	$$(Q)$$(COMPILE) $$(LIBT_FLAGS_$(1)) -MMD -MP -c $$< -o $$@
$$(LIBT_BINS_$(1)): $$(LIBT_OUT_$(1))/%: $$(LIBT_DIR)/%.c $$(LIBT_HELP) $$(LIBT_HDRS) $$(LIBT_OBJS_$(1))
	@mkdir -p $$(@D)
	$$(call say,CCLD,$$@)
	$$(Q)$$(COMPILE) $$(LIBT_FLAGS_$(1)) $$< $$(LIBT_HELP) $$(LIBT_OBJS_$(1)) \
	  $$(LIBT_WRAP) $$(LIBT_LIBS) -o $$@
-include $$(LIBT_OBJS_$(1):.o=.d)
endef
$(eval $(call libt_build,plain))
$(eval $(call libt_build,cov))
$(eval $(call libt_build,asan))

.PHONY: check-library check-library-bad-args check-library-alloc check-library-fuzz \
        check-library-threads check-library-coverage check-library-sanitize \
        check-library-valgrind fuzz
CHECK_TARGETS += check-library check-library-bad-args check-library-alloc \
                 check-library-fuzz check-library-threads
CHECK_ALL_TARGETS += check-library-coverage check-library-sanitize check-library-valgrind

# libt_run(binaries...) - each test binary in turn; stop at the first failure
libt_run = set -e; for t in $(1); do echo "$$t:"; $$t $(LIBT_RUN); done

check-library: $(LIBT_OUT_plain)/test_qkv $(LIBT_OUT_plain)/test_sdpa \
               $(LIBT_OUT_plain)/test_mha $(LIBT_OUT_plain)/test_mask \
               $(LIBT_OUT_plain)/test_fast $(LIBT_OUT_plain)/test_errors
	@$(call libt_run,$^)
check-library-bad-args: $(LIBT_OUT_plain)/test_bad_args
	@$(call libt_run,$^)
check-library-alloc: $(LIBT_OUT_plain)/test_alloc
	@$(call libt_run,$^)
check-library-fuzz: $(LIBT_OUT_plain)/test_fuzz
	@$(call libt_run,$^)
check-library-threads: $(LIBT_OUT_plain)/test_threads
	@$(call libt_run,$^)

# ---- coverage: every line and every branch of tangled/minimodel/ --------------------
# The counters are reset, every test runs, and gcovr (Debian's) reports; it
# fails under 100 %. Branches the compiler adds where the source has none are
# not counted (--exclude-unreachable-branches); a branch of the book's code
# that cannot be taken must be removed, or marked in the book with its reason.
GCOVR = gcovr --root . --filter 'tangled/minimodel/' --object-directory $(LIBT_OUT_cov) \
        --exclude-unreachable-branches $(LIBT_OUT_cov)
check-library-coverage: $(LIBT_BINS_cov)
	@find $(LIBT_OUT_cov) -name '*.gcda' -delete
	@set -e; for t in $^; do $$t $(LIBT_RUN) > $(LIBT_OUT_cov)/$$(basename $$t).log 2>&1 \
	  || { cat $(LIBT_OUT_cov)/$$(basename $$t).log; exit 1; }; done
	@$(GCOVR) --branches | sed -n '/^File/,$$p' | grep -v -e '^--*$$' -e '^TOTAL'
	@$(GCOVR) --print-summary --fail-under-line 100 --fail-under-branch 100 \
	  -o $(LIBT_OUT_cov)/gcovr.txt > $(LIBT_OUT_cov)/summary.txt; status=$$?; \
	sed 's/^/coverage of tangled\/minimodel\/: /' $(LIBT_OUT_cov)/summary.txt; exit $$status

# ---- sanitizers: ASan + UBSan (no recovery) and LeakSanitizer ------------------------
# Criterion reports a leaking test as passed, and a child's sanitizer report
# can be lost in its output; so every report goes to a file of its own
# (log_path), and any file there fails the group, printed in full. A request
# that no allocator can meet (mha_forward_causal's mask of 8 EB, in the
# bad-argument table) returns NULL, as from the C library, rather than
# stopping ASan (allocator_may_return_null); the one line ASan then writes,
# "WARNING: AddressSanitizer failed to allocate 0x... bytes", is not a
# report (the test checks the MM_ENOMEM), and is removed before the count.
LIBT_SAN_LOGS = $(LIBT_OUT_asan)/reports
check-library-sanitize: $(LIBT_BINS_asan)
	@rm -rf $(LIBT_SAN_LOGS) && mkdir -p $(LIBT_SAN_LOGS)
	@status=0; for t in $^; do echo "$$t:"; \
	  ASAN_OPTIONS=log_path=$(LIBT_SAN_LOGS)/asan:detect_leaks=1:abort_on_error=0:exitcode=86:allocator_may_return_null=1 \
	  UBSAN_OPTIONS=log_path=$(LIBT_SAN_LOGS)/ubsan:print_stacktrace=1:halt_on_error=1 \
	  MM_FUZZ_CASES=3000 $$t $(LIBT_RUN) || status=1; done; \
	for f in $(LIBT_SAN_LOGS)/*; do [ -f "$$f" ] || continue; \
	  sed -i '/^==[0-9]*==WARNING: AddressSanitizer failed to allocate 0x[0-9a-f]* bytes$$/d' "$$f"; \
	  [ -s "$$f" ] || rm -f "$$f"; done; \
	if [ -n "$$(ls $(LIBT_SAN_LOGS))" ]; then \
	  echo "sanitize: the sanitizers reported (the tests' own verdicts may say passed):"; \
	  cat $(LIBT_SAN_LOGS)/*; status=1; fi; \
	[ $$status -eq 0 ] && echo "sanitize: ASan, UBSan and LSan silent over $(words $^) test programs"; \
	exit $$status

# ---- valgrind memcheck over every test process (Criterion forks: trace them) -----------
# Each process writes its own log; a log whose ERROR SUMMARY is not 0 (errors,
# or definite/indirect leaks, which --errors-for-leak-kinds makes errors)
# fails the group. Valgrind costs about 2 s per process here, too slow for
# make check: check-library-valgrind (every test program, every 16th case of
# the bad-argument table, 300 fuzz cases: about 5 minutes) and
# check-library-valgrind-full (every case, about 1040 processes: over half an
# hour, with chapter 04) are for CI.
LIBT_VG_LOGS = $(BUILD)/libtest-valgrind
VALGRIND = valgrind --trace-children=yes --error-exitcode=99 --leak-check=full \
  --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
  --log-file=$(LIBT_VG_LOGS)/vg.%p
# libt_valgrind(sample) - every plain test binary under valgrind
define libt_valgrind
	@rm -rf $(LIBT_VG_LOGS) && mkdir -p $(LIBT_VG_LOGS)
	@status=0; for t in $(LIBT_BINS_plain); do echo "$$t:"; \
	  MM_FUZZ_CASES=300 MM_BAD_ARGS_EVERY=$(1) $(VALGRIND) $$t --jobs 1 --short-filename \
	  || status=1; done; \
	bad=$$(grep -L 'ERROR SUMMARY: 0 errors' $(LIBT_VG_LOGS)/vg.*); \
	if [ -n "$$bad" ]; then echo "valgrind: errors or leaks:"; cat $$bad; status=1; fi; \
	[ $$status -eq 0 ] && echo "valgrind: $$(ls $(LIBT_VG_LOGS) | wc -l) processes, no error, no leak"; \
	exit $$status
endef
.PHONY: check-library-valgrind-full
check-library-valgrind: $(LIBT_BINS_plain)
	$(call libt_valgrind,16)
check-library-valgrind-full: $(LIBT_BINS_plain) ## every library test under valgrind (long)
	$(call libt_valgrind,1)

# ---- make fuzz: a long run ---------------------------------------------------------------
FUZZ_SECONDS ?= 60
LIBT_FUZZ_DRIVER := $(LIBT_OUT_asan)/fuzz-driver
$(LIBT_FUZZ_DRIVER): $(LIBT_DIR)/fuzz_driver.c $(LIBT_DIR)/fuzz_core.c $(LIBT_HDRS) $(LIBT_OBJS_asan)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) $(LIBT_FLAGS_asan) $< $(LIBT_DIR)/fuzz_core.c $(LIBT_OBJS_asan) $(LDLIBS) -o $@
LIBT_LIBFUZZER := $(BUILD)/libtest-libfuzzer/fuzz-libfuzzer
$(LIBT_LIBFUZZER): $(LIBT_DIR)/fuzz_libfuzzer.c $(LIBT_DIR)/fuzz_core.c $(LIBT_HDRS) $(LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(call say,CLANG,$@)
	$(Q)clang $(MM_CPPFLAGS) -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all $< $(LIBT_DIR)/fuzz_core.c $(LIB_SRCS) -lm -o $@
fuzz: $(LIBT_FUZZ_DRIVER) ## fuzz the library for FUZZ_SECONDS=60 (and libFuzzer with clang)
	$(LIBT_FUZZ_DRIVER) --seconds $(FUZZ_SECONDS)
	@if command -v clang > /dev/null; then $(MAKE) $(LIBT_LIBFUZZER) && \
	  mkdir -p $(BUILD)/libtest-libfuzzer/corpus && \
	  $(LIBT_LIBFUZZER) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
	    $(BUILD)/libtest-libfuzzer/corpus; \
	else echo "fuzz: clang not installed, libFuzzer skipped (the random driver ran)"; fi

# ---- mutation testing (make check-all) ---------------------------------------------
# ---- make check-mutants: mutation testing of tangled/minimodel/*.c
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
MUT_FIRST := test_qkv test_sdpa test_mha test_mask test_fast test_errors test_alloc \
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
CHECK_ALL_TARGETS += check-mutants check-mutants-selftest

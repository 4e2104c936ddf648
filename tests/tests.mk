# tests.mk - the book's claims, the editions; the library's gates
# (tests/library/library.mk), the oracle (below) and the
# bench (bench/bench.mk, make bench) are included at the end.

TEST_BIN  := $(BUILD)/tests

.PHONY: check-claims check-tangle check-committed
CHECK_TARGETS += check-tangle check-claims

# ---- claims -------------------------------------------------------------------
# Every number of the prose (tests/claims.tsv) is recomputed by a facts
# program: a program that prints key=value lines when given --facts, found in
# one of these directories.
CLAIMS_DIRS  := $(BUILD)/examples $(BUILD)/figures/bin
CHECK_CLAIMS  = python3 tests/check_claims.py $(CLAIMS_DIRS:%=--dir %)
CLAIMS_TEST  := $(TEST_BIN)/claims-selftest

# The check runs on the real chapters, then on cases it must reject (so that
# it can fail): a number changed in the prose, a source whose key does not
# exist, a source whose program does not exist. Each must fail for its reason.
check-claims: $(FIGURE_BINS) examples
	$(Q)$(CHECK_CLAIMS) tests/claims.tsv $(NW_EN) $(NW_ES)
	$(Q)python3 tests/check_claims.py --self-test
	@mkdir -p $(CLAIMS_TEST)/en
	@sed 's/0\.7311/0.7312/' book/en/01-qkv.nw > $(CLAIMS_TEST)/en/01-qkv.nw
	@$(call claims_first_source,p ":no.such.key") tests/claims.tsv > $(CLAIMS_TEST)/no-key.tsv
	@$(call claims_first_source,"no-such-program:" k) tests/claims.tsv > $(CLAIMS_TEST)/no-program.tsv
	$(Q)$(call claims_rejects,a changed number (0.7312),tests/claims.tsv $(CLAIMS_TEST)/en/01-qkv.nw,the number 0.7312 is stated)
	$(Q)$(call claims_rejects,a source with no such key,$(CLAIMS_TEST)/no-key.tsv $(NW_EN),no value for [^ ]*:no.such.key)
	$(Q)$(call claims_rejects,a source with no such program,$(CLAIMS_TEST)/no-program.tsv $(NW_EN),no program no-such-program)

# claims_first_source(new): the table with its first row's source PROGRAM:KEY
# replaced by new, an awk expression of p (PROGRAM) and k (KEY)
claims_first_source = awk -F'\t' -v OFS='\t' '!/^\#/ && NF == 3 && !done { \
	  p = $$2; sub(/:.*/, "", p); k = $$2; sub(/^[^:]*:/, "", k); $$2 = $(1); done = 1 } 1'

# claims_rejects(what, arguments, message): the check must fail and say message
claims_rejects = if $(CHECK_CLAIMS) $(2) > $(CLAIMS_TEST)/out 2>&1; then \
	  echo "claims self-test: $(1) was NOT caught"; exit 1; \
	elif ! grep -q '$(3)' $(CLAIMS_TEST)/out; then \
	  echo "claims self-test: $(1) failed without saying '$(3)':"; cat $(CLAIMS_TEST)/out; exit 1; \
	else echo "claims self-test: $(1) is caught"; fi

# ---- the README's example and the learner's box ---------------------------------
# README.md shows the program tangled/examples/use-layer.c (from chapter 04)
# and its output; both must be what the book tangles and the program prints.
# README.md and README.es.md open with the learner's box (check-start-here.py).
CHECK_TARGETS += check-readme
.PHONY: check-readme
check-readme: $(BUILD)/examples/use-layer
	$(Q)python3 tests/book/check-readme.py README.md tangled/examples/use-layer.c $<
	$(Q)python3 tests/book/check-readme.py --self-test README.md tangled/examples/use-layer.c $<
	$(Q)$(MAKE) -s --no-print-directory help > $(BUILD)/help.txt
	$(Q)python3 tests/book/check-start-here.py $(BUILD)/help.txt README.md README.es.md
	$(Q)python3 tests/book/check-start-here.py --self-test $(BUILD)/help.txt README.md README.es.md

# ---- short functions ------------------------------------------------------------
# No C function outside the tests is over 60 lines: the library, the labs'
# skeletons, the judge (its subjects are tests), the figures and the bench.
CHECK_TARGETS += check-function-length
.PHONY: check-function-length
check-function-length:
	@sh tests/check_function_length.sh --self-test 60
	@sh tests/check_function_length.sh 60 $$(find tangled labs judge figures bench -name '*.c' \
	  ! -path '*/subjects/*' ! -path 'judge/grade/tests/*' | sort) && \
	  echo "function length: every C function outside the tests is 60 lines or fewer"

# ---- tangle -------------------------------------------------------------------
# The tree agrees with itself: both editions tangle to the same bytes, and
# tangled/ is what book/en tangles to (after this tree's own tangle).
# And `make -n` (with a book newer than the last tangle) writes nothing:
# nothing is tangled while make reads its makefiles.
check-tangle: $(BUILD)/tangle.stamp
	@sh tests/check_tangle.sh $(BUILD)/tangle-check
	@rm -rf $(BUILD)/dry-run; $(MAKE) -n BUILD=$(BUILD)/dry-run all check > /dev/null 2>&1; \
	  if [ -e $(BUILD)/dry-run ]; then echo "tangle: make -n wrote $(BUILD)/dry-run:"; \
	    find $(BUILD)/dry-run | head -5; exit 1; fi; \
	  echo "tangle: make -n writes nothing (the book is tangled by a rule, not while make reads)"

# tangled/ is committed: meaningful on a clean checkout (CI runs it after make check).
check-committed: $(BUILD)/tangle.stamp ## tangled/ is what git has committed (CI, after make check)
	@if git diff --quiet HEAD -- tangled/ && \
	    test -z "$$(git ls-files --others --exclude-standard -- tangled/)"; then \
	  echo "committed: tangled/ is what git has committed"; \
	else \
	  echo "committed: tangled/ differs from the last commit; commit it with the chapter that changed it:"; \
	  git status --short -- tangled/; exit 1; \
	fi

include tests/library/library.mk

# ---- blueprint ----------------------------------------------------------------
# tangled/minimodel/attention/BLUEPRINT.md names every public function of the
# attention headers with the headers' own signature (and the check can fail).
BLUEPRINT := tangled/minimodel/attention/BLUEPRINT.md
.PHONY: check-blueprint
CHECK_TARGETS += check-blueprint
check-blueprint: $(BUILD)/tangle.stamp
	$(Q)python3 tests/book/check-blueprint.py $(BLUEPRINT) $(filter tangled/minimodel/attention/%.h,$(ROOTS))
	$(Q)python3 tests/book/check-blueprint.py --self-test $(BLUEPRINT) $(filter tangled/minimodel/attention/%.h,$(ROOTS))

# ---- the independent oracle of the multi-head layer (make check):
#   check-oracle   the library's mha_forward and mha_forward_causal against a
#                  NumPy implementation written from the math, and against
#                  PyTorch's nn.MultiheadAttention, on many shapes, seeds,
#                  hand-set weights and chapter 04's masks in each of
#                  PyTorch's forms; chapter 05's tiled layer and decoding
#                  loop against both causal layers; the masked runs against
#                  the library's own unpadded and prefix runs
#                  (tests/oracle/README.md)
# Debian's Python (with python3-numpy and python3-torch, make deps) runs it,
# not whatever python3 comes first on PATH.

ORACLE_DIR    := tests/oracle
ORACLE_DUMP   := $(BUILD)/oracle/mha_dump
ORACLE_PYTHON ?= /usr/bin/python3
# e.g. ORACLE_FLAGS='--break torch-wo-not-transposed': see it fail
ORACLE_FLAGS  ?=

$(ORACLE_DUMP): $(ORACLE_DIR)/mha_dump.c $(LIB)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) $< $(LIB) $(LDLIBS) -o $@

.PHONY: check-oracle
CHECK_TARGETS += check-oracle
check-oracle: $(ORACLE_DUMP)
	$(Q)$(ORACLE_PYTHON) $(ORACLE_DIR)/numpy_mha.py --dump $(ORACLE_DUMP) \
	  --product $(or $(BLAS),readable) $(ORACLE_FLAGS)
include bench/bench.mk

# ---- the learner's desk -------------------------------------------------------------
# make lab's NN=1, its report without make's error lines, make lab-try
# (tests/check_learner_desk.sh, in a copy of the workbook)
CHECK_ALL_TARGETS += check-learner-desk
.PHONY: check-learner-desk
check-learner-desk:
	@sh tests/check_learner_desk.sh > $(BUILD)/learner-desk.log 2>&1 \
	  || { cat $(BUILD)/learner-desk.log; exit 1; }
	@tail -n 1 $(BUILD)/learner-desk.log

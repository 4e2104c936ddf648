# tests.mk - the library's Criterion tests, the book's claims, the editions.

TEST_BIN := $(BUILD)/tests
LIB_TESTS := $(TEST_BIN)/test_qkv $(TEST_BIN)/test_errors

$(TEST_BIN)/%: tests/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(LIB) -lcriterion $(LDLIBS) -o $@

$(TEST_BIN)/claims $(TEST_BIN)/bench: $(TEST_BIN)/%: tests/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(LIB) $(LDLIBS) -o $@

.PHONY: check-library check-claims check-tangle bench
CHECK_TARGETS += check-tangle check-library check-claims

check-library: $(LIB_TESTS)
	@set -e; for t in $(LIB_TESTS); do echo "== $$t"; $$t --jobs 2; done

# The claims check runs on the real chapters, then on a copy with one number
# changed, which it must reject (so the check itself can fail).
check-claims: $(TEST_BIN)/claims $(FIGURE_BINS)
	python3 tests/check_claims.py tests/claims.tsv $(TEST_BIN)/claims $(BUILD)/figures/bin $(NW_EN) $(NW_ES)
	@mkdir -p $(TEST_BIN)/claims-selftest/en
	@sed 's/0\.7311/0.7312/' book/en/01-qkv.nw > $(TEST_BIN)/claims-selftest/en/01-qkv.nw
	@if python3 tests/check_claims.py tests/claims.tsv $(TEST_BIN)/claims $(BUILD)/figures/bin \
	     $(TEST_BIN)/claims-selftest/en/01-qkv.nw > $(TEST_BIN)/claims-selftest/out 2>&1; then \
	  echo "claims self-test: a changed number was NOT caught"; exit 1; \
	else echo "claims self-test: a changed number (0.7312) is caught"; fi

check-tangle:
	@sh tests/check_tangle.sh $(BUILD)/tangle-check

bench: $(TEST_BIN)/bench
	$(TEST_BIN)/bench 256

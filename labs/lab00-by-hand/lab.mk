# labs/lab00-by-hand/lab.mk - lab 00, attention by hand (included by the top Makefile).
#   make lab00  (or make lab NN=00)   check labs/lab00-by-hand/answers.txt, every step in detail
#   make check-lab00                  the same, quietly; fails only if a filled step is wrong
#   make check-harness-lab00          the checker's self-test (tests/lab00/)
# LAB_LANG=es (or a Spanish LANG) prints the checker's messages in Spanish.

LAB00_DIR     := labs/lab00-by-hand
LAB00_TESTS   := tests/lab00
LAB00_BUILD   := $(BUILD)/labs/lab00
LAB00_CHECK   := $(LAB00_BUILD)/check
LAB00_SAN     := $(LAB00_BUILD)/check-sanitized
LAB00_ANSWERS := $(LAB00_DIR)/answers.txt
LAB00_LANG     = $(if $(LAB_LANG),--lang=$(LAB_LANG))
LAB00_SANFLAGS := -std=c11 -O1 -g -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=all

.PHONY: lab00 check-lab00 check-harness-lab00
CHECK_TARGETS += check-lab00 check-harness-lab00

# the checker: the lab's one C file linked with the library
$(LAB00_CHECK): $(LAB00_DIR)/check.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(LIB) $(LDLIBS) -o $@

# the same, with AddressSanitizer and UBSan, built from the library's sources
$(LAB00_SAN): $(LAB00_DIR)/check.c $(LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LAB00_SANFLAGS) $< $(LIB_SRCS) $(LDLIBS) -o $@

lab00: $(LAB00_CHECK)
	@$(LAB00_CHECK) $(LAB00_LANG) $(LAB00_ANSWERS)

check-lab00: $(LAB00_CHECK)
	@$(LAB00_CHECK) --brief $(LAB00_LANG) $(LAB00_ANSWERS)

check-harness-lab00: $(LAB00_CHECK) $(LAB00_SAN)
	@python3 $(LAB00_TESTS)/lab00.py verify $(LAB00_CHECK) > $(LAB00_BUILD)/verify.out 2>&1 \
	  || { grep -v '^ok ' $(LAB00_BUILD)/verify.out; exit 1; }
	@grep -c '^ok ' $(LAB00_BUILD)/verify.out | sed 's/^/lab00 verify: /; s/$$/ claims checked (inputs, exact values, READMEs, case files)/'
	@sh $(LAB00_TESTS)/run-cases.sh $(LAB00_CHECK) $(LAB00_BUILD)/harness
	@ASAN_OPTIONS=detect_leaks=0:exitcode=99 UBSAN_OPTIONS=exitcode=98:print_stacktrace=1 \
	  sh $(LAB00_TESTS)/run-cases.sh $(LAB00_SAN) $(LAB00_BUILD)/harness-sanitized full

# judge/lab00/selftest.mk - the self-test of lab 00's checker (make check-harness-lab00):
#   1. lab00.py verify: the exact values against plain Python; the inputs shown
#      in both READMEs and answers.txt against the checker's (example.h); the
#      lines of --summary (read by make progress); every subject of
#      judge/lab00/subjects/ is what `lab00.py gen` writes;
#   2. every subject (an answers file that states what the checker must say
#      about it) run by judge/selftest/run-subject.sh, with the checker and with
#      the checker built under AddressSanitizer and UBSan;
#   3. lab00.py cuts: every prefix of a right file, and the file without each
#      of its lines, under the sanitizers: exit 0, 1 or 2, never a crash;
#   4. check --self-test: the example meets its own requirements;
#   5. the NumPy part (numpy_check.py): every subject of judge/lab00/subjects/numpy/
#      (the learner's numpy_attention.py done, solution.py, or with one change:
#      a NumPy mistake, an exception, a hang, a wrong shape, a language, a mode;
#      skeleton.py is the untouched file) run by run-subject.sh with a 1 s
#      deadline; no process left behind; check --reference-json the same under
#      the sanitizers; then lab00.py mutants: each mutant of numpy_check.py
#      makes the subject that proves its promise fail.
# `make gen-harness-lab00` rewrites the subjects after a change to the checker,
# the template (answers.txt) or lab00.py.
include judge/lab00/lab.mk


LAB00_ST       := $(LAB00_BUILD)/selftest
LAB00_SAN      := $(LAB00_BUILD)/check-sanitized
LAB00_SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
LAB00_SANENV   := ASAN_OPTIONS=detect_leaks=0:exitcode=99 UBSAN_OPTIONS=exitcode=98:print_stacktrace=1
LAB00_PY       := python3 judge/lab00/subjects/lab00.py
LAB00_PRISTINE := $(LAB00_ST)/pristine-answers.txt
LAB00_SUBJECTS := $(sort $(notdir $(basename $(wildcard judge/lab00/subjects/*.txt))))
# the NumPy part: its subjects, the untouched skeleton, the checker as a subject runs it
LAB00_NPST       := $(LAB00_ST)/numpy
LAB00_NPSUBJECTS := $(sort $(notdir $(basename $(wildcard judge/lab00/subjects/numpy/*.py))))
LAB00_NPPRISTINE := $(LAB00_NPST)/pristine-numpy_attention.py
LAB00_NPRUN       = $(LAB00_PYTHON) judge/lab00/numpy_check.py --checker $(LAB00_CHECK) \
                    --answers $(LAB00_PRISTINE) --timeout 1 --grace 3

.PHONY: check-harness-lab00 check-harness-lab00-numpy gen-harness-lab00
CHECK_ALL_TARGETS += check-harness-lab00

# the checker with AddressSanitizer and UBSan, built from the library's sources
$(LAB00_SAN): judge/lab00/check.c judge/lab00/example.h $(LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(CC) $(MM_CPPFLAGS) $(CPPFLAGS) $(MM_CFLAGS) $(LAB00_SANFLAGS) $< $(LIB_SRCS) $(LDLIBS) -o $@

# the untouched answers file (see pristine.sh)
$(LAB00_PRISTINE): $(LAB00_ANSWERS) lab-selftest-always
	@$(LAB_PRISTINE) $(LAB00_ANSWERS) '?' $@

# each subject, with each checker (never a file: every subject runs every time)
$(LAB00_ST)/plain/%.run: $(LAB00_CHECK)
	@mkdir -p $(@D)
	@$(LAB_RUN_SUBJECT) --input judge/lab00/subjects/$*.txt $(@:.run=.out) $(LAB00_CHECK)
$(LAB00_ST)/sanitized/%.run: $(LAB00_SAN)
	@mkdir -p $(@D)
	@$(LAB00_SANENV) $(LAB_RUN_SUBJECT) --input judge/lab00/subjects/$*.txt $(@:.run=.out) $(LAB00_SAN)

$(LAB00_ST)/verify: $(LAB00_CHECK) $(LAB00_PRISTINE) lab-selftest-always
	@mkdir -p $(@D)
	@$(LAB00_PY) verify $(LAB00_CHECK) $(LAB00_PRISTINE) > $@.out 2>&1 \
	  || { grep -v '^ok ' $@.out; exit 1; }
	@echo "lab 00 verify: $$(grep -c '^ok ' $@.out) statements hold (exact values, inputs in READMEs and answers.txt, subjects up to date)"

# the untouched NumPy skeleton (see pristine.sh)
$(LAB00_NPPRISTINE): $(LAB00_NUMPY) lab-selftest-always
	@$(LAB_PRISTINE) $(LAB00_NUMPY) 'LAB_TODO' $@

# each NumPy subject (skeleton.py only states: the checker gets the pristine skeleton)
$(LAB00_NPST)/%.run: $(LAB00_CHECK) $(LAB00_PRISTINE)
	@mkdir -p $(@D)
	@$(LAB_RUN_SUBJECT) --input judge/lab00/subjects/numpy/$*.py $(@:.run=.out) $(LAB00_NPRUN)
$(LAB00_NPST)/skeleton.run: $(LAB00_CHECK) $(LAB00_PRISTINE) $(LAB00_NPPRISTINE)
	@mkdir -p $(@D)
	@$(LAB_RUN_SUBJECT) judge/lab00/subjects/numpy/skeleton.py $(@:.run=.out) $(LAB00_NPRUN) $(LAB00_NPPRISTINE)

# the NumPy part: its subjects, then nothing left running, the reference the
# same under the sanitizers, and each mutant of the checker caught
check-harness-lab00-numpy: $(LAB00_NPSUBJECTS:%=$(LAB00_NPST)/%.run) $(LAB00_SAN) $(LAB00_PRISTINE)
	@echo "lab 00 NumPy part: $(words $(LAB00_NPSUBJECTS)) subjects, each as it states"
	@left=$$(sh judge/selftest/leftovers.sh 'run-learne[r] judge/lab00/subjects/numpy/|lab00-numpy-selftest-leftove[r]'); \
	  if [ -n "$$left" ]; then \
	    echo "  FAIL  processes left behind by the NumPy subjects:"; ps -o pid=,args= -p "$$(echo $$left | tr ' ' ,)"; \
	    kill -9 $$left; exit 1; \
	  fi
	@for a in $(LAB00_PRISTINE) judge/lab00/subjects/correct-2dp.txt judge/lab00/subjects/partial-wrong.txt; do \
	  $(LAB00_CHECK) --reference-json $$a > $(LAB00_NPST)/ref-plain.json 2>&1; \
	  $(LAB00_SANENV) $(LAB00_SAN) --reference-json $$a > $(LAB00_NPST)/ref-sanitized.json 2>&1; \
	  cmp -s $(LAB00_NPST)/ref-plain.json $(LAB00_NPST)/ref-sanitized.json \
	    || { echo "  FAIL  check --reference-json $$a differs under the sanitizers"; exit 1; }; \
	done
	@$(LAB00_PY) mutants $(LAB00_CHECK) $(LAB00_PRISTINE) $(LAB00_NPST)/mutants \
	  $(subst judge/lab00/numpy_check.py,@CHECKER@,$(LAB00_NPRUN))

check-harness-lab00: $(LAB00_ST)/verify $(LAB00_SUBJECTS:%=$(LAB00_ST)/plain/%.run) \
                     $(LAB00_SUBJECTS:%=$(LAB00_ST)/sanitized/%.run) $(LAB00_PRISTINE) check-harness-lab00-numpy
	@echo "lab 00 harness self-test: $(words $(LAB00_SUBJECTS)) subjects, each as it states (plain and sanitized)"
	@$(LAB00_SANENV) $(LAB00_PY) cuts $(LAB00_SAN) $(LAB00_PRISTINE) $(LAB00_ST)/cuts
	@$(LAB00_CHECK) --self-test > $(LAB00_ST)/self-test.out 2>&1 \
	  || { cat $(LAB00_ST)/self-test.out; exit 1; }
	@echo "lab 00 check --self-test: $$(grep -c '^ok ' $(LAB00_ST)/self-test.out) requirements of the example hold"

gen-harness-lab00: $(LAB00_CHECK) $(LAB00_PRISTINE)
	$(LAB00_PY) gen $(LAB00_CHECK) $(LAB00_PRISTINE)

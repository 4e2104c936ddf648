# judge/lab00/selftest.mk - the self-test of lab 00's checker (make check-harness-lab00):
#   0. lab00.py gen writes the generated subjects afresh into
#      build/labs/lab00/selftest/subjects/ (numpy/ inside); the hand-written
#      ones stay in judge/lab00/subjects/ (correct-4dp.txt, numpy/solution.py,
#      numpy/skeleton.py);
#   1. lab00.py verify: the exact values against plain Python; the inputs shown
#      in both READMEs and answers.txt against the checker's (example.h); the
#      lines of --summary (read by make progress);
#   2. every subject (an answers file that states what the checker must say
#      about it) run by judge/selftest/run-subject.sh, with the checker and with
#      the checker built under AddressSanitizer and UBSan, two at a time;
#   3. lab00.py cuts: every prefix of a right file, and the file without each
#      of its lines, under the sanitizers: exit 0, 1 or 2, never a crash;
#   4. check --self-test: the example meets its own requirements;
#   5. the NumPy part (numpy_check.py): every NumPy subject
#      (the learner's numpy_attention.py done, solution.py, or with one change:
#      a NumPy mistake, an exception, a hang, a wrong shape, a language, a mode;
#      skeleton.py is the untouched file) run by run-subject.sh with a 1 s
#      deadline; no process left behind; check --reference-json the same under
#      the sanitizers; then lab00.py mutants: each mutant of numpy_check.py
#      makes the subject that proves its promise fail.
include judge/lab00/lab.mk
include judge/selftest/selftest.mk

LAB00_ST       := $(LAB00_BUILD)/selftest
LAB00_SAN      := $(LAB00_BUILD)/check-sanitized
LAB00_SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
LAB00_SANENV   := ASAN_OPTIONS=detect_leaks=0:exitcode=99 UBSAN_OPTIONS=exitcode=98:print_stacktrace=1
LAB00_PY       := python3 judge/lab00/subjects/lab00.py
LAB00_PRISTINE := $(LAB00_ST)/pristine-answers.txt
LAB00_GEN      := $(LAB00_ST)/subjects
# the NumPy part: its folder, the untouched skeleton, the checker as a subject runs it
LAB00_NPST       := $(LAB00_ST)/numpy
LAB00_NPPRISTINE := $(LAB00_NPST)/pristine-numpy_attention.py
LAB00_NPRUN       = $(LAB00_PYTHON) judge/lab00/numpy_check.py --checker $(LAB00_CHECK) \
                    --answers $(LAB00_PRISTINE) --timeout 1 --grace 3

.PHONY: check-harness-lab00 check-harness-lab00-numpy $(LAB00_GEN)
CHECK_ALL_TARGETS += check-harness-lab00

# the checker with AddressSanitizer and UBSan, built from the library's sources
$(LAB00_SAN): judge/lab00/check.c judge/lab00/example.h $(LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(CC) $(MM_CPPFLAGS) $(CPPFLAGS) $(MM_CFLAGS) $(LAB00_SANFLAGS) $< $(LIB_SRCS) $(LDLIBS) -o $@

# the untouched answers file (see pristine.sh)
$(LAB00_PRISTINE): $(LAB00_ANSWERS) lab-selftest-always
	@$(LAB_PRISTINE) $(LAB00_ANSWERS) '?' $@

# the generated subjects, written afresh on every self-test
$(LAB00_GEN): $(LAB00_CHECK) $(LAB00_PRISTINE)
	@$(LAB00_PY) gen $(LAB00_CHECK) $(LAB00_PRISTINE) $@ > /dev/null

# lab00_run(SUBJECTS,OUTDIR,COMMAND[,ENV]) - run-subject.sh on each subject
# (every time: no file remembers a run), two at a time, its output in OUTDIR/NAME.out
lab00_run = mkdir -p $(2) && for s in $(1); do echo $$s; done | $(4) xargs -P2 -n1 \
  sh -c 'n=$$(basename "$$1"); $(LAB_RUN_SUBJECT) --input "$$1" $(2)/$${n%.*}.out $(3)' sh

$(LAB00_ST)/verify: $(LAB00_CHECK) $(LAB00_PRISTINE) $(LAB00_GEN)
	@$(LAB00_PY) verify $(LAB00_CHECK) $(LAB00_PRISTINE) $(LAB00_GEN) > $@.out 2>&1 \
	  || { grep -v '^ok ' $@.out; exit 1; }
	@echo "lab 00 verify: $$(grep -c '^ok ' $@.out) statements hold (exact values, inputs in READMEs and answers.txt)"

# the untouched NumPy skeleton (see pristine.sh)
$(LAB00_NPPRISTINE): $(LAB00_NUMPY) lab-selftest-always
	@$(LAB_PRISTINE) $(LAB00_NUMPY) 'LAB_TODO' $@

# the NumPy part: its subjects (skeleton.py only states: the checker gets the
# pristine skeleton), then nothing left running, the reference the same under
# the sanitizers, and each mutant of the checker caught
check-harness-lab00-numpy: $(LAB00_ST)/verify $(LAB00_SAN) $(LAB00_PRISTINE) $(LAB00_NPPRISTINE)
	@st=0; $(call lab00_run,$(LAB00_GEN)/numpy/*.py judge/lab00/subjects/numpy/solution.py,$(LAB00_NPST),$(LAB00_NPRUN)) || st=1; \
	  $(LAB_RUN_SUBJECT) judge/lab00/subjects/numpy/skeleton.py $(LAB00_NPST)/skeleton.out $(LAB00_NPRUN) $(LAB00_NPPRISTINE) || st=1; \
	  [ $$st = 0 ] && echo "lab 00 NumPy part: $$(ls $(LAB00_GEN)/numpy/*.py judge/lab00/subjects/numpy/*.py | wc -l) subjects, each as it states"
	@left=$$(sh judge/selftest/leftovers.sh 'run-learne[r] $(LAB00_GEN)/numpy/|lab00-numpy-selftest-leftove[r]'); \
	  if [ -n "$$left" ]; then \
	    echo "  FAIL  processes left behind by the NumPy subjects:"; ps -o pid=,args= -p "$$(echo $$left | tr ' ' ,)"; \
	    kill -9 $$left; exit 1; \
	  fi
	@for a in $(LAB00_PRISTINE) $(LAB00_GEN)/correct-2dp.txt $(LAB00_GEN)/partial-wrong.txt; do \
	  $(LAB00_CHECK) --reference-json $$a > $(LAB00_NPST)/ref-plain.json 2>&1; \
	  $(LAB00_SANENV) $(LAB00_SAN) --reference-json $$a > $(LAB00_NPST)/ref-sanitized.json 2>&1; \
	  cmp -s $(LAB00_NPST)/ref-plain.json $(LAB00_NPST)/ref-sanitized.json \
	    || { echo "  FAIL  check --reference-json $$a differs under the sanitizers"; exit 1; }; \
	done
	@$(LAB00_PY) mutants $(LAB00_CHECK) $(LAB00_PRISTINE) $(LAB00_GEN) $(LAB00_NPST)/mutants \
	  $(subst judge/lab00/numpy_check.py,@CHECKER@,$(LAB00_NPRUN))

check-harness-lab00: $(LAB00_ST)/verify $(LAB00_SAN) $(LAB00_PRISTINE) check-harness-lab00-numpy
	@st=0; $(call lab00_run,$(LAB00_GEN)/*.txt judge/lab00/subjects/*.txt,$(LAB00_ST)/plain,$(LAB00_CHECK)) || st=1; \
	  $(call lab00_run,$(LAB00_GEN)/*.txt judge/lab00/subjects/*.txt,$(LAB00_ST)/sanitized,$(LAB00_SAN),$(LAB00_SANENV)) || st=1; \
	  [ $$st = 0 ] && echo "lab 00 harness self-test: $$(ls $(LAB00_GEN)/*.txt judge/lab00/subjects/*.txt | wc -l) subjects, each as it states (plain and sanitized)"
	@$(LAB00_SANENV) $(LAB00_PY) cuts $(LAB00_SAN) $(LAB00_PRISTINE) $(LAB00_ST)/cuts
	@$(LAB00_CHECK) --self-test > $(LAB00_ST)/self-test.out 2>&1 \
	  || { cat $(LAB00_ST)/self-test.out; exit 1; }
	@echo "lab 00 check --self-test: $$(grep -c '^ok ' $(LAB00_ST)/self-test.out) requirements of the example hold"

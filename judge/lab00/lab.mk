# judge/lab00/lab.mk - lab 00, attention by hand (included by the top Makefile).
#   make lab00  (or make lab NN=00)   check labs/lab00-by-hand/answers.txt, every step in
#                                     detail, then part 2, numpy_attention.py (numpy_check.py)
#   make lab NN=00 LAB_PART=hand      only the hand tables (LAB_PART=numpy: only part 2)
#   make check-lab00                  both, quietly; fails only if a filled step or a
#                                     started NumPy table is wrong
#   make check-harness-lab00          the checkers' self-test (below)
# LAB_LANG=es (or a Spanish LANG) prints the checkers' messages in Spanish;
# LAB_ARGS passes options to both checkers (LAB_ARGS=--summary: one line per
# step, then one per NumPy table and numpy:large, for make progress; nothing
# from part 2 when answers.txt cannot be read, so that progress says so).
# Part 2 runs the learner's NumPy with /usr/bin/python3 (LAB00_PYTHON), the
# interpreter Debian's python3-numpy (make deps) serves, whatever python3 is
# first on PATH. make watch/progress/lab-reset: labs/labs.mk.
ifndef LAB00_MK
LAB00_MK := 1

LAB00_DIR     := labs/lab00-by-hand
LAB00_BUILD   := $(BUILD)/labs/lab00
LAB00_CHECK   := $(LAB00_BUILD)/check
LAB00_ANSWERS := $(LAB00_DIR)/answers.txt
LAB00_LANG     = $(if $(LAB_LANG),--lang=$(LAB_LANG))
LAB00_NUMPY   := $(LAB00_DIR)/numpy_attention.py
# every file the learner edits (make watch and make lab-reset use them all)
LAB00_FILES   := $(LAB00_ANSWERS) $(LAB00_NUMPY)
LAB00_PYTHON  ?= /usr/bin/python3
# the NumPy checker, with its reference (the C checker) and hand answers: the learner's
LAB00_NP       = $(LAB00_PYTHON) judge/lab00/numpy_check.py --checker $(LAB00_CHECK) --answers
LAB00_NPCHECK  = $(LAB00_NP) $(LAB00_ANSWERS)

.PHONY: lab00 check-lab00 check-harness-lab00 check-harness-lab00-numpy
CHECK_TARGETS += check-lab00
CHECK_ALL_TARGETS += check-harness-lab00

# the checker: the lab's one C file (and its example.h) linked with the library
$(LAB00_CHECK): judge/lab00/check.c judge/lab00/example.h $(LIB)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) $< $(LIB) $(LDLIBS) -o $@

# the exit status is the larger of the two parts' (0 fine, 1 wrong, 2 unreadable)
lab00: $(LAB00_CHECK) ## Lab 00: check answers.txt step by step, then numpy_attention.py
	@hand=0; numpy=0; \
	if [ '$(LAB_PART)' != numpy ]; then \
	  $(LAB00_CHECK) $(LAB00_LANG) $(LAB_ARGS) $(LAB00_ANSWERS); hand=$$?; fi; \
	if [ '$(LAB_PART)' != hand ] && [ $$hand$(filter --summary,$(LAB_ARGS)) != 2--summary ]; then \
	  $(if $(filter --summary,$(LAB_ARGS)),,[ '$(LAB_PART)' = numpy ] || echo;) \
	  $(LAB00_NPCHECK) $(LAB00_LANG) $(LAB_ARGS) $(LAB00_NUMPY); numpy=$$?; fi; \
	exit $$(( hand > numpy ? hand : numpy ))

check-lab00: $(LAB00_CHECK) ## Lab 00, quietly: fails only if a filled step or a started NumPy table is wrong
	@st=0; $(LAB00_CHECK) --brief $(LAB00_LANG) $(LAB00_ANSWERS) || st=1; \
	$(LAB00_NPCHECK) --brief $(LAB00_LANG) $(LAB00_NUMPY) || st=1; exit $$st

# ---- the checkers' self-test (make check-harness-lab00) -------------------------
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
LAB00_ST       := $(LAB00_BUILD)/selftest
LAB00_SAN      := $(LAB00_BUILD)/check-sanitized
LAB00_SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
LAB00_SANENV   := ASAN_OPTIONS=detect_leaks=0:exitcode=99 UBSAN_OPTIONS=exitcode=98:print_stacktrace=1
LAB00_PY       := python3 judge/lab00/subjects/lab00.py
LAB00_PRISTINE := $(LAB00_ST)/pristine-answers.txt
LAB00_GEN      := $(LAB00_ST)/subjects
LAB00_TXT       = $(LAB00_GEN)/*.txt judge/lab00/subjects/*.txt
# the NumPy part: its folder, the untouched skeleton, the checker as a subject runs it
LAB00_NPST       := $(LAB00_ST)/numpy
LAB00_NPPRISTINE := $(LAB00_NPST)/pristine-numpy_attention.py
LAB00_NPRUN       = $(LAB00_NP) $(LAB00_PRISTINE) --timeout 1 --grace 3
.PHONY: $(LAB00_GEN)

# the checker with AddressSanitizer and UBSan, built from the library's sources
$(LAB00_SAN): judge/lab00/check.c judge/lab00/example.h $(LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(CC) $(MM_CPPFLAGS) $(CPPFLAGS) $(MM_CFLAGS) $(LAB00_SANFLAGS) $< $(LIB_SRCS) $(LDLIBS) -o $@

# the untouched answers file and NumPy skeleton (see pristine.sh)
$(LAB00_PRISTINE): $(LAB00_ANSWERS) lab-selftest-always
	@$(LAB_PRISTINE) $(LAB00_ANSWERS) '?' $@
$(LAB00_NPPRISTINE): $(LAB00_NUMPY) lab-selftest-always
	@$(LAB_PRISTINE) $(LAB00_NUMPY) 'LAB_TODO' $@

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

# skeleton.py only states: the checker gets the pristine skeleton
check-harness-lab00-numpy: $(LAB00_ST)/verify $(LAB00_SAN) $(LAB00_NPPRISTINE) ## Lab 00 self-test, NumPy part only: its subjects, no process left, its checker's mutants caught
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

check-harness-lab00: $(LAB00_ST)/verify $(LAB00_SAN) check-harness-lab00-numpy ## Lab 00's checkers' self-test: every subject as it states, plain and sanitized
	@st=0; $(call lab00_run,$(LAB00_TXT),$(LAB00_ST)/plain,$(LAB00_CHECK)) || st=1; \
	  $(call lab00_run,$(LAB00_TXT),$(LAB00_ST)/sanitized,$(LAB00_SAN),$(LAB00_SANENV)) || st=1; \
	  [ $$st = 0 ] && echo "lab 00 harness self-test: $$(ls $(LAB00_TXT) | wc -l) subjects, each as it states (plain and sanitized)"
	@$(LAB00_SANENV) $(LAB00_PY) cuts $(LAB00_SAN) $(LAB00_PRISTINE) $(LAB00_ST)/cuts
	@$(LAB00_CHECK) --self-test > $(LAB00_ST)/self-test.out 2>&1 \
	  || { cat $(LAB00_ST)/self-test.out; exit 1; }
	@echo "lab 00 check --self-test: $$(grep -c '^ok ' $(LAB00_ST)/self-test.out) requirements of the example hold"

endif

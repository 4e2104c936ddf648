# judge/lab00/lab.mk - lab 00, attention by hand (included by the top Makefile).
#   make lab00  (or make lab NN=00)   check labs/lab00-by-hand/answers.txt, every step in
#                                     detail, then part 2, numpy_attention.py (numpy_check.py)
#   make lab NN=00 LAB_PART=hand      only the hand tables (LAB_PART=numpy: only part 2)
#   make check-lab00                  both, quietly; fails only if a filled step or a
#                                     started NumPy table is wrong
# LAB_LANG=es (or a Spanish LANG) prints the checkers' messages in Spanish;
# LAB_ARGS passes options to both checkers (LAB_ARGS=--summary: one line per
# step, then one per NumPy table and numpy:large, for make progress; nothing
# from part 2 when answers.txt cannot be read, so that progress says so).
# Part 2 runs the learner's NumPy with /usr/bin/python3 (LAB00_PYTHON), the
# interpreter Debian's python3-numpy (make deps) serves, whatever python3 is
# first on PATH. make watch/progress/lab-reset: labs/labs.mk.
# The checkers' self-test, check-harness-lab00, is in judge/lab00/selftest.mk.
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
# the NumPy checker, with its reference (the C checker) and the hand answers
LAB00_NPCHECK  = $(LAB00_PYTHON) judge/lab00/numpy_check.py --checker $(LAB00_CHECK) --answers $(LAB00_ANSWERS)

.PHONY: lab00 check-lab00
CHECK_TARGETS += check-lab00

# the checker: the lab's one C file (and its example.h) linked with the library
$(LAB00_CHECK): judge/lab00/check.c judge/lab00/example.h $(LIB)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) $< $(LIB) $(LDLIBS) -o $@

# the exit status is the larger of the two parts' (0 fine, 1 wrong, 2 unreadable)
lab00: $(LAB00_CHECK)
	@hand=0; numpy=0; \
	if [ '$(LAB_PART)' != numpy ]; then \
	  $(LAB00_CHECK) $(LAB00_LANG) $(LAB_ARGS) $(LAB00_ANSWERS); hand=$$?; fi; \
	if [ '$(LAB_PART)' != hand ] && [ $$hand$(filter --summary,$(LAB_ARGS)) != 2--summary ]; then \
	  $(if $(filter --summary,$(LAB_ARGS)),,[ '$(LAB_PART)' = numpy ] || echo;) \
	  $(LAB00_NPCHECK) $(LAB00_LANG) $(LAB_ARGS) $(LAB00_NUMPY); numpy=$$?; fi; \
	exit $$(( hand > numpy ? hand : numpy ))

check-lab00: $(LAB00_CHECK)
	@st=0; $(LAB00_CHECK) --brief $(LAB00_LANG) $(LAB00_ANSWERS) || st=1; \
	$(LAB00_NPCHECK) --brief $(LAB00_LANG) $(LAB00_NUMPY) || st=1; exit $$st

endif

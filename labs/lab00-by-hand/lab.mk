# labs/lab00-by-hand/lab.mk - lab 00, attention by hand (included by the top Makefile).
#   make lab00  (or make lab NN=00)   check labs/lab00-by-hand/answers.txt, every step in detail
#   make check-lab00                  the same, quietly; fails only if a filled step is wrong
# LAB_LANG=es (or a Spanish LANG) prints the checker's messages in Spanish;
# LAB_ARGS passes options to the checker (LAB_ARGS=--summary: one line per
# step, for make progress). make watch/progress/lab-reset: labs/learner.mk.
# The checker's self-test, check-harness-lab00, is in tests/labs/lab00.mk.
ifndef LAB00_MK
LAB00_MK := 1

LAB00_DIR     := labs/lab00-by-hand
LAB00_BUILD   := $(BUILD)/labs/lab00
LAB00_CHECK   := $(LAB00_BUILD)/check
LAB00_ANSWERS := $(LAB00_DIR)/answers.txt
LAB00_LANG     = $(if $(LAB_LANG),--lang=$(LAB_LANG))

.PHONY: lab00 check-lab00
CHECK_TARGETS += check-lab00

# the checker: the lab's one C file (and its example.h) linked with the library
$(LAB00_CHECK): $(LAB00_DIR)/check.c $(LAB00_DIR)/example.h $(LIB)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) $< $(LIB) $(LDLIBS) -o $@

lab00: $(LAB00_CHECK)
	@$(LAB00_CHECK) $(LAB00_LANG) $(LAB_ARGS) $(LAB00_ANSWERS)

check-lab00: $(LAB00_CHECK)
	@$(LAB00_CHECK) --brief $(LAB00_LANG) $(LAB00_ANSWERS)

endif

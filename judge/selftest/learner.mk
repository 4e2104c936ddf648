# judge/selftest/learner.mk - the self-test of the learner's loop (labs/labs.mk):
#   make check-learner-loop   make watch, make progress and make lab-reset, in a
#                             copy of the repository under $(BUILD)/learner-loop
#                             (judge/selftest/learner-loop.sh says what is checked)
.PHONY: check-learner-loop
CHECK_ALL_TARGETS += check-learner-loop

check-learner-loop:
	@mkdir -p $(BUILD)/learner-loop
	@MAKE='$(MAKE)' sh judge/selftest/learner-loop.sh $(abspath $(BUILD)/learner-loop) \
	  > $(BUILD)/learner-loop/log.txt 2>&1 \
	  || { cat $(BUILD)/learner-loop/log.txt; exit 1; }
	@tail -n 1 $(BUILD)/learner-loop/log.txt

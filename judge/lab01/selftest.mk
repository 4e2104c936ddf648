# judge/lab01/selftest.mk - the self-test of lab 01's checker (make check-harness-lab01,
# and make check-harness-lab01 LAB_SANITIZE=1 for the sanitizer build):
# the subjects of judge/lab01/subjects/ - the reference, a learner's solution,
# the untouched skeleton, a mutant for each known mistake, files that
# crash, hang, exit, leak, write out of bounds, keep state or change inputs,
# files that would pass fixed cases only (a memo by shape, a static buffer
# of 32 rows, a table of the old counts), and files that try to forge the
# verdict - each built as the learner's qkv.c and held to what it states,
# whatever the seed of the random cases (LAB_SEED=N fixes it); then the
# judge is interrupted (SIGINT) and killed (SIGKILL) while a subject spins,
# and no process may remain.
include judge/lab01/lab.mk
include judge/selftest/selftest.mk

lab01_spin := $(BUILD)/labs/lab01/$(LAB_VARIANT)/selftest/h-spin-signals
lab01_selftest_extra := $(lab01_spin)/interrupted
$(eval $(call lab_c_selftest,01))

# interrupted: the judge stopped by SIGINT (Ctrl-C), then by SIGKILL, while
# the learner's code spins ignoring its signals: its process must go too.
# (A copy of the subject's driver, so that no other run matches its name.)
.PHONY: $(lab01_spin)/interrupted
$(lab01_spin)/interrupted: $(lab01_spin)/run $(lab01_judge)
	@cp $(@D)/driver $(@D)/interrupt-driver
	@for sig in INT KILL; do \
	  $(lab01_judge) --driver $(@D)/interrupt-driver --timeout 60 > $(@D)/interrupted.out 2>&1 & \
	  judge=$$!; sleep 0.5; kill -$$sig $$judge; wait $$judge 2>/dev/null; sleep 0.2; \
	  left=$$(sh judge/selftest/leftovers.sh '^$(@D)/interrupt-driver'); \
	  if [ -n "$$left" ]; then \
	    echo "  FAIL  SIG$$sig to the judge left the learner's process running: $$left"; \
	    kill -9 $$left; exit 1; \
	  fi; \
	done; echo "lab 01 harness self-test: SIGINT and SIGKILL to the judge leave no process"

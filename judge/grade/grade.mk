# judge/grade/grade.mk - grading a whole class (included by the top Makefile): make grade,
# grade-one, lab-report, gradescope-autograder and the self-tests check-grade and
# check-grade-platforms (make help); the GRADE_* variables: judge/grade/README.md.
# grade.py takes the labs from the labs' own make variables (written into
# $(GRADE_OUT)/labs.tsv): for a C lab of the harness, its judge and the command
# that builds a driver from a learner's file (harness.mk's lab_driver_cmd), for
# Lab 00 its checkers. So a learner's file is built and judged by exactly the
# commands of make lab NN=...
ifndef GRADE_MK
GRADE_MK := 1

GRADE_TOOL   := judge/grade
GRADE_OUT    ?= $(BUILD)/grade
GRADE_JOBS   ?= $(shell nproc 2> /dev/null || echo 1)
GRADE_PYTHON ?= /usr/bin/python3
GRADE_FORMAT ?=
GRADE_LABS   ?=
GRADE_WORK   ?= $(GRADE_OUT).work
GRADE_SEED   ?=
GRADE_SIMILARITY ?= 50
GRADE_ISOLATION  ?= auto
GRADE_KEEP_WORK  ?=
GRADE_SHIPPED    ?= HEAD
# the C labs of the harness: those whose lab.mk set LABNN_LEARNER and called lab_c_rules
GRADE_CLABS := $(sort $(foreach v,$(filter LAB%_LEARNER,$(.VARIABLES)),\
                 $(if $(lab$(patsubst LAB%_LEARNER,%,$(v))_judge),$(patsubst LAB%_LEARNER,%,$(v)))))
# what the grader needs built before it starts: each C lab's judge and the
# driver's own objects; Lab 00's checker
GRADE_NEEDS := $(foreach nn,$(GRADE_CLABS),$(lab$(nn)_judge) $(lab$(nn)_driver_deps)) \
               $(if $(LAB00_ANSWERS),$(LAB00_CHECK))

grade_q = '$(subst ','\'',$(1))'
# grade_row(NN, KEY, VALUE) - one line of labs.tsv
grade_row = printf '%s\t%s\t%s\n' $(call grade_q,$(1)) $(call grade_q,$(2)) $(call grade_q,$(strip $(3)));
# the description of every lab, for grade.py (paths relative to the top folder)
define grade_config
{ $(call grade_row,-,repo,$(CURDIR)) \
  $(foreach nn,$(GRADE_CLABS),\
    $(call grade_row,$(nn),kind,harness) \
    $(call grade_row,$(nn),file,$(LAB$(nn)_LEARNER)) \
    $(call grade_row,$(nn),functions,$(LAB$(nn)_FUNCS)) \
    $(call grade_row,$(nn),judge,$(lab$(nn)_judge)) \
    $(call grade_row,$(nn),build,$(call lab_driver_cmd,$(nn),@SOURCE@,@DIR@))) \
  $(if $(LAB00_ANSWERS),\
    $(call grade_row,00,kind,byhand) \
    $(call grade_row,00,file,$(LAB00_ANSWERS)) \
    $(call grade_row,00,check,$(LAB00_CHECK)) \
    $(if $(LAB00_NPCHECK),\
      $(call grade_row,00,numpy,$(LAB00_NUMPY)) \
      $(call grade_row,00,npcheck,$(subst $(LAB00_ANSWERS),@ANSWERS@,$(LAB00_NPCHECK))))) \
}
endef

GRADE_RUN = $(GRADE_PYTHON) $(GRADE_TOOL)/grade.py --config $(GRADE_OUT)/labs.tsv \
  --jobs $(GRADE_JOBS) $(if $(GRADE_LABS),--labs '$(GRADE_LABS)') --work '$(GRADE_WORK)' \
  $(if $(GRADE_SEED),--seed $(GRADE_SEED)) --similarity $(GRADE_SIMILARITY) \
  --isolation $(GRADE_ISOLATION) $(if $(GRADE_KEEP_WORK),--keep-work) --shipped '$(GRADE_SHIPPED)'

# grade_write_config(DIR) - shell: write DIR/labs.tsv
grade_write_config = mkdir -p $(1) && $(grade_config) > $(1)/labs.tsv

.PHONY: grade grade-one grade-config lab-report check-grade
grade-config: $(GRADE_NEEDS)
	@$(call grade_write_config,$(GRADE_OUT))

grade: grade-config ## [SUBMISSIONS=dir/] grade a class: CSV, JUnit, TAP, Gradescope JSON in build/grade
	@if [ -z '$(SUBMISSIONS)' ]; then echo 'usage: make grade SUBMISSIONS=/path/to/class/  (one folder, .zip or .tar.gz per learner)' >&2; exit 2; fi
	@$(GRADE_RUN) --out $(GRADE_OUT) class '$(SUBMISSIONS)'

grade-one: grade-config ## [SUBMISSION=dir/ana] grade one learner (GRADE_FORMAT=gradescope|classroom)
	@if [ -z '$(SUBMISSION)' ]; then echo 'usage: make grade-one SUBMISSION=/path/to/class/ana [GRADE_FORMAT=gradescope|classroom]' >&2; exit 2; fi
	@$(GRADE_RUN) --out $(GRADE_OUT) $(if $(GRADE_FORMAT),--format $(GRADE_FORMAT)) \
	  $(if $(GRADE_ID),--id '$(GRADE_ID)') one '$(SUBMISSION)'

# Gradescope: the autograder zip (the committed workbook, setup.sh, run_autograder)
.PHONY: gradescope-autograder
gradescope-autograder: ## the autograder zip for Gradescope, build/gradescope-autograder.zip
	@mkdir -p $(BUILD)
	@$(GRADE_PYTHON) $(GRADE_TOOL)/gradescope/make-zip.py $(BUILD)/gradescope-autograder.zip '$(GRADE_LABS)'


# the learner's own work, reported as the grader reports it (on stdout)
# LAB_FORMAT (junit, tap, json, csv) defaults to tap here only: `make lab`
# prints the full report unless LAB_FORMAT is given
# (the build's own lines go to stderr: stdout is the report alone)
LAB_REPORT_NAME ?= learner
lab-report: ## [NN=01 LAB_FORMAT=tap] your lab as the grader reports it (junit, tap, json, csv)
	@if [ -z '$(NN)' ]; then echo 'usage: make lab-report NN=01 LAB_FORMAT=junit|tap|json|csv' >&2; exit 2; fi
	@$(MAKE) -s $(GRADE_NEEDS) >&2
	@$(call grade_write_config,$(BUILD)/lab-report)
	@$(GRADE_PYTHON) $(GRADE_TOOL)/grade.py --config $(BUILD)/lab-report/labs.tsv --out $(BUILD)/lab-report \
	  --labs '$(NN)' --format $(or $(LAB_FORMAT),tap) --stdout --quiet --id '$(LAB_REPORT_NAME)' \
	  $(if $(LAB_SEED),--seed $(LAB_SEED)) one labs

# ---- the self-test: the class of make-class.py, graded twice -------------------------
GRADE_TEST := judge/grade/tests
CHECK_ALL_TARGETS += check-grade
# what the learners' processes read: the labs (the harness's headers and
# build-driver.sh, Lab 00's checkers), the library's headers, the judges and
# the drivers' objects; check.sh copies them to a folder every user can read,
# wherever this clone is
GRADE_STAGE := labs judge/harness judge/lab00 tangled $(filter-out labs/% judge/%,$(GRADE_NEEDS))
# (the class's files are made from the labs' self-test subjects, Lab 00's
# generated ones among them)
check-grade: $(GRADE_NEEDS) $(LAB00_GEN)
	@$(call grade_write_config,$(BUILD)/check-grade/config)
	@sh $(GRADE_TEST)/check.sh $(GRADE_PYTHON) $(BUILD)/check-grade $(GRADE_JOBS) $(LAB00_GEN) $(GRADE_STAGE)

# what Gradescope's autograder and GitHub Classroom's workflow run, run here on
# a copy of the workbook built afresh (a few minutes: check-all only)
CHECK_ALL_TARGETS += check-grade-platforms
.PHONY: check-grade-platforms
check-grade-platforms:
	@sh $(GRADE_TEST)/check-platforms.sh $(GRADE_PYTHON) $(BUILD)/check-grade-platforms $(GRADE_JOBS)

endif

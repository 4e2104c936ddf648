# The attention workbook. `make help` lists the targets.
# Local settings (CC, CFLAGS, ...) may go in an optional, ignored config.mk.

CC      ?= cc
CFLAGS  ?= -O3
LDLIBS  += -lm
BUILD   := build
-include config.mk

# BLAS=openblas: mm_matmul's product by OpenBLAS's dgemm instead of the
# readable loops (appendix A; Debian's libopenblas-dev, make deps), built in
# $(BUILD)/openblas so that the objects of the two builds never mix. The labs'
# drivers keep the readable loops. make check tests both (check-openblas).
BLAS ?=
ifeq ($(BLAS),openblas)
override BUILD := $(BUILD)/openblas
BLAS_CPPFLAGS  := -DMM_BLAS_OPENBLAS
LDLIBS         += -lopenblas
else ifneq ($(BLAS),)
$(error BLAS=$(BLAS): the one backend is BLAS=openblas; leave BLAS empty for the readable loops)
endif

# The flags the code needs, apart from the user's CPPFLAGS and CFLAGS, so that
# `CFLAGS=-O2 make` changes the optimisation and keeps C11 and the warnings.
MM_CPPFLAGS := -Itangled
# -fopenmp-simd: the one SIMD pragma of appendix A (no OpenMP runtime);
# -ffp-contract=off: no fused multiply-add unless the code writes one, with
# any compiler (gcc's default under -std=c11), so the bits are the code's.
MM_CFLAGS   := -std=c11 -Wall -Wextra -Wpedantic -Werror=implicit-function-declaration \
               -fopenmp-simd -ffp-contract=off
COMPILE      = $(CC) $(MM_CPPFLAGS) $(BLAS_CPPFLAGS) $(CPPFLAGS) $(MM_CFLAGS) $(CFLAGS)

# Quiet output: one short line per step; `make V=1` shows the full commands.
# In a recipe:  $(call say,CC,$@)  then  $(Q)the command
ifeq ($(V),1)
Q   :=
say  =
else
Q   := @
say  = @printf '  %-6s %s\n' '$(1)' '$(2)'
endif
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say  =
endif

# Whole logs per target under -j; a half-written file is deleted.
MAKEFLAGS += --output-sync=target --no-print-directory
.DELETE_ON_ERROR:

# ---- the book's chapters, in reading order (book/en/NN-name.nw) ----------------
CHAPTERS := $(sort $(basename $(notdir $(wildcard book/en/*.nw))))
NW_EN    := $(CHAPTERS:%=book/en/%.nw)
NW_ES    := $(CHAPTERS:%=book/es/%.nw)

# ---- what the book tangles to ---------------------------------------------------
# Every root chunk named tangled/... is a file of tangled/. The lists are read
# from the book when make starts, so a new root needs one make, not two.
ROOTS    := $(sort $(if $(NW_EN),$(shell noroots $(NW_EN) 2>/dev/null \
              | sed -n 's/^<<\(tangled\/[^ ]*\)>>$$/\1/p')))
LIB_SRCS := $(filter tangled/minimodel/%.c,$(ROOTS))
LIB_HDRS := $(filter tangled/minimodel/%.h,$(ROOTS))
LIB_OBJS := $(LIB_SRCS:tangled/%.c=$(BUILD)/obj/%.o)
LIB      := $(BUILD)/libminimodel.a
# the chapters' example programs: tangled/examples/NAME.c -> $(BUILD)/examples/NAME
EXAMPLES := $(patsubst tangled/examples/%.c,$(BUILD)/examples/%,$(filter tangled/examples/%.c,$(ROOTS)))

.PHONY: all help deps tangle tangle-debug lib examples check lab clean
.DEFAULT_GOAL := all

all: lib examples figures book
	@echo
	@echo "Built:"
	@echo "  PDF books:  $(BUILD)/book/en/workbook.pdf  $(BUILD)/book/es/workbook.pdf"
	@echo "  HTML books: $(BUILD)/html/en/index.html  $(BUILD)/html/es/index.html"
	@echo "  Figures:    $(BUILD)/figures/{en,es}/"

help:
	@printf '%-20s %s\n' \
	  'make deps' 'install the toolchain from Debian packages (as root)' \
	  'make' 'tangle, build the library and examples, render figures, weave both books' \
	  'make check' "the learner's and author's check, about a minute: N passed, N failed" \
	  'make check-all' 'every check group (CI): books, harness self-tests, sanitizers, grading,' \
	  '' 'OpenBLAS kernels, portability, mutants; N passed, N failed' \
	  'make check-portability' "the library's tests and the oracle under every OpenBLAS kernel and -O0, -march=native" \
	  'make check-committed' 'tangled/ is what git has committed (CI, after make check)' \
	  'make lab NN=00' 'check your work on one lab with full detail (NN = 00 to 04)' \
	  'make watch NN=01' 'check one lab again each time its file is saved (Ctrl-C stops)' \
	  'make progress' 'every lab: pending / passed / failed, and what to do next' \
	  'make lab-reset NN=01' "put a lab's file back as shipped (yours saved aside)" \
	  'make grade SUBMISSIONS=/path/to/class/' 'grade a class: CSV, JUnit, TAP, Gradescope JSON in $(BUILD)/grade' \
	  'make lab-report NN=01 LAB_FORMAT=tap' 'your lab as the grader reports it (junit, tap, json, csv)' \
	  'make tangle' 'regenerate tangled/ from book/en (unchanged files keep their time;' \
	  '' 'a file that no root chunk writes is removed)' \
	  'make tangle-debug' 'the library with #line directives, into $(BUILD)/tangled-debug' \
	  'make examples' "build the chapters' example programs into $(BUILD)/examples" \
	  'make figures' 'render the figures into $(BUILD)/figures/{en,es}' \
	  'make book' 'weave the PDF and HTML books of both editions' \
	  'make bench' 'time the causal layer (4 shapes; readable and OpenBLAS builds) against NumPy and PyTorch, about 2 min;' \
	  '' 'table, targets, TSV, plots in $(BUILD)/bench (CFLAGS=-O3 -march=native in config.mk: the fast flags)' \
	  'make BLAS=openblas' 'the same, with the product by OpenBLAS, in $(BUILD)/openblas (appendix A)' \
	  'make clean' 'remove $(BUILD)/' \
	  'V=1' 'with any target: show the full commands' \
	  'CFLAGS=...' 'optimisation and extra flags (default -O3; C11 and warnings stay)'

# ---- install ---------------------------------------------------------------
DEB_PACKAGES := make gcc libc6-dev binutils noweb libcriterion-dev \
  gnuplot-nox texlive-latex-base texlive-latex-recommended texlive-lang-spanish \
  lmodern latexmk pandoc nodejs katex libjs-katex fonts-katex python3 poppler-utils \
  fonts-dejavu-core chromium chromium-driver python3-selenium \
  inotify-tools libseccomp-dev valgrind gcovr python3-numpy python3-torch \
  libopenblas-dev bubblewrap similarity-tester
deps:
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(DEB_PACKAGES)

# ---- tangle ----------------------------------------------------------------
# Write every root (cpif: an unchanged file keeps its time), delete any file
# of tangled/ that no root produces, and record the list of roots (rewritten
# only when it changes, so the library is re-archived when a root comes or goes).
$(BUILD)/tangle.stamp: $(NW_EN)
	$(call say,TANGLE,tangled/ from $(words $(NW_EN)) chapters)
	@test -n '$(ROOTS)' || { echo "tangle: no root chunk tangled/... in $(NW_EN) (noweb installed? make deps)"; exit 1; }
	@mkdir -p $(@D)
	$(Q)set -e; for root in $(ROOTS); do \
	  mkdir -p $$(dirname $$root); \
	  notangle -R"$$root" $(NW_EN) > $@.$$$$; cpif $$root < $@.$$$$; chmod 644 $$root; \
	done; rm -f $@.$$$$
	$(Q)for f in $$(find tangled -type f | sort); do \
	  case " $(ROOTS) " in *" $$f "*) ;; \
	  *) echo "tangle: removed $$f (no root chunk of the book writes it)"; rm -f $$f;; esac; \
	done; find tangled -mindepth 1 -type d -empty -delete
	@echo '$(ROOTS)' | cpif $(BUILD)/roots.txt
	@touch $@
# (No rule makes the roots depend on the stamp: the include below tangles
# first, so `make -q` and `make -n` see only what really changed.)
$(BUILD)/roots.txt:
	@echo '$(ROOTS)' > $@

# Tangle before anything else: make brings an included file up to date before
# it builds anything (then reads the makefiles again), so no rule of any
# fragment sees an old tangled/. Not for deps, help and clean.
ifeq ($(filter deps help clean,$(MAKECMDGOALS)),)
include $(BUILD)/tangle.stamp
endif

# `make tangle` always tangles (after a hand edit of tangled/, too).
tangle:
	@rm -f $(BUILD)/tangle.stamp
	@$(MAKE) -s $(BUILD)/tangle.stamp

# A copy with #line directives, so that gcc and gdb point at the .nw lines.
tangle-debug:
	$(Q)set -e; for root in $(ROOTS); do \
	  out=$(BUILD)/tangled-debug/$${root#tangled/}; mkdir -p $$(dirname $$out); \
	  notangle -L'#line %L "%F"%N' -R"$$root" $(NW_EN) > $$out; \
	done; echo "tangle-debug: $(BUILD)/tangled-debug/ (compile with -I$(BUILD)/tangled-debug)"

# ---- the library -----------------------------------------------------------
$(BUILD)/obj/%.o: tangled/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(COMPILE) -MMD -MP -c $< -o $@
$(LIB): $(LIB_OBJS) $(BUILD)/roots.txt
	$(call say,AR,$@)
	@rm -f $@
	$(Q)ar rcs $@ $(LIB_OBJS)
lib: $(LIB)
-include $(LIB_OBJS:.o=.d)

# ---- the chapters' example programs ----------------------------------------------
# Each prints, as key=value lines, the numbers its chapter states (check-claims
# runs them). A program whose root left the book is deleted.
$(BUILD)/examples/%: tangled/examples/%.c $(LIB)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) -MMD -MP $< $(LIB) $(LDLIBS) -o $@
examples: $(EXAMPLES)
	@for f in $(filter-out $(EXAMPLES) %.d,$(wildcard $(BUILD)/examples/*)); do \
	  echo "examples: removed $$f (no tangled/examples/ source)"; rm -f $$f; done
-include $(EXAMPLES:=.d)

# ---- the parts, each in its own fragment ----------------------------------------
include book/book.mk
include book/html.mk
include figures/figures.mk
include tests/tests.mk
include $(sort $(wildcard judge/lab*/lab.mk labs/*/lab.mk))
-include $(sort $(wildcard judge/lab*/selftest.mk))
-include labs/labs.mk
-include judge/grade/grade.mk
-include judge/selftest/learner.mk

# ---- the OpenBLAS build and other builds, in make check-all ---------------------
# The library's tests, the comparisons with NumPy and PyTorch and the book's
# numbers again, with mm_matmul by OpenBLAS (BLAS=openblas, in $(BUILD)/openblas).
OPENBLAS_CHECKS := check-library check-library-bad-args check-library-alloc \
                   check-library-fuzz check-library-threads check-oracle check-claims
.PHONY: check-openblas check-portability check-harness-sanitize check-no-fast-math
ifeq ($(BLAS),)
CHECK_ALL_TARGETS += check-openblas check-openblas-alloc check-portability \
                     check-harness-sanitize check-no-fast-math
endif
check-openblas:
	$(Q)$(MAKE) BLAS=openblas $(OPENBLAS_CHECKS)

# check-openblas-alloc: with one OpenBLAS thread, no failed allocation below
# the library (in OpenBLAS too, by an LD_PRELOAD shim) ends the process
# during the causal layer's call: each allocation fails in turn, and each
# run must end with MM_OK or MM_ENOMEM (appendix A states why one thread).
OBA_DIR := $(BUILD)/openblas-alloc
# OBA_THREADS=2 shows what the check guards against
OBA_THREADS ?= 1
.PHONY: check-openblas-alloc
check-openblas-alloc:           # its own build folder: check-openblas may run beside it
	$(Q)$(MAKE) -s BUILD=$(OBA_DIR) BLAS=openblas lib
	$(Q)$(CC) -shared -fPIC -O1 tests/library/fail_malloc.c -o $(OBA_DIR)/fail_malloc.so -ldl
	$(Q)$(COMPILE) tests/library/openblas_alloc.c $(OBA_DIR)/openblas/libminimodel.a \
	  -lopenblas $(LDLIBS) -ldl -o $(OBA_DIR)/openblas_alloc
	$(Q)run() { OPENBLAS_NUM_THREADS=$(OBA_THREADS) LD_PRELOAD=$(OBA_DIR)/fail_malloc.so \
	            $(OBA_DIR)/openblas_alloc $$1; }; \
	n=$$(run 0 | sed -n 's/^allocations=\([0-9]*\) status=MM_OK$$/\1/p'); \
	[ -n "$$n" ] || { echo "openblas-alloc: the run without a failure did not succeed"; exit 1; }; \
	enomem=0; for i in $$(seq 1 $$n); do \
	  out=$$(run $$i 2>&1) || { echo "openblas-alloc: allocation $$i of $$n failed and" \
	    "the process ended: $$out"; exit 1; }; \
	  case "$$out" in *MM_ENOMEM*) enomem=$$((enomem + 1));; esac; \
	done; \
	[ $$enomem -gt 0 ] || { echo "openblas-alloc: no failure was ever reported"; exit 1; }; \
	echo "openblas-alloc: each of $$n allocations failed in turn ($(OBA_THREADS) OpenBLAS" \
	     "thread): $$enomem gave MM_ENOMEM, $$((n - enomem)) were absorbed, none ended the process"

# check-portability: no test may hold bits or words that another machine
# computes differently. The library's tests and the oracle run with every
# OpenBLAS kernel family this CPU can execute (a family that dies of an
# illegal instruction here is named and left out), and the readable build
# with -O0 and with -march=native, each in a build folder of its own.
PORT_CHECKS   := check-library check-library-bad-args check-library-fuzz check-oracle
PORT_CORES    ?= Prescott Core2 Nehalem Sandybridge Haswell Zen SkylakeX Cooperlake
PORT_PROBE    := $(BUILD)/portability/coretype
check-portability: $(PORT_PROBE)
	$(Q)set -e; for core in $(PORT_CORES); do \
	  got=$$(OPENBLAS_CORETYPE=$$core $(PORT_PROBE) 2>/dev/null) || { \
	    echo "portability: OpenBLAS kernel $$core cannot run on this CPU: left out"; continue; }; \
	  echo "portability: OpenBLAS kernels $$got"; \
	  OPENBLAS_CORETYPE=$$core $(MAKE) -s BUILD=$(BUILD)/portability BLAS=openblas \
	    $(PORT_CHECKS) > $(BUILD)/portability/$$core.log 2>&1 || \
	    { tail -n 40 $(BUILD)/portability/$$core.log; echo "portability: FAILED with OpenBLAS kernel $$core (log: $(BUILD)/portability/$$core.log)"; exit 1; }; \
	done
	$(Q)set -e; for cf in '-O0' '-O3 -march=native'; do \
	  dir=$(BUILD)/portability/cflags-$$(echo $$cf | tr -dc 'a-zA-Z0-9'); \
	  echo "portability: the readable build with CFLAGS='$$cf'"; \
	  $(MAKE) -s BUILD=$$dir CFLAGS="$$cf" $(PORT_CHECKS) > $$dir.log 2>&1 || \
	    { tail -n 40 $$dir.log; echo "portability: FAILED with CFLAGS='$$cf' (log: $$dir.log)"; exit 1; }; \
	done
	@echo "portability: the library's tests and the oracle pass with every kernel and build above"
# a probe that names the kernel family OpenBLAS runs (and dies where the
# CPU lacks its instructions)
$(PORT_PROBE): tests/library/coretype.c
	@mkdir -p $(@D)
	$(Q)$(CC) $< -lopenblas -o $@

# The lab checkers' self-tests again, with the drivers under ASan and UBSan.
# The judges are shared with the plain self-tests: made here, by this make,
# so that two makes never build one at the same time.
check-harness-sanitize: $(foreach n,01 02 03 04,$(lab$(n)_judge))
	$(Q)$(MAKE) LAB_SANITIZE=1 $(foreach n,01 02 03 04,check-harness-lab$(n))

# A build with -ffast-math or -ffinite-math-only is refused, with the reason.
check-no-fast-math:
	@mkdir -p $(BUILD)/fast-math
	$(Q)for flag in -ffast-math -ffinite-math-only; do \
	  if $(CC) $(MM_CPPFLAGS) $(MM_CFLAGS) -O2 $$flag -c tangled/minimodel/core/error.c \
	       -o $(BUILD)/fast-math/error.o > $(BUILD)/fast-math/out 2>&1; then \
	    echo "fast-math: a build with $$flag was NOT refused"; exit 1; fi; \
	  grep -q 'removes every NaN' $(BUILD)/fast-math/out || \
	    { echo "fast-math: $$flag refused without saying why:"; cat $(BUILD)/fast-math/out; exit 1; }; \
	  echo "fast-math: a build with $$flag is refused, saying why"; \
	done

# ---- running the checks ---------------------------------------------------------
# Every fragment adds its groups to CHECK_TARGETS (make check: what a learner
# and an author run, about a minute) or CHECK_ALL_TARGETS (added by make
# check-all, which CI runs). Each runs its groups in one make with -k (in
# parallel under -j, each target's output in one piece), so a failing group
# does not stop the others; each group that passes leaves a mark, and the
# marks are counted.
# check_groups(groups) - make every group, then count the marks
define check_groups
	@rm -f $(1:%=$(BUILD)/check/%.passed)
	@$(MAKE) -k $(if $(filter -j%,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) \
	  $(1:%=$(BUILD)/check/%.passed) || true
	@failed=; for g in $(1); do \
	  [ -f $(BUILD)/check/$$g.passed ] || failed="$$failed $$g"; \
	done; n=$$(echo $$failed | wc -w); \
	echo; [ $$n -eq 0 ] || echo "check: failed:$$failed"; \
	echo "check: $$(( $(words $(1)) - n )) passed, $$n failed"; \
	[ $$n -eq 0 ]
endef
ALL_CHECKS := $(CHECK_TARGETS) $(CHECK_ALL_TARGETS)
# groups at once, unless the command line's -j says otherwise
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
$(ALL_CHECKS:%=$(BUILD)/check/%.passed): $(BUILD)/check/%.passed: %
	@mkdir -p $(@D) && touch $@
.PHONY: check-all
check:
	$(call check_groups,$(CHECK_TARGETS))
check-all:
	$(call check_groups,$(ALL_CHECKS))

NN ?=
lab:
	@if [ -z "$(NN)" ]; then echo "usage: make lab NN=00   (or NN=01 to NN=04)"; exit 2; fi
	@$(if $(LAB_FORMAT),$(MAKE) -s lab-report NN=$(NN),$(MAKE) lab$(NN))

clean:
	rm -rf $(BUILD)

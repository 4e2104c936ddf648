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
# -fopenmp-simd: the SIMD pragmas of appendix A and chapter 5 (no OpenMP runtime);
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

.PHONY: all help deps tangle tangle-debug lib examples check clean
.DEFAULT_GOAL := all

all: lib examples figures book ## tangle, build the library and examples, render figures, weave both books
	@echo
	@echo "Built:"
	@echo "  PDF books:  $(BUILD)/book/en/workbook.pdf  $(BUILD)/book/es/workbook.pdf"
	@echo "  HTML books: $(BUILD)/html/en/index.html  $(BUILD)/html/es/index.html"
	@echo "  Figures:    $(BUILD)/figures/{en,es}/"

# make help: every rule with a `## ` comment ("target: ... ## [ARGS] what it
# does"), then every `##: ` line (the settings), then the check groups.
help: ## list the targets and settings (this text)
	@awk '/^[a-zA-Z][a-zA-Z0-9_.-]*:.*## / { t = $$0; sub(/:.*/, "", t); d = $$0; sub(/^[^#]*## /, "", d); \
	        a = ""; if (d ~ /^\[/) { a = " " substr(d, 2, index(d, "]") - 2); d = substr(d, index(d, "]") + 2) } \
	        printf "  %-34s %s\n", "make " t a, d }' $(MAKEFILE_LIST)
	@echo; echo "Settings, with any target:"
	@sed -n 's/^##: \([^ ]*\)  *\(.*\)/\1|\2/p' $(MAKEFILE_LIST) | awk -F '|' '{ printf "  %-34s %s\n", $$1, $$2 }'
	@echo; echo "The groups make check runs (each one a target):"
	@echo '$(sort $(CHECK_TARGETS))' | fold -s -w 76 | sed 's/^/  /'
	@echo "and those make check-all adds:"
	@echo '$(sort $(CHECK_ALL_TARGETS))' | fold -s -w 76 | sed 's/^/  /'

##: V=1          show the full commands
##: CFLAGS=...   optimisation and extra flags (default -O3; C11 and the warnings stay)
##: BLAS=openblas  the product by OpenBLAS, built in build/openblas (appendix A)
##: LAB_LANG=es  the labs' reports and messages in Spanish (or a Spanish LANG)

# ---- install ---------------------------------------------------------------
DEB_PACKAGES := make gcc libc6-dev binutils noweb libcriterion-dev \
  gnuplot-nox texlive-latex-base texlive-latex-recommended texlive-lang-spanish \
  lmodern latexmk pandoc nodejs katex libjs-katex fonts-katex python3 poppler-utils \
  fonts-dejavu-core chromium chromium-driver python3-selenium \
  inotify-tools libseccomp-dev valgrind gcovr python3-numpy python3-torch \
  libopenblas-dev bubblewrap similarity-tester universal-ctags gdb
deps: ## install the toolchain from Debian packages (as root)
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
# Each root is made by the stamp's rule. A root it kept unchanged keeps its
# time, so that nothing built from it is built again; a root that is
# missing is tangled again. Every rule that compiles a file of tangled/ or
# includes one also has the stamp as an order-only prerequisite, so that the
# book is tangled before anything is compiled. (Nothing is written while
# make reads the makefiles: `make -n` writes nothing.)
$(ROOTS): $(BUILD)/tangle.stamp
	@test -f $@ || { rm -f $(BUILD)/tangle.stamp; $(MAKE) -s $(BUILD)/tangle.stamp; }
$(BUILD)/roots.txt: | $(BUILD)/tangle.stamp
	@test -f $@ || echo '$(ROOTS)' > $@

# `make tangle` always tangles (after a hand edit of tangled/, too).
tangle: ## regenerate tangled/ from book/en (unchanged files keep their time)
	@rm -f $(BUILD)/tangle.stamp
	@$(MAKE) -s $(BUILD)/tangle.stamp

# A copy with #line directives, so that gcc and gdb point at the .nw lines.
tangle-debug: ## the library with #line directives, in build/tangled-debug
	$(Q)set -e; for root in $(ROOTS); do \
	  out=$(BUILD)/tangled-debug/$${root#tangled/}; mkdir -p $$(dirname $$out); \
	  notangle -L'#line %L "%F"%N' -R"$$root" $(NW_EN) > $$out; \
	done; echo "tangle-debug: $(BUILD)/tangled-debug/ (compile with -I$(BUILD)/tangled-debug)"

# ---- the library -----------------------------------------------------------
$(BUILD)/obj/%.o: tangled/%.c | $(BUILD)/tangle.stamp
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(COMPILE) -MMD -MP -c $< -o $@
$(LIB): $(LIB_OBJS) $(BUILD)/roots.txt
	$(call say,AR,$@)
	@rm -f $@
	$(Q)ar rcs $@ $(LIB_OBJS)
lib: $(LIB) ## build the library, build/libminimodel.a
-include $(LIB_OBJS:.o=.d)

# ---- the chapters' example programs ----------------------------------------------
# Each prints, as key=value lines, the numbers its chapter states (check-claims
# runs them). A program whose root left the book is deleted.
$(BUILD)/examples/%: tangled/examples/%.c $(LIB) | $(BUILD)/tangle.stamp
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) -MMD -MP $< $(LIB) $(LDLIBS) -o $@
examples: $(EXAMPLES) ## build the chapters' example programs in build/examples
	@for f in $(filter-out $(EXAMPLES) %.d,$(wildcard $(BUILD)/examples/*)); do \
	  echo "examples: removed $$f (no tangled/examples/ source)"; rm -f $$f; done
-include $(EXAMPLES:=.d)

# ---- the parts, each in its own fragment ----------------------------------------
include book/book.mk
include figures/figures.mk
include tests/tests.mk
include labs/labs.mk
include judge/lab00/lab.mk
include judge/judge.mk
include judge/grade/grade.mk

# ---- the OpenBLAS build and other builds, in make check-all ---------------------
# The library's tests, the comparisons with NumPy and PyTorch and the book's
# numbers again, with mm_matmul by OpenBLAS (BLAS=openblas, in $(BUILD)/openblas).
OPENBLAS_CHECKS := check-library check-library-bad-args check-library-alloc \
                   check-library-fuzz check-library-threads check-oracle check-claims
.PHONY: check-openblas check-portability check-no-fast-math
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
check-portability: $(PORT_PROBE) ## the library's tests under every OpenBLAS kernel and -O0, -march=native
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
check: ## the learner's and author's check, about a minute: N passed, N failed
	$(call check_groups,$(CHECK_TARGETS))
check-all: ## every check group (CI): make check's and those below
	$(call check_groups,$(ALL_CHECKS))

clean: ## remove build/
	rm -rf $(BUILD)

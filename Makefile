# The attention workbook. `make help` lists the targets.
# Local settings (CC, CFLAGS, ...) may go in an optional, ignored config.mk.

CC      ?= cc
CFLAGS  ?= -std=c11 -O3 -Wall -Wextra -Wpedantic -Werror=implicit-function-declaration
CPPFLAGS += -Itangled
LDLIBS  += -lm
BUILD   := build
-include config.mk

# ---- the book's chapters, in reading order -------------------------------
CHAPTERS := 00-front 01-qkv
NW_EN    := $(CHAPTERS:%=book/en/%.nw)
NW_ES    := $(CHAPTERS:%=book/es/%.nw)

# ---- the library, tangled from the English edition -----------------------
LIB_SRCS := $(sort $(wildcard tangled/minimodel/*/*.c))
LIB_HDRS := $(sort $(wildcard tangled/minimodel/*/*.h))
LIB_OBJS := $(LIB_SRCS:tangled/%.c=$(BUILD)/obj/%.o)
LIB      := $(BUILD)/libminimodel.a

.PHONY: all help deps tangle tangle-debug lib check lab clean
.DEFAULT_GOAL := all

all: lib figures book
	@echo
	@echo "Built:"
	@echo "  PDF books:  $(BUILD)/book/en/workbook.pdf  $(BUILD)/book/es/workbook.pdf"
	@echo "  HTML books: $(BUILD)/html/en/index.html  $(BUILD)/html/es/index.html"
	@echo "  Figures:    $(BUILD)/figures/{en,es}/"

help:
	@printf '%-20s %s\n' \
	  'make deps' 'install the toolchain from Debian packages (as root)' \
	  'make' 'tangle, build the library, render figures, weave both books (PDF, HTML)' \
	  'make check' 'run every test: library, book claims, editions, books, figures, labs' \
	  'make lab NN=00' 'check your work on one lab with full detail (NN = 00 or 01)' \
	  'make tangle' 'regenerate tangled/ from book/en (unchanged files keep their time)' \
	  'make tangle-debug' 'the library with #line directives, into $(BUILD)/tangled-debug' \
	  'make figures' 'render the figures into $(BUILD)/figures/{en,es}' \
	  'make book' 'weave the PDF and HTML books of both editions' \
	  'make bench' 'time the projections at Mini-GPT width (separate vs fused)' \
	  'make clean' 'remove $(BUILD)/'

# ---- install ---------------------------------------------------------------
DEB_PACKAGES := make gcc libc6-dev binutils noweb libcriterion-dev \
  gnuplot-nox texlive-latex-base texlive-latex-recommended texlive-lang-spanish \
  lmodern latexmk pandoc nodejs katex libjs-katex fonts-katex python3 poppler-utils \
  fonts-dejavu-core chromium chromium-driver python3-selenium
deps:
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(DEB_PACKAGES)

# ---- tangle ----------------------------------------------------------------
# Every root chunk whose name is a path is a file of tangled/.
$(BUILD)/tangle.stamp: $(NW_EN)
	@mkdir -p $(@D)
	@set -e; for root in $$(noroots $(NW_EN) | sed -n 's/^<<\(tangled\/[^ ]*\)>>$$/\1/p'); do \
	  mkdir -p $$(dirname $$root); \
	  notangle -R"$$root" $(NW_EN) | cpif $$root; chmod 644 $$root; \
	done
	@touch $@
tangle: $(BUILD)/tangle.stamp

# A copy with #line directives, so that gcc and gdb point at the .nw lines.
tangle-debug:
	@set -e; for root in $$(noroots $(NW_EN) | sed -n 's/^<<\(tangled\/[^ ]*\)>>$$/\1/p'); do \
	  out=$(BUILD)/tangled-debug/$${root#tangled/}; mkdir -p $$(dirname $$out); \
	  notangle -L'#line %L "%F"%N' -R"$$root" $(NW_EN) > $$out; \
	done; echo "tangle-debug: $(BUILD)/tangled-debug/ (compile with -I$(BUILD)/tangled-debug)"
$(LIB_SRCS) $(LIB_HDRS): $(BUILD)/tangle.stamp ;

# ---- the library -----------------------------------------------------------
$(BUILD)/obj/%.o: tangled/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(LIB): $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^
lib: $(LIB)
-include $(LIB_OBJS:.o=.d)

# ---- the parts, each in its own fragment --------------------------------------
include book/book.mk
include book/html.mk
include figures/figures.mk
include tests/tests.mk
include labs/lab00-by-hand/lab.mk
include labs/lab01-qkv/lab.mk

# ---- running the checks -------------------------------------------------------
# Every fragment adds its checks to CHECK_TARGETS; each one fails on failure.
check: $(CHECK_TARGETS)
	@echo
	@echo "check groups: $(CHECK_TARGETS)"
	@echo "check: $(words $(CHECK_TARGETS)) passed, 0 failed"

NN ?=
lab:
	@if [ -z "$(NN)" ]; then echo "usage: make lab NN=00   (or NN=01)"; exit 2; fi
	@$(MAKE) --no-print-directory lab$(NN)

clean:
	rm -rf $(BUILD)

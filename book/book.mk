# book/book.mk - weave both editions of the book as PDF (LaTeX) and as
# offline HTML (the second half of this file).
#
#   make book          both editions, PDF and HTML
#   make book-pdf      $(BUILD)/book/{en,es}/workbook.pdf
#   make book-html     $(BUILD)/html/{en,es}/index.html (+ style.css, katex/, figures/)
#   make check-book    build all four, failing on any error output, and check the HTML
#
# Chapters come from NW_EN/NW_ES (top-level Makefile), figures from FIGURES_EN/
# FIGURES_ES (figures/figures.mk: NAME.pdf for the PDF, NAME.svg for the HTML).
# To weave other chapters, override the lists:  make book BOOK_NW_en='a.nw b.nw' ...
# How it works: book/tools/*.py and katex-render.js say so in their headers.

BOOK_EDITIONS := en es
BOOK_NW_en     = $(NW_EN)
BOOK_NW_es     = $(NW_ES)
BOOK_FIGS_en   = $(FIGURES_EN)
BOOK_FIGS_es   = $(FIGURES_ES)
BOOK_FIGPDF_en = $(filter %.pdf,$(BOOK_FIGS_en))
BOOK_FIGPDF_es = $(filter %.pdf,$(BOOK_FIGS_es))
BOOK_FIGSVG_en = $(filter %.svg,$(BOOK_FIGS_en))
BOOK_FIGSVG_es = $(filter %.svg,$(BOOK_FIGS_es))

BOOK_BODIES := $(BOOK_EDITIONS:%=$(BUILD)/book/%/body.tex)
BOOK_PDFS   := $(BOOK_EDITIONS:%=$(BUILD)/book/%/workbook.pdf)
BOOK_HTMLS  := $(BOOK_EDITIONS:%=$(BUILD)/html/%/index.html)

NOWEAVE_FLAGS := -n -index
STRICT        := sh book/tools/strict.sh
KATEX_DIST    := /usr/share/javascript/katex
BOOK_HTML_TOOLS := book/tools/strict.sh book/tools/nwhtml-filter.py book/tools/weavelabels.py \
  book/tools/nwhtml-page.py book/tools/katex-render.js book/html/page.html book/html/style.css

.PHONY: book book-pdf book-html check-book book-always
book: book-pdf book-html ## weave the PDF and HTML books of both editions
book-pdf: $(BOOK_PDFS) ## the PDF books, build/book/{en,es}/workbook.pdf
book-html: $(BOOK_HTMLS) ## the offline HTML books, build/html/{en,es}/index.html

# Prerequisites written $$(...) are expanded after every fragment is read,
# so the figure lists of figures/figures.mk (included later) count.
.SECONDEXPANSION:

# The list of chapters, rewritten only when it changes (a chapter added to
# CHAPTERS rebuilds the books; nothing else does).
$(BOOK_EDITIONS:%=$(BUILD)/book/%/chapters.txt): $(BUILD)/book/%/chapters.txt: book-always
	@mkdir -p $(@D)
	@echo '$(BOOK_NW_$*)' | cmp -s - $@ || echo '$(BOOK_NW_$*)' > $@

# ---- PDF ---------------------------------------------------------------------
# One noweave over all chapters of an edition: chunk links across chapters
# and a single identifier index.
$(BOOK_BODIES): $(BUILD)/book/%/body.tex: $$(BOOK_NW_%) $(BUILD)/book/%/chapters.txt \
		book/tools/strict.sh book/tools/nw-ownuses.py book/tools/nw-quotes.py
	@mkdir -p $(@D)
	$(call say,WEAVE,$@)
	$(Q)$(STRICT) noweave $(NOWEAVE_FLAGS) -filter "python3 -B book/tools/nw-ownuses.py" \
	  -filter "python3 -B book/tools/nw-quotes.py" \
	  $(BOOK_NW_$*) > $@.tmp
	@mv $@.tmp $@

# latexmk runs in the build directory, next to body.tex, so its files stay there.
# On a fresh build latexmk can stop while noweb's page labels are still moving
# ("Label(s) may have changed"); up to two more pdflatex runs let them settle.
BOOK_SETTLE = for run in 1 2; do \
	  grep -q 'Label(s) may have changed\|Rerun to get' workbook.log || break; \
	  pdflatex -interaction=nonstopmode -halt-on-error workbook.tex >> latexmk.out 2>&1 || exit 1; \
	done
# book/tools/workbook.sty: how chunks sit on the page, shared by both masters.
$(BOOK_PDFS): $(BUILD)/book/%/workbook.pdf: $(BUILD)/book/%/body.tex book/%/workbook.tex \
		$$(BOOK_FIGPDF_%) book/tools/texlog.py book/tools/workbook.sty
	$(call say,LATEX,$@)
	@cp book/$*/workbook.tex book/tools/workbook.sty $(@D)/
	$(Q)(cd $(@D) && latexmk -pdf -interaction=nonstopmode -halt-on-error workbook.tex \
	  > latexmk.out 2>&1 && $(BOOK_SETTLE)); python3 book/tools/texlog.py $(@D) $$? || { rm -f $@; exit 1; }
	@touch $@

# ---- check -------------------------------------------------------------------
# Besides building: every line of every chunk is printed verbatim (no
# ligatures, no curly quotes) and within the text block, in both PDFs; the
# self-test weaves tests/book/pdf-selftest.nw with each master and shows
# that a long line, ligatures, curly quotes and a missing line each fail.
BOOK_CHECK_CODE := python3 tests/book/check-pdf-code.py
# and the pages break well: no chunk header or "Defines:" alone at a page's
# foot, no quoted code broken at a space, no Spanish serial comma, running
# heads on the back matter (tests/book/check-pdf-layout.py)
BOOK_CHECK_LAYOUT := python3 tests/book/check-pdf-layout.py
CHECK_ALL_TARGETS += check-book-pdf
check-book-pdf: $(BOOK_PDFS)
	@echo "book: both PDF books built with no error output and no unsettled reference"
	@$(BOOK_CHECK_CODE) book/en/workbook.tex $(BUILD)/book/en/workbook.pdf $(BOOK_NW_en)
	@$(BOOK_CHECK_CODE) book/es/workbook.tex $(BUILD)/book/es/workbook.pdf $(BOOK_NW_es)
	@for ed in $(BOOK_EDITIONS); do \
	  $(BOOK_CHECK_CODE) --self-test book/$$ed/workbook.tex $(BUILD)/book/pdf-selftest/$$ed || exit 1; \
	done
	@for ed in $(BOOK_EDITIONS); do \
	  $(BOOK_CHECK_LAYOUT) --self-test book/$$ed/workbook.tex $(BUILD)/book/layout-selftest/$$ed \
	    || exit 1; \
	done
	@$(BOOK_CHECK_LAYOUT) en $(BUILD)/book/en/workbook.pdf $(BOOK_NW_en)
	@$(BOOK_CHECK_LAYOUT) es $(BUILD)/book/es/workbook.pdf $(BOOK_NW_es)

# ---- shape -------------------------------------------------------------------
# Per chapter and edition: the share of the chapter's code that is example
# programs, prose per 10 lines of code in the implementation section, the
# median and largest chunk (tests/book/book-shape.py states the limits, and
# the chapters still held only to their own measured values); and every
# key=value line a chapter shows is printed by its example programs.
CHECK_ALL_TARGETS += check-book-shape
.PHONY: check-book-shape
check-book-shape: tests/book/book-shape.py $(BOOK_NW_en) $(BOOK_NW_es) $(EXAMPLES)
	@python3 tests/book/book-shape.py --self-test
	@python3 tests/book/book-shape.py --programs $(BUILD)/examples $(BOOK_NW_en) $(BOOK_NW_es)

# ---- the offline HTML: one page per chapter ----------------------------------
#
#   make book-html     $(BUILD)/html/{en,es}/: index.html (title page, contents),
#                      one PAGE.html per chapter (front, ch01, ..., appA, ...,
#                      chunks, identifiers), style.css, katex/, figures/
#   make book          also copies each edition's PDF beside its HTML
#                      ($(BUILD)/html/{en,es}/workbook.pdf), so that the HTML
#                      folder reads offline on its own, PDF link included
#   make check-book    the static check of every page (book/tools/check-html.py)
#   make check-book-browser
#                      every page of both editions in headless Chromium at 1280
#                      and 390 px (tests/book/check-browser.py); screenshots in
#                      $(BUILD)/html-shots/{en,es}/PAGE-{1280,390}.png
#                      and prints, per page and width, what a phone reader meets:
#                      smallest figure label (CSS px), display formulas wider
#                      than the column, tables hiding columns, code lines that
#                      scroll or wrap
#   python3 tests/book/check-browser.py --notes build/html/en build/html/es
#                      also lists each display formula wider than the column at
#                      390 px, by page, number and section
# Both checks first prove, on broken pages of their own, that they can fail.
#
# Why the PDF copy is not part of book-html: the HTML takes about 3 s, the PDFs
# several LaTeX runs.  book-html stays quick while writing a chapter; `make`,
# `make book` and `make check` build the PDFs anyway and copy them.  Until
# then the pages' PDF link has no file behind it.
#
# Uses the lists of book/book.mk (included before this file).

BOOK_HTML_PDFS := $(BOOK_EDITIONS:%=$(BUILD)/html/%/workbook.pdf)

# ---- HTML --------------------------------------------------------------------
# noweave -html with a filter that turns the prose's LaTeX into HTML (pandoc),
# then the pages (cut at each chapter), then the math (KaTeX, at build time).
# index.html is written last: it stands for the whole edition.
$(BOOK_HTMLS): $(BUILD)/html/%/index.html: $$(BOOK_NW_%) $(BUILD)/book/%/chapters.txt \
		$$(BOOK_FIGSVG_%) $(BOOK_HTML_TOOLS)
	@mkdir -p $(BUILD)/book/$* $(@D)
	$(call say,HTML,$(@D)/)
	$(Q)$(STRICT) noweave -html $(NOWEAVE_FLAGS) -filter "python3 -B book/tools/nwhtml-filter.py $*" \
	  $(BOOK_NW_$*) > $(BUILD)/book/$*/woven.html
	@rm -rf $(BUILD)/book/$*/pages $(BUILD)/book/$*/rendered
	$(Q)$(STRICT) python3 -B book/tools/nwhtml-page.py $* book/html/page.html \
	  $(BUILD)/book/$*/pages < $(BUILD)/book/$*/woven.html
	$(Q)NODE_PATH=/usr/share/nodejs $(STRICT) node book/tools/katex-render.js \
	  $(BUILD)/book/$*/pages $(BUILD)/book/$*/rendered
	@rm -rf $(@D)/*.html $(@D)/katex $(@D)/figures
	@mkdir -p $(@D)/katex $(@D)/figures
	@cp $(KATEX_DIST)/katex.min.css $(@D)/katex/
	@cp -rL $(KATEX_DIST)/fonts $(@D)/katex/
	@cp book/html/style.css $(@D)/style.css
	@$(if $(BOOK_FIGSVG_$*),cp $(BOOK_FIGSVG_$*) $(@D)/figures/)
	@find $(BUILD)/book/$*/rendered -name '*.html' ! -name index.html -exec cp -t $(@D) {} +
	@cp $(BUILD)/book/$*/rendered/index.html $@

$(BOOK_HTML_PDFS): $(BUILD)/html/%/workbook.pdf: $(BUILD)/book/%/workbook.pdf
	@mkdir -p $(@D)
	@cp $< $@
book: $(BOOK_HTML_PDFS)

# ---- check -------------------------------------------------------------------
# Each checker first proves on broken pages of its own that it can fail.
CHECK_ALL_TARGETS += check-book check-book-browser
.PHONY: check-book-browser
check-book: $(BOOK_HTMLS) $(BOOK_HTML_PDFS) book/tools/check-html.py
	@python3 book/tools/check-html.py --self-test
	@python3 book/tools/check-html.py $(BOOK_HTMLS:%/index.html=%)

check-book-browser: $(BOOK_HTMLS) $(BOOK_HTML_PDFS) tests/book/check-browser.py
	@python3 tests/book/check-browser.py --self-test
	@python3 tests/book/check-browser.py --shots $(BUILD)/html-shots $(BOOK_HTMLS:%/index.html=%)

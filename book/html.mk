# book/html.mk - weave both editions of the book as offline HTML, one page per chapter.
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

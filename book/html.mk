# book/html.mk - weave both editions of the book as offline HTML.
#
#   make book-html     $(BUILD)/html/{en,es}/index.html (+ style.css, katex/, figures/)
#   make check-book    build both HTML books and check them
#
# Uses the lists of book/book.mk (included before this file).

# ---- HTML --------------------------------------------------------------------
# noweave -html with a filter that turns the prose's LaTeX into HTML (pandoc),
# then the page around it, then the math (KaTeX, at build time).
$(BOOK_HTMLS): $(BUILD)/html/%/index.html: $$(BOOK_NW_%) $(BUILD)/book/%/chapters.txt \
		$$(BOOK_FIGSVG_%) $(BOOK_HTML_TOOLS)
	@mkdir -p $(BUILD)/book/$* $(@D)
	@echo "  HTML   $@"
	@$(STRICT) noweave -html $(NOWEAVE_FLAGS) -filter "python3 -B book/tools/nwhtml-filter.py $*" \
	  $(BOOK_NW_$*) > $(BUILD)/book/$*/woven.html
	@$(STRICT) python3 -B book/tools/nwhtml-page.py $* book/html/page.html \
	  < $(BUILD)/book/$*/woven.html > $(BUILD)/book/$*/page.html
	@NODE_PATH=/usr/share/nodejs $(STRICT) node book/tools/katex-render.js \
	  < $(BUILD)/book/$*/page.html > $@.tmp
	@rm -rf $(@D)/katex $(@D)/figures
	@mkdir -p $(@D)/katex $(@D)/figures
	@cp $(KATEX_DIST)/katex.min.css $(@D)/katex/
	@cp -rL $(KATEX_DIST)/fonts $(@D)/katex/
	@cp book/html/style.css $(@D)/style.css
	@$(if $(BOOK_FIGSVG_$*),cp $(BOOK_FIGSVG_$*) $(@D)/figures/)
	@mv $@.tmp $@

# ---- check -------------------------------------------------------------------
CHECK_TARGETS += check-book
check-book: $(BOOK_HTMLS) book/tools/check-html.py
	@python3 book/tools/check-html.py --self-test
	@python3 book/tools/check-html.py $(BOOK_HTMLS)

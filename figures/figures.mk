# figures.mk - the book's figures: seeded runs of the library, drawn by gnuplot.
# For each NAME of FIG_NAMES:
#   figures/NAME.c   data program; prints the data, or with --facts the
#                    key=value facts a caption may state
#   figures/NAME.gp  gnuplot script; labels chosen by lang ('en' or 'es')
# One figure draws a measurement instead of a seeded run: fast-curve.c reads
# the bench run kept in bench/results/curve.tsv (the README's), so keeping a
# new run there redraws it.
# Outputs, under $(BUILD)/figures/:
#   bin/NAME  data/NAME.dat  {en,es}/NAME.svg (HTML book)  {en,es}/NAME.pdf (PDF book)
# Editing one NAME.gp re-renders only that figure; style.gp is shared by all,
# mha-heads.gp by the mha-heads-* figures (the dependency is stated below).
# Each figure is drawn at the width the PDF book prints it (NAME.gp's
# "eval figure(F, H)" for \includegraphics[width=F\textwidth]), so that its
# text is printed at style.gp's 10 pt; check-figures fails below 9 pt.

FIG_NAMES   := worked-weights scores-tied sdpa-temperature sdpa-variance sdpa-saturation \
               sdpa-worked mha-heads-planted mha-heads-drawn mha-split mask-heads mask-after \
               fast-tiles fast-cache fast-curve
FIG_SRC     := figures
FIG_OUT     := $(BUILD)/figures
# the PDF book's text block: A4 less 25 mm margins (book/*/workbook.tex)
FIG_TEXTWIDTH_CM := 16
FIGURE_BINS := $(FIG_NAMES:%=$(FIG_OUT)/bin/%)
FIG_DATA    := $(FIG_NAMES:%=$(FIG_OUT)/data/%.dat)
FIGURES_EN  := $(foreach n,$(FIG_NAMES),$(FIG_OUT)/en/$(n).svg $(FIG_OUT)/en/$(n).pdf)
FIGURES_ES  := $(foreach n,$(FIG_NAMES),$(FIG_OUT)/es/$(n).svg $(FIG_OUT)/es/$(n).pdf)

.PHONY: figures figure-facts check-figures
figures: $(FIGURES_EN) $(FIGURES_ES) $(FIG_DATA) ## render the figures into build/figures/{en,es}

# the data programs, linked against the library; -MMD: a program is rebuilt
# when a header it includes changes (tangled/examples/*.h among them)
$(FIG_OUT)/bin/%: $(FIG_SRC)/%.c $(FIG_SRC)/figdata.h $(LIB)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) -MMD -MP $< $(LIB) $(LDLIBS) -o $@
-include $(FIGURE_BINS:=.d)

$(FIG_OUT)/data/%.dat: $(FIG_OUT)/bin/%
	@mkdir -p $(@D)
	$(call say,RUN,$@)
	$(Q)$< > $@.tmp && mv $@.tmp $@
$(FIG_OUT)/data/fast-curve.dat: bench/results/curve.tsv

# fig_render(lang, term): run gnuplot on style.gp then NAME.gp into $@.tmp;
# anything gnuplot prints on stderr (errors, warnings) fails the rule
define fig_render
	@mkdir -p $(@D)
	$(call say,PLOT,$@)
	@gnuplot -e "lang='$(1)'; term='$(2)'; out='$@.tmp'; data='$(FIG_OUT)/data/$*.dat'; textwidth_cm=$(FIG_TEXTWIDTH_CM)" \
	  $(FIG_SRC)/style.gp $(FIG_SRC)/$*.gp 2> $@.log \
	  && test ! -s $@.log || { cat $@.log >&2; rm -f $@.tmp $@.log; exit 1; }
	@rm -f $@.log
endef

# layouts shared by several figures: NAME.gp loads them (not figures themselves)
FIG_MHA_HEADS := mha-heads-planted mha-heads-drawn
$(foreach e,en es,$(foreach n,$(FIG_MHA_HEADS),$(FIG_OUT)/$(e)/$(n).svg $(FIG_OUT)/$(e)/$(n).pdf)): \
  $(FIG_SRC)/mha-heads.gp

# SVG: keep spaces after subscripts in every viewer (xml:space), and name
# fallback fonts for readers without DejaVu Sans
FIG_SVG_FIX := sed -e 's/^<svg /<svg xml:space="preserve" /' \
  -e 's/font-family="DejaVu Sans"/font-family="DejaVu Sans, Verdana, Arial, sans-serif"/g'

$(FIG_OUT)/en/%.svg: $(FIG_SRC)/%.gp $(FIG_SRC)/style.gp $(FIG_OUT)/data/%.dat
	$(call fig_render,en,svg)
	@$(FIG_SVG_FIX) $@.tmp > $@ && rm -f $@.tmp
$(FIG_OUT)/es/%.svg: $(FIG_SRC)/%.gp $(FIG_SRC)/style.gp $(FIG_OUT)/data/%.dat
	$(call fig_render,es,svg)
	@$(FIG_SVG_FIX) $@.tmp > $@ && rm -f $@.tmp
$(FIG_OUT)/en/%.pdf: $(FIG_SRC)/%.gp $(FIG_SRC)/style.gp $(FIG_OUT)/data/%.dat
	$(call fig_render,en,pdf)
	@mv $@.tmp $@
$(FIG_OUT)/es/%.pdf: $(FIG_SRC)/%.gp $(FIG_SRC)/style.gp $(FIG_OUT)/data/%.dat
	$(call fig_render,es,pdf)
	@mv $@.tmp $@

# every number a caption may state, program by program
figure-facts: $(FIGURE_BINS)
	@set -e; for b in $(FIGURE_BINS); do echo "# $$(basename $$b)"; $$b --facts; done

# the files exist and are sound, in the right language; the facts hold; the
# text is large enough as printed (and the self-test shows that 7 pt text,
# or a figure printed at half its width, fails)
CHECK_ALL_TARGETS += check-figures
check-figures: $(FIGURES_EN) $(FIGURES_ES) $(FIGURE_BINS) $(FIG_DATA)
	@python3 $(FIG_SRC)/check-figures.py --textwidth-cm $(FIG_TEXTWIDTH_CM) $(FIG_OUT) $(FIG_NAMES)
	@python3 $(FIG_SRC)/check-figures.py --textwidth-cm $(FIG_TEXTWIDTH_CM) \
	  --self-test $(FIG_OUT)/selftest $(FIG_OUT) worked-weights
	@sh $(FIG_SRC)/check-fast-curve.sh $(FIG_OUT)/bin/fast-curve $(FIG_OUT)/selftest/curve

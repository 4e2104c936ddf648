# bench.mk - `make bench`: the library's causal multi-head layer, row at a
# time (mha_forward_causal) and in tiles (mha_forward_tiled), timed next to
# NumPy and PyTorch (bench/README.md), in two builds side by side: the
# readable loops and mm_matmul by OpenBLAS; then decoding with the key/value
# cache, the tiled layer's block sizes, and the time against T;
# `make check-bench-smoke` (in make check-all): the same programs on tiny
# shapes for one round, so that a broken bench does not go unnoticed.
# Nothing about the times is asserted anywhere.
#   make bench CFLAGS='-O3 -march=native'     the flags of the run
#   make bench BENCH_BUDGET=30                seconds for the timed rounds
#   make bench BENCH_OPENBLAS_CORETYPE=SkylakeX   OpenBLAS's kernels, for all
#                                                 (OPENBLAS_CORETYPE)
#   make bench BENCH_ARGS='--shapes 64,64,4'  other shapes (T,d_model,n_heads)
# The table is printed and written, with its TSV and plots, to $(BENCH_OUT).

BENCH_DIR    := bench
BENCH_OUT    := $(BUILD)/bench
BENCH_PYTHON ?= /usr/bin/python3
BENCH_BUDGET ?= 75
BENCH_ARGS   ?=

# The library compiled again for the bench, twice, with this make's flags:
# the objects of $(LIB) may have been compiled with other CFLAGS than the ones
# the table states. The readable build never has -DMM_BLAS_OPENBLAS, the
# OpenBLAS build always has it (and -lopenblas), whatever BLAS says. Each
# flags file changes (and its build is redone) only when its flags do.
BENCH_CC_LOOPS = $(filter-out -DMM_BLAS_OPENBLAS,$(COMPILE))
BENCH_CC_OB    = $(BENCH_CC_LOOPS) -DMM_BLAS_OPENBLAS
BENCH_LD_LOOPS = $(filter-out -lopenblas,$(LDLIBS))
BENCH_LD_OB    = $(BENCH_LD_LOOPS) -lopenblas

BENCH_OBJS     := $(LIB_SRCS:tangled/%.c=$(BENCH_OUT)/obj/%.o)
BENCH_OBJS_OB  := $(LIB_SRCS:tangled/%.c=$(BENCH_OUT)/obj-openblas/%.o)
BENCH_LIB      := $(BENCH_OUT)/libminimodel.a
BENCH_LIB_OB   := $(BENCH_OUT)/libminimodel-openblas.a
BENCH_PROG     := $(BENCH_OUT)/mha_bench
BENCH_PROG_OB  := $(BENCH_OUT)/mha_bench_openblas
BENCH_SO       := $(BENCH_OUT)/alloc_count.so
BENCH_FLAGS    := $(BENCH_OUT)/flags.txt
BENCH_FLAGS_OB := $(BENCH_OUT)/flags-openblas.txt
BENCH_OPENBLAS_CORETYPE ?=
# every malloc, calloc, realloc and free of mha_bench and of the library
# goes through alloc_count.c (which also defines mmap and munmap)
BENCH_WRAP  := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
BENCH_SRCS  := $(BENCH_DIR)/mha_bench.c $(BENCH_DIR)/alloc_count.c
bench_sh     = '$(subst ','\'',$(1))'
bench_line_loops = $(BENCH_CC_LOOPS) | $(BENCH_LD_LOOPS) | $(BENCH_WRAP)
bench_line_ob    = $(BENCH_CC_OB) | $(BENCH_LD_OB) | $(BENCH_WRAP)

.PHONY: bench check-bench-smoke bench-always
CHECK_ALL_TARGETS += check-bench-smoke

$(BENCH_FLAGS): bench-always
	@mkdir -p $(@D)
	@printf '%s\n' $(call bench_sh,$(bench_line_loops)) | cmp -s - $@ \
	  || printf '%s\n' $(call bench_sh,$(bench_line_loops)) > $@
$(BENCH_FLAGS_OB): bench-always
	@mkdir -p $(@D)
	@printf '%s\n' $(call bench_sh,$(bench_line_ob)) | cmp -s - $@ \
	  || printf '%s\n' $(call bench_sh,$(bench_line_ob)) > $@

$(BENCH_OUT)/obj/%.o: tangled/%.c $(BENCH_FLAGS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(BENCH_CC_LOOPS) -MMD -MP -c $< -o $@
$(BENCH_OUT)/obj-openblas/%.o: tangled/%.c $(BENCH_FLAGS_OB)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(BENCH_CC_OB) -MMD -MP -c $< -o $@
-include $(BENCH_OBJS:.o=.d) $(BENCH_OBJS_OB:.o=.d)

$(BENCH_LIB): $(BENCH_OBJS) $(BUILD)/roots.txt
	$(call say,AR,$@)
	@rm -f $@
	$(Q)ar rcs $@ $(BENCH_OBJS)
$(BENCH_LIB_OB): $(BENCH_OBJS_OB) $(BUILD)/roots.txt
	$(call say,AR,$@)
	@rm -f $@
	$(Q)ar rcs $@ $(BENCH_OBJS_OB)

# (the library's headers too: the .d of a compile of two sources names one)
$(BENCH_PROG): $(BENCH_SRCS) $(BENCH_DIR)/alloc_count.h $(LIB_HDRS) $(BENCH_LIB) $(BENCH_FLAGS)
	$(call say,CCLD,$@)
	$(Q)$(BENCH_CC_LOOPS) -MMD -MP -I$(BENCH_DIR) $(BENCH_SRCS) \
	  $(BENCH_LIB) $(BENCH_LD_LOOPS) $(BENCH_WRAP) -o $@
$(BENCH_PROG_OB): $(BENCH_SRCS) $(BENCH_DIR)/alloc_count.h $(LIB_HDRS) $(BENCH_LIB_OB) $(BENCH_FLAGS_OB)
	$(call say,CCLD,$@)
	$(Q)$(BENCH_CC_OB) -MMD -MP -I$(BENCH_DIR) $(BENCH_SRCS) \
	  $(BENCH_LIB_OB) $(BENCH_LD_OB) $(BENCH_WRAP) -o $@
-include $(BENCH_PROG).d $(BENCH_PROG_OB).d

# the same counter as a shared object that Python preloads (LD_PRELOAD)
$(BENCH_SO): $(BENCH_DIR)/alloc_count.c $(BENCH_DIR)/alloc_count.h $(BENCH_FLAGS)
	$(call say,CCLD,$@)
	$(Q)$(BENCH_CC_LOOPS) -fPIC -shared -DALLOC_COUNT_PRELOAD $< -o $@

BENCH_RUN = $(BENCH_PYTHON) $(BENCH_DIR)/bench.py --prog $(BENCH_PROG) --memcount $(BENCH_SO) \
  --prog-openblas $(BENCH_PROG_OB) --openblas-coretype=$(call bench_sh,$(BENCH_OPENBLAS_CORETYPE)) \
  --cc $(call bench_sh,$(CC)) --cflags=$(call bench_sh,$(CFLAGS)) \
  --compile=$(call bench_sh,$(BENCH_CC_LOOPS) $(BENCH_LD_LOOPS)) --lib $(BENCH_LIB) \
  --compile-openblas=$(call bench_sh,$(BENCH_CC_OB) $(BENCH_LD_OB)) --lib-openblas $(BENCH_LIB_OB) \
  --gnuplot $(BENCH_DIR)/bench.gp
BENCH_ALL = $(BENCH_PROG) $(BENCH_PROG_OB) $(BENCH_SO)

bench: $(BENCH_ALL) ## time the causal layer (rows, tiles, decoding) against NumPy and PyTorch (about 2.5 min; build/bench)
	$(Q)$(BENCH_RUN) --out $(BENCH_OUT) --budget $(BENCH_BUDGET) --projections 256 $(BENCH_ARGS)

# make bench-keep: the last run's report, TSVs and plots into bench/results/,
# the run README.md quotes and chapter 05's figure fast-curve draws (then
# make figures redraws it, and make check-claims names any number of its
# caption the new run changed). Only a whole run is kept: every file must be
# one the report's last line says this run wrote.
BENCH_KEEP := bench.txt bench.tsv decode.tsv sweep.tsv curve.tsv bench.svg bench-curve.svg
BENCH_KEEP_DIR ?= bench/results
.PHONY: bench-keep
bench-keep: ## keep the last whole make bench run in bench/results/ (README.md and chapter 05's figure use it)
	@for f in $(filter-out bench.txt,$(BENCH_KEEP)); do \
	  tail -n 1 $(BENCH_OUT)/bench.txt 2>/dev/null | grep -q "files:.* $(BENCH_OUT)/$$f\(,\|$$\)" || { \
	    echo "bench-keep: $(BENCH_OUT)/bench.txt does not say that its run wrote $(BENCH_OUT)/$$f:" \
	         "run make bench with every part (no --parts) first" >&2; exit 1; }; done
	cp $(BENCH_KEEP:%=$(BENCH_OUT)/%) $(BENCH_KEEP_DIR)/

# one tiny shape (7, 12, 3), one round: mha_bench's output is mha_forward's
# with mask_causal bit for bit, mha_bench_openblas's, both tiled builds',
# NumPy's and PyTorch's agree with it within 1e-12, the roof runs (alone,
# and in the round); its 7 tokens decoded with the cache (both builds, NumPy,
# PyTorch) and recomputed (both builds) agree with the causal layer within
# 1e-12, the counter sees exactly the cache's buffers and struct; blocks
# (2, 2) and (4, 4) swept; the curve at T = 3 and 7; the report and the four
# plots are written; the self-tests (of both programs) show that the
# counters count and that the comparisons can fail; the projections' timing
# runs
check-bench-smoke: $(BENCH_ALL)
	$(Q)$(BENCH_PROG) --self-test
	$(Q)OPENBLAS_NUM_THREADS=1 $(BENCH_PROG_OB) --self-test
	$(Q)$(BENCH_RUN) --out $(BUILD)/bench-smoke --smoke
	$(Q)$(BENCH_PROG) --projections 16 > $(BUILD)/bench-smoke/projections.txt \
	  || { cat $(BUILD)/bench-smoke/projections.txt; exit 1; }
	@echo "bench smoke: chapter 01's projections, separate vs fused, timed at T = 16 (the same bits)"
	@rm -rf $(BUILD)/bench-smoke/kept && mkdir -p $(BUILD)/bench-smoke/kept
	$(Q)$(MAKE) -s --no-print-directory bench-keep BENCH_OUT=$(BUILD)/bench-smoke \
	  BENCH_KEEP_DIR=$(BUILD)/bench-smoke/kept > /dev/null
	@for f in $(BENCH_KEEP); do cmp -s $(BUILD)/bench-smoke/$$f $(BUILD)/bench-smoke/kept/$$f \
	  || { echo "bench-keep did not keep $$f"; exit 1; }; done
	@sed -i '$$ s|, $(BUILD)/bench-smoke/sweep.tsv||' $(BUILD)/bench-smoke/bench.txt
	@if $(MAKE) -s --no-print-directory bench-keep BENCH_OUT=$(BUILD)/bench-smoke \
	     BENCH_KEEP_DIR=$(BUILD)/bench-smoke/kept 2> $(BUILD)/bench-smoke/keep.err >/dev/null; then \
	  echo "bench-keep kept a run whose report does not name sweep.tsv"; exit 1; \
	elif ! grep -q "does not say that its run wrote .*sweep.tsv" $(BUILD)/bench-smoke/keep.err; then \
	  echo "bench-keep refused a partial run without naming sweep.tsv:"; cat $(BUILD)/bench-smoke/keep.err; exit 1; fi
	@echo "bench smoke: bench-keep keeps a whole run's $(words $(BENCH_KEEP)) files and refuses one whose report lacks sweep.tsv"

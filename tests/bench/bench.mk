# bench.mk - `make bench`: the library's causal multi-head layer,
# mha_forward_causal, timed next to NumPy and PyTorch (tests/bench/README.md);
# `make check-bench-smoke` (in make check): the same programs on one tiny
# shape for one round, so that a broken bench does not go unnoticed.
# Nothing about the times is asserted anywhere.
#   make bench CFLAGS='-O3 -march=native'     the flags of the run
#   make bench BENCH_BUDGET=30                seconds for the timed rounds
#   make bench BENCH_ARGS='--shapes 64,64,4'  other shapes (T,d_model,n_heads)
# The table is printed and written, with its TSV and plots, to $(BENCH_OUT).

BENCH_DIR    := tests/bench
BENCH_OUT    := $(BUILD)/bench
BENCH_PYTHON ?= /usr/bin/python3
BENCH_BUDGET ?= 75
BENCH_ARGS   ?=

# The library compiled again for the bench, with this make's flags: the
# objects of $(LIB) may have been compiled with other CFLAGS than the ones
# the table states. flags.txt changes (and the bench is rebuilt) only when
# the flags do.
BENCH_OBJS  := $(LIB_SRCS:tangled/%.c=$(BENCH_OUT)/obj/%.o)
BENCH_LIB   := $(BENCH_OUT)/libminimodel.a
BENCH_PROG  := $(BENCH_OUT)/mha_bench
BENCH_SO    := $(BENCH_OUT)/alloc_count.so
BENCH_FLAGS := $(BENCH_OUT)/flags.txt
# every malloc, calloc, realloc and free of mha_bench and of the library
# goes through alloc_count.c
BENCH_WRAP  := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
bench_sh     = '$(subst ','\'',$(1))'
bench_line   = $(COMPILE) | $(LDLIBS) | $(BENCH_WRAP)

.PHONY: bench check-bench-smoke bench-always
CHECK_TARGETS += check-bench-smoke

$(BENCH_FLAGS): bench-always
	@mkdir -p $(@D)
	@printf '%s\n' $(call bench_sh,$(bench_line)) | cmp -s - $@ \
	  || printf '%s\n' $(call bench_sh,$(bench_line)) > $@

$(BENCH_OUT)/obj/%.o: tangled/%.c $(BENCH_FLAGS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(COMPILE) -MMD -MP -c $< -o $@
-include $(BENCH_OBJS:.o=.d)

$(BENCH_LIB): $(BENCH_OBJS) $(BUILD)/roots.txt
	$(call say,AR,$@)
	@rm -f $@
	$(Q)ar rcs $@ $(BENCH_OBJS)

$(BENCH_PROG): $(BENCH_DIR)/mha_bench.c $(BENCH_DIR)/alloc_count.c $(BENCH_DIR)/alloc_count.h \
               $(BENCH_LIB) $(BENCH_FLAGS)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) -MMD -MP -I$(BENCH_DIR) $(BENCH_DIR)/mha_bench.c $(BENCH_DIR)/alloc_count.c \
	  $(BENCH_LIB) $(LDLIBS) $(BENCH_WRAP) -o $@
-include $(BENCH_PROG).d

# the same counter as a shared object that Python preloads (LD_PRELOAD)
$(BENCH_SO): $(BENCH_DIR)/alloc_count.c $(BENCH_DIR)/alloc_count.h $(BENCH_FLAGS)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) -fPIC -shared -DALLOC_COUNT_PRELOAD $< -o $@

BENCH_RUN = $(BENCH_PYTHON) $(BENCH_DIR)/bench.py --prog $(BENCH_PROG) --memcount $(BENCH_SO) \
  --cc $(call bench_sh,$(CC)) --cflags=$(call bench_sh,$(CFLAGS)) \
  --compile=$(call bench_sh,$(COMPILE) $(LDLIBS)) --lib $(BENCH_LIB) --gnuplot $(BENCH_DIR)/bench.gp

bench: $(BENCH_PROG) $(BENCH_SO)
	$(Q)$(BENCH_RUN) --out $(BENCH_OUT) --budget $(BENCH_BUDGET) --projections 256 $(BENCH_ARGS)

# one tiny shape (7, 12, 3), one round: mha_bench's output is mha_forward's
# with mask_causal bit for bit, NumPy's and PyTorch's agree within 1e-12, the
# report and both plots are written; the self-tests show that the counter
# counts and that the comparisons can fail; the projections' timing runs
check-bench-smoke: $(BENCH_PROG) $(BENCH_SO)
	$(Q)$(BENCH_PROG) --self-test
	$(Q)$(BENCH_RUN) --out $(BUILD)/bench-smoke --smoke
	$(Q)$(BENCH_PROG) --projections 16 > $(BUILD)/bench-smoke/projections.txt \
	  || { cat $(BUILD)/bench-smoke/projections.txt; exit 1; }
	@echo "bench smoke: chapter 01's projections, separate vs fused, timed at T = 16 (the same bits)"

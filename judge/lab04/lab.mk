# judge/lab04/lab.mk - lab 04: masking (make lab NN=04)
#   make lab04  (or make lab NN=04)   check labs/lab04-masking/mask.c, in full detail
#   make check-lab04                  the same, briefly; fails only if a started check fails
# LAB_LANG=es (or a Spanish LANG) prints the report in Spanish; LAB_SANITIZE=1
# runs your code under AddressSanitizer and UBSan; LAB_ARGS='--filter mask_causal'
# checks one function; LAB_ARGS=--summary prints one line per function:
# name, pending, passed, failed, separated by tabs.
#
# The lab checks the learner's functions against chapter 04's module
# (tangled/minimodel/attention/mask.c). The learner's file may call the
# library up to chapter 03 (the core, qkv.c, sdpa.c, mha.c: mha_forward,
# sdpa, softmax_row, mm_matmul, ...), so that the causal layer can be
# chapter 03's mha_forward with the learner's own causal mask; mask.c
# itself is not linked with it (the learner writes all five of its
# functions). Until chapter 04 is in the book (book/en/04-*.nw tangles that
# root), there is nothing to check against: the lab then adds no check to
# make check, and make lab NN=04 says so (with --summary it prints its
# functions with no checks, so that make progress shows the lab with
# nothing to do).
ifndef LAB04_MK
LAB04_MK := 1

LAB04_DIR     := labs/lab04-masking
LAB04_LEARNER := $(LAB04_DIR)/mask.c
LAB04_FUNCS   := mask_causal mask_padding mask_from_bool mask_combine mha_forward_causal

ifneq ($(filter tangled/minimodel/attention/mask.c,$(ROOTS)),)
LAB04_CALLS   := judge/lab04/calls.c
LAB04_LIB     := $(filter tangled/minimodel/core/%.c tangled/minimodel/attention/qkv.c \
                   tangled/minimodel/attention/sdpa.c tangled/minimodel/attention/mha.c,$(LIB_SRCS))

include judge/harness/harness.mk
$(eval $(call lab_c_rules,04))

else
.PHONY: lab04 check-lab04
lab04 check-lab04:
	@if [ '$(findstring --summary,$(LAB_ARGS))' ]; then \
	  printf '%s\t0\t0\t0\n' $(LAB04_FUNCS); \
	elif [ '$(LAB_LANG)' = es ] || { [ -z '$(LAB_LANG)' ] && \
	     case "$${LC_ALL:-$${LC_MESSAGES:-$$LANG}}" in es*) true;; *) false;; esac; }; then \
	  echo "Lab 04 (máscaras): llega con el capítulo 04, que aún no está en el libro; no hay nada que comprobar."; \
	else \
	  echo "Lab 04 (masking): it comes with chapter 04, which is not in the book yet; nothing to check."; \
	fi
endif

endif

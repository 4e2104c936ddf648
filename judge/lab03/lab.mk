# judge/lab03/lab.mk - lab 03: multi-head attention (make lab NN=03)
#   make lab03  (or make lab NN=03)   check labs/lab03-mha/mha.c, in full detail
#   make check-lab03                  the same, briefly; fails only if a started check fails
# LAB_LANG=es (or a Spanish LANG) prints the report in Spanish; LAB_SANITIZE=1
# runs your code under AddressSanitizer and UBSan; LAB_ARGS='--filter mha_forward'
# checks one function; LAB_ARGS=--summary prints one line per function:
# name, pending, passed, failed, separated by tabs.
#
# The lab checks the learner's functions against chapter 03's module
# (tangled/minimodel/attention/mha.c). The learner's file may call the
# library up to chapter 02 (the core, qkv.c, sdpa.c: sdpa, softmax_row,
# qkv_split, mm_matmul, ...), so that each head's attention is chapter 02's
# sdpa; mha.c itself is not linked with it (the learner writes three of its
# functions). Until chapter 03 is in the book (book/en/03-*.nw tangles that
# root), there is nothing to check against: the lab then adds no check to
# make check, and make lab NN=03 says so (with --summary it prints its
# functions with no checks, so that make progress shows the lab with
# nothing to do).
ifndef LAB03_MK
LAB03_MK := 1

LAB03_DIR     := labs/lab03-mha
LAB03_LEARNER := $(LAB03_DIR)/mha.c
LAB03_FUNCS   := mha_split_heads mha_merge_heads mha_forward

ifneq ($(filter tangled/minimodel/attention/mha.c,$(ROOTS)),)
LAB03_CALLS   := judge/lab03/calls.c
LAB03_LIB     := $(filter tangled/minimodel/core/%.c tangled/minimodel/attention/qkv.c \
                   tangled/minimodel/attention/sdpa.c,$(LIB_SRCS))

include judge/harness/harness.mk
$(eval $(call lab_c_rules,03))

else
.PHONY: lab03 check-lab03
lab03 check-lab03:
	@if [ '$(findstring --summary,$(LAB_ARGS))' ]; then \
	  printf '%s\t0\t0\t0\n' $(LAB03_FUNCS); \
	elif [ '$(LAB_LANG)' = es ] || { [ -z '$(LAB_LANG)' ] && \
	     case "$${LC_ALL:-$${LC_MESSAGES:-$$LANG}}" in es*) true;; *) false;; esac; }; then \
	  echo "Lab 03 (atención multicabeza): llega con el capítulo 03, que aún no está en el libro; no hay nada que comprobar."; \
	else \
	  echo "Lab 03 (multi-head attention): it comes with chapter 03, which is not in the book yet; nothing to check."; \
	fi
endif

endif

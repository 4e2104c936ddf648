# judge/lab02/lab.mk - lab 02: the softmax and scaled dot-product attention
# (make lab NN=02)
#   make lab02  (or make lab NN=02)   check labs/lab02-sdpa/sdpa.c, in full detail
#   make check-lab02                  the same, briefly; fails only if a started check fails
# LAB_LANG=es (or a Spanish LANG) prints the report in Spanish; LAB_SANITIZE=1
# runs your code under AddressSanitizer and UBSan; LAB_ARGS='--filter sdpa'
# checks one function; LAB_ARGS=--summary prints one line per function:
# name, pending, passed, failed, separated by tabs.
#
# The lab checks the learner's functions against chapter 02's module
# (tangled/minimodel/attention/sdpa.c). Until that chapter is in the book
# (book/en/02-*.nw tangles that root), there is nothing to check against:
# the lab then adds no check to make check, and make lab NN=02 says so
# (with --summary it prints its functions with no checks, so that make
# progress shows the lab with nothing to do).
ifndef LAB02_MK
LAB02_MK := 1

LAB02_DIR     := labs/lab02-sdpa
LAB02_LEARNER := $(LAB02_DIR)/sdpa.c
LAB02_FUNCS   := softmax_row sdpa

ifneq ($(filter tangled/minimodel/attention/sdpa.c,$(ROOTS)),)
LAB02_CALLS   := judge/lab02/calls.c

include judge/harness/harness.mk
$(eval $(call lab_c_rules,02))

else
.PHONY: lab02 check-lab02
lab02 check-lab02:
	@if [ '$(findstring --summary,$(LAB_ARGS))' ]; then \
	  printf '%s\t0\t0\t0\n' $(LAB02_FUNCS); \
	elif [ '$(LAB_LANG)' = es ] || { [ -z '$(LAB_LANG)' ] && \
	     case "$${LC_ALL:-$${LC_MESSAGES:-$$LANG}}" in es*) true;; *) false;; esac; }; then \
	  echo "Lab 02 (softmax y atención de producto escalado): llega con el capítulo 02, que aún no está en el libro; no hay nada que comprobar."; \
	else \
	  echo "Lab 02 (softmax and scaled dot-product attention): it comes with chapter 02, which is not in the book yet; nothing to check."; \
	fi
endif

endif

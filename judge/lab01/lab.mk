# judge/lab01/lab.mk - lab 01: the Q, K, V projections (make lab NN=01)
#   make lab01  (or make lab NN=01)   check labs/lab01-qkv/qkv.c, in full detail
#   make check-lab01                  the same, briefly; fails only if a started check fails
# LAB_LANG=es (or a Spanish LANG) prints the report in Spanish; LAB_SANITIZE=1
# runs your code under AddressSanitizer and UBSan; LAB_ARGS='--filter qkv_split'
# checks one function; LAB_ARGS=--summary prints one line per function:
# name, pending, passed, failed, separated by tabs.
ifndef LAB01_MK
LAB01_MK := 1

LAB01_DIR     := labs/lab01-qkv
LAB01_LEARNER := $(LAB01_DIR)/qkv.c
LAB01_FUNCS   := qkv_project qkv_pack qkv_split qkv_project_fused attention_param_count
LAB01_CALLS   := judge/lab01/calls.c

include judge/harness/harness.mk
$(eval $(call lab_c_rules,01))

endif

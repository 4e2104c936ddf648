# labs/lab01-qkv/lab.mk - lab 01: the Q, K, V projections (make lab NN=01)
#   make lab01  (or make lab NN=01)   check labs/lab01-qkv/qkv.c, one check at a time
#   make check-lab01                  the same; fails only if a started check fails
# LAB_LANG=es (or a Spanish LANG) prints the report in Spanish.
ifndef LAB01_MK
LAB01_MK := 1

LAB01_DIR     := labs/lab01-qkv
LAB01_LEARNER := $(LAB01_DIR)/qkv.c
LAB01_FUNCS   := qkv_project qkv_pack qkv_split qkv_project_fused attention_param_count

include labs/harness/harness.mk
$(eval $(call lab_c_rules,01))

endif

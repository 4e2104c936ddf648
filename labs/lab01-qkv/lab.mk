# labs/lab01-qkv/lab.mk - lab 01: the Q, K, V projections (make lab NN=01)
LAB01_DIR       := labs/lab01-qkv
LAB01_LEARNER   := $(LAB01_DIR)/qkv.c
LAB01_FUNCS     := qkv_project qkv_pack qkv_split qkv_project_fused attention_param_count
LAB01_REFERENCE := tangled/minimodel/attention/qkv.c

include labs/harness/harness.mk
$(eval $(call lab_c_rules,01))

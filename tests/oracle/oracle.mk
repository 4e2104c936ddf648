# oracle.mk - the independent oracle of the multi-head layer (make check):
#   check-oracle   the library's mha_forward and mha_forward_causal against a
#                  NumPy implementation written from the math, and against
#                  PyTorch's nn.MultiheadAttention, on many shapes, seeds,
#                  hand-set weights and chapter 04's masks in each of
#                  PyTorch's forms; the masked runs against the library's own
#                  unpadded and prefix runs (tests/oracle/README.md)
# Debian's Python (with python3-numpy and python3-torch, make deps) runs it,
# not whatever python3 comes first on PATH.

ORACLE_DIR    := tests/oracle
ORACLE_DUMP   := $(BUILD)/oracle/mha_dump
ORACLE_PYTHON ?= /usr/bin/python3
# e.g. ORACLE_FLAGS='--break torch-wo-not-transposed': see it fail
ORACLE_FLAGS  ?=

$(ORACLE_DUMP): $(ORACLE_DIR)/mha_dump.c $(LIB)
	@mkdir -p $(@D)
	$(call say,CCLD,$@)
	$(Q)$(COMPILE) $< $(LIB) $(LDLIBS) -o $@

.PHONY: check-oracle
CHECK_TARGETS += check-oracle
check-oracle: $(ORACLE_DUMP)
	$(Q)$(ORACLE_PYTHON) $(ORACLE_DIR)/numpy_mha.py --dump $(ORACLE_DUMP) \
	  --product $(or $(BLAS),readable) $(ORACLE_FLAGS)

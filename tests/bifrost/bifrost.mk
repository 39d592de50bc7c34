# Tests of the Bifrost clause decoder, disassembler (malibu-disasm) and test assembler
# (isa/bifrost/bifrost_asm.py; programs and objects in mk/gpu.mk):
#   tests/unit/test_bifrost_*.c   Check unit tests (declared in tests/unit/unit.mk) with the shaders
#                                 of tests/bifrost/*.s assembled into $(B)/tests/bifrost/shaders.inc
#   make bifrost-test             disassembler/assembler round trip (tests/bifrost/roundtrip.py)

# Assembly test shaders -> binaries + C include with their bytes (used by the unit tests).
BIFROST_SHADERS := $(sort $(wildcard tests/bifrost/*.s))
$(B)/tests/bifrost/asm.stamp: $(BIFROST_SHADERS) $(BIFROST_ISA) $(BIFROST_GEN) isa/bifrost/bifrost_asm.py
	@mkdir -p $(B)/tests/bifrost
	$(BIFROST_ASM) --c-include $(B)/tests/bifrost/shaders.inc $(BIFROST_SHADERS)
	@touch $@

.PHONY: bifrost-test
TEST_TARGETS += bifrost-test
SAN_TEST_TARGETS += bifrost-test
BIFROST_UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/test_bifrost_*.c))
bifrost-test: $(B)/malibu-disasm $(BIFROST_UNIT_BINS)
	$(PYTHON) tests/bifrost/roundtrip.py --disasm $(B)/malibu-disasm --workdir $(B)/tests/bifrost

# Optional differential test against Mesa's Bifrost disassembler (not built here):
#   make bifrost-oracle MESA_BIFROST_DISASM=/path/to/tool   (tool FILE prints Mesa's disassembly)
.PHONY: bifrost-oracle
bifrost-oracle: $(B)/malibu-disasm
	@test -n "$(MESA_BIFROST_DISASM)" || { echo "set MESA_BIFROST_DISASM=tool (see tests/bifrost/oracle.py)"; exit 1; }
	$(PYTHON) tests/bifrost/oracle.py --disasm $(B)/malibu-disasm --mesa $(MESA_BIFROST_DISASM) \
	    --workdir $(B)/tests/bifrost --clauses $(or $(N),4000) --seed $(or $(SEED),1)

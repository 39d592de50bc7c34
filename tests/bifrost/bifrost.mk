# Bifrost shader-core tools: ISA tables generated from isa/bifrost/*.isa, clause decoder,
# disassembler (malibu-disasm), test assembler (isa/bifrost/bifrost_asm.py) and their tests.

BIFROST_ISA := isa/bifrost/ops.isa isa/bifrost/clause.isa isa/bifrost/exec.isa
BIFROST_GEN := isa/bifrost/bifrost_gen.py
BIFROST_CFLAGS := $(CFLAGS) -Iemu/gpu

$(B)/gen/bifrost_isa.c $(B)/gen/bifrost_isa.h &: $(BIFROST_ISA) $(BIFROST_GEN)
	@mkdir -p $(B)/gen
	$(PYTHON) $(BIFROST_GEN) $(B)/gen/bifrost_isa $(BIFROST_ISA)

GPU_SRCS := $(filter-out emu/gpu/disasm_main.c,$(sort $(wildcard emu/gpu/*.c)))
GPU_OBJS := $(GPU_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/bifrost_isa.o

$(GPU_OBJS) $(B)/obj/emu/gpu/disasm_main.o: $(B)/gen/bifrost_isa.h
$(GPU_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/emu/gpu/disasm_main.o: $(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) $(BIFROST_EXTRA_$(basename $(notdir $@))) -c $< -o $@

$(B)/obj/gen/bifrost_isa.o: $(B)/gen/bifrost_isa.c $(B)/gen/bifrost_isa.h
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -c $< -o $@

$(B)/malibu-disasm: $(B)/obj/emu/gpu/disasm_main.o $(GPU_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

PROGRAMS += $(B)/malibu-disasm

# Unit tests named test_bifrost_*.c link against the GPU objects instead of the CPU core.
BIFROST_UNIT_BINS := $(filter $(B)/tests/unit/test_bifrost_%,$(UNIT_BINS))
$(BIFROST_UNIT_BINS): $(B)/tests/unit/%: tests/unit/%.c $(GPU_OBJS) $(wildcard tests/unit/*.h) $(B)/tests/bifrost/asm.stamp
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) $(BIFROST_EXTRA_$(notdir $@)) -Itests/unit -I$(B)/tests/bifrost -o $@ $< $(GPU_OBJS) $(CHECK_LIBS) $(LDLIBS) $(LDFLAGS)

# Assembly test shaders -> binaries + C include with their bytes (used by the unit tests).
BIFROST_ASM := $(PYTHON) isa/bifrost/bifrost_asm.py
BIFROST_SHADERS := $(sort $(wildcard tests/bifrost/*.s))
$(B)/tests/bifrost/asm.stamp: $(BIFROST_SHADERS) $(BIFROST_ISA) $(BIFROST_GEN) isa/bifrost/bifrost_asm.py
	@mkdir -p $(B)/tests/bifrost
	$(BIFROST_ASM) --c-include $(B)/tests/bifrost/shaders.inc $(BIFROST_SHADERS)
	@touch $@

.PHONY: bifrost-test
TEST_TARGETS += bifrost-test
SAN_TEST_TARGETS += bifrost-test
bifrost-test: $(B)/malibu-disasm $(BIFROST_UNIT_BINS)
	$(PYTHON) tests/bifrost/roundtrip.py --disasm $(B)/malibu-disasm --workdir $(B)/tests/bifrost

# Optional differential test against Mesa's Bifrost disassembler (not built here):
#   make bifrost-oracle MESA_BIFROST_DISASM=/path/to/tool   (tool FILE prints Mesa's disassembly)
.PHONY: bifrost-oracle
bifrost-oracle: $(B)/malibu-disasm
	@test -n "$(MESA_BIFROST_DISASM)" || { echo "set MESA_BIFROST_DISASM=tool (see tests/bifrost/oracle.py)"; exit 1; }
	$(PYTHON) tests/bifrost/oracle.py --disasm $(B)/malibu-disasm --mesa $(MESA_BIFROST_DISASM) \
	    --workdir $(B)/tests/bifrost --clauses $(or $(N),4000) --seed $(or $(SEED),1)

# The executor (emu/gpu/bifrost_exec*.c) and its test change the host rounding mode around float
# operations.
BIFROST_EXEC_UNITS := $(basename $(notdir $(wildcard emu/gpu/bifrost_exec*.c)))
$(foreach u,$(BIFROST_EXEC_UNITS),$(eval BIFROST_EXTRA_$(u) := -frounding-math))
BIFROST_EXTRA_test_bifrost_exec := -frounding-math

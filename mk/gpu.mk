# Bifrost shader cores (emu/gpu/): ISA tables generated from isa/bifrost/*.isa, clause decoder,
# disassembler, executor, compute-job engine; malibu-disasm; the test-shader assembler.
#   GPU_OBJS         decoder, disassembler, executor, engine + ISA tables (every emu/gpu/*.c
#                    but disasm_main.c), and the timing models it feeds (TIMING_OBJS, --timing)
#   GPU_DEV_OBJS     what the board links (mk/devices.mk): GPU_OBJS without the disassembler
#                    (devices/board_gpu.c hands the engine to the Mali device)
#   BIFROST_CFLAGS   flags of GPU code and of whatever includes its headers
#   BIFROST_ASM      assembler of test shaders (isa/bifrost/bifrost_asm.py)
BIFROST_ISA := isa/bifrost/ops.isa isa/bifrost/clause.isa isa/bifrost/exec.isa
BIFROST_GEN := isa/bifrost/bifrost_gen.py
BIFROST_CFLAGS := $(CFLAGS) -Iemu/gpu
BIFROST_ASM := $(PYTHON) isa/bifrost/bifrost_asm.py

$(B)/gen/bifrost_isa.c $(B)/gen/bifrost_isa.h &: $(BIFROST_ISA) $(BIFROST_GEN)
	@mkdir -p $(B)/gen
	$(PYTHON) $(BIFROST_GEN) $(B)/gen/bifrost_isa $(BIFROST_ISA)

GPU_SRCS := $(filter-out emu/gpu/disasm_main.c,$(sort $(wildcard emu/gpu/*.c)))
GPU_OBJS := $(GPU_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/bifrost_isa.o $(TIMING_OBJS)

$(GPU_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/emu/gpu/disasm_main.o: $(B)/gen/bifrost_isa.h
$(GPU_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/emu/gpu/disasm_main.o: $(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) $(BIFROST_EXTRA_$(basename $(notdir $@))) -c $< -o $@

$(B)/obj/gen/bifrost_isa.o: $(B)/gen/bifrost_isa.c $(B)/gen/bifrost_isa.h
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -c $< -o $@

# The executor (emu/gpu/bifrost_exec*.c) changes the host rounding mode around float operations.
BIFROST_EXEC_UNITS := $(basename $(notdir $(wildcard emu/gpu/bifrost_exec*.c)))
$(foreach u,$(BIFROST_EXEC_UNITS),$(eval BIFROST_EXTRA_$(u) := -frounding-math))
# The executor's interpreter loop gains ~20% at -O3 (measured with GPU_BENCH=1); only when the
# build uses the default -O2 (OPT=-O0 debugging builds keep their level).
$(foreach u,$(BIFROST_EXEC_UNITS),$(eval BIFROST_EXTRA_$(u) += $(if $(filter -O2,$(OPT)),-O3)))
# The engine's hot paths (memory callbacks, workgroup loop) as well.
$(foreach u,engine_mem scheduler,$(eval BIFROST_EXTRA_$(u) += $(if $(filter -O2,$(OPT)),-O3)))

$(B)/malibu-disasm: $(B)/obj/emu/gpu/disasm_main.o $(GPU_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

PROGRAMS += $(B)/malibu-disasm

GPU_DEV_OBJS := $(filter-out $(B)/obj/emu/gpu/bifrost_disasm.o,$(GPU_OBJS))

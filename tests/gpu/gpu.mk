# Bifrost shader-core engine (emu/gpu/compute.[ch]) tests.
#
#   tests/unit/test_gpu_*.c   Check unit tests linked against the GPU objects (GPU_OBJS from
#                             tests/bifrost/bifrost.mk: decoder, executor, engine), with the
#                             shaders of tests/gpu/*.s assembled into $(B)/tests/gpu/shaders.inc
#                             (part of `make unit-test` and of the SAN=1 run)
#   GPU_BENCH=1 build/tests/unit/test_gpu_compute   prints lane-instruction throughput, 1 vs 2
#                             host threads
GPU_TEST_SHADERS := $(sort $(wildcard tests/gpu/*.s))

$(B)/tests/gpu/asm.stamp: $(GPU_TEST_SHADERS) $(BIFROST_ISA) $(BIFROST_GEN) isa/bifrost/bifrost_asm.py
	@mkdir -p $(B)/tests/gpu
	$(BIFROST_ASM) --c-include $(B)/tests/gpu/shaders.inc $(GPU_TEST_SHADERS)
	@touch $@

$(B)/tests/unit/test_gpu_%: tests/unit/test_gpu_%.c $(GPU_OBJS) $(wildcard tests/unit/*.h) $(B)/tests/gpu/asm.stamp
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -Itests/unit -I$(B)/tests/gpu -o $@ $< $(GPU_OBJS) $(CHECK_LIBS) $(LDLIBS) $(LDFLAGS)

# The engine joins the board's devices (devices/board_gpu.c attaches it to the Mali device), so
# build/malibu and every DEVICE_OBJS user links it.
GPU_DEV_OBJS := $(filter-out $(B)/obj/emu/gpu/bifrost_disasm.o,$(GPU_OBJS))
DEVICE_OBJS += $(GPU_DEV_OBJS)

# Targets whose rules (tests/devices/devices.mk) were read before GPU_DEV_OBJS joined DEVICE_OBJS.
$(filter $(B)/tests/unit/test_dev_%,$(UNIT_BINS)) $(B)/tests/devices/devtool: $(GPU_DEV_OBJS)

# test_gpu_mali: the engine behind the Mali device (job slots, GPU MMU): links the board devices.
$(B)/tests/unit/test_gpu_mali: tests/unit/test_gpu_mali.c $(DEVICE_OBJS) $(patsubst %.c,$(B)/obj/%.o,$(wildcard devices/mali/*.c)) $(wildcard tests/unit/*.h) \
                               tests/mali/mali_harness.h $(B)/tests/gpu/asm.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FDT_CFLAGS) -Itests/unit -Itests/mali -I$(B)/tests/gpu -o $@ $< $(DEVICE_OBJS) $(CHECK_LIBS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

# The executor's interpreter loop gains ~20% at -O3 (measured with GPU_BENCH=1); only when the
# build uses the default -O2 (OPT=-O0 debugging builds keep their level).
BIFROST_EXTRA_bifrost_exec += $(if $(filter -O2,$(OPT)),-O3)
BIFROST_EXTRA_compute += $(if $(filter -O2,$(OPT)),-O3)

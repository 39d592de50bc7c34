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

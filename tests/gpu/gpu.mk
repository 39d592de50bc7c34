# Bifrost shader-core engine (emu/gpu/compute.[ch]) tests.
#
#   tests/unit/test_gpu_*.c   Check unit tests (declared in tests/unit/unit.mk: GPU_OBJS, and the
#                             board for test_gpu_mali), with the shaders of tests/gpu/*.s assembled
#                             into $(B)/tests/gpu/shaders.inc (part of `make unit-test` and of the
#                             SAN=1 run)
#   GPU_BENCH=1 build/tests/unit/test_gpu_compute   prints lane-instruction throughput, 1 vs 2
#                             host threads
GPU_TEST_SHADERS := $(sort $(wildcard tests/gpu/*.s))

$(B)/tests/gpu/asm.stamp: $(GPU_TEST_SHADERS) $(BIFROST_ISA) $(BIFROST_GEN) isa/bifrost/bifrost_asm.py
	@mkdir -p $(B)/tests/gpu
	$(BIFROST_ASM) --c-include $(B)/tests/gpu/shaders.inc $(GPU_TEST_SHADERS)
	@touch $@

# Graphics shader messages of the Bifrost executor (emu/gpu/bifrost_exec_gfx.c, bifrost_gfx.h):
#   tests/unit/test_bifrost_gfx.c   Check unit test (declared in tests/unit/unit.mk) with the
#                                   shaders of tests/gfx/*.s assembled into $(B)/tests/gfx/shaders.inc,
#                                   run against a fake front end on both back ends and both arches
GFX_TEST_SHADERS := $(sort $(wildcard tests/gfx/*.s))

$(B)/tests/gfx/asm.stamp: $(GFX_TEST_SHADERS) $(BIFROST_ISA) $(BIFROST_GEN) isa/bifrost/bifrost_asm.py
	@mkdir -p $(B)/tests/gfx
	$(BIFROST_ASM) --c-include $(B)/tests/gfx/shaders.inc $(GFX_TEST_SHADERS)
	@touch $@

# Design-space sweeps (issue 38; docs/sweeps.md).
# make gpu-size-test (~1 min on 2 cores): --gpu g71,cores=N,mhz=M in the guest: panfrost's core
# mask, rusticl's compute units, the DT clock, and a kernel's modelled time scaling with cores x
# clock (tests/sweep/gpu_size_test.py).  The parser and refusals: test_mali_gpu (make unit-test).
.PHONY: gpu-size-test
TEST_TARGETS += gpu-size-test
gpu-size-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== gpu size test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== gpu size: --gpu g71,cores=N,mhz=M in the guest"
	$(PYTHON) tests/sweep/gpu_size_test.py $(B)/malibu $(IMAGE_OUT)
endif

# Checkpoints, the GPU part (docs/checkpoint.md "The GPU"): make checkpoint-gpu-test, also run by
# make checkpoint-test.  kernel_chain (guest-images/apps/kernel_chain.c, in the image that
# `make image` builds) saves the board with its kernels in flight; the resumed run's result equals
# the uninterrupted run's, and the GPU totals before the save plus after the load equal the
# uninterrupted run's (tests/checkpoint/gpu_chain_test.py).
.PHONY: checkpoint-gpu-test
checkpoint-test: checkpoint-gpu-test
checkpoint-gpu-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== checkpoint GPU test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== checkpoint, GPU: saved with a kernel chain in flight, resumed: the same result and GPU totals"
	$(PYTHON) tests/checkpoint/gpu_chain_test.py $(B)/malibu $(IMAGE_OUT) $(B)/tests/checkpoint-gpu
endif

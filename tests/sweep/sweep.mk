# Design-space sweeps (issue 38; docs/sweeps.md).
# make gpu-size-test (1-2 min on 2 cores): --gpu g71,cores=N,mhz=M in the guest: panfrost's core
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

# make sweep-test (~3 min on 2 cores): tools/malibu-sweep end to end (tests/sweep/sweep_test.py):
# bad specs refused with file:line and key before anything runs; the 4-point L2-size sweep
# tests/sweep/l2.toml locally and under a private single-node Slurm (munged, slurmctld, slurmd in
# the foreground, stopped after) with identical tables; the plot's data equals the table; a point
# killed halfway is resumed alone; a timed-out point retried once.  Debian's python3 (matplotlib).
.PHONY: sweep-test
TEST_TARGETS += sweep-test
sweep-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== sweep test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== sweep: malibu-sweep locally and on a private Slurm"
	/usr/bin/python3 tests/sweep/sweep_test.py $(B)/malibu $(IMAGE_OUT)
endif

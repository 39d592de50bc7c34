# The timing plug-in in the guest (emu/timing, docs/timing.md).  In `make test` (~1 min): the
# pointer-chase microbenchmark (guest-images/apps/pointer_chase) under --timing recovers the
# configured L1 / L2 sizes and L1 line size for two small geometries (tests/timing/chase_test.py),
# on the default guest image; then the --stats timing section (schema, sums, the same for
# --gpu-threads 1 and 4, malibu-report renders it).  The models themselves: test_timing (tests/unit/unit.mk).
# make timing-test: the models alone, test_timing (also in make unit-test).
.PHONY: timing-test
timing-test: $(B)/tests/unit/test_timing
	$(B)/tests/unit/test_timing

.PHONY: timing-guest-test
TEST_TARGETS += timing-guest-test
timing-guest-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== timing guest test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== timing: pointer chase under --timing: cache knees in guest-visible time"
	$(PYTHON) tests/timing/chase_test.py $(B)/malibu $(IMAGE_OUT) g71 $(B)/tests/timing
endif

# The same pointer chase twice, on an idle host with one GPU thread and with two busy-looping host
# processes and two GPU threads: the guest-visible ns per load must be identical (GPU timestamps
# follow the modelled schedule, devices/mali/clock.c; docs/timing.md).  ~3.5 min on 2 cores.
.PHONY: timing-repro-test
TEST_TARGETS += timing-repro-test
timing-repro-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== timing repro test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== timing: pointer chase figures reproduce on an idle and a busy host"
	$(PYTHON) tests/timing/chase_test.py --repro $(B)/malibu $(IMAGE_OUT) g71
endif

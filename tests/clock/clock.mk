# The deterministic guest clock (--clock icount, devices/gtimer.h, docs/gpu.md).
# make clock-icount-test: boot + the OpenCL profiling and pointer_chase samples three times (one on
# a busy host), console output and --stats GPU totals identical (tests/clock/icount_test.py).
.PHONY: clock-icount-test
clock-icount-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== clock icount test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== clock: --clock icount, three runs (one on a busy host) identical"
	$(PYTHON) tests/clock/icount_test.py $(B)/malibu $(IMAGE_OUT)
endif

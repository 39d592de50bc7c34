# PMU test of build/malibu (emu/cpu/sys_pmu.c; docs/cpu.md: PMU):
#   make pmu-test   (in make test) one boot of the guest image: Linux's arm_pmuv3 driver probes the
#                   PMU, tests/pmu/pmu_count.c counts a loop's instructions and cycles exactly through
#                   perf_event_open, and sampling on the instruction counter raises one PMU interrupt
#                   per period (tests/pmu/pmu_test.sh).
.PHONY: pmu-test
TEST_TARGETS += pmu-test

$(B)/tests/pmu/share/pmu_count: tests/pmu/pmu_count.c
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -static -o $@ $<

pmu-test: $(B)/malibu $(B)/tests/pmu/share/pmu_count
	@$(MAKE) --no-print-directory image
	@echo "== pmu: arm_pmuv3 probe, exact perf counts of a loop, overflow interrupts"
	sh tests/pmu/pmu_test.sh $(B)/malibu $(GI_OUT) $(B)/tests/pmu/share

# SMP tests of build/malibu (emu/system/smp.c, emu/cpu/sys_smp.c; docs/devices.md: SMP):
#   make smp-test   (in make test) the bare-metal order test (smp_order.S: CPU_ON of CPUs 1-3, LDXR/
#                   STXR tickets; two --smp-mode rr runs must interleave identically, no ticket
#                   lost in rr or threads), then --smp 4 boots of the guest image in --smp-mode rr and threads:
#                   nproc 4, CPU off/on cycles through sysfs, the pthread stress program
#                   tests/smp/smp_stress.c (LDXR/STXR counters, mutexes, release/acquire message
#                   passing, store buffering with DMB), a clean kernel log.  SMP_IN_TEST=no skips it;
#                   SMP_STRESS_ITERATIONS (rr, default 200000) and SMP_THREADS_STRESS_ITERATIONS
#                   (threads, default 20000: spinning guest threads on fewer host cores are slow) set the
#                   stress size.
SMP_IN_TEST ?= yes
SMP_STRESS_ITERATIONS ?= 200000
SMP_THREADS_STRESS_ITERATIONS ?= 20000

.PHONY: smp-test
TEST_TARGETS += smp-test

$(B)/tests/smp/share/smp_stress: tests/smp/smp_stress.c
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -static -pthread -o $@ $<

$(B)/tests/smp/smp_order.bin: tests/smp/smp_order.S
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-as -o $(B)/tests/smp/smp_order.o $<
	aarch64-linux-gnu-ld -Ttext=0x80080000 -o $(B)/tests/smp/smp_order.elf $(B)/tests/smp/smp_order.o
	aarch64-linux-gnu-objcopy -O binary $(B)/tests/smp/smp_order.elf $@

smp-test: $(B)/malibu $(B)/tests/smp/share/smp_stress $(B)/tests/smp/smp_order.bin
	@echo "== smp: bare-metal order test (rr reproducible, no lost LDXR/STXR update)"
	sh tests/smp/order_test.sh $(B)/malibu $(B)/tests/smp/smp_order.bin
ifeq ($(SMP_IN_TEST),no)
	@echo "== smp: skipped (SMP_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== smp: --smp 4 boots (rr and threads): CPUs online, CPU off/on, stress program, kernel log"
	sh tests/smp/smp_test.sh $(B)/malibu $(GI_OUT) $(B)/tests/smp/share rr $(SMP_STRESS_ITERATIONS)
	sh tests/smp/smp_test.sh $(B)/malibu $(GI_OUT) $(B)/tests/smp/share threads $(SMP_THREADS_STRESS_ITERATIONS)
endif

# The GDB stub (emu/debug/, emu/system/gdb_board.c, emu/cpu/sys_debug.c):
#   make gdb-test   tests/gdb/gdb_test.py: Debian's gdb-multiarch (batch mode) against Debian's
#                   kernel ($(IMAGE_OUT)/Image, nokaslr, busybox initramfs): raw malformed
#                   packets and Ctrl-C, then a breakpoint on vfs_read from the guest's
#                   /proc/kallsyms hit by `dd bs=12345`, PC and x2 checked, stepi, a watchpoint
#                   on jiffies, continue to the guest's power-off.  Also in the SAN=1 run.  Then
#                   the same with --smp 2 (not under SAN=1): the vCPU that stops is the thread
#                   gdb reads (a conditional breakpoint hit by either vCPU).
#                   Logs in $(B)/tests/gdb.  Needs `make initramfs` (run first, as boot-test does).
.PHONY: gdb-test
TEST_TARGETS += gdb-test
SAN_TEST_TARGETS += gdb-test

gdb-test: $(B)/malibu
	@$(MAKE) --no-print-directory initramfs
	@echo "== gdb: gdb-multiarch against Debian's kernel"
	@mkdir -p $(B)/tests/gdb
	$(PYTHON) tests/gdb/gdb_test.py $(B)/malibu $(BOOT_IMAGE) $(BOOT_INITRD) $(B)/tests/gdb
ifneq ($(SAN),1)
	@mkdir -p $(B)/tests/gdb-smp2
	GDB_TEST_ARGS="--smp 2" $(PYTHON) tests/gdb/gdb_test.py $(B)/malibu $(BOOT_IMAGE) $(BOOT_INITRD) $(B)/tests/gdb-smp2
endif

# Capstone traces:
#   make trace-test   tests/gdb/trace_test.sh: --trace in_asm/exec/--trace-range of malibu-user on
#                     tests/user/asm_hello.S and of malibu on tests/boot/hello.bin (boot stub
#                     block, kernel blocks filtered out), --debug exc's disassembled SVC.
.PHONY: trace-test
TEST_TARGETS += trace-test
SAN_TEST_TARGETS += trace-test

trace-test: $(B)/malibu $(B)/malibu-user $(B)/tests/boot/hello.bin
	@echo "== trace: Capstone traces of malibu and malibu-user"
	sh tests/gdb/trace_test.sh $(B)/malibu $(B)/malibu-user $(B)/tests/boot/hello.bin $(B)/tests/trace

# --gpu-trace jobs:
#   make gpu-trace-test   tests/gdb/gpu_trace_test.py: vecadd and reduce on the emulated G71 in the
#                         guest image with --gpu-trace jobs, --gpu-dump and Mesa's pandecode in
#                         the guest (PAN_MESA_DEBUG=trace): every job's decoded fields agree with
#                         pandecode's (job_fields.py), every chain printed live is the one
#                         build/malibu-decode prints from the dump, line for line.
.PHONY: gpu-trace-test
TEST_TARGETS += gpu-trace-test

gpu-trace-test: $(B)/malibu $(B)/malibu-decode
	@$(MAKE) --no-print-directory image
	@echo "== gpu-trace: --gpu-trace jobs against Mesa's pandecode and malibu-decode"
	$(PYTHON) tests/gdb/gpu_trace_test.py $(B)/malibu $(B)/malibu-decode $(GI_OUT) $(B)/tests/gpu-trace

# The GDB stub (emu/debug/, emu/system/gdb_board.c, emu/cpu/sys_debug.c):
#   make gdb-test   tests/gdb/gdb_test.py: Debian's gdb-multiarch (batch mode) against Debian's
#                   kernel (guest-images/out/Image, nokaslr, busybox initramfs): raw malformed
#                   packets and Ctrl-C, then a breakpoint on vfs_read from the guest's
#                   /proc/kallsyms hit by `dd bs=12345`, PC and x2 checked, stepi, a watchpoint
#                   on jiffies, continue to the guest's power-off.  Also in the SAN=1 run.
#                   Logs in $(B)/tests/gdb.  Needs `make initramfs` (run first, as boot-test does).
.PHONY: gdb-test
TEST_TARGETS += gdb-test
SAN_TEST_TARGETS += gdb-test

gdb-test: $(B)/malibu
	@$(MAKE) --no-print-directory initramfs
	@echo "== gdb: gdb-multiarch against Debian's kernel"
	@mkdir -p $(B)/tests/gdb
	$(PYTHON) tests/gdb/gdb_test.py $(B)/malibu $(BOOT_IMAGE) $(BOOT_INITRD) $(B)/tests/gdb

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

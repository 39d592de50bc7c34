# Full-system boot tests for build/malibu (emu/system, emu/cpu/sys_*.c, mmu.c).
#   make boot-test       bare-metal smoke test (tests/boot/hello.S: PL011, MMU, SVC, UNDEF, PSCI off)
#                        and Debian's arm64 kernel (IMAGE_STACK's) + busybox initramfs (tests/boot/boot_test.py):
#                        interactive shell commands, clean kernel log, poweroff -> 0, panic -> non-zero
# The kernel part needs $(IMAGE_OUT)/{Image,initramfs-busybox.cpio.gz} (the IMAGE_STACK's image
# directory, mk/image.mk); they are fetched and built first (`make initramfs`; BOOT_IN_TEST=no
# skips the kernel part), and their absence afterwards is a failure.
BOOT_IN_TEST ?= yes
BOOT_IMAGE = $(IMAGE_OUT)/Image
BOOT_INITRD = $(IMAGE_OUT)/initramfs-busybox.cpio.gz

.PHONY: boot-test boot-hello-test
TEST_TARGETS += boot-test

$(B)/tests/boot/hello.bin: tests/boot/hello.S
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-as -o $(B)/tests/boot/hello.o $<
	aarch64-linux-gnu-ld -Ttext=0x80080000 -o $(B)/tests/boot/hello.elf $(B)/tests/boot/hello.o
	aarch64-linux-gnu-objcopy -O binary $(B)/tests/boot/hello.elf $@

boot-hello-test: $(B)/malibu $(B)/tests/boot/hello.bin
	@echo "== boot: bare-metal smoke test"
	sh tests/boot/hello_test.sh $(B)/malibu $(B)/tests/boot/hello.bin

boot-test: boot-hello-test
ifneq ($(BOOT_IN_TEST),no)
	@$(MAKE) --no-print-directory initramfs
endif
ifeq ($(BOOT_IN_TEST),no)
	@echo "== boot: Debian kernel skipped (BOOT_IN_TEST=no)"
else
	@for f in $(BOOT_IMAGE) $(BOOT_INITRD); do \
	    [ -f $$f ] || { echo "boot-test: FAIL: $$f missing after make initramfs"; exit 1; }; \
	done
	@echo "== boot: Debian's kernel ($(BOOT_IMAGE)) + busybox initramfs"
	$(PYTHON) tests/boot/boot_test.py $(B)/malibu $(BOOT_IMAGE) $(BOOT_INITRD) $(B)/tests/boot
endif

# Mali Bifrost GPU device (devices/mali/, see devices/mali/mali.h).
#
#   MALI_OBJS                 the GPU device; appended to DEVICE_OBJS (board.c instantiates it
#                             for --gpu), so build/malibu and every DEVICE_OBJS user links it
#   tests/unit/test_mali_*.c  Check unit tests against DEVICE_OBJS (in `make unit-test` and the
#                             SAN=1 run)
#   make mali-boot-test       boots the guest initrd in build/malibu with the program below, per
#                             GPU model (needs guest-images/out; not in make test)
#   make mali-test            guest-images/apps/panfrost_ioctl_test.c cross-compiled with
#                             aarch64-linux-gnu-gcc -Wall -Wextra -Werror (skipped without it)
#   make mali-apps-test       every OpenCL sample on panfrost per model and --gpu-threads count,
#                             vs the CPU, llvmpipe and each other (tests/mali/apps_test.sh)
MALI_SRCS := $(sort $(wildcard devices/mali/*.c))
MALI_OBJS := $(MALI_SRCS:%.c=$(B)/obj/%.o)
DEVICE_OBJS += $(MALI_OBJS)


# Targets whose rules (tests/devices/devices.mk) were read before MALI_OBJS joined DEVICE_OBJS.
$(filter $(B)/tests/unit/test_dev_%,$(UNIT_BINS)) $(B)/tests/devices/devtool: $(MALI_OBJS)

$(B)/tests/unit/test_mali_%: tests/unit/test_mali_%.c $(DEVICE_OBJS) $(wildcard tests/unit/*.h) \
                             tests/mali/mali_harness.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FDT_CFLAGS) -Itests/unit -Itests/mali -o $@ $< $(DEVICE_OBJS) $(CHECK_LIBS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

MALI_CROSS_CC ?= aarch64-linux-gnu-gcc
.PHONY: mali-test
TEST_TARGETS += mali-test

MALI_APP := $(wildcard guest-images/apps/panfrost_ioctl_test.c)
mali-test:
	@echo "== mali: guest-images/apps/panfrost_ioctl_test.c ($(MALI_CROSS_CC))"
	@if [ -z "$(MALI_APP)" ]; then echo "mali-test: no guest app yet"; \
	elif command -v $(MALI_CROSS_CC) >/dev/null 2>&1; then \
	    mkdir -p $(B)/tests/mali && \
	    $(MALI_CROSS_CC) -O2 -Wall -Wextra -Werror -o $(B)/tests/mali/panfrost_ioctl_test \
	        $(MALI_APP) && echo "mali-test: ok"; \
	else echo "mali-test: $(MALI_CROSS_CC) not installed: skipped"; fi

# Not part of `make test` (needs the guest images and ~30 s per boot): the guest program under
# the real panfrost driver, on build/malibu, for each GPU model.
# In `make test` (MALI_IN_TEST=no skips it): the guest checks of tests/mali/guest_test.sh and the
# ioctl program above, on G71 (v6) and G52 (v7); `make image` fetches and builds what they boot.
MALI_IN_TEST ?= yes
.PHONY: mali-guest-test
TEST_TARGETS += mali-guest-test
mali-guest-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== mali guest tests skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== mali: panfrost + rusticl in the guest image (g71, g52)"
	sh tests/mali/guest_test.sh $(B)/malibu "g71 g52"
	sh tests/mali/boot_test.sh $(B)/malibu $(B)/tests/mali/boot "g71 g52"
endif

# In `make test` too (~2-4 min): the 13 OpenCL samples on panfrost for g71 and g52 with
# --gpu-threads 1 and 2, checked against the CPU, against llvmpipe and across thread counts
# (tests/mali/apps_test.sh; MALI_APPS_KNOWN_FAIL lists failures reported but not gated).
.PHONY: mali-apps-test
TEST_TARGETS += mali-apps-test
mali-apps-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== mali OpenCL sample tests skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== mali: the OpenCL samples on panfrost (g71, g52; --gpu-threads 1, 2) vs CPU and llvmpipe"
	sh tests/mali/apps_test.sh $(B)/malibu $(B)/tests/mali/apps "g71 g52" "1 2"
endif

.PHONY: mali-boot-test
mali-boot-test: $(B)/malibu
	sh tests/mali/boot_test.sh $(B)/malibu $(B)/tests/mali/boot

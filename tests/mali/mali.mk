# Mali Bifrost GPU device (devices/mali/, see devices/mali/mali.h).
#
#   tests/unit/test_mali_*.c  Check unit tests against DEVICE_OBJS (mk/devices.mk, which holds the
#                             device's objects MALI_OBJS), through tests/mali/mali_harness.h
#                             (declared in tests/unit/unit.mk; in `make unit-test` and the SAN=1 run)
#   make mali-boot-test       boots the guest initrd in build/malibu with the program below, per
#                             GPU model (needs $(IMAGE_OUT); not in make test)
#   make mali-test            guest-images/apps/panfrost_ioctl_test.c cross-compiled with
#                             aarch64-linux-gnu-gcc -Wall -Wextra -Werror (fails without it)
#   make mali-apps-test       every OpenCL sample on panfrost per model and --gpu-threads count,
#                             vs the CPU, llvmpipe and each other, and the --stats counts of the
#                             boots' GPU back ends (interp, jit) compared (tests/mali/apps_test.sh);
#                             mali-stats-test is another name for it
#   make mali-stack-test      the second guest stack (IMAGE_STACK=stable: Linux 6.12, panfrost 1.2,
#                             Mesa 25.0): the guest checks and the samples there
MALI_CROSS_CC ?= aarch64-linux-gnu-gcc
.PHONY: mali-test
TEST_TARGETS += mali-test

MALI_APP := $(wildcard guest-images/apps/panfrost_ioctl_test.c)
mali-test:
	@echo "== mali: guest-images/apps/panfrost_ioctl_test.c ($(MALI_CROSS_CC))"
	@if [ -z "$(MALI_APP)" ]; then echo "mali-test: FAIL: guest-images/apps/panfrost_ioctl_test.c missing"; exit 1; \
	elif command -v $(MALI_CROSS_CC) >/dev/null 2>&1; then \
	    mkdir -p $(B)/tests/mali && \
	    $(MALI_CROSS_CC) -O2 -Wall -Wextra -Werror -o $(B)/tests/mali/panfrost_ioctl_test \
	        $(MALI_APP) && echo "mali-test: ok"; \
	else echo "mali-test: FAIL: $(MALI_CROSS_CC) not installed (tools/host-packages)"; exit 1; fi

# Not part of `make test` (needs the guest images and ~30 s per boot): the guest program under
# the real panfrost driver, on build/malibu, for each GPU model.
# In `make test` (MALI_IN_TEST=no skips it): the guest checks of tests/mali/guest_test.sh (the
# default image: the backports stack, with the hung-job recovery on g52) and the ioctl program
# above, on G71 (v6) and G52 (v7); `make image` fetches and builds what they boot.
MALI_IN_TEST ?= yes
.PHONY: mali-guest-test
TEST_TARGETS += mali-guest-test
mali-guest-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== mali guest tests skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== mali: panfrost + rusticl in the default guest image (g71, g52)"
	sh tests/mali/guest_test.sh $(B)/malibu "g71 g52" $(IMAGE_OUT)
	sh tests/mali/boot_test.sh $(B)/malibu $(B)/tests/mali/boot $(IMAGE_OUT) "g71 g52"
endif

# In `make test` too (two boots at once, ~3 min): the 13 OpenCL samples (sgemm_naive at
# 256, whose loop clauses run often enough per host thread to fill compiled code's records) on
# panfrost for MALI_APPS_MODELS (default g71; g52 runs them in mali-stack-test, on the stable
# stack) with --gpu-threads 1 and 2, checked against the CPU, against llvmpipe and across thread
# counts and back ends; the same boots compare the GPU back ends' --stats counts (interp with 1
# thread, jit with 2) (tests/mali/apps_test.sh with MALI_APPS_STATS=1; MALI_APPS_KNOWN_FAIL lists
# failures reported but not gated).  mali-stats-test is another name for it.
# mali-apps-full-test: the same on g71 and g52, and on g71 a third boot with the jit's SSE code
# (MALI_APPS_SSE=yes; it runs 4-lane warps only; in make test, test_gpu_jit compares the SSE code
# with the interpreter on its shaders) (five boots, ~5 min).
MALI_APPS_MODELS ?= g71
MALI_APPS_SSE ?= no
MALI_APPS_TEST_LIST := vecadd saxpy sgemm_naive:256 sgemm_tiled reduce scan sobel histogram \
    bitonic_sort transpose bfs math_builtins image_convert
.PHONY: mali-apps-test mali-stats-test mali-apps-full-test
TEST_TARGETS += mali-apps-test
mali-apps-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== mali OpenCL sample tests skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== mali: the OpenCL samples on panfrost ($(MALI_APPS_MODELS); --gpu-threads 1 interp, 2 jit) vs CPU and llvmpipe, and their --stats counts"
	MALI_APPS_IMAGE=$(IMAGE_OUT) MALI_APPS_STATS=1 MALI_APPS_SSE=$(MALI_APPS_SSE) MALI_APPS="$(MALI_APPS_TEST_LIST)" \
	    sh tests/mali/apps_test.sh $(B)/malibu $(B)/tests/mali/apps "$(MALI_APPS_MODELS)" "1 2"
endif
mali-stats-test: mali-apps-test
mali-apps-full-test: $(B)/malibu
	@$(MAKE) --no-print-directory mali-apps-test MALI_APPS_MODELS="g71 g52" MALI_APPS_SSE=yes

# In `make test` too (~2 min, two boots): the second guest stack, trixie's own (`make image
# IMAGE_STACK=stable`: Linux 6.12 with panfrost 1.2, Mesa 25.0, in MALI_STACK2_OUT, built
# and checked by image-test; its packages are fetched here the first time): the guest checks of
# tests/mali/guest_test.sh (profiling reports SKIP there) on MALI_STACK_GUEST_MODELS (default
# g52), then the 13 samples against the CPU and llvmpipe as in mali-apps-test (--gpu-threads 2)
# on MALI_STACK_APPS_MODELS (default g52: mali-apps-test runs g71 on the default stack, so each
# model runs the samples on one stack).  `make mali-stack-test MALI_STACK_GUEST_MODELS="g71 g52"
# MALI_STACK_APPS_MODELS="g71 g52"`: every part on both (~4 min).
MALI_STACK_GUEST_MODELS ?= g52
MALI_STACK_APPS_MODELS ?= g52
# MALI_STACK2_OUT: the stable stack's image directory (mk/image.mk's IMAGE_OUT for
# IMAGE_STACK=stable), passed down so that an IMAGE_OUT given for the default stack is not reused.
MALI_STACK2_OUT ?= $(GI)/out-stable
.PHONY: mali-stack-test
TEST_TARGETS += mali-stack-test
mali-stack-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== mali stable-stack tests skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image-test IMAGE_STACK=stable IMAGE_OUT=$(MALI_STACK2_OUT)
	@echo "== mali: the stable stack (panfrost 1.2, Mesa 25.0): guest checks ($(MALI_STACK_GUEST_MODELS))"
	HANG= sh tests/mali/guest_test.sh $(B)/malibu "$(MALI_STACK_GUEST_MODELS)" $(MALI_STACK2_OUT)
	@echo "== mali: the OpenCL samples on the stable stack ($(MALI_STACK_APPS_MODELS); --gpu-threads 2) vs CPU and llvmpipe"
	MALI_APPS_IMAGE=$(MALI_STACK2_OUT) sh tests/mali/apps_test.sh $(B)/malibu $(B)/tests/mali/apps-stable "$(MALI_STACK_APPS_MODELS)" "2"
endif

.PHONY: mali-boot-test
mali-boot-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	sh tests/mali/boot_test.sh $(B)/malibu $(B)/tests/mali/boot $(IMAGE_OUT)

# Debian's clpeak on the default (backports) stack (tests/mali/clpeak_test.sh): each figure within
# the band of its measured values, with 2 GiB of guest RAM: global bandwidth, single-precision
# compute, kernel latency (the float variants; compute: 31 launches of 2.7 / 5.4 G lane-instructions
# on G52 / G71; bandwidth: 102 launches of 1.6 G, memory-message bound).  In `make test` on G52
# only, compute and latency (~1.5 min; G71 takes 4.6 min, 2.2 of them bandwidth: with both models
# and all three figures `make test` went over its 30 minutes on 2 cores, and again with
# piglit-cl-test and mali-hashcat-test); mali-clpeak-full-test (not in `make test`): all three
# figures on the models named by MODELS (default both).  mali-clpeak-test runs clpeak under the
# naming layer with --stats: every launch must name its job by its kernel (issue 36's unmodified
# Debian program; tests/stats/check_roi.py clpeak).
.PHONY: mali-clpeak-test mali-clpeak-full-test
TEST_TARGETS += mali-clpeak-test
mali-clpeak-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== mali clpeak test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== mali: clpeak on the default stack (compute, kernel latency, kernel names; g52; bandwidth and g71 in mali-clpeak-full-test)"
	CLPEAK_TESTS="--compute-sp --kernel-latency" CLPEAK_NAMES=$(B)/tests/clpeak-names sh tests/mali/clpeak_test.sh $(B)/malibu g52 $(IMAGE_OUT)
endif
mali-clpeak-full-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	sh tests/mali/clpeak_test.sh $(B)/malibu "$(or $(MODELS),g71 g52)" $(IMAGE_OUT)

# Debian's hashcat on the default stack (tests/mali/hashcat_test.sh): a brute-force crack of a
# known MD5 on each model of HASHCAT_MODELS (default g52 in `make test`, to keep it within its time
# budget; MODELS="g71 g52" for both) and `hashcat -b -m 0` on those of HASHCAT_BENCH_MODELS (default
# none in `make test`: the benchmark is 43 s of a 170 s boot), through the OpenCL layer that
# applies the bound on CL_KERNEL_WORK_GROUP_SIZE Mesa misses (guest-images/apps/
# libcl_kernel_wg_bound.c).  mali-hashcat-full-test: the crack and the benchmark on g71 and g52.
HASHCAT_BENCH_MODELS ?= none
HASHCAT_MODELS ?= g52
.PHONY: mali-hashcat-test mali-hashcat-full-test
mali-hashcat-full-test: $(B)/malibu
	@$(MAKE) --no-print-directory mali-hashcat-test HASHCAT_MODELS="g71 g52" HASHCAT_BENCH_MODELS="g71 g52"
TEST_TARGETS += mali-hashcat-test
mali-hashcat-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== mali hashcat test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== mali: hashcat on the default stack (MD5 brute force: $(or $(MODELS),$(HASHCAT_MODELS)); benchmark: $(HASHCAT_BENCH_MODELS))"
	sh tests/mali/hashcat_test.sh $(B)/malibu "$(or $(MODELS),$(HASHCAT_MODELS))" $(IMAGE_OUT) "$(HASHCAT_BENCH_MODELS)"
endif

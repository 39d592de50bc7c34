# OpenCL samples (guest-images/apps, see guest-images/apps/README.md) built natively and run on
# the host against pocl, an OpenCL implementation independent of Mesa/rusticl and of malibu: this
# validates the samples themselves (kernels, CPU references, tolerances).
#   make apps-host-test   build $(BUILD)/apps-host/NAME for every sample and run each on pocl;
#                         fails naming what is missing when pocl or the OpenCL headers/loader
#                         are (Debian: pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers)
#   make apps-rusticl-test  the cross-compiled guest binaries ($(GI_WORK)/apps) on the
#                         guest's own Mesa rusticl + llvmpipe, under qemu-aarch64 -L with the
#                         unpacked rootfs tree, at small sizes (~5 min on 2 busy cores; not in
#                         make test; fails without qemu-aarch64; builds the image if needed)
# APPS_HOST_ARGS='-v' passes options to every sample; OCL_ICD_VENDORS restricts the ICD loader
# to pocl (to rusticl under qemu) so other OpenCL drivers don't interfere.
APPS_DIR := guest-images/apps
# the samples: sources that end main with the shared helper's app_main (/dev/null: never stdin)
APPS_SRCS := $(sort $(filter-out $(APPS_DIR)/common.c, \
                 $(shell grep -l 'return app_main' /dev/null $(wildcard $(APPS_DIR)/*.c) 2>/dev/null)))
APPS_NAMES := $(patsubst $(APPS_DIR)/%.c,%,$(APPS_SRCS))
APPS_HOST_DIR := $(BUILD)/apps-host
APPS_HOST_BINS := $(APPS_NAMES:%=$(APPS_HOST_DIR)/%)
APPS_HOST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -DCL_TARGET_OPENCL_VERSION=300
APPS_POCL_ICD := /etc/OpenCL/vendors/pocl.icd
APPS_HOST_ARGS ?=

$(APPS_HOST_DIR)/%: $(APPS_DIR)/%.c $(APPS_DIR)/common.c $(APPS_DIR)/common.h
	@mkdir -p $(dir $@)
	$(CC) $(APPS_HOST_CFLAGS) -o $@ $< $(APPS_DIR)/common.c -lOpenCL -lm

.PHONY: apps-host-test apps-host-run apps-host apps-rusticl-test apps-rusticl-run
TEST_TARGETS += apps-host-test

apps-host: $(APPS_HOST_BINS)

apps-host-test:
	@miss=""; [ -f $(APPS_POCL_ICD) ] || miss="$$miss $(APPS_POCL_ICD) (pocl-opencl-icd)"; \
	[ -f /usr/include/CL/cl.h ] || miss="$$miss /usr/include/CL/cl.h (opencl-c-headers)"; \
	[ -e /usr/lib/x86_64-linux-gnu/libOpenCL.so ] || ldconfig -p 2>/dev/null | grep -q 'libOpenCL.so ' || \
	    miss="$$miss libOpenCL.so (ocl-icd-opencl-dev)"; \
	if [ -n "$$miss" ]; then echo "apps-host-test: FAIL: missing:$$miss (tools/host-packages)"; exit 1; fi
	@$(MAKE) --no-print-directory apps-host-run

apps-host-run: $(APPS_HOST_BINS)
	@echo "== OpenCL samples on the host (pocl): $(APPS_NAMES)"
	@mkdir -p $(APPS_HOST_DIR)/pocl-cache
	@failed=""; for n in $(APPS_NAMES); do \
	    log=$(APPS_HOST_DIR)/$$n.log; \
	    if OCL_ICD_VENDORS=$(APPS_POCL_ICD) POCL_CACHE_DIR=$(APPS_HOST_DIR)/pocl-cache \
	       timeout 300 $(APPS_HOST_DIR)/$$n $(APPS_HOST_ARGS) >$$log 2>&1 && \
	       tail -n 1 $$log | grep -qx "$$n: PASS"; then \
	        echo "   $$n: PASS  ($$(grep -o 'kernel=ALL ns=[0-9]*' $$log))"; \
	    else \
	        echo "   $$n: FAIL; output:"; sed 's/^/     | /' $$log; failed="$$failed $$n"; \
	    fi; \
	done; \
	if [ -n "$$failed" ]; then echo "OpenCL samples failed on pocl:$$failed"; exit 1; fi

# small sizes: every kernel JIT-compiles and runs on an emulated arm64 CPU
APPS_QEMU_ARGS_vecadd := 1000
APPS_QEMU_ARGS_saxpy := 4096
APPS_QEMU_ARGS_sgemm_naive := 32
APPS_QEMU_ARGS_sgemm_tiled := 40 24 33
APPS_QEMU_ARGS_reduce := 10000
APPS_QEMU_ARGS_scan := 10000
APPS_QEMU_ARGS_sobel := 64 48
APPS_QEMU_ARGS_histogram := 16384
APPS_QEMU_ARGS_bitonic_sort := 1000
APPS_QEMU_ARGS_transpose := 50 30
APPS_QEMU_ARGS_bfs := 2000
APPS_QEMU_ARGS_math_builtins := 4096
APPS_QEMU_ARGS_image_convert := 20 12
APPS_QEMU_ARGS_pointer_chase := 64 2000 1 4K 64K
APPS_QEMU ?= qemu-aarch64
APPS_GUEST_ROOT = $(GI_WORK)/rootfs
APPS_GUEST_BIN = $(GI_WORK)/apps

apps-rusticl-test:
	@command -v $(APPS_QEMU) >/dev/null || { echo "apps-rusticl-test: FAIL: $(APPS_QEMU) not installed (qemu-user)"; exit 1; }
	@$(MAKE) --no-print-directory $(IMAGE_OUT)/rootfs.ext4
	@$(MAKE) --no-print-directory apps-rusticl-run

APPS_EMPTY :=
APPS_SPACE := $(APPS_EMPTY) $(APPS_EMPTY)
# NAME:ARG@ARG... per sample
APPS_QEMU_RUNS := $(foreach n,$(APPS_NAMES),$(n):$(subst $(APPS_SPACE),@,$(APPS_QEMU_ARGS_$(n))))

apps-rusticl-run:
	@echo "== OpenCL samples on the guest's rusticl/llvmpipe under $(APPS_QEMU): $(APPS_NAMES)"
	@mkdir -p $(APPS_HOST_DIR)/rusticl
	@failed=""; for r in $(APPS_QEMU_RUNS); do \
	    n=$${r%%:*}; args=$$(echo "$${r#*:}" | tr @ ' '); log=$(APPS_HOST_DIR)/rusticl/$$n.log; \
	    if timeout 1200 $(APPS_QEMU) -L $(APPS_GUEST_ROOT) -E RUSTICL_ENABLE=llvmpipe \
	       -E OCL_ICD_VENDORS=/etc/OpenCL/vendors/rusticl.icd \
	       -E XDG_CACHE_HOME=$(abspath $(APPS_HOST_DIR))/rusticl/cache \
	       $(APPS_GUEST_BIN)/$$n $(APPS_HOST_ARGS) $$args >$$log 2>&1 && \
	       tail -n 1 $$log | grep -qx "$$n: PASS"; then \
	        echo "   $$n $$args: PASS  ($$(grep -o 'kernel=ALL ns=[0-9]*' $$log))"; \
	    else \
	        echo "   $$n $$args: FAIL; output:"; sed 's/^/     | /' $$log; failed="$$failed $$n"; \
	    fi; \
	done; \
	if [ -n "$$failed" ]; then echo "OpenCL samples failed on rusticl/llvmpipe:$$failed"; exit 1; fi

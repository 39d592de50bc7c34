# OpenCL samples (guest-images/apps, see guest-images/apps/README.md) built natively and run on
# the host against pocl, an OpenCL implementation independent of Mesa/rusticl and of malibu: this
# validates the samples themselves (kernels, CPU references, tolerances).
#   make apps-host-test   build $(BUILD)/apps-host/NAME for every sample and run each on pocl;
#                         skipped with a message when pocl or the OpenCL headers/loader are
#                         missing (Debian: pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers)
# APPS_HOST_ARGS='-v' passes options to every sample; OCL_ICD_VENDORS restricts the ICD loader
# to pocl so other host OpenCL drivers don't interfere.
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

.PHONY: apps-host-test apps-host-run apps-host
TEST_TARGETS += apps-host-test

apps-host: $(APPS_HOST_BINS)

apps-host-test:
	@if [ ! -f $(APPS_POCL_ICD) ] || [ ! -f /usr/include/CL/cl.h ] || \
	    ! { [ -e /usr/lib/x86_64-linux-gnu/libOpenCL.so ] || ldconfig -p 2>/dev/null | grep -q 'libOpenCL.so '; }; then \
	    echo "== OpenCL samples on the host: skipped: needs pocl and the OpenCL SDK" \
	         "(apt-get install pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers)"; \
	else $(MAKE) --no-print-directory apps-host-run; fi

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

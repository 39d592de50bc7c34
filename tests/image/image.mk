# Tests of the guest images (built by mk/image.mk, guest-images/README.md):
#   make image-test     check the artefacts (Image magic, cpio contents, e2fsck/debugfs, lock vs cache)
#   make image-boot-test  boot Image + initramfs in $(B)/malibu, run a command, check MALIBU_EXIT=0
#                      (the images of $(IMAGE_OUT); not part of make test)
# `make test` runs image-test-cached: builds and checks the images of both stacks (the default
# backports one, then IMAGE_STACK=stable) each only if every pinned .deb of that stack is
# already in the cache (no downloads during make test); IMAGE_IN_TEST=no turns it off.
IMAGE_IN_TEST ?= cached

.PHONY: image-test image-test-cached image-boot-test
TEST_TARGETS += image-test-cached

image-test: image
	@echo "== guest images ($(IMAGE_STACK) stack, $(GI_OUT))"
	$(GI_ENV) GUEST_OUT=$(GI_OUT) $(PYTHON) tests/image/test_image.py

image-test-cached:
ifeq ($(IMAGE_IN_TEST),no)
	@echo "== guest images: skipped (IMAGE_IN_TEST=no)"
else
	@for stack in backports stable; do \
	    if GUEST_STACK=$$stack $(PYTHON) $(GI)/fetch verify $(GI_GROUPS) >/dev/null 2>&1; then \
	        $(MAKE) --no-print-directory image-test IMAGE_STACK=$$stack || exit 1; \
	    else \
	        echo "== guest images ($$stack): skipped: pinned packages not all cached (make image-fetch IMAGE_STACK=$$stack)"; \
	    fi; \
	done
endif

# The rootfs' shared-library resolver on small arm64 ELF trees (cross toolchain) and the parsing
# of apt sources for the archive address; no images or network needed.
.PHONY: image-unit-test
TEST_TARGETS += image-unit-test
# (not under $(B)/tests: its *.d files are included, and the tree has etc/ld.so.conf.d)
image-unit-test:
	@echo "== guest images: ld.so resolution (tests/image/elf_deps_test.py)"
	@$(PYTHON) tests/image/elf_deps_test.py $(B)/image-unit/elf-tree
	@echo "== guest images: the archive from apt sources (tests/image/apt_sources_test.py)"
	@$(PYTHON) tests/image/apt_sources_test.py $(B)/image-unit/apt-sources
	@echo "== guest images: the part cache of kernel and apps (tests/image/part_cache_test.py)"
	@$(PYTHON) tests/image/part_cache_test.py $(B)/image-unit/part-cache

# Pins that have left the mirror, a package gone from Debian, and an image with python3-numpy
# (dpkg alternatives) whose matrix product runs in the guest (tests/image/packages_test.py).
.PHONY: image-packages-test
TEST_TARGETS += image-packages-test
image-packages-test: $(B)/malibu
	@echo "== guest images: stale pins, gone packages, IMAGE_PACKAGES=python3-numpy"
	$(PYTHON) tests/image/packages_test.py $(B)/malibu $(B)/image-packages

image-boot-test: initramfs $(B)/malibu
	GUEST_OUT=$(GI_OUT) $(PYTHON) $(GI)/tools/boot.py --timeout 900 \
	    --emulator '$(B)/malibu --kernel {kernel} --initrd {initrd} --append {append}' \
	    -- 'uname -a && grep -c processor /proc/cpuinfo && ls /dev && echo BOOT-TEST-OK'

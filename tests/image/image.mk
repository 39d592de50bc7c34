# Guest images (guest-images/README.md): Debian trixie arm64 packages pinned in
# guest-images/packages.lock, built into guest-images/out/ without root and without running arm64 code.
#   make image          everything: Image + modules, initramfs-busybox.cpio.gz, initrd.img, rootfs.ext4
#   make initramfs      just the board boot test pieces: Image + initramfs-busybox.cpio.gz
#   make image-fetch    download the pinned .debs (incremental; apt with a private state dir)
#   make image-lock     re-resolve guest-images/packages.list against the mirror -> packages.lock
#   make image-test     check the artefacts (Image magic, cpio contents, e2fsck/debugfs, lock vs cache)
#   make image-boot-test  boot Image + initramfs in $(B)/malibu, run a command, check MALIBU_EXIT=0
#                      (skipped until the board exists; not part of make test yet)
#   make image-clean    remove guest-images/out and the unpacked trees (keeps downloaded .debs)
#   IMAGE_PACKAGES="pkg ..."  extra Debian packages (with their dependency closure) in rootfs.ext4;
#                      guest-images/packages.local (untracked) lists lasting ones
#   IMAGE_OUT=dir      build the images into dir instead of guest-images/out
# `make test` runs image-test-cached: builds and checks the images only if every pinned .deb is
# already in the cache (no downloads during make test); IMAGE_IN_TEST=no turns it off.
GI := guest-images
IMAGE_OUT ?= $(GI)/out
GI_OUT := $(IMAGE_OUT)
GI_CACHE := $(GI)/cache
GI_WORK := $(if $(filter $(GI)/out,$(GI_OUT)),$(GI_CACHE)/work,$(GI_OUT)/.work)
GI_GROUPS := rootfs boot kernel sdk
GUEST_LOCK ?= $(GI)/packages.lock
GI_FETCH_STAMP := $(GI_OUT)/.fetch.stamp
# the extra packages asked for (IMAGE_PACKAGES + packages.local): rewritten only when they change
GI_EXTRAS := $(GI_OUT)/extra-packages
export IMAGE_PACKAGES
GI_BUILD := GUEST_OUT=$(GI_OUT) GUEST_WORK=$(GI_WORK) $(PYTHON) $(GI)/build.py
GI_BUILD_DEPS := $(GI)/build.py $(GI_FETCH_STAMP)
GI_CPIO_DEPS := $(GI)/tools/mkcpio.py $(GI)/init/lib.sh
GI_APPS := $(sort $(wildcard $(GI)/apps/*.c))
IMAGE_IN_TEST ?= cached

GI_IMAGES := $(GI_OUT)/Image $(GI_OUT)/initramfs-busybox.cpio.gz $(GI_OUT)/initrd.img \
             $(GI_OUT)/rootfs.ext4

.PHONY: image initramfs image-fetch image-lock image-test image-test-cached image-clean image-boot-test
TEST_TARGETS += image-test-cached

image: $(GI_IMAGES)

initramfs: $(GI_OUT)/Image $(GI_OUT)/initramfs-busybox.cpio.gz

$(GI_EXTRAS): FORCE
	@mkdir -p $(dir $@)
	@$(PYTHON) $(GI)/fetch extras > $@.tmp && if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(GI_FETCH_STAMP): $(GUEST_LOCK) $(GI)/fetch $(GI_EXTRAS)
	$(PYTHON) $(GI)/fetch fetch $(GI_GROUPS)
	@touch $@

image-fetch: $(GI_FETCH_STAMP)

image-lock:
	$(PYTHON) $(GI)/fetch update-lock

# Image, out/modules/<release>/, out/config, out/kernel.release
$(GI_OUT)/Image: $(GI_BUILD_DEPS)
	$(GI_BUILD) kernel

$(GI_OUT)/initramfs-busybox.cpio.gz: $(GI_BUILD_DEPS) $(GI_CPIO_DEPS) $(GI)/init/initramfs-init
	$(GI_BUILD) initramfs

$(GI_OUT)/initrd.img: $(GI_BUILD_DEPS) $(GI_CPIO_DEPS) $(GI)/init/initrd-init $(GI_OUT)/Image
	$(GI_BUILD) initrd

$(GI_WORK)/apps.stamp: $(GI_BUILD_DEPS) $(GI_APPS)
	$(GI_BUILD) apps
	@touch $@

$(GI_OUT)/rootfs.ext4: $(GI_BUILD_DEPS) $(GI)/init/lib.sh $(GI)/init/rootfs-init $(GI_OUT)/Image \
                       $(GI_WORK)/apps.stamp $(GI_EXTRAS)
	$(GI_BUILD) rootfs

image-test: image
	@echo "== guest images"
	GUEST_OUT=$(GI_OUT) $(PYTHON) tests/image/test_image.py

image-test-cached:
ifeq ($(IMAGE_IN_TEST),no)
	@echo "== guest images: skipped (IMAGE_IN_TEST=no)"
else
	@if $(PYTHON) $(GI)/fetch verify $(GI_GROUPS) >/dev/null 2>&1; then \
	    $(MAKE) --no-print-directory image-test; \
	else \
	    echo "== guest images: skipped: pinned packages not all cached (make image-fetch; ~185 MB)"; \
	fi
endif

# Pins that have left the mirror, a package gone from Debian, and an image with python3-numpy
# (dpkg alternatives) whose matrix product runs in the guest (tests/image/packages_test.py).
.PHONY: image-packages-test
TEST_TARGETS += image-packages-test
image-packages-test: $(B)/malibu
	@echo "== guest images: stale pins, gone packages, IMAGE_PACKAGES=python3-numpy"
	$(PYTHON) tests/image/packages_test.py $(B)/malibu $(B)/image-packages

image-boot-test: initramfs
	@if [ -x $(B)/malibu ]; then \
	    $(PYTHON) $(GI)/tools/boot.py --timeout 900 \
	        --emulator '$(B)/malibu --kernel {kernel} --initrd {initrd} --append {append}' \
	        -- 'uname -a && grep -c processor /proc/cpuinfo && ls /dev && echo BOOT-TEST-OK'; \
	else echo "== image boot test: skipped ($(B)/malibu not built yet)"; fi

image-clean:
	rm -rf $(GI_OUT) $(GI_WORK) $(GI_FETCH_STAMP)

.PHONY: FORCE
FORCE:

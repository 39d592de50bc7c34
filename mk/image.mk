# Guest images (guest-images/README.md): Debian trixie arm64 packages pinned in
# guest-images/packages.lock, built into guest-images/out/ without root and without running arm64 code.
#   make image          everything: Image + modules, initramfs-busybox.cpio.gz, initrd.img, rootfs.ext4
#   make initramfs      just the board boot test pieces: Image + initramfs-busybox.cpio.gz
#   make image-fetch    download the pinned .debs (incremental; apt with a private state dir)
#   make image-lock     re-resolve guest-images/packages.list against the mirror -> packages.lock
#   make image-clean    remove guest-images/out and the unpacked trees (keeps downloaded .debs)
#   IMAGE_PACKAGES="pkg ..."  extra Debian packages (with their dependency closure) in rootfs.ext4;
#                      guest-images/packages.local (untracked) lists lasting ones
#   IMAGE_OUT=dir      build the images into dir instead of guest-images/out
#   DEBIAN_MIRROR=URI  the Debian archive to download from (default: the host's apt sources;
#                      DEBIAN_SECURITY_MIRROR for trixie-security; guest-images/fetch mirror)
#   GUEST_LOCK=file    another lock instead of guest-images/packages.lock
#   IMAGE_STACK=stable  trixie's own kernel and Mesa (packages.lock, out-stable/) instead of the
#                      default backports stack (packages-backports.lock, out/)
# Their tests: tests/image/image.mk.
GI := guest-images
# IMAGE_STACK=backports (the default: trixie-backports' Linux and Mesa, the stack on which
# everything works, GPU profiling included) or stable (trixie: Linux 6.12, Mesa 25.0, whose
# panfrost 1.2 gives Mesa no GPU timestamps), each with its own lock and output directory
IMAGE_STACK ?= backports
ifeq ($(IMAGE_STACK),backports)
GUEST_LOCK ?= $(GI)/packages-backports.lock
IMAGE_OUT ?= $(GI)/out
else ifeq ($(IMAGE_STACK),stable)
GUEST_LOCK ?= $(GI)/packages.lock
IMAGE_OUT ?= $(GI)/out-stable
else
$(error IMAGE_STACK=$(IMAGE_STACK): stable or backports)
endif
# Passed to fetch and build.py on their command lines, never exported: a make started by a recipe
# (make test -> make image IMAGE_STACK=stable) must pick its own stack's lock, not inherit ours.
GI_ENV := GUEST_STACK=$(IMAGE_STACK) GUEST_LOCK=$(GUEST_LOCK)
GI_FETCH := $(GI_ENV) $(PYTHON) $(GI)/fetch
GI_OUT := $(IMAGE_OUT)
GI_CACHE := $(GI)/cache
GI_WORK := $(if $(filter $(GI)/out,$(GI_OUT)),$(GI_CACHE)/work,$(GI_OUT)/.work)
GI_GROUPS := rootfs part boot kernel sdk
GI_FETCH_STAMP := $(GI_OUT)/.fetch.stamp
# what the images are made from (stack, lock, extra packages from IMAGE_PACKAGES and
# packages.local): rewritten only when it changes, so a change rebuilds them
GI_CONFIG := $(GI_OUT)/.image-config
export IMAGE_PACKAGES DEBIAN_MIRROR DEBIAN_SECURITY_MIRROR
GI_BUILD := $(GI_ENV) GUEST_OUT=$(GI_OUT) GUEST_WORK=$(GI_WORK) $(PYTHON) $(GI)/build.py
GI_BUILD_DEPS := $(GI)/build.py $(GI)/part_cache.py $(GI_FETCH_STAMP)
GI_CPIO_DEPS := $(GI)/tools/mkcpio.py $(GI)/init/lib.sh
GI_APPS := $(sort $(wildcard $(GI)/apps/*.c $(GI)/apps/*.h))

GI_IMAGES := $(GI_OUT)/Image $(GI_OUT)/initramfs-busybox.cpio.gz $(GI_OUT)/initrd.img \
             $(GI_OUT)/rootfs.ext4

.PHONY: image initramfs image-fetch image-lock image-clean FORCE

image: $(GI_IMAGES)

initramfs: $(GI_OUT)/Image $(GI_OUT)/initramfs-busybox.cpio.gz

# (the temporary file is per process: every `make image` of make test's suites, two at a time, runs this)
$(GI_CONFIG): FORCE
	@mkdir -p $(dir $@)
	@t=$@.tmp.$$$$; { echo "stack $(IMAGE_STACK) lock $(abspath $(GUEST_LOCK))"; $(GI_FETCH) extras; } > $$t && \
	    if cmp -s $$t $@; then rm $$t; else mv $$t $@; fi

$(GI_FETCH_STAMP): $(GUEST_LOCK) $(GI)/fetch $(GI_CONFIG)
	$(GI_FETCH) fetch $(GI_GROUPS)
	@touch $@

image-fetch: $(GI_FETCH_STAMP)

image-lock:
	$(GI_FETCH) update-lock

# the image directory of IMAGE_STACK (or IMAGE_OUT), for scripts run by hand (bench/image_dir.sh)
.PHONY: image-dir
image-dir:
	@echo $(IMAGE_OUT)

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

$(GI_OUT)/rootfs.ext4: $(GI_BUILD_DEPS) $(GI)/elf_deps.py $(GI)/init/lib.sh $(GI)/init/rootfs-init $(GI_OUT)/Image \
                       $(GI)/init/weston $(GI)/init/weston.ini $(GI_WORK)/apps.stamp $(GI_CONFIG)
	$(GI_BUILD) rootfs

image-clean:
	rm -rf $(GI_OUT) $(GI_WORK)

FORCE:

# Guest images (guest-images/README.md): Debian trixie arm64 packages pinned in
# guest-images/packages.lock, built into guest-images/out/ without root and without running arm64 code.
#   make image          everything: Image + modules, initramfs-busybox.cpio.gz, initrd.img, rootfs.ext4
#   make initramfs      just the board boot test pieces: Image + initramfs-busybox.cpio.gz
#   make image-fetch    download the pinned .debs (incremental; apt with a private state dir)
#   make image-lock     re-resolve guest-images/packages.list against the mirror -> packages.lock
#   make image-clean    remove guest-images/out and the unpacked trees (keeps downloaded .debs)
# Their tests: tests/image/image.mk.
GI := guest-images
GI_OUT := $(GI)/out
GI_CACHE := $(GI)/cache
GI_FETCH_STAMP := $(GI_CACHE)/fetch.stamp
GI_BUILD := $(PYTHON) $(GI)/build.py
GI_BUILD_DEPS := $(GI)/build.py $(GI_FETCH_STAMP)
GI_CPIO_DEPS := $(GI)/tools/mkcpio.py $(GI)/init/lib.sh
GI_APPS := $(sort $(wildcard $(GI)/apps/*.c))

GI_IMAGES := $(GI_OUT)/Image $(GI_OUT)/initramfs-busybox.cpio.gz $(GI_OUT)/initrd.img \
             $(GI_OUT)/rootfs.ext4

.PHONY: image initramfs image-fetch image-lock image-clean

image: $(GI_IMAGES)

initramfs: $(GI_OUT)/Image $(GI_OUT)/initramfs-busybox.cpio.gz

$(GI_FETCH_STAMP): $(GI)/packages.lock $(GI)/fetch
	$(PYTHON) $(GI)/fetch
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

$(GI_CACHE)/work/apps.stamp: $(GI_BUILD_DEPS) $(GI_APPS)
	$(GI_BUILD) apps
	@touch $@

$(GI_OUT)/rootfs.ext4: $(GI_BUILD_DEPS) $(GI)/init/lib.sh $(GI)/init/rootfs-init $(GI_OUT)/Image \
                       $(GI_CACHE)/work/apps.stamp
	$(GI_BUILD) rootfs

image-clean:
	rm -rf $(GI_OUT) $(GI_CACHE)/work $(GI_FETCH_STAMP)

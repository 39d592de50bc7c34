# virtio-mmio transport, virtio-blk and disk backends (devices/virtio_*.c, devices/disk.c).
#
#   tests/unit/test_virtio_*.c   Check unit tests (part of `make unit-test` and of the SAN=1 run),
#                                linked against the board's objects (DEVICE_OBJS, declared in
#                                tests/unit/unit.mk), with the simulated driver of tests/virtio/vdrv.h
#   make virtio-test             just those tests
VIRTIO_TEST_BINS := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(sort $(wildcard tests/unit/test_virtio_*.c)))

.PHONY: virtio-test
virtio-test: $(VIRTIO_TEST_BINS)
	@failed=""; for t in $(VIRTIO_TEST_BINS); do echo "== $$t"; CK_FORK=yes $$t || failed="$$failed $${t##*/}"; done; \
	if [ -n "$$failed" ]; then echo "virtio tests failed:$$failed"; exit 1; fi

# Boots the guest image with three disks and kills runs while they write (see the script; needs
# build/malibu and the images of $(IMAGE_OUT), built first; a few minutes; not part of `make test`).
.PHONY: virtio-boot-test
virtio-boot-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	sh tests/virtio/boot_test.sh $(B)/malibu $(B)/tests/virtio $(IMAGE_OUT)

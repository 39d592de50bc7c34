# virtio-mmio transport, virtio-blk and disk backends (devices/virtio_*.c, devices/disk.c).
#
#   tests/unit/test_virtio_*.c   Check unit tests (part of `make unit-test` and of the SAN=1 run),
#                                linked against the objects below only (test_virtio_board:
#                                the whole board), with the simulated driver of tests/virtio/vdrv.h
#   make virtio-test             just those tests
# The whole device set: bus.o reports to the stats registry, which pulls in the GPU decoder.
VIRTIO_TEST_OBJS := $(DEVICE_OBJS)

$(B)/obj/devices/virtio_mmio.o: CFLAGS += $(FDT_CFLAGS)

# More specific than the generic unit-test rule (shorter stem), so it wins for test_virtio_*.
$(B)/tests/unit/test_virtio_%: tests/unit/test_virtio_%.c $(VIRTIO_TEST_OBJS) tests/virtio/vdrv.h $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FDT_CFLAGS) -Itests/unit -Itests/virtio -o $@ $< $(VIRTIO_TEST_OBJS) $(CHECK_LIBS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

# The board-level test links the whole board (DEVICE_OBJS, read after the fragments before this
# one added to it; the recipe expands it again when it runs).
$(B)/tests/unit/test_virtio_board: tests/unit/test_virtio_board.c $(DEVICE_OBJS) tests/virtio/vdrv.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FDT_CFLAGS) -Itests/unit -Itests/virtio -o $@ $< $(DEVICE_OBJS) $(CHECK_LIBS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

VIRTIO_TEST_BINS := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(sort $(wildcard tests/unit/test_virtio_*.c)))

.PHONY: virtio-test
virtio-test: $(VIRTIO_TEST_BINS)
	@failed=""; for t in $(VIRTIO_TEST_BINS); do echo "== $$t"; CK_FORK=yes $$t || failed="$$failed $${t##*/}"; done; \
	if [ -n "$$failed" ]; then echo "virtio tests failed:$$failed"; exit 1; fi

# Boots the guest image with three disks and kills runs while they write (see the script; needs
# build/malibu and guest-images/out, skipped otherwise; a few minutes; not part of `make test`).
.PHONY: virtio-boot-test
virtio-boot-test: $(B)/malibu
	sh tests/virtio/boot_test.sh $(B)/malibu $(B)/tests/virtio

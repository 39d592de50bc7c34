# Tests of the board devices (devices/*.c) and firmware support (firmware/*.c); DEVICE_OBJS and
# DEVICE_LIBS come from mk/devices.mk.
#
#   tests/unit/test_dev_*.c     Check unit tests against DEVICE_OBJS (declared in
#                               tests/unit/unit.mk; part of `make unit-test` and of the SAN=1 run)
#   make devices-test           DTB dumped by the board and decompiled with dtc, boot stub
#                               assembled with aarch64-linux-gnu-as and compared with the C copy
$(B)/tests/devices/devtool: tests/devices/devtool.c $(OPTION_OBJS) $(DEVICE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(OPTION_OBJS) $(DEVICE_OBJS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

.PHONY: devices-test
TEST_TARGETS += devices-test
SAN_TEST_TARGETS += devices-test

devices-test: $(B)/tests/devices/devtool
	@echo "== devices: DTB (dtc) and boot stub (aarch64-linux-gnu-as)"
	sh tests/devices/check.sh $(B)/tests/devices/devtool $(B)/tests/devices

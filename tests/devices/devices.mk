# Board devices (devices/*.c) and firmware support (firmware/*.c).
#
#   DEVICE_OBJS / DEVICE_LIBS   what a program linking the board needs (e.g. build/malibu):
#                               $(CC) ... $(DEVICE_OBJS) ... $(DEVICE_LIBS)
#   tests/unit/test_dev_*.c     Check unit tests, built against DEVICE_OBJS only (part of
#                               `make unit-test` and of the SAN=1 run)
#   make devices-test           DTB dumped by the board and decompiled with dtc, boot stub
#                               assembled with aarch64-linux-gnu-as and compared with the C copy
DEVICE_SRCS := $(sort $(wildcard devices/*.c firmware/*.c))
DEVICE_OBJS := $(DEVICE_SRCS:%.c=$(B)/obj/%.o)
FDT_CFLAGS := $(shell pkg-config --cflags libfdt 2>/dev/null)
DEVICE_LIBS := $(or $(shell pkg-config --libs libfdt 2>/dev/null),-lfdt) $(or $(shell pkg-config --libs zlib 2>/dev/null),-lz) -lpthread

$(B)/obj/devices/fdt.o $(B)/obj/devices/board.o $(B)/obj/devices/board_gpu.o: CFLAGS += $(FDT_CFLAGS)

# More specific than the generic unit-test rule (shorter stem), so it wins for test_dev_*.
$(B)/tests/unit/test_dev_%: tests/unit/test_dev_%.c $(DEVICE_OBJS) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FDT_CFLAGS) -Itests/unit -o $@ $< $(DEVICE_OBJS) $(CHECK_LIBS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

$(B)/tests/devices/devtool: tests/devices/devtool.c $(DEVICE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(DEVICE_OBJS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

.PHONY: devices-test
TEST_TARGETS += devices-test
SAN_TEST_TARGETS += devices-test

devices-test: $(B)/tests/devices/devtool
	@echo "== devices: DTB (dtc) and boot stub (aarch64-linux-gnu-as)"
	sh tests/devices/check.sh $(B)/tests/devices/devtool $(B)/tests/devices

# malibu: `make` builds everything under build/ (BUILD=dir to change), `make test` runs every test,
# `make run` sets up and runs the main demo.  SAN=1 builds with ASan/UBSan
# into build/san/ (used by `make test` as well).

.DEFAULT_GOAL := all
SAN ?= 0
BUILD ?= build
ifeq ($(SAN),1)
B := $(BUILD)/san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
else
B := $(BUILD)
SANFLAGS :=
endif

CC ?= gcc
PYTHON ?= python3
OPT ?= -O2
CFLAGS := -std=gnu11 $(OPT) -g -Wall -Wextra -Werror -Wno-unused-parameter $(SANFLAGS) \
          -Iemu/cpu -Iemu/user -I$(B)/gen -MMD -MP
LDFLAGS := $(SANFLAGS)
LDLIBS := -lm -lpthread

# ---- AArch64 decoder, generated from the description files -------------------
A64_DECODE := $(sort $(wildcard isa/a64/*.decode))
$(B)/gen/a64_decode.c $(B)/gen/a64_decode.h: $(A64_DECODE) isa/decodetree.py
	@mkdir -p $(B)/gen
	$(PYTHON) isa/decodetree.py a64 $(B)/gen/a64_decode $(A64_DECODE)

# ---- CPU core and user-mode runtime ------------------------------------------
CPU_SRCS := $(sort $(wildcard emu/cpu/*.c))
USER_SRCS := $(filter-out emu/user/main.c,$(sort $(wildcard emu/user/*.c)))
CPU_OBJS := $(CPU_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/a64_decode.o
USER_OBJS := $(USER_SRCS:%.c=$(B)/obj/%.o)

$(B)/obj/%.o: %.c $(B)/gen/a64_decode.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(B)/obj/gen/a64_decode.o: $(B)/gen/a64_decode.c $(B)/gen/a64_decode.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# Linked as objects, not an archive: the decoder's weak default translators
# would otherwise keep the linker from pulling in the real ones.
CORE_USER_OBJS := $(CPU_OBJS) $(USER_OBJS)

$(B)/malibu-user: $(B)/obj/emu/user/main.o $(CORE_USER_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

PROGRAMS := $(B)/malibu-user

# ---- unit tests (Check) --------------------------------------------------------
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -lpthread)

$(B)/tests/unit/%: tests/unit/%.c $(CORE_USER_OBJS) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(CORE_USER_OBJS) $(CHECK_LIBS) $(LDLIBS) $(LDFLAGS)

.PHONY: all test unit-test san-test run clean host-deps
all:

# The host's Debian packages (tools/host-packages): installed when missing (as root or through
# sudo), else the exact apt-get line is printed.  `make test` and `make run` start with it and
# then re-read the Makefile, whose pkg-config look-ups need those packages.
host-deps:
	@sh tools/host-deps.sh

unit-test: $(UNIT_BINS)
	@failed=""; for t in $(UNIT_BINS); do echo "== $$t"; CK_FORK=yes $$t || failed="$$failed $${t##*/}"; done; \
	if [ -n "$$failed" ]; then echo "unit tests failed:$$failed"; exit 1; fi

# Fragments add their own programs and test targets to PROGRAMS / TEST_TARGETS.
TEST_TARGETS :=
-include $(sort $(wildcard tests/*/*.mk bench/*.mk))
include mk/mali-formats.mk

# ---- full-system emulator (build/malibu) ---------------------------------------------------
# The CPU core is compiled a second time with -DCONFIG_SYSTEM into $(B)/sysobj (soft-TLB mem.h,
# system instructions, TBs keyed by physical address); emu/cpu/sys_*.c and mmu.c are empty in
# the user-mode objects.  emu/system/*.c is the machine (main, PSCI glue); devices from
# tests/devices/devices.mk.
SYS_CFLAGS = $(CFLAGS) -DCONFIG_SYSTEM $(FDT_CFLAGS)
SYS_CPU_OBJS := $(CPU_SRCS:%.c=$(B)/sysobj/%.o) $(B)/sysobj/gen/a64_decode.o
SYS_MAIN_OBJS := $(patsubst %.c,$(B)/sysobj/%.o,$(sort $(wildcard emu/system/*.c)))

$(B)/sysobj/%.o: %.c $(B)/gen/a64_decode.h
	@mkdir -p $(dir $@)
	$(CC) $(SYS_CFLAGS) -c $< -o $@

$(B)/sysobj/gen/a64_decode.o: $(B)/gen/a64_decode.c $(B)/gen/a64_decode.h
	@mkdir -p $(dir $@)
	$(CC) $(SYS_CFLAGS) -c $< -o $@

$(B)/malibu: $(SYS_MAIN_OBJS) $(SYS_CPU_OBJS) $(DEVICE_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(DEVICE_LIBS) $(LDLIBS)

PROGRAMS += $(B)/malibu
all: $(B)/malibu

# Unit tests of the system build (tests/unit/test_mmu.c, test_sysemu.c) link the system objects.
SYS_UNIT_BINS := $(B)/tests/unit/test_mmu $(B)/tests/unit/test_sysemu
$(SYS_UNIT_BINS): $(B)/tests/unit/%: tests/unit/%.c $(SYS_CPU_OBJS) $(DEVICE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(SYS_CFLAGS) -Idevices -Itests/unit -o $@ $< $(SYS_CPU_OBJS) $(DEVICE_OBJS) $(CHECK_LIBS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)
-include $(shell find $(B)/sysobj -name '*.d' 2>/dev/null)
# ---- end of full-system emulator -------------------------------------------------------------

all: $(PROGRAMS)

# Builds run in parallel; test suites run one after another so their reports stay readable.
san-test:
	@$(MAKE) --no-print-directory SAN=1 all
	@$(MAKE) --no-print-directory -j1 SAN=1 unit-test $(SAN_TEST_TARGETS)

test: host-deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -j1 unit-test $(TEST_TARGETS)
	@$(MAKE) --no-print-directory san-test

clean:
	rm -rf build

-include $(shell find $(B)/obj $(B)/tests -name '*.d' 2>/dev/null)

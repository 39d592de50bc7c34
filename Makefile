# malibu: `make` builds everything under build/ (BUILD=dir to change), `make test` runs every test,
# `make run` sets up and runs the main demo.  SAN=1 builds with ASan/UBSan
# into build/san/ (used by `make test` as well).
#
# The programs and their objects (and the guest images, `make run`) are defined in mk/*.mk, read in
# the order below; the tests in tests/*/*.mk, which define only tests (test programs and targets,
# TEST_TARGETS and SAN_TEST_TARGETS) and may be read in any order.

.DEFAULT_GOAL := all
SAN ?= 0
BUILD ?= build
ifeq ($(SAN),1)
B := $(BUILD)/san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# -O1, as ASan's documentation suggests: the sanitized build compiles in about 60 % of -O2's time
OPT ?= -O1
else
B := $(BUILD)
SANFLAGS :=
endif

CC ?= gcc
PYTHON ?= python3
OPT ?= -O2
# -falign-functions=64: a function starts on a cache line, so that an edit does not move the hot
# C around compiled code (the GPU's bx_jit_run, message slow path, stats) to a layout that ran
# sgemm_tiled with --stats 5-10 % slower (measured: the same code in two layouts; aligned, both
# ran as fast as the better one).
CFLAGS := -std=gnu11 $(OPT) -falign-functions=64 -g -Wall -Wextra -Werror -Wno-unused-parameter $(SANFLAGS) \
          -Iemu/cpu -Iemu/user -I$(B)/gen -MMD -MP
LDFLAGS := $(SANFLAGS)
LDLIBS := -lm -lpthread

# Prerequisites may name variables that a later fragment defines ($$(NAME)).
.SECONDEXPANSION:

# Every object without a more specific rule in mk/*.mk (the CPU core, the user-mode runtime, the
# devices); all of them wait for the generated A64 decoder header (emu/cpu/translate.h includes it).
$(B)/obj/%.o: %.c $(B)/gen/a64_decode.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

PROGRAMS :=
TEST_TARGETS :=
SAN_TEST_TARGETS :=

# The programs: each fragment uses only what the fragments above it define.
include mk/cpu.mk      # A64 decoder; CPU core objects (user-mode and system builds)
include mk/debug.mk    # the GDB stub and Capstone traces (GDB_OBJS, TRACE_OBJS, SYS_TRACE_OBJS)
include mk/user.mk     # malibu-user
include mk/timing.mk   # the timing plug-in: cache / DRAM models, --timing parser (TIMING_OBJS)
include mk/gpu.mk      # Bifrost ISA tables, GPU objects, malibu-disasm, test-shader assembler
include mk/stats.mk    # stats registry objects, malibu-report
include mk/checkpoint.mk # malibu-checkpoint (the checkpoint files: in DEVICE_OBJS)
include mk/devices.mk  # the board: devices, firmware, Mali device + GPU engine + stats (DEVICE_OBJS)
include mk/system.mk   # build/malibu
include mk/install.mk  # --version, manual pages, bash completion, make install / uninstall
include mk/tools.mk    # host-deps, host libraries of the tests
include mk/image.mk    # guest images (make image, initramfs, image-fetch, ...)
include mk/run.mk      # make run: the demo on the guest image

# The tests (any order).
include $(sort $(wildcard tests/*/*.mk bench/*.mk))
include mk/mali-formats.mk   # Mali layouts as generated C, malibu-decode (after the tests: FUZZ_* objects)
include mk/test-order.mk     # make test's suites two at a time: what must not overlap (after the tests)

.PHONY: all test san-test clean
all: $(PROGRAMS)

# Builds run in parallel (the programs, the unit tests' binaries, the fuzz harnesses).  The suites
# run two at a time (most guest suites keep one host core busy), each one's output printed whole
# when it ends (--output-sync=target); mk/test-order.mk says which suites must not overlap and why,
# and which run alone afterwards (figures that depend on host load).
TEST_JOBS ?= 2
TEST_RUN = $(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target TEST_PAIRED=yes
san-test:
	@$(MAKE) --no-print-directory SAN=1 all unit-build
	@$(TEST_RUN) SAN=1 unit-test $(SAN_TEST_TARGETS)

# The ASan/UBSan build runs at nice 19 beside the suites (it takes the CPU time they leave: the
# image builds' I/O, the suites that keep one core busy, those that run alone; their figures stay
# within their bands, docs/testing.md), its output in $(SAN_BUILD_LOG); san-test finds it built.
SAN_BUILD_LOG := $(BUILD)/san/build.log
# make test's sanitized pass is a bounded sample: it leaves out the two unit tests that take
# about 105 s each under ASan (they run unsanitized in the same make test); `make san-test`
# runs them all (docs/testing.md).
SAN_UNIT_SKIP_IN_TEST := test_gpu_jit test_timing
test: host-deps
	@$(MAKE) --no-print-directory all unit-build fuzz-build
	@echo "== the ASan/UBSan build at nice 19, beside the suites (log: $(SAN_BUILD_LOG))"
	@mkdir -p $(dir $(SAN_BUILD_LOG)); \
	nice -n 19 $(MAKE) --no-print-directory SAN=1 all unit-build > $(SAN_BUILD_LOG) 2>&1 & san=$$!; \
	$(TEST_RUN) $(TEST_PAIRED_GOALS) && $(MAKE) --no-print-directory -j1 $(TEST_ALONE); suites=$$?; \
	[ $$suites = 0 ] || kill $$san 2>/dev/null; \
	wait $$san; built=$$?; \
	if [ $$suites = 0 ] && [ $$built != 0 ]; then \
	    tail -n 40 $(SAN_BUILD_LOG); echo "the ASan/UBSan build failed (log: $(SAN_BUILD_LOG))"; fi; \
	[ $$suites = 0 ] && [ $$built = 0 ]
	@$(MAKE) --no-print-directory san-test UNIT_SKIP="$(SAN_UNIT_SKIP_IN_TEST)"

clean:
	rm -rf build

-include $(shell find $(B)/obj $(B)/sysobj $(B)/tests -name '*.d' 2>/dev/null)

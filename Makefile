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
# -O0: on an idle 2-core host (2026-11-30) `make -j2 SAN=1 all unit-build` took 99 s (194 s of
# CPU) at -O0 against 209 s (394 s of CPU) at -O1, and make test's sanitized suites took as long
# at either (231 and 222 s of CPU): their time goes to the sanitizers' runtime
OPT ?= -O0
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

# Builds run in parallel (the programs, the unit tests' binaries).  The suites
# run two at a time (most guest suites keep one host core busy), each one's output printed whole
# when it ends (--output-sync=target); mk/test-order.mk says which suites must not overlap and why,
# and which run alone afterwards (figures that depend on host load).
TEST_JOBS ?= 2
TEST_RUN = $(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target TEST_PAIRED=yes
san-test:
	@$(MAKE) --no-print-directory SAN=1 all unit-build
	@$(TEST_RUN) SAN=1 unit-test $(SAN_TEST_TARGETS)

# Beside the paired suites, at nice 19 (it takes the CPU time they leave: the image builds' I/O,
# the suites that keep one core busy), test-background-build builds the fuzz harnesses (clang,
# for fuzz-short-test) and then the ASan/UBSan build, its output in $(BG_BUILD_LOG).  The alone
# suites start when the paired ones end; once that build is done, test-beside-alone runs
# TEST_BESIDE_ALONE (one process, its output in $(BESIDE_ALONE_LOG)) and the sanitized suites
# two at a time, all at once (the build often ends after the alone suites: one after the other,
# a core idled through fuzz-short-test's 35 s), its output in $(BESIDE_LOG), printed when both
# are done.
BG_BUILD_LOG := $(BUILD)/test-background-build.log
BESIDE_LOG := $(BUILD)/test-beside-alone.log
BESIDE_ALONE_LOG := $(BUILD)/test-beside-alone-first.log
.PHONY: test-background-build test-beside-alone
test-background-build:
	@$(MAKE) --no-print-directory fuzz-build
	@$(MAKE) --no-print-directory SAN=1 all unit-build
test-beside-alone:
	@$(if $(TEST_BESIDE_ALONE),$(MAKE) --no-print-directory -j1 $(TEST_BESIDE_ALONE),true) \
	    > $(BESIDE_ALONE_LOG) 2>&1 & first=$$!; \
	$(MAKE) --no-print-directory san-test; san=$$?; \
	wait $$first; first=$$?; cat $(BESIDE_ALONE_LOG); \
	[ $$first = 0 ] || echo "$(TEST_BESIDE_ALONE) failed (log: $(BESIDE_ALONE_LOG))"; \
	[ $$san = 0 ] && [ $$first = 0 ]
test: host-deps
	@$(MAKE) --no-print-directory all unit-build
	@echo "== beside the suites at nice 19: the fuzz harnesses, then the ASan/UBSan build (log: $(BG_BUILD_LOG))"
	@mkdir -p $(BUILD); rm -f $(BESIDE_LOG); \
	nice -n 19 $(MAKE) --no-print-directory test-background-build > $(BG_BUILD_LOG) 2>&1 & bg=$$!; \
	$(TEST_RUN) $(TEST_PAIRED_GOALS) || { kill $$bg 2>/dev/null; wait $$bg; exit 1; }; \
	echo "== the alone suites: $(TEST_ALONE); beside them, once the background build is done: $(TEST_BESIDE_ALONE) and the sanitized suites (output when they end, $(BESIDE_LOG))"; \
	$(MAKE) --no-print-directory -j1 $(TEST_ALONE) & alone=$$!; \
	if wait $$bg; then \
	    $(MAKE) --no-print-directory test-beside-alone > $(BESIDE_LOG) 2>&1; beside=$$?; \
	else \
	    tail -n 40 $(BG_BUILD_LOG); echo "the fuzz harnesses or the ASan/UBSan build failed (log: $(BG_BUILD_LOG))"; beside=1; \
	fi; \
	wait $$alone; alone=$$?; \
	[ ! -f $(BESIDE_LOG) ] || cat $(BESIDE_LOG); \
	[ $$beside = 0 ] || echo "the sanitized suites or $(TEST_BESIDE_ALONE) failed (log: $(BESIDE_LOG))"; \
	[ $$alone = 0 ] && [ $$beside = 0 ]

clean:
	rm -rf build

-include $(shell find $(B)/obj $(B)/sysobj $(B)/tests -name '*.d' 2>/dev/null)

# Instrumentation reports (emu/stats/, tools/malibu-report.py; see emu/stats/SCHEMA.md).
#
#   STATS_OBJS                 the stats registry (system counters, Bifrost clause counters, JSON
#                              writer); appended to DEVICE_OBJS (the board, bus and Mali device
#                              call it), so build/malibu and every DEVICE_OBJS user links it
#   $(B)/malibu-report         FILE.json -o DIR: HTML page with SVG charts and CFGs (Python 3)
#   tests/unit/test_stats_*.c  Check unit tests against GPU_OBJS + STATS_OBJS, shaders of
#                              tests/stats/*.s (part of `make unit-test` and the SAN=1 run)
#   make stats-test            schema validation of a report and malibu-report on it; build/malibu
#                              --stats on the bare-metal test (tests/boot/hello.S)
STATS_SRCS := $(sort $(wildcard emu/stats/*.c))
STATS_OBJS := $(STATS_SRCS:%.c=$(B)/obj/%.o)
DEVICE_OBJS += $(STATS_OBJS)

$(STATS_OBJS): $(B)/obj/%.o: %.c $(B)/gen/bifrost_isa.h
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -c $< -o $@

# Targets whose rules were read before STATS_OBJS joined DEVICE_OBJS.
$(filter $(B)/tests/unit/test_dev_% $(B)/tests/unit/test_mali_% $(B)/tests/unit/test_gpu_mali,$(UNIT_BINS)) \
    $(B)/tests/devices/devtool: $(STATS_OBJS)

STATS_TEST_SHADERS := $(sort $(wildcard tests/stats/*.s)) tests/gpu/gpu_reduce.s tests/gpu/gpu_vecadd.s
$(B)/tests/stats/asm.stamp: $(STATS_TEST_SHADERS) $(BIFROST_ISA) $(BIFROST_GEN) isa/bifrost/bifrost_asm.py
	@mkdir -p $(B)/tests/stats
	$(BIFROST_ASM) --c-include $(B)/tests/stats/shaders.inc $(STATS_TEST_SHADERS)
	@touch $@

$(B)/tests/unit/test_stats_%: tests/unit/test_stats_%.c $(GPU_OBJS) $(STATS_OBJS) $(wildcard tests/unit/*.h) \
                              $(B)/tests/stats/asm.stamp
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -Iemu/stats -Itests/unit -I$(B)/tests/stats -o $@ $< \
	    $(GPU_OBJS) $(STATS_OBJS) $(CHECK_LIBS) $(LDLIBS) $(LDFLAGS)

$(B)/malibu-report: tools/malibu-report.py
	@mkdir -p $(dir $@)
	cp $< $@
	chmod +x $@
PROGRAMS += $(B)/malibu-report

.PHONY: stats-test
TEST_TARGETS += stats-test
STATS_UNIT_BINS := $(filter $(B)/tests/unit/test_stats_%,$(UNIT_BINS))
stats-test: $(B)/malibu-report $(STATS_UNIT_BINS) $(B)/malibu
	@echo "== stats: report JSON schema, malibu-report, malibu --stats on the bare-metal test"
	@hello=""; if command -v aarch64-linux-gnu-as >/dev/null 2>&1; then \
	    $(MAKE) --no-print-directory $(B)/tests/boot/hello.bin >/dev/null && hello="--hello $(B)/tests/boot/hello.bin"; \
	else echo "stats-test: aarch64-linux-gnu-as not installed: no full-system report"; fi; \
	$(PYTHON) tests/stats/check_report.py --unit $(B)/tests/unit/test_stats_gpu --report $(B)/malibu-report \
	    --workdir $(B)/tests/stats --malibu $(B)/malibu $$hello

# test_stats_mali: the system hooks (bus, Mali device) through the Mali test harness.
$(B)/tests/unit/test_stats_mali: tests/unit/test_stats_mali.c $(DEVICE_OBJS) $(wildcard tests/unit/*.h) \
                                 tests/mali/mali_harness.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FDT_CFLAGS) -Itests/unit -Itests/mali -o $@ $< $(DEVICE_OBJS) $(CHECK_LIBS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

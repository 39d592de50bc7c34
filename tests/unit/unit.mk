# Unit tests (Check): tests/unit/test_NAME.c -> $(B)/tests/unit/test_NAME, all run by
# `make unit-test` (and, built with SAN=1, by the ASan/UBSan run).
#
# Each test declares here what it is built with (unit_test, below): the objects it links, its
# compile flags after $(CFLAGS) (include directories, -DCONFIG_SYSTEM), libraries besides Check,
# and other prerequisites (assembled test shaders, harness headers).  A test that declares no
# objects stops its build with a message.
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%)

# $(call unit_test,NAMES,OBJECTS,CFLAGS,LIBS,PREREQUISITES)
unit_test = $(foreach t,$(1),$(eval $(t)_LINK := $(2))$(eval $(t)_CFLAGS := $(3)) \
                             $(eval $(t)_LIBS := $(4))$(eval $(t)_DEPS := $(5)))

# The CPU core with the user-mode runtime, and the system CPU core on the board.
$(call unit_test,test_atomic test_branch_sys test_core test_crypto test_fp test_int test_mem test_simd_arith test_v82 \
                 test_fp16 test_simd_fp test_simd_native test_simd_perm test_softfloat test_user test_regions,$(CORE_USER_OBJS))
$(call unit_test,test_mmu test_sysemu,$(SYS_CPU_OBJS) $(DEVICE_OBJS), \
                 -DCONFIG_SYSTEM $(FDT_CFLAGS) -Idevices,$(DEVICE_LIBS))
# The checkpoint sections of the vCPU, the GIC, the generic timer and PSCI.
$(call unit_test,test_sys_ckpt,$(SYS_CPU_OBJS) $(DEVICE_OBJS), \
                 -DCONFIG_SYSTEM $(FDT_CFLAGS) -Idevices,$(DEVICE_LIBS))

# The Bifrost decoder, executor and engine, with the shaders of tests/bifrost/*.s, tests/gpu/*.s,
# tests/stats/*.s.  (The executor's test changes the host rounding mode, as the executor does.)
$(call unit_test,test_bifrost_decode,$(GPU_OBJS),-Iemu/gpu -I$(B)/tests/bifrost,,$(B)/tests/bifrost/asm.stamp)
$(call unit_test,test_bifrost_exec,$(GPU_OBJS),-Iemu/gpu -frounding-math -I$(B)/tests/bifrost,, \
                 $(B)/tests/bifrost/asm.stamp)
# The graphics messages against a fake front end (tests/gfx/gfx.mk).
$(call unit_test,test_bifrost_gfx,$(GPU_OBJS),-Iemu/gpu -frounding-math -I$(B)/tests/gfx,,$(B)/tests/gfx/asm.stamp)
$(call unit_test,test_job_gate,$(B)/obj/emu/gpu/job_gate.o,-Iemu/gpu,-lpthread)
# The graphics pixel back end alone: formats, fixed-function blending, surface layouts.
$(call unit_test,test_gpu_tex test_gfx_draw_state test_gfx_tiler,$(GPU_OBJS),-Iemu/gpu,,)
$(call unit_test,test_gfx_pixel,$(B)/obj/emu/gpu/gfx_pixel.o,-Iemu/gpu,-lm)
$(call unit_test,test_gfx_blend,$(B)/obj/emu/gpu/gfx_blend.o,-Iemu/gpu,-lm)
$(call unit_test,test_gfx_layout,$(B)/obj/emu/gpu/gfx_layout.o,-Iemu/gpu)
$(call unit_test,test_gfx_tile,$(B)/obj/emu/gpu/gfx_tile.o $(B)/obj/emu/gpu/gfx_pixel.o $(B)/obj/emu/gpu/gfx_layout.o,-Iemu/gpu -I$(B)/gen,-lm)
$(call unit_test,test_gpu_compute test_gpu_image test_gpu_math test_gpu_gfx,$(GPU_OBJS),-Iemu/gpu -I$(B)/tests/gpu,, \
                 $(B)/tests/gpu/asm.stamp)
# The GPU back ends against each other (compiled clauses vs the interpreter), on the shaders of both
# directories (a shader missing from its list is an unused constant: a build error); Capstone
# checks the SSE code has no VEX instructions.
$(call unit_test,test_gpu_jit,$(GPU_OBJS),-Iemu/gpu -I$(B)/tests -Wunused-const-variable,-lcapstone, \
                 $(B)/tests/bifrost/asm.stamp $(B)/tests/gpu/asm.stamp)
$(call unit_test,test_stats_gpu,$(GPU_OBJS) $(STATS_OBJS),-Iemu/gpu -Iemu/stats -I$(B)/tests/stats,, \
                 $(B)/tests/stats/asm.stamp)
# The graphics counts: a fragment job's per-warp and per-tile counting (gfx_stats.c) and the
# report's graphics section (stats_gfx.c).
$(call unit_test,test_stats_gfx,$(GPU_OBJS) $(STATS_OBJS),-Iemu/gpu -Iemu/stats)
# --timeline's ring, limit, recording API and JSON writer (emu/stats/timeline*.c).
$(call unit_test,test_timeline,$(GPU_OBJS) $(STATS_OBJS),-Iemu/gpu -Iemu/stats,-lpthread)
# The guest channel's records: naming jobs by announced launches, cancels, bounds (regions.c).
$(call unit_test,test_stats_regions,$(GPU_OBJS) $(STATS_OBJS),-Iemu/gpu -Iemu/stats)

# The graphics geometry and rasterization core alone (primitive assembly, clipping, setup and
# the quad walker), against slow double-precision references in the tests.
GFX_CORE_OBJS := $(B)/obj/emu/gpu/gfx_prim.o $(B)/obj/emu/gpu/gfx_clip.o $(B)/obj/emu/gpu/gfx_raster.o
$(call unit_test,test_gfx_prim,$(B)/obj/emu/gpu/gfx_prim.o,-Iemu/gpu)
$(call unit_test,test_gfx_clip test_gfx_raster,$(GFX_CORE_OBJS),-Iemu/gpu)
# Varying interpolation on the rasterizer's weights.
$(call unit_test,test_gfx_interp,$(GFX_CORE_OBJS) $(B)/obj/emu/gpu/gfx_interp.o,-Iemu/gpu)

# The timing plug-in's models alone (emu/timing), against the reference cache of tests/timing/.
$(call unit_test,test_timing,$(TIMING_OBJS),-Iemu/timing -Itests/timing,,tests/timing/ref_cache.h)

# The GDB stub alone (emu/debug) on the fake target of the fuzz harness.
$(call unit_test,test_gdb_stub,$(GDB_OBJS),-Iemu/debug -Itests/fuzz,,tests/fuzz/gdb_fake_target.h)

# The generated Mali descriptor code (mk/mali-formats.mk).
$(call unit_test,test_mali_formats,$(B)/obj/gen/mali_formats_print.o,,,$(B)/gen/mali_formats.h)

# The job-chain printer (malibu-decode's and --gpu-trace's) on packed GLES frames.
$(call unit_test,test_mali_decode_frame,$(B)/lib/libmali_decode.a $(GPU_OBJS),,,$(B)/gen/mali_formats.h)

# The board: devices, the Mali device through its harness (test_gpu_mali: the engine behind it;
# test_stats_mali: the system hooks of the bus and the Mali device), virtio with the simulated
# driver of tests/virtio/vdrv.h.
$(call unit_test,test_dev_board test_dev_bus test_dev_gic test_dev_hdlcd test_dev_lcdif test_dev_psci test_dev_timer test_dev_timer_icount \
                 test_dev_uart,$(DEVICE_OBJS),$(FDT_CFLAGS),$(DEVICE_LIBS))
# Checkpoint files (emu/checkpoint/) and the board's RAM and identity sections (board_ckpt.c).
$(call unit_test,test_ckpt,$(DEVICE_OBJS),$(FDT_CFLAGS),$(DEVICE_LIBS))
$(call unit_test,test_mali_job test_mali_icount test_mali_ckpt test_mali_mmu test_stats_mali,$(DEVICE_OBJS), \
                 $(FDT_CFLAGS) -Itests/mali,$(DEVICE_LIBS),tests/mali/mali_harness.h)
$(call unit_test,test_gpu_mali test_gpu_boards,$(DEVICE_OBJS),$(FDT_CFLAGS) -Itests/mali -I$(B)/tests/gpu,$(DEVICE_LIBS), \
                 tests/mali/mali_harness.h $(B)/tests/gpu/asm.stamp)
# GPU fault reports: build/malibu's reporter (emu/system/gpu_trace.c) on the Mali harness.
$(call unit_test,test_gpu_fault_report,$(B)/sysobj/emu/system/gpu_trace.o $(B)/lib/libmali_decode.a \
                 $(B)/obj/emu/gpu/bifrost_disasm.o $(DEVICE_OBJS), \
                 $(FDT_CFLAGS) -Itests/mali,$(DEVICE_LIBS), \
                 tests/mali/mali_harness.h)
# The PNG writer of --screenshot (build/malibu's emu/system/png_write.c).
$(call unit_test,test_png_write,$(B)/sysobj/emu/system/png_write.o,,-lz)
$(call unit_test,test_virtio_blk test_virtio_input test_virtio_mmio,$(DEVICE_OBJS), \
                 $(FDT_CFLAGS) -Itests/virtio,$(DEVICE_LIBS),tests/virtio/vdrv.h)
# Checkpoints of the I/O devices (UART, RTC, virtio transport, disks, input, display controllers).
$(call unit_test,test_ckpt_io,$(DEVICE_OBJS),$(FDT_CFLAGS) -Itests/virtio,$(DEVICE_LIBS), \
                 tests/virtio/vdrv.h tests/devices/dev_check.h)

# Board tests that fill the board's configuration from a command line (build/malibu's option
# table, OPTION_OBJS of mk/system.mk).
$(call unit_test,test_dev_fdt,$(OPTION_OBJS) $(DEVICE_OBJS),$(FDT_CFLAGS),$(DEVICE_LIBS))
$(call unit_test,test_mali_gpu,$(OPTION_OBJS) $(DEVICE_OBJS),$(FDT_CFLAGS) -Itests/mali,$(DEVICE_LIBS), \
                 tests/mali/mali_harness.h)
$(call unit_test,test_virtio_board,$(OPTION_OBJS) $(DEVICE_OBJS),$(FDT_CFLAGS) -Itests/virtio,$(DEVICE_LIBS), \
                 tests/virtio/vdrv.h)

# -include check_quiet.h: Check's assertions without its record of each one that passes (a write(2)
# each; the header says why).
$(UNIT_BINS): $(B)/tests/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $$($$*_LINK) $$($$*_DEPS)
	$(if $($*_LINK),,$(error $<: declare what it links in tests/unit/unit.mk (unit_test)))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(strip $($*_CFLAGS)) -Itests/unit -include tests/unit/check_quiet.h -o $@ $< $($*_LINK) $(CHECK_LIBS) $($*_LIBS) $(LDLIBS) $(LDFLAGS)

# Each test program is a target of its own, so that make -j runs them side by side (make test
# runs them two at a time, each one's output printed whole); make -k runs all despite a failure.
# The longest first, so that two at a time end together (measured one at a time, 2026-12-02,
# unsanitized / ASan+UBSan at -O0, in s: simd_native 12.3 / 23.1, ckpt_io 7.5 / 23.2, gpu_math
# 3.8 / 23.5, gpu_jit 2.8 / 14.7, timing 1.0 / 13.5, gfx_raster 1.9 / 11.5, fp 5.5 / 8.5; all
# of them 53 / 207).
UNIT_LONG_FIRST := $(addprefix $(B)/tests/unit/,test_simd_native test_ckpt_io test_gpu_math test_gpu_jit \
    test_timing test_gfx_raster test_fp)
UNIT_RUNS := $(addsuffix .run,$(foreach t,$(UNIT_LONG_FIRST),$(filter $(t),$(UNIT_BINS))) \
    $(filter-out $(UNIT_LONG_FIRST),$(UNIT_BINS)))
.PHONY: unit-test unit-build $(UNIT_RUNS)
unit-build: $(UNIT_BINS)
unit-test: $(UNIT_RUNS)
# Check's per-test timeouts (4 s unless a test sets its own) catch hangs; sanitized code at -O0
# runs several times slower, and beside make test's alone suites slower still (test_dev_gic's
# hostile_accesses, 2.8 s alone under ASan, went past 4 s there), so SAN=1 scales them by 10.
UNIT_TIMEOUT_MULTIPLIER := $(if $(filter 1,$(SAN)),10,1)
$(UNIT_RUNS): %.run: %
	@echo "== $<"; CK_FORK=yes CK_TIMEOUT_MULTIPLIER=$(UNIT_TIMEOUT_MULTIPLIER) $< || \
	    { echo "unit test failed: $(notdir $<)"; exit 1; }

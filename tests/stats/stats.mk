# Tests of the instrumentation reports (emu/stats/, tools/malibu-report.py; see
# emu/stats/SCHEMA.md; STATS_OBJS and malibu-report in mk/stats.mk).
#
#   tests/unit/test_stats_*.c  Check unit tests (declared in tests/unit/unit.mk): test_stats_gpu
#                              against GPU_OBJS + STATS_OBJS with the shaders of tests/stats/*.s,
#                              test_stats_mali the system hooks (bus, Mali device) through the Mali
#                              test harness (part of `make unit-test` and the SAN=1 run)
#   make stats-test            schema validation of a report and malibu-report on it; build/malibu
#                              --stats on the bare-metal test (tests/boot/hello.S), and --timeline:
#                              its exceptions as vCPU 0's spans
#   make timeline-test         --timeline on OpenCL samples in the guest, against --stats, and
#                              malibu-report's timeline in headless Chromium (timeline_test.sh)
STATS_TEST_SHADERS := $(sort $(wildcard tests/stats/*.s)) tests/gpu/gpu_reduce.s tests/gpu/gpu_vecadd.s
$(B)/tests/stats/asm.stamp: $(STATS_TEST_SHADERS) $(BIFROST_ISA) $(BIFROST_GEN) isa/bifrost/bifrost_asm.py
	@mkdir -p $(B)/tests/stats
	$(BIFROST_ASM) --c-include $(B)/tests/stats/shaders.inc $(STATS_TEST_SHADERS)
	@touch $@

.PHONY: stats-test
TEST_TARGETS += stats-test
STATS_UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/test_stats_*.c))
stats-test: $(B)/malibu-report $(STATS_UNIT_BINS) $(B)/malibu $(B)/tests/boot/hello.bin
	@echo "== stats: report JSON schema, malibu-report, malibu --stats on the bare-metal test"
	@command -v aarch64-linux-gnu-as >/dev/null 2>&1 || \
	    { echo "stats-test: FAIL: aarch64-linux-gnu-as not installed (tools/host-packages): no full-system report"; exit 1; }
	$(PYTHON) tests/stats/check_report.py --unit $(B)/tests/unit/test_stats_gpu --report $(B)/malibu-report \
	    --workdir $(B)/tests/stats --malibu $(B)/malibu --hello $(B)/tests/boot/hello.bin
	@# --timeline on the same program: its SVC and UNDEF exceptions are vCPU 0's spans
	$(B)/malibu --kernel $(B)/tests/boot/hello.bin --timeline $(B)/tests/stats/hello-timeline.json \
	    --stats $(B)/tests/stats/hello-timeline-stats.json </dev/null >/dev/null 2>$(B)/tests/stats/hello-timeline.err
	$(PYTHON) tests/stats/check_timeline.py $(B)/tests/stats/hello-timeline.json \
	    --stats $(B)/tests/stats/hello-timeline-stats.json \
	    --cpu-sequence "running,exception (SVC),running,exception (undefined),running"

# gfx-stats-test: --stats' graphics counts on a scene whose counts follow from its geometry, per
# GPU model with --gpu-threads 1 and 4 (tests/gfxstats/gfx_stats.sh), in `make test` (~45 s: four
# short boots); GFX_IMAGE: the guest image (default IMAGE_OUT).
GFX_IMAGE ?= $(IMAGE_OUT)
.PHONY: gfx-stats-test
TEST_TARGETS += gfx-stats-test
gfx-stats-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	@echo "== gfx-stats: graphics counts of a known scene, G72 and G52, 1 and 4 GPU threads"
	sh tests/gfxstats/gfx_stats.sh $(B)/malibu $(B)/tests/gfxstats $(GFX_IMAGE) "$(or $(MODELS),g72 g52)"

# timeline-test: --timeline and --stats on vecadd and sgemm_tiled in the guest (G52, --gpu-threads 1
# and 2 at once): the trace-event format, the counts against the report, the same GPU jobs in
# both runs, malibu-report's timeline in headless Chromium (tests/stats/timeline_test.sh; 70-105 s).
TIMELINE_IMAGE ?= $(IMAGE_OUT)
.PHONY: timeline-test
TEST_TARGETS += timeline-test
timeline-test: $(B)/malibu $(B)/malibu-report
	@$(MAKE) --no-print-directory image
	@echo "== timeline: --timeline on OpenCL samples, against --stats; malibu-report's timeline in Chromium"
	sh tests/stats/timeline_test.sh $(B)/malibu $(B)/malibu-report $(B)/tests/timeline $(TIMELINE_IMAGE)

# roi-test: the guest channel, kernel names and regions (tests/stats/roi_test.sh, check_roi.py;
# docs/guest-channel.md): roi_kernels under the naming layer, clpeak --kernel-latency under it,
# malibu_fuzz's hostile calls, and the same binaries off malibu (malibu-user); ROI_IMAGE: the guest
# image (default IMAGE_OUT), its unpacked rootfs tree from the image build.
ROI_IMAGE ?= $(IMAGE_OUT)
.PHONY: roi-test
TEST_TARGETS += roi-test
roi-test: $(B)/malibu $(B)/malibu-user $(B)/malibu-report
	@$(MAKE) --no-print-directory image IMAGE_OUT=$(ROI_IMAGE)
	@echo "== roi: kernel names and regions through the guest channel, its fuzzing, G52"
	sh tests/stats/roi_test.sh $(B)/malibu $(B)/malibu-user $(ROI_IMAGE) $(B)/tests/roi \
	    $(if $(filter $(GI)/out,$(ROI_IMAGE)),$(GI_CACHE)/work,$(ROI_IMAGE)/.work)/rootfs

# make test's suites two at a time (the Makefile's test rule: $(TEST_RUN) runs TEST_PAIRED_GOALS with
# -j2 --output-sync=target, then TEST_ALONE one after another, with fuzz-short-test and the
# sanitized suites beside them).  Read after tests/*/*.mk, which
# fill TEST_TARGETS.  What two suites at once would share, and how each is kept apart:
#
# * the guest images: most suites start with `make image` (or `make initramfs`), and two makes
#   deciding at once to build the same image would build it twice over each other.  test-images
#   builds both stacks' images first, one step after another (image-test-cached, then each image
#   whose .debs were not all cached: the stable one for mali-stack-test, fetched); every suite that boots a guest or builds an image waits
#   for it, so their own `make image` finds everything up to date.  The suites in TEST_HOST_SUITES
#   touch no guest image and run meanwhile.
# * build/tests/display: the five display suites write their screenshots and logs there, each
#   under its own file names, and each starts its own Xvfb (-displayfd: Xvfb picks a free display
#   and reports it), so they pair like the rest.
# * TEST_ALONE: figures that depend on the host's load, never paired with another guest suite:
#   clpeak's GB/s, GFLOPS and latency (host time; the bands take in figures measured at a host
#   load of 12, tests/mali/clpeak_test.sh); timing-repro-test compares a run with
#   the host's other work against one with two more busy loops (the figures must be equal);
#   checkpoint-test's GPU part saves while the GPU's host threads run a kernel chain, and a
#   starved vCPU reaches the save after the chain ended (failed so once, paired, at host load
#   14; it runs first, while the background build still runs at nice 19).  Beside them, once
#   that build is done: TEST_BESIDE_ALONE and the sanitized suites two at a time, all at once
#   (host load 3-4 with the alone suite's threads: within clpeak's bands; timing-repro's figures
#   must not move with load at all).
# Temporary files and ports are per process (mkdtemp, pid-named files, --gdb 0, slurm's free
# ports), so nothing else is shared.

TEST_HOST_SUITES := unit-test apps-host-test arch-test bifrost-test corpus-test debian-test devices-test \
    diff-test diff-test-portable diff-test-backends fuzz-short-test fuzz-regress-test image-unit-test \
    mali-test mali-decode-test mali-fmt-gen-test options-doc-test run-unit-test stats-test trace-test \
    user-test
#   timing-guest-test's plateaus take host time too (docs/testing.md), but their tolerances were
#   measured at a host load of 12: it runs paired.
# (in this order: checkpoint-test first, see above)
TEST_ALONE := $(foreach t,checkpoint-test mali-clpeak-test timing-repro-test,$(filter $(t),$(TEST_TARGETS)))
# run beside the alone suites, with the sanitized suites (the Makefile's test-beside-alone):
# fuzz-short-test needs the fuzz harnesses, which build in the background
TEST_BESIDE_ALONE := $(filter fuzz-short-test,$(TEST_TARGETS))
# the longest first, so that the last pair does not leave one core idle (measured on a clean
# clone of d953a1f, 2026-11-30, make --debug=j: mali-apps 180 s, install 158, piglit-cl 150,
# image-packages 119, piglit-gles 114, mali-stack 114, display-weston 86, hashcat 85, sweep 71,
# mali-guest 70, display-gl 66, timing-guest 64, gpu-size 41, gfx-stats 38, roi 34, timeline 33,
# display-window 16, display-kms 15, display 11); mali-apps-test and install-test run two
# processes at times (two boots at once; dpkg-buildpackage beside an image build)
TEST_LONG_FIRST := $(foreach t,mali-apps-test install-test piglit-cl-test image-packages-test \
    piglit-gles-test mali-stack-test display-weston-test mali-hashcat-test sweep-test mali-guest-test \
    display-gl-test timing-guest-test gpu-size-test gfx-stats-test roi-test timeline-test \
    display-window-test display-kms-test display-test,$(filter $(t),$(TEST_TARGETS)))
# image-test-cached runs in test-images
TEST_PAIRED_GOALS := test-images $(TEST_LONG_FIRST) \
    $(filter-out $(TEST_LONG_FIRST) $(TEST_ALONE) $(TEST_BESIDE_ALONE) image-test-cached,unit-test $(TEST_TARGETS))

.PHONY: test-images
test-images:
ifneq ($(filter image-test-cached,$(TEST_TARGETS)),)
	@$(MAKE) --no-print-directory -j1 image-test-cached
endif
	@$(MAKE) --no-print-directory -j1 image
ifneq ($(filter mali-stack-test,$(TEST_TARGETS))$(filter no,$(MALI_IN_TEST)),mali-stack-test)
else
	@$(MAKE) --no-print-directory -j1 image IMAGE_STACK=stable IMAGE_OUT=$(MALI_STACK2_OUT)
endif

ifeq ($(TEST_PAIRED)$(SAN),yes0)
$(filter-out $(TEST_HOST_SUITES) test-images,$(TEST_PAIRED_GOALS)): | test-images
endif

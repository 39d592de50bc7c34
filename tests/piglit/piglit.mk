# piglit's OpenCL suite on the emulated Mali against rusticl's llvmpipe (tests/piglit/piglit_test.sh):
# Debian's piglit package, of which the guest image carries the OpenCL runners, their libraries
# and the test trees (group part of guest-images/packages.list).  The rule and the list of known
# differences: tests/piglit/piglit_compare.py, tests/piglit/known-differences.txt.  One boot per
# model, 2 vCPUs: all of the list on panfrost, a share of it on llvmpipe (the reference).
#   piglit-cl-test       (in `make test`) every PIGLIT_SAMPLE-th test of the 711 (default 72:
#                        10 tests, ~1 min), shared between g71 and g52 (PIGLIT_SPLIT=1: each of
#                        the sample's tests runs on one of them)
#   piglit-cl-full-test  (not in `make test`) all 711 on MODELS (default g71 g52), ~1.5 h
# Work directory: $(B)/tests/piglit/{sample,full}; per boot its console log, MODEL.log, and
# malibu's own messages ("gpu: ..." reports), MODEL.err.
PIGLIT_SAMPLE ?= 72
PIGLIT_ENV := GUEST_STACK=$(IMAGE_STACK) GUEST_LOCK=$(GUEST_LOCK)

.PHONY: piglit-cl-test piglit-cl-full-test
TEST_TARGETS += piglit-cl-test
piglit-cl-test: $(B)/malibu
ifeq ($(MALI_IN_TEST),no)
	@echo "== piglit OpenCL test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== piglit: OpenCL suite, one test in $(PIGLIT_SAMPLE), shared by g71 and g52, against llvmpipe"
	$(PIGLIT_ENV) PIGLIT_SPLIT=1 sh tests/piglit/piglit_test.sh $(B)/malibu $(B)/tests/piglit/sample $(IMAGE_OUT) "g71 g52" $(PIGLIT_SAMPLE)
endif

piglit-cl-full-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	$(PIGLIT_ENV) sh tests/piglit/piglit_test.sh $(B)/malibu $(B)/tests/piglit/full $(IMAGE_OUT) "$(or $(MODELS),g71 g52)" 1

# piglit's GLES tests on the emulated Mali against Mesa's llvmpipe in the same guest, headless
# (EGL surfaceless on the render node): the .shader_test files whose [require] asks for GL ES and
# the programs built for GLES (*_gles2, *_gles3, oes_*), 272 tests, plus our sample scene
# (guest-images/apps/gles_scene, compared image against image by tests/piglit/
# gles_scene_compare.py); eglinfo must name each device.  The rule adds real hardware: on g52,
# a test absent from tests/piglit/real-g52-fails-gles.txt (Mesa CI's expectations on a real G52)
# must not fail; the differences malibu still has are listed with their cause in
# tests/piglit/known-differences-gles.txt.
#   piglit-gles-test       (in `make test`) every PIGLIT_GLES_SAMPLE-th test of the 272 (default
#                          17: 16 tests), shared between g72 and g52 (PIGLIT_SPLIT=1: each of the
#                          sample's tests runs on one of them), and the scene on both
#   piglit-gles-full-test  all 272 and the scene on MODELS (default g72 g52)
# Work directory: $(B)/tests/piglit/gles-{sample,full}; per boot its console log, MODEL.log, and
# malibu's own messages, MODEL.err; the
# sets of passing tests, llvmpipe.pass and MODEL.pass; the scene's images in scene/.
PIGLIT_GLES_SAMPLE ?= 17

.PHONY: piglit-gles-test piglit-gles-full-test
TEST_TARGETS += piglit-gles-test
piglit-gles-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	@echo "== piglit: GLES tests, one in $(PIGLIT_GLES_SAMPLE) shared by g72 and g52, and the sample scene on both, against llvmpipe"
	$(PIGLIT_ENV) PIGLIT_SPLIT=1 sh tests/piglit/piglit_test.sh $(B)/malibu $(B)/tests/piglit/gles-sample $(IMAGE_OUT) "g72 g52" $(PIGLIT_GLES_SAMPLE) gles

piglit-gles-full-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	$(PIGLIT_ENV) sh tests/piglit/piglit_test.sh $(B)/malibu $(B)/tests/piglit/gles-full $(IMAGE_OUT) "$(or $(MODELS),g72 g52)" 1 gles

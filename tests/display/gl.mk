# On-screen GLES on the eLCDIF through Mesa's kmsro (tests/display/gl_test.py; docs/display.md):
#   make display-gl-test       kmscube -c 30 on the Mali and on llvmpipe into the same KMS device,
#                              the two screenshots compared within GL's rasterization tolerance;
#                              glmark2-es2-drm --validate on a bounded list of scenes: every scene
#                              that validates on llvmpipe must validate on the Mali
#   make display-gl-full-test  the same with glmark2's whole default benchmark list
# display-gl-test is in make test (about 60 s; DISPLAY_IN_TEST=no skips it, as display.mk's).
# kms_hold.so, preloaded into kmscube, keeps its last frame on screen for the screenshot; it is
# built for the guest with the cross compiler the image's samples use (gcc-aarch64-linux-gnu).
GL_TEST_CROSS ?= aarch64-linux-gnu-
GL_TEST_HOLD := $(B)/tests/display/kms_hold.so

$(GL_TEST_HOLD): tests/display/kms_hold.c
	@mkdir -p $(dir $@)
	$(GL_TEST_CROSS)gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -o $@ $<

.PHONY: display-gl-test display-gl-full-test
TEST_TARGETS += display-gl-test

display-gl-test: $(B)/malibu $(GL_TEST_HOLD)
ifeq ($(DISPLAY_IN_TEST),no)
	@echo "== display gl: skipped (DISPLAY_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== display: kmscube and glmark2 through kmsro, Mali vs llvmpipe ($(GI_OUT))"
	$(PYTHON) tests/display/gl_test.py $(B)/malibu $(B)/tests/display $(GI_OUT) $(GL_TEST_HOLD)
endif

display-gl-full-test: $(B)/malibu $(GL_TEST_HOLD)
	@$(MAKE) --no-print-directory image
	@echo "== display: kmscube and glmark2's default list through kmsro, Mali vs llvmpipe ($(GI_OUT))"
	$(PYTHON) tests/display/gl_test.py $(B)/malibu $(B)/tests/display $(GI_OUT) $(GL_TEST_HOLD) full

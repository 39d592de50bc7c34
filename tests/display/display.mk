# Tests of the board's screen (devices/hdlcd.c, devices/board_display.c, emu/system/display*.c;
# docs/display.md):
#   make display-test   (in make test) headless boots with --display none --screenshot: the probe
#                       log, console text cells, the fb_pattern test pattern pixel for pixel
#                       (tests/display/display_test.py); DISPLAY_TEST_IMAGES lists the images
#                       (default: the default image); DISPLAY_IN_TEST=no skips it
#   make display-window-test  (in make test) the SDL window under Xvfb: keys typed with xdotool
#                       reach the guest's console (a typed line on screen, a typed command's exit
#                       status), the window's pixels (xwd) equal the screenshot
#                       (tests/display/window_test.py; Xvfb, xwd, xdotool from tools/host-packages)
#   make display-kms-test  (in make test) the eLCDIF as a KMS device: mxsfb's handover, modetest -c /
#                       -s (its colour bars in the screenshot), kms_pattern's dumb buffers after
#                       60 page flips pixel for pixel (tests/display/kms_test.py)
#   unit tests: tests/unit/test_dev_hdlcd.c, test_dev_lcdif.c, test_png_write.c, test_virtio_input.c
#               (make unit-test)
DISPLAY_IN_TEST ?= yes

# Tests run malibu headless: with $DISPLAY set, --display's default would open a window for every
# boot of every test (the window test starts its own X server).
ifneq ($(filter test %-test,$(MAKECMDGOALS)),)
unexport DISPLAY WAYLAND_DISPLAY
endif
DISPLAY_TEST_IMAGES ?= $(GI_OUT)

.PHONY: display-test
TEST_TARGETS += display-test

display-test: $(B)/malibu
ifeq ($(DISPLAY_IN_TEST),no)
	@echo "== display: skipped (DISPLAY_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== display: --screenshot of the console and of a test pattern ($(DISPLAY_TEST_IMAGES))"
	$(PYTHON) tests/display/display_test.py $(B)/malibu $(B)/tests/display $(DISPLAY_TEST_IMAGES)
endif

.PHONY: display-window-test
TEST_TARGETS += display-window-test

display-window-test: $(B)/malibu
ifeq ($(DISPLAY_IN_TEST),no)
	@echo "== display window: skipped (DISPLAY_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== display: the SDL window under Xvfb, typing into the guest ($(GI_OUT))"
	$(PYTHON) tests/display/window_test.py $(B)/malibu $(GI_OUT) $(B)/tests/display
endif

.PHONY: display-kms-test
TEST_TARGETS += display-kms-test

display-kms-test: $(B)/malibu
ifeq ($(DISPLAY_IN_TEST),no)
	@echo "== display kms: skipped (DISPLAY_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== display: the eLCDIF through KMS: modetest, kms_pattern ($(GI_OUT))"
	$(PYTHON) tests/display/kms_test.py $(B)/malibu $(B)/tests/display $(GI_OUT)
endif

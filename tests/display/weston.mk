# weston on the eLCDIF (tests/display/weston_test.py, weston_guest.sh; docs/display.md):
#   make display-weston-test  two boots of the image on a Mali-G52: headless, weston with
#                        weston-simple-egl (weston's GL renderer is the Mali, the client's frames
#                        shown, its triangle in the screenshot); in the SDL window under Xvfb,
#                        weston-terminal: a command typed with xdotool runs in the guest and shows
#                        on screen, a click on the panel's launcher starts weston-simple-egl.
#                        In make test (65-120 s measured on a loaded host).
.PHONY: display-weston-test
TEST_TARGETS += display-weston-test

display-weston-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	@echo "== display: weston on the eLCDIF: weston-simple-egl, typing and clicking ($(GI_OUT))"
	$(PYTHON) tests/display/weston_test.py $(B)/malibu $(B)/tests/display $(GI_OUT)

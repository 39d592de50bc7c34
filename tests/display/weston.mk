# weston on the eLCDIF (tests/display/weston_test.py, weston_guest.sh; docs/display.md):
#   make display-weston-test  two boots of the image on a Mali-G52: headless, weston with
#                        weston-simple-egl (weston's GL renderer is the Mali, the client's frames
#                        shown, its triangle in the screenshot); in the SDL window under Xvfb,
#                        weston-terminal: a command typed with xdotool runs in the guest and shows
#                        on screen, a click on the panel's launcher starts weston-simple-egl.
#                        About 65 s; not in make test while panfrost times out weston's first
#                        compositions (docs/display.md, weston on the eLCDIF).
.PHONY: display-weston-test

display-weston-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	@echo "== display: weston on the eLCDIF: weston-simple-egl, typing and clicking ($(GI_OUT))"
	$(PYTHON) tests/display/weston_test.py $(B)/malibu $(B)/tests/display $(GI_OUT)

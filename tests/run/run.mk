# Tests of the one-command runs of the guest image (mk/run.mk; docs/guest-images.md: Running the guest image):
#   make run-test   (in make test) --image/--run/--share/exit status end to end, clinfo and OpenCL
#                   samples on rusticl; fetches the pinned packages if needed (~185 MB);
#                   RUN_IN_TEST=no skips it
RUN_IN_TEST ?= yes

.PHONY: run-test
TEST_TARGETS += run-test

run-test: $(B)/malibu
ifeq ($(RUN_IN_TEST),no)
	@echo "== run: skipped (RUN_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== run: --image / --run / --share / exit status / OpenCL"
	$(PYTHON) tests/run/run_test.py $(B)/malibu $(GI_OUT) $(B)/tests/run
endif

# exit device + option parsing (Check), also in the ASan/UBSan run
.PHONY: run-unit-test
TEST_TARGETS += run-unit-test
SAN_TEST_TARGETS += run-unit-test

$(B)/tests/run/test_run_args: tests/run/test_run_args.c $(B)/malibu $(OPTION_OBJS) $(DEVICE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FDT_CFLAGS) -Idevices -Iemu/system -o $@ $< $(OPTION_OBJS) $(DEVICE_OBJS) $(CHECK_LIBS) \
	      $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

run-unit-test: $(B)/tests/run/test_run_args
	@echo "== run: exit device, the option table, --image/--run"
	CK_FORK=yes $(B)/tests/run/test_run_args

# docs/devices.md's option list is build/malibu --help-markdown, between its markers:
#   make options-doc        rewrites it there
#   make options-doc-test   (in make test) fails when the page differs from the table
.PHONY: options-doc options-doc-test
TEST_TARGETS += options-doc-test

options-doc: $(B)/malibu
	$(PYTHON) tests/run/options_doc.py $(B)/malibu docs/devices.md --write

options-doc-test: $(B)/malibu
	@echo "== run: docs/devices.md option list = build/malibu --help-markdown"
	$(PYTHON) tests/run/options_doc.py $(B)/malibu docs/devices.md

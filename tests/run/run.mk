# One-command runs of the guest image (README.md: Running the guest image):
#   make run        builds build/malibu and guest-images/out (make image) if needed, boots the image
#                   with --image, runs the demo (tests/run/demo.py: clinfo, vecadd, saxpy on rusticl) and
#                   prints a short report and the --stats report (build/run/report/index.html).  Default: the emulated Mali GPU (RUSTICL_ENABLE=panfrost,
#                   --gpu g71); RUN_DEMO_GPU=llvmpipe runs them on rusticl's CPU device (LLVM JIT on
#                   the emulated CPU); RUN_DEMO_ARGS='--gpu g52' adds malibu options
#   make run-test   (in make test) --image/--run/--share/exit status end to end, clinfo and OpenCL
#                   samples on rusticl; fetches the pinned packages if needed (~185 MB);
#                   RUN_IN_TEST=no skips it
RUN_IN_TEST ?= yes
RUN_DEMO_GPU ?= panfrost
RUN_DEMO_ARGS ?=

.PHONY: run run-demo run-test
TEST_TARGETS += run-test

run: host-deps
	@$(MAKE) --no-print-directory run-demo

run-demo: $(B)/malibu $(B)/malibu-report image
	@mkdir -p $(B)/run
	@RUN_DEMO_ARGS='$(RUN_DEMO_ARGS)' RUN_DEMO_STATS=$(B)/run/stats.json \
	    $(PYTHON) tests/run/demo.py $(B)/malibu $(GI_OUT) $(RUN_DEMO_GPU)

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

$(B)/tests/run/test_run_args: tests/run/test_run_args.c $(B)/malibu $(DEVICE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FDT_CFLAGS) -Idevices -o $@ $< $(DEVICE_OBJS) $(CHECK_LIBS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

run-unit-test: $(B)/tests/run/test_run_args
	@echo "== run: exit device, --image/--run options"
	CK_FORK=yes $(B)/tests/run/test_run_args

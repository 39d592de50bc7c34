# One-command run of the guest image (docs/guest-images.md: Running the guest image):
#   make run        builds build/malibu and $(IMAGE_OUT) (make image) if needed, boots the image
#                   with --image, runs the demo (tests/run/demo.py: clinfo, vecadd, saxpy on rusticl)
#                   and prints a short report and the --stats report (build/run/report/index.html).
#                   Default: the emulated Mali GPU (RUSTICL_ENABLE=panfrost, --gpu g71);
#                   RUN_DEMO_GPU=llvmpipe runs them on rusticl's CPU device (LLVM JIT on the
#                   emulated CPU); RUN_DEMO_ARGS='--gpu g52' adds malibu options
RUN_DEMO_GPU ?= panfrost
RUN_DEMO_ARGS ?=

.PHONY: run run-demo
run: host-deps
	@$(MAKE) --no-print-directory run-demo

run-demo: $(B)/malibu $(B)/malibu-report image
	@mkdir -p $(B)/run
	@RUN_DEMO_ARGS='$(RUN_DEMO_ARGS)' RUN_DEMO_STATS=$(B)/run/stats.json \
	    $(PYTHON) tests/run/demo.py $(B)/malibu $(GI_OUT) $(RUN_DEMO_GPU)

# Checkpoints of the whole board (docs/checkpoint.md), the CPU and machine part.
# make checkpoint-test: boot + clinfo + `malibu checkpoint`, then vecadd and saxpy in the saving run
# and in runs resumed from the file under two --timing configurations (PASS, the same GPU totals,
# different timing counts); --smp 4 --smp-mode rr --clock icount saved and resumed, the guest's
# output after the checkpoint identical (tests/checkpoint/checkpoint_test.py).  The guest's
# `malibu` tool is cross-compiled from guest-images/apps/malibu.c into the shared directory, so an
# image built before `malibu checkpoint` existed serves too.
.PHONY: checkpoint-test
TEST_TARGETS += checkpoint-test
checkpoint-test: $(B)/malibu $(B)/malibu-checkpoint
ifeq ($(MALI_IN_TEST),no)
	@echo "== checkpoint test skipped (MALI_IN_TEST=no)"
else
	@$(MAKE) --no-print-directory image
	@echo "== checkpoint: save in the guest, resume, the same results (vCPUs, machine, --timing, --smp 4 rr icount)"
	$(PYTHON) tests/checkpoint/checkpoint_test.py $(B)/malibu $(IMAGE_OUT) $(B)/tests/checkpoint
	@echo "== checkpoint: refused onto another GPU model, RAM size or CPU model, truncated, a byte flipped; malibu-checkpoint info/diff"
	$(PYTHON) tests/checkpoint/refuse_test.py $(B)/malibu $(B)/malibu-checkpoint $(IMAGE_OUT) \
	    $(B)/tests/checkpoint/gpu.ckpt $(B)/tests/checkpoint/refuse $(B)/tests/checkpoint/share
endif

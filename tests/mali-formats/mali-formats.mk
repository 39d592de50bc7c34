# Mali descriptor layouts as data (isa/mali/*.fmt, mk/mali-formats.mk) and build/malibu-decode.
#
#   tests/unit/test_mali_formats.c  Check unit test of the generated code: layouts against words
#                                   written from the reference, pack/unpack round trips, reserved
#                                   bits per arch, print (declared in tests/unit/unit.mk; part of
#                                   `make unit-test` and SAN=1)
#   tests/unit/test_mali_decode_frame.c  the walker and printer on packed GLES frames (IDVS and
#                                   fragment jobs, v6 and v7) and hostile memory (unit.mk)
#   make mali-fmt-gen-test          test_fmt_gen.py: the generator refuses overlapping fields and
#                                   sections, unknown names, bad modifiers; a good description
#                                   gives per-arch unpack/pack, aggregate offsets, union printing
#   make mali-decode-test           tests/unit/test_gpu_mali runs its vecadd jobs on the Mali device
#                                   (G71 and G52) with MALIBU_GPU_DUMP; build/malibu-decode prints
#                                   the dumps; check_decode.py checks every descriptor and the
#                                   shader came out named and decoded
MALI_DECODE_TEST_DIR := $(B)/tests/mali-decode
.PHONY: mali-decode-test
TEST_TARGETS += mali-decode-test
SAN_TEST_TARGETS += mali-decode-test
mali-decode-test: $(B)/malibu-decode $(B)/tests/unit/test_gpu_mali
	@echo "== mali-decode: vecadd jobs dumped by the Mali device, printed by malibu-decode"
	rm -rf $(MALI_DECODE_TEST_DIR) && mkdir -p $(MALI_DECODE_TEST_DIR)/dump
	MALIBU_GPU_DUMP=$(MALI_DECODE_TEST_DIR)/dump CK_FORK=no $(B)/tests/unit/test_gpu_mali > $(MALI_DECODE_TEST_DIR)/test.log
	$(B)/malibu-decode $(MALI_DECODE_TEST_DIR)/dump > $(MALI_DECODE_TEST_DIR)/decoded.txt
	$(PYTHON) tests/mali-formats/check_decode.py $(MALI_DECODE_TEST_DIR)/decoded.txt

.PHONY: mali-fmt-gen-test
TEST_TARGETS += mali-fmt-gen-test
mali-fmt-gen-test:
	@echo "== mali-fmt-gen: isa/mali/mali_fmt_gen.py on good and bad descriptions"
	CC=$(CC) $(PYTHON) tests/mali-formats/test_fmt_gen.py $(B)/tests/mali-fmt-gen

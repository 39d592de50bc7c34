# Differential tests: random AArch64 instruction sequences, qemu-aarch64 -cpu cortex-a57 vs malibu-user.
#
#   make difftest [N=instructions] [SEED=s] [CLASSES="int fp ..."] [GATE=all]
#        runs everything asked and prints the full mismatch report (default: all classes, 100000).
#   make test     runs diff-test: DIFF_TEST_N instructions over all classes; only mismatches in the
#        classes of DIFF_GATE fail the build, the others are printed as "skipped: ... not in the gate".
#
#   make test     also runs diff-test-portable: the same classes on the portable back end
#        (MALIBU_BACKEND=portable, the reference the native x86-64 back end is checked against),
#        DIFF_PORTABLE_N instructions with another seed, and diff-test-backends: the native back
#        end against the portable one directly (the portable malibu-user takes qemu's place as
#        the reference), DIFF_BACKENDS_N instructions.
#
# Classes: int branch ldst excl fp simd_int simd_fp simd_perm crypto sys undef lse rdm dotprod sha512
# sha3 fp16 alias
# (undef = random words from the whole DP/FP/SIMD space; checks UNDEF placement, needs SIGILL delivery).
# The lead tightens DIFF_GATE as instruction families land.
DIFF_GATE ?= int branch ldst excl fp simd_int simd_fp simd_perm crypto sys undef lse rdm dotprod sha512 sha3 fp16 alias
# Under ASan/UBSan (san-test) every class must match as well.
DIFF_SAN_GATE ?= $(DIFF_GATE)
DIFF_TEST_N ?= 200000
DIFF_SAN_N ?= 20000
DIFF_PORTABLE_N ?= 60000
DIFF_BACKENDS_N ?= 40000
DIFF_CLASSES := int branch ldst excl fp simd_int simd_fp simd_perm crypto sys undef lse rdm dotprod sha512 sha3 fp16 alias

# --compile-after 1: each random sequence runs once, and would otherwise run from its ops (the
# portable back end's handlers, native.h native_tier_up) instead of the native code under test.
DIFFTEST = $(PYTHON) tests/diff/difftest.py --malibu "$(B)/malibu-user --compile-after 1" --workdir $(B)/tests/diff

.PHONY: diff-test diff-test-san difftest diff-test-portable diff-test-backends
TEST_TARGETS += diff-test diff-test-portable diff-test-backends
SAN_TEST_TARGETS += diff-test-san

diff-test: $(B)/malibu-user
	@echo "== differential test (gate: $(if $(strip $(DIFF_GATE)),$(DIFF_GATE),none yet))"
	$(DIFFTEST) -n $(DIFF_TEST_N) --seed 1 --classes "$(DIFF_CLASSES)" --gate "$(DIFF_GATE)"

diff-test-portable: $(B)/malibu-user
	@echo "== differential test, portable back end (gate: $(DIFF_GATE))"
	MALIBU_BACKEND=portable $(DIFFTEST) -n $(DIFF_PORTABLE_N) --seed 3 --classes "$(DIFF_CLASSES)" --gate "$(DIFF_GATE)"

diff-test-backends: $(B)/malibu-user
	@echo "== differential test, native back end against the portable one (all classes)"
	$(PYTHON) tests/diff/difftest.py --malibu "$(B)/malibu-user --backend native --compile-after 1 --guest-base window" \
	    --qemu "$(B)/malibu-user --backend portable" --workdir $(B)/tests/diff-backends \
	    -n $(DIFF_BACKENDS_N) --seed 5 --classes "$(DIFF_CLASSES)" --gate all

# Under ASan/UBSan: the classes of DIFF_GATE, fewer instructions; DIFF_SAN_GATE ones must match.
diff-test-san: $(B)/malibu-user
ifeq ($(strip $(DIFF_GATE)),)
	@echo "skipped: diff-test-san (no class in DIFF_GATE yet)"
else
	@echo "== differential test under ASan/UBSan (gate: $(DIFF_SAN_GATE))"
	$(DIFFTEST) -n $(DIFF_SAN_N) --seed 2 --classes "$(DIFF_GATE)" --gate "$(DIFF_SAN_GATE)" --max-restarts 10
endif

difftest: $(B)/malibu-user
	$(DIFFTEST) -n $(or $(N),100000) --seed $(or $(SEED),1) --classes "$(or $(CLASSES),$(DIFF_CLASSES))" \
	    --gate "$(or $(GATE),$(DIFF_GATE))" --report-all --max-report 5

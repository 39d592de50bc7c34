# Coverage-guided fuzzing (libFuzzer, clang) of the GPU's guest-controlled parsers.
#
#   tests/fuzz/fuzz_bifrost.c   clause decoder + executor + texture/image messages on shader bytes
#   tests/fuzz/fuzz_compute.c   COMPUTE job descriptors (gpu_compute_run) in a flat GPU address space
#   tests/fuzz/fuzz_mali.c      the Mali device: GPU MMU page-table walk, job chains, compute jobs
#                               through the MMU, driven through its registers (board objects)
#   tests/fuzz/fuzz_decode.c    the job-chain walker, printer (malibu-decode) and dump writer on
#                               any job type in a flat address space (fuzz_compute's seeds)
#   tests/fuzz/fuzz_ckpt.c      the checkpoint loader: file framing and every section loader of the
#                               board (tests/fuzz/ckpt_seed.c writes its seed, a real checkpoint)
#   tests/fuzz/fuzz_gdb.c       the GDB stub's packet framing and commands (what a network client
#                               sends) on a fake target (tests/fuzz/gdb_fake_target.h)
#   tests/fuzz/make_seeds.py    seed corpora from the assembled test shaders (build/fuzz/seeds)
#   tests/fuzz/gdb_seeds.py     seed packet streams of a gdb session (build/fuzz/seeds/gdb)
#   tests/fuzz/regress/NAME/    inputs that once failed; replayed by `make fuzz-regress-test`
#                               (in `make test` and the SAN=1 run) through tests/fuzz/replay.c
#
#   make fuzz-build                  the harnesses, clang -fsanitize=fuzzer,address,undefined,
#                                    objects in build/fuzz (FUZZ_CC: Debian's clang, 14 on
#                                    Debian 12, 19 on 13, with libclang-rt-dev for libFuzzer)
#   make fuzz FUZZ_SECONDS=600       each harness in turn (FUZZ_TARGETS), niced; corpus kept in
#                                    build/fuzz/corpus/NAME, crashes in build/fuzz/artifacts
#   make fuzz-short-test             (in `make test`) every harness for FUZZ_SHORT_SECONDS (5)
#                                    on a fresh corpus in build/fuzz/short
FUZZ_CC ?= clang
FUZZ_B := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= compute bifrost mali gdb decode ckpt
FUZZ_NAMES := bifrost compute mali gdb decode ckpt
FUZZ_SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter $(FUZZ_SANFLAGS) \
               -Iemu/gpu -Iemu/cpu -Iemu/user -I$(B)/gen $(FDT_CFLAGS) -MMD -MP
# The same object lists as the normal build (the GPU's include the timing models), rebuilt here.
FUZZ_GPU_OBJS := $(patsubst $(B)/obj/%,$(FUZZ_B)/obj/%,$(GPU_OBJS))
$(foreach u,$(BIFROST_EXEC_UNITS),$(eval FUZZ_EXTRA_$(u) := -frounding-math))
FUZZ_EXTRA_scheduler := -DSTOP_POLL_CLAUSES=2048u       # stopped looping jobs cost ms, not seconds
.SECONDARY:

$(FUZZ_B)/obj/%.o: %.c $(B)/gen/bifrost_isa.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_EXTRA_$(basename $(notdir $@))) -c $< -o $@

$(FUZZ_B)/obj/gen/bifrost_isa.o: $(B)/gen/bifrost_isa.c $(B)/gen/bifrost_isa.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_GPU_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_GPU_OBJS) -lm -lpthread

# The Mali harness links the board's devices.
FUZZ_DEV_OBJS := $(patsubst $(B)/obj/%,$(FUZZ_B)/obj/%,$(DEVICE_OBJS))

$(FUZZ_B)/fuzz_mali: tests/fuzz/fuzz_mali.c $(FUZZ_DEV_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_DEV_OBJS) $(DEVICE_LIBS) -lm -lpthread

$(FUZZ_B)/fuzz_ckpt: tests/fuzz/fuzz_ckpt.c tests/fuzz/ckpt_board.h $(FUZZ_DEV_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_DEV_OBJS) $(DEVICE_LIBS) -lm -lpthread

# The checkpoint harness's seed: a checkpoint of its board, written by the normal build.
$(B)/tests/fuzz/ckpt_seed: tests/fuzz/ckpt_seed.c tests/fuzz/ckpt_board.h $(DEVICE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) $(FDT_CFLAGS) -o $@ $< $(DEVICE_OBJS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

# The decoder harness links the printer library, compiled here too.
FUZZ_DECODE_OBJS := $(FUZZ_B)/obj/emu/decode/job_print.o $(FUZZ_B)/obj/gen/mali_formats_print.o
$(FUZZ_B)/obj/gen/mali_formats_print.o: $(B)/gen/mali_formats_print.c $(B)/gen/mali_formats.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_DECODE_OBJS): | fuzz-cc-check $(B)/gen/mali_formats.h

$(FUZZ_B)/fuzz_decode: tests/fuzz/fuzz_decode.c $(FUZZ_DECODE_OBJS) $(FUZZ_GPU_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_DECODE_OBJS) $(FUZZ_GPU_OBJS) -lm -lpthread

# The GDB stub harness links only the stub.
FUZZ_GDB_OBJS := $(patsubst $(B)/obj/%,$(FUZZ_B)/obj/%,$(GDB_OBJS))

$(FUZZ_B)/fuzz_gdb: tests/fuzz/fuzz_gdb.c tests/fuzz/gdb_fake_target.h $(FUZZ_GDB_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Iemu/debug -Itests/fuzz -fsanitize=fuzzer -o $@ $< $(FUZZ_GDB_OBJS) -lpthread

# (the shader lists come from tests/bifrost and tests/gpu)
$(FUZZ_B)/seeds.stamp: tests/fuzz/make_seeds.py tests/fuzz/gdb_seeds.py $$(BIFROST_SHADERS) $$(GPU_TEST_SHADERS) $(BIFROST_ISA) $(BIFROST_GEN) \
                       $(B)/tests/fuzz/ckpt_seed
	@rm -rf $(FUZZ_B)/seeds
	$(PYTHON) tests/fuzz/make_seeds.py $(FUZZ_B)/seeds $(BIFROST_SHADERS) $(GPU_TEST_SHADERS)
	$(PYTHON) tests/fuzz/gdb_seeds.py $(FUZZ_B)/seeds/gdb
	mkdir -p $(FUZZ_B)/seeds/ckpt && $(B)/tests/fuzz/ckpt_seed $(FUZZ_B)/seeds/ckpt/board.ck
	cp -r $(FUZZ_B)/seeds/compute $(FUZZ_B)/seeds/decode
	@touch $@

.PHONY: fuzz-build fuzz fuzz-regress-test fuzz-short-test fuzz-cc-check
fuzz-build: $(FUZZ_NAMES:%=$(FUZZ_B)/fuzz_%) $(FUZZ_B)/seeds.stamp

# Without clang (or its libFuzzer runtime) the harnesses cannot build: install the host packages,
# and if they are still missing, say which.
fuzz-cc-check: host-deps
	@command -v $(FUZZ_CC) >/dev/null || \
	    { echo "fuzz: $(FUZZ_CC) not found (Debian packages clang, libclang-rt-dev; tools/host-deps.sh)"; exit 1; }
	@printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' | \
	    $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null || \
	    { echo "fuzz: $(FUZZ_CC) cannot link libFuzzer (Debian package libclang-rt-dev)"; exit 1; }
$(FUZZ_GPU_OBJS) $(FUZZ_DEV_OBJS) $(FUZZ_GDB_OBJS): | fuzz-cc-check

# fuzz_run DIR SECONDS TARGETS: each harness on its corpus in DIR, the seeds and the regressions
fuzz_run = for t in $(3); do \
	    mkdir -p $(1)/corpus/$$t $(1)/artifacts; \
	    echo "== fuzz_$$t for $(2) s"; \
	    nice $(FUZZ_B)/fuzz_$$t -max_total_time=$(2) -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	        -print_final_stats=1 -close_fd_mask=2 -artifact_prefix=$(1)/artifacts/$$t- \
	        $(1)/corpus/$$t $(FUZZ_B)/seeds/$$t $$(ls -d tests/fuzz/regress/$$t 2>/dev/null) || exit 1; \
	done

fuzz: fuzz-build
	@$(call fuzz_run,$(FUZZ_B),$(FUZZ_SECONDS),$(FUZZ_TARGETS))

# In make test: every harness for a few seconds on a fresh corpus (the seeds and regressions are
# run first, so a harness that crashes on a known input fails here as well as in the replay).
FUZZ_SHORT_SECONDS ?= 5
TEST_TARGETS += fuzz-short-test
fuzz-short-test: fuzz-build
	@rm -rf $(FUZZ_B)/short && mkdir -p $(FUZZ_B)/short
	@if ( $(call fuzz_run,$(FUZZ_B)/short,$(FUZZ_SHORT_SECONDS),$(FUZZ_NAMES)) ) >$(FUZZ_B)/short/log 2>&1; then \
	    grep -E '^== fuzz_|number_of_executed_units|new_units_added' $(FUZZ_B)/short/log; \
	else tail -40 $(FUZZ_B)/short/log; echo "fuzz-short-test failed: $(FUZZ_B)/short/log"; exit 1; fi

-include $(shell find $(FUZZ_B)/obj -name '*.d' 2>/dev/null)

# Regression replay (gcc, and ASan/UBSan with SAN=1): the harnesses without libFuzzer.
$(B)/tests/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(GPU_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -o $@ $< tests/fuzz/replay.c $(GPU_OBJS) $(LDLIBS) $(LDFLAGS)

$(B)/tests/fuzz/replay_mali: tests/fuzz/fuzz_mali.c tests/fuzz/replay.c $(DEVICE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) $(FDT_CFLAGS) -o $@ $< tests/fuzz/replay.c $(DEVICE_OBJS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

$(B)/tests/fuzz/replay_ckpt: tests/fuzz/fuzz_ckpt.c tests/fuzz/ckpt_board.h tests/fuzz/replay.c $(DEVICE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) $(FDT_CFLAGS) -o $@ $< tests/fuzz/replay.c $(DEVICE_OBJS) $(DEVICE_LIBS) $(LDLIBS) $(LDFLAGS)

$(B)/tests/fuzz/replay_gdb: tests/fuzz/fuzz_gdb.c tests/fuzz/gdb_fake_target.h tests/fuzz/replay.c $(GDB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iemu/debug -Itests/fuzz -o $@ $< tests/fuzz/replay.c $(GDB_OBJS) $(LDLIBS) $(LDFLAGS)

$(B)/tests/fuzz/replay_decode: tests/fuzz/fuzz_decode.c tests/fuzz/replay.c $(B)/lib/libmali_decode.a $(GPU_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -o $@ $< tests/fuzz/replay.c $(B)/lib/libmali_decode.a $(GPU_OBJS) $(LDLIBS) $(LDFLAGS)

TEST_TARGETS += fuzz-regress-test
fuzz-regress-test: $(FUZZ_NAMES:%=$(B)/tests/fuzz/replay_%)
	@echo "== fuzz regressions: tests/fuzz/regress/*/"
	@for t in $(FUZZ_NAMES); do \
	    set -- tests/fuzz/regress/$$t/*.bin; [ -e "$$1" ] || continue; \
	    $(B)/tests/fuzz/replay_$$t "$$@" 2>/dev/null || { echo "fuzz regression failed: $$t"; exit 1; }; \
	done

# C corpus: tests/corpus/*.c cross-compiled at -O0/-O3, static and dynamic, run under qemu-aarch64
# and malibu-user (dynamic ones with the cross sysroot); stdout and exit status must match.
#   make corpus-test   (part of make test) only CORPUS_GATE entries fail the build
#   make corpustest    everything, full report, no gate
# Each binary runs twice under malibu-user: as users run it (blocks compiled at their 8th run, guest
# addresses = host addresses), and with --compile-after 1, so that code run once (fault_regs'
# probes, smc) runs as native code too, and --guest-base window (the window fallback).
# CORPUS_GATE: program names (sha256), variants (neon-O3-dynamic), link kinds (static), or all.
CORPUS_GATE ?= all
CORPUS_SRCS := $(sort $(wildcard tests/corpus/*.c))
CORPUS_BINS := $(foreach s,$(CORPUS_SRCS),$(foreach o,O0 O3,$(foreach l,static dynamic,\
               $(B)/tests/corpus/$(basename $(notdir $(s)))-$(o)-$(l))))
CORPUS_CC := aarch64-linux-gnu-gcc
CORPUS_CFLAGS := -march=armv8-a+crypto -g -Wall -Wno-unused-result

define corpus_rule
$(B)/tests/corpus/%-$(1)-$(2): tests/corpus/%.c
	@mkdir -p $$(dir $$@)
	$(CORPUS_CC) -$(1) $(CORPUS_CFLAGS) $(if $(filter static,$(2)),-static) -o $$@ $$< -lm -lpthread
endef
$(foreach o,O0 O3,$(foreach l,static dynamic,$(eval $(call corpus_rule,$(o),$(l)))))

.PHONY: corpus-test corpustest
TEST_TARGETS += corpus-test

corpus-test: $(B)/malibu-user $(CORPUS_BINS)
	@echo "== C corpus (gate: $(if $(strip $(CORPUS_GATE)),$(CORPUS_GATE),none yet))"
	$(PYTHON) tests/corpus/corpus.py --malibu $(B)/malibu-user --malibu "$(B)/malibu-user --compile-after 1 --guest-base window" \
	    --gate "$(CORPUS_GATE)" $(CORPUS_BINS)

corpustest: $(B)/malibu-user $(CORPUS_BINS)
	$(PYTHON) tests/corpus/corpus.py --malibu $(B)/malibu-user $(CORPUS_BINS)

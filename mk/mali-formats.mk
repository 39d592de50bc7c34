# Mali job and descriptor layouts (isa/mali/*.fmt) as generated C, the job-chain printer library
# and build/malibu-decode.
#
#   $(B)/gen/mali_formats.h        structs, unpack / pack / reserved-bit checks (static inline:
#                                  the device, the engine and the texture unit include it)
#   $(B)/gen/mali_formats_print.c  name = value printers, linked by the tools that print
#   MALI_DECODE_LIB                $(B)/lib/libmali_decode.a: the job-chain printer
#                                  (emu/decode/job_print.c) and the name = value printers; linked
#                                  by malibu-decode and build/malibu (--gpu-trace, fault reports),
#                                  as Mesa's pandecode is; needs the disassembler and the
#                                  job-chain walker of GPU_OBJS
#   $(B)/malibu-decode DIR|FILE    prints --gpu-dump output: each job chain, every descriptor
#                                  field by name, shaders disassembled
# Included by the Makefile after tests/*/*.mk: GPU_OBJS / DEVICE_OBJS come from mk/, FUZZ_* from
# tests/fuzz/fuzz.mk.

MALI_FMT := $(sort $(wildcard isa/mali/*.fmt))
MALI_FMT_GEN := isa/mali/mali_fmt_gen.py
MALI_FMT_H := $(B)/gen/mali_formats.h

$(MALI_FMT_H) $(B)/gen/mali_formats_print.c &: $(MALI_FMT) $(MALI_FMT_GEN)
	@mkdir -p $(B)/gen
	$(PYTHON) $(MALI_FMT_GEN) $(B)/gen $(MALI_FMT)

# Any of these objects may include the header: it exists before they compile (later changes
# reach them through their -MMD dependency files).
$(sort $(GPU_OBJS) $(DEVICE_OBJS) $(FUZZ_GPU_OBJS) $(FUZZ_DEV_OBJS) $(SYS_MAIN_OBJS)) $(B)/obj/emu/gpu/disasm_main.o: | $(MALI_FMT_H)

MALI_FMT_PRINT_OBJ := $(B)/obj/gen/mali_formats_print.o
$(MALI_FMT_PRINT_OBJ): $(B)/gen/mali_formats_print.c $(MALI_FMT_H)
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -c $< -o $@

$(B)/obj/tools/malibu_decode.o: tools/malibu_decode.c $(MALI_FMT_H) $(B)/gen/bifrost_isa.h
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -c $< -o $@

# The job-chain printer library: malibu-decode's, and build/malibu's (mk/system.mk).
MALI_DECODE_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(sort $(wildcard emu/decode/*.c))) $(MALI_FMT_PRINT_OBJ)
MALI_DECODE_LIB := $(B)/lib/libmali_decode.a
$(B)/obj/emu/decode/%.o: emu/decode/%.c $(MALI_FMT_H) $(B)/gen/bifrost_isa.h
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -c $< -o $@
$(MALI_DECODE_LIB): $(MALI_DECODE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/malibu-decode: $(B)/obj/tools/malibu_decode.o $(MALI_DECODE_LIB) $(GPU_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

PROGRAMS += $(B)/malibu-decode

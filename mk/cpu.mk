# AArch64 CPU core (emu/cpu/): the decoder generated from isa/a64/*.decode and the CPU objects,
# compiled twice: for malibu-user into $(B)/obj, and with -DCONFIG_SYSTEM for build/malibu into
# $(B)/sysobj (soft-TLB mem.h, system instructions, TBs keyed by physical address).
#   CPU_SYSTEM_SRCS  sources of the system build only (stage-1 MMU and soft TLB, code pages,
#                    system instructions, the system run loop): emu/cpu/sys_*.c, mmu.c
#   CPU_OBJS         the user-mode core (every other emu/cpu/*.c) + decoder
#   SYS_CPU_OBJS     the system core (all of emu/cpu/*.c) + decoder
#   SYS_CFLAGS       flags of everything compiled into $(B)/sysobj
A64_DECODE := $(sort $(wildcard isa/a64/*.decode))
$(B)/gen/a64_decode.c $(B)/gen/a64_decode.h: $(A64_DECODE) isa/decodetree.py
	@mkdir -p $(B)/gen
	$(PYTHON) isa/decodetree.py a64 $(B)/gen/a64_decode $(A64_DECODE)

CPU_SYSTEM_SRCS := $(sort $(wildcard emu/cpu/sys_*.c) emu/cpu/mmu.c)
CPU_SRCS := $(filter-out $(CPU_SYSTEM_SRCS),$(sort $(wildcard emu/cpu/*.c)))
CPU_OBJS := $(CPU_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/a64_decode.o

$(B)/obj/gen/a64_decode.o: $(B)/gen/a64_decode.c $(B)/gen/a64_decode.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

SYS_CFLAGS = $(CFLAGS) -DCONFIG_SYSTEM
SYS_CPU_OBJS := $(patsubst %.c,$(B)/sysobj/%.o,$(sort $(CPU_SRCS) $(CPU_SYSTEM_SRCS))) \
                $(B)/sysobj/gen/a64_decode.o

$(B)/sysobj/%.o: %.c $(B)/gen/a64_decode.h
	@mkdir -p $(dir $@)
	$(CC) $(SYS_CFLAGS) -c $< -o $@

$(B)/sysobj/gen/a64_decode.o: $(B)/gen/a64_decode.c $(B)/gen/a64_decode.h
	@mkdir -p $(dir $@)
	$(CC) $(SYS_CFLAGS) -c $< -o $@

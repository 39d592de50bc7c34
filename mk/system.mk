# build/malibu, the full-system emulator: emu/system/*.c (main, PSCI glue) on the system CPU core
# (SYS_CPU_OBJS, mk/cpu.mk) and the board (DEVICE_OBJS, mk/devices.mk).
SYS_MAIN_OBJS := $(patsubst %.c,$(B)/sysobj/%.o,$(sort $(wildcard emu/system/*.c)))

$(SYS_MAIN_OBJS): SYS_CFLAGS += $(FDT_CFLAGS)

$(B)/malibu: $(SYS_MAIN_OBJS) $(SYS_CPU_OBJS) $(DEVICE_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(DEVICE_LIBS) $(LDLIBS)

PROGRAMS += $(B)/malibu

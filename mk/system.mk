# build/malibu, the full-system emulator: emu/system/*.c (main, PSCI glue, GDB stub glue) on the
# system CPU core (SYS_CPU_OBJS, mk/cpu.mk), the board (DEVICE_OBJS, mk/devices.mk) and the GDB
# stub and Capstone traces (GDB_OBJS, SYS_TRACE_OBJS, mk/debug.mk).
SYS_MAIN_OBJS := $(patsubst %.c,$(B)/sysobj/%.o,$(sort $(wildcard emu/system/*.c)))

$(SYS_MAIN_OBJS): SYS_CFLAGS += $(FDT_CFLAGS)
# (version.c reads the GPU JIT's header, which includes the generated ISA header)
$(SYS_MAIN_OBJS): | $(B)/gen/bifrost_isa.h
# The command line (one option table, emu/system/options.c) and --image / --run (run_image.c):
# also linked by the tests that fill a board's configuration from a command line.
OPTION_OBJS := $(B)/sysobj/emu/system/options.o $(B)/sysobj/emu/system/run_image.o
# the window of --display sdl (emu/system/display_sdl.c)
SDL_CFLAGS := $(shell pkg-config --cflags sdl2 2>/dev/null)
SDL_LIBS := $(or $(shell pkg-config --libs sdl2 2>/dev/null),-lSDL2)
$(B)/sysobj/emu/system/display_sdl.o $(B)/sysobj/emu/system/display_keymap.o: SYS_CFLAGS += $(SDL_CFLAGS)

# (the chain printer of GPU fault reports and --gpu-trace: MALI_DECODE_LIB, mk/mali-formats.mk)
$(B)/malibu: $(SYS_MAIN_OBJS) $(SYS_CPU_OBJS) $(DEVICE_OBJS) $(GDB_OBJS) $(SYS_TRACE_OBJS) $$(MALI_DECODE_LIB) \
             $(B)/obj/emu/gpu/bifrost_disasm.o
	$(CC) $(LDFLAGS) -o $@ $^ $(DEVICE_LIBS) $(SDL_LIBS) $(CAPSTONE_LIBS) $(LDLIBS)

PROGRAMS += $(B)/malibu

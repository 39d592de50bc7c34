# The GDB remote protocol stub, independent of the machine (emu/debug/: packet framing, commands,
# server thread); build/malibu links it with its board glue (emu/system/gdb_board.c).
#   DEBUG_OBJS   its objects
DEBUG_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(sort $(wildcard emu/debug/*.c)))

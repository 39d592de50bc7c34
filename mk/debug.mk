# Debugging support (emu/debug/):
#   GDB_OBJS         the GDB remote protocol stub, independent of the machine (packet framing,
#                    commands, server thread); build/malibu links it with its board glue
#                    (emu/system/gdb_board.c)
#   TRACE_OBJS       Capstone instruction traces (--trace, --debug exc) for malibu-user, and
#   SYS_TRACE_OBJS   the same compiled for build/malibu (-DCONFIG_SYSTEM: the system TB layout)
#   CAPSTONE_LIBS    what they link
GDB_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(sort $(wildcard emu/debug/gdb_*.c)))
TRACE_OBJS := $(B)/obj/emu/debug/trace.o
SYS_TRACE_OBJS := $(B)/sysobj/emu/debug/trace.o
CAPSTONE_LIBS := -lcapstone

# malibu-user: the Linux user-mode runner (emu/user/) on the user-mode CPU core.
#   USER_OBJS        the runtime without its main
#   CORE_USER_OBJS   CPU core + runtime: what malibu-user and the CPU unit tests link
USER_SRCS := $(filter-out emu/user/main.c,$(sort $(wildcard emu/user/*.c)))
USER_OBJS := $(USER_SRCS:%.c=$(B)/obj/%.o)

# Linked as objects, not an archive: the decoder's weak default translators would otherwise keep
# the linker from pulling in the real ones (and the translators register their native
# descriptions from constructors).
CORE_USER_OBJS := $(CPU_OBJS) $(USER_OBJS)

$(B)/malibu-user: $(B)/obj/emu/user/main.o $(CORE_USER_OBJS) $(TRACE_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(CAPSTONE_LIBS) $(LDLIBS)

PROGRAMS += $(B)/malibu-user

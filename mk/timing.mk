# The timing plug-in (emu/timing/, see emu/timing/timing.h): cache, DRAM and hierarchy models,
# the --timing configuration parser.  Knows nothing of the GPU or the CPU.
#   TIMING_OBJS   what a program or test using the models links
TIMING_SRCS := $(sort $(wildcard emu/timing/*.c))
TIMING_OBJS := $(TIMING_SRCS:%.c=$(B)/obj/%.o)

$(TIMING_OBJS): $(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# Instrumentation reports (emu/stats/, see emu/stats/SCHEMA.md).
#   STATS_OBJS         the stats registry (system counters, Bifrost clause counters, JSON writer);
#                      part of DEVICE_OBJS (the board, bus and Mali device call it)
#   $(B)/malibu-report FILE.json -o DIR: HTML page with SVG charts and CFGs (tools/malibu-report.py)
STATS_SRCS := $(sort $(wildcard emu/stats/*.c))
STATS_OBJS := $(STATS_SRCS:%.c=$(B)/obj/%.o)

$(STATS_OBJS): $(B)/obj/%.o: %.c $(B)/gen/bifrost_isa.h
	@mkdir -p $(dir $@)
	$(CC) $(BIFROST_CFLAGS) -c $< -o $@

$(B)/malibu-report: tools/malibu-report.py
	@mkdir -p $(dir $@)
	cp $< $@
	chmod +x $@

PROGRAMS += $(B)/malibu-report

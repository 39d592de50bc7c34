# The board: devices/*.c, firmware/*.c, the checkpoint files (emu/checkpoint/), the Mali GPU device (devices/mali/, see devices/mali/mali.h)
# and what they call: the GPU engine (mk/gpu.mk) and the stats registry (mk/stats.mk).
#   DEVICE_OBJS / DEVICE_LIBS   what a program linking the board needs (build/malibu, device tests):
#                               $(CC) ... $(DEVICE_OBJS) ... $(DEVICE_LIBS)
#   MALI_OBJS                   the GPU device
#   FDT_CFLAGS                  libfdt's compile flags (the device-tree writers)
DEVICE_SRCS := $(sort $(wildcard devices/*.c firmware/*.c emu/checkpoint/*.c))
MALI_SRCS := $(sort $(wildcard devices/mali/*.c))
MALI_OBJS := $(MALI_SRCS:%.c=$(B)/obj/%.o)
FDT_CFLAGS := $(shell pkg-config --cflags libfdt 2>/dev/null)
DEVICE_LIBS := $(or $(shell pkg-config --libs libfdt 2>/dev/null),-lfdt) \
               $(or $(shell pkg-config --libs zlib 2>/dev/null),-lz) \
               $(or $(shell pkg-config --libs libzstd 2>/dev/null),-lzstd) -lpthread

DEVICE_OBJS := $(DEVICE_SRCS:%.c=$(B)/obj/%.o) $(GPU_DEV_OBJS) $(MALI_OBJS) $(STATS_OBJS)

$(addprefix $(B)/obj/devices/,fdt.o board.o board_gpu.o board_display.o exitdev.o virtio_mmio.o mali/mali.o): CFLAGS += $(FDT_CFLAGS)

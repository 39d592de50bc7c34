/* Device tree generation with libfdt (see fdt_board.h). */
#include "fdt_board.h"

#include <libfdt.h>
#include <stdio.h>
#include <string.h>

/* GIC interrupt specifier: <type number flags> (Documentation: arm,gic binding). */
enum { GIC_SPI = 0, GIC_PPI = 1 };
enum { IRQ_EDGE_RISING = 1, IRQ_LEVEL_HIGH = 4, IRQ_LEVEL_LOW = 8 };

#define TRY(x)               \
    do {                     \
        int err_ = (x);      \
        if (err_ < 0)        \
            return err_;     \
    } while (0)

int fdt_board_setprop_reg(void *fdt, int node, uint64_t base, uint64_t size)
{
    fdt64_t reg[2] = { cpu_to_fdt64(base), cpu_to_fdt64(size) };
    return fdt_setprop(fdt, node, "reg", reg, sizeof reg);
}

int fdt_board_setprop_spis(void *fdt, int node, const unsigned *intids, unsigned n)
{
    fdt32_t cells[3 * 16];
    if (n > 16)
        return -FDT_ERR_BADVALUE;
    for (unsigned i = 0; i < n; i++) {
        if (intids[i] < 32)
            return -FDT_ERR_BADVALUE;
        cells[3 * i] = cpu_to_fdt32(GIC_SPI);
        cells[3 * i + 1] = cpu_to_fdt32(intids[i] - 32);
        cells[3 * i + 2] = cpu_to_fdt32(IRQ_LEVEL_HIGH);
    }
    return fdt_setprop(fdt, node, "interrupts", cells, (int)(n * 3 * sizeof(fdt32_t)));
}

/* Add a child of the root named name@addr (or just name when addr is ~0). */
static int add_node(void *fdt, const char *name, uint64_t addr)
{
    char buf[64];
    if (addr == ~0ull)
        snprintf(buf, sizeof buf, "%s", name);
    else
        snprintf(buf, sizeof buf, "%s@%llx", name, (unsigned long long)addr);
    return fdt_add_subnode(fdt, 0, buf);
}

/* A string-list property from a NUL-separated literal (size includes the final NUL). */
#define SETPROP_LIST(fdt, node, name, lit) fdt_setprop(fdt, node, name, lit, sizeof(lit))

static int add_cpus(void *fdt, const FdtBoard *b)
{
    int cpus = fdt_add_subnode(fdt, 0, "cpus");
    TRY(cpus);
    TRY(fdt_setprop_u32(fdt, cpus, "#address-cells", 1));
    TRY(fdt_setprop_u32(fdt, cpus, "#size-cells", 0));
    for (int i = (int)b->ncpu - 1; i >= 0; i--) { /* fdt_add_subnode prepends: keep order */
        char name[16];
        snprintf(name, sizeof name, "cpu@%x", i);
        int n = fdt_add_subnode(fdt, cpus, name);
        TRY(n);
        TRY(fdt_setprop_string(fdt, n, "device_type", "cpu"));
        TRY(fdt_setprop_string(fdt, n, "compatible", "arm,cortex-a57"));
        TRY(fdt_setprop_u32(fdt, n, "reg", (uint32_t)i));
        TRY(fdt_setprop_string(fdt, n, "enable-method", "psci"));
    }
    return 0;
}

static int add_fixed_clock(void *fdt, const char *name, const char *output, uint32_t hz,
                           uint32_t phandle)
{
    int n = add_node(fdt, name, ~0ull);
    TRY(n);
    TRY(fdt_setprop_string(fdt, n, "compatible", "fixed-clock"));
    TRY(fdt_setprop_u32(fdt, n, "#clock-cells", 0));
    TRY(fdt_setprop_u32(fdt, n, "clock-frequency", hz));
    TRY(fdt_setprop_string(fdt, n, "clock-output-names", output));
    TRY(fdt_setprop_u32(fdt, n, "phandle", phandle));
    return 0;
}

int fdt_board_set_chosen(void *fdt, const char *bootargs, uint64_t initrd_start,
                         uint64_t initrd_end)
{
    int n = fdt_path_offset(fdt, "/chosen");
    if (n == -FDT_ERR_NOTFOUND)
        n = fdt_add_subnode(fdt, 0, "chosen");
    TRY(n);
    if (bootargs)
        TRY(fdt_setprop_string(fdt, n, "bootargs", bootargs));
    if (initrd_start != initrd_end) {
        TRY(fdt_setprop_u64(fdt, n, "linux,initrd-start", initrd_start));
        TRY(fdt_setprop_u64(fdt, n, "linux,initrd-end", initrd_end));
    }
    return 0;
}

static int build(void *fdt, const FdtBoard *b)
{
    const uint32_t ppi_flags = (((1u << b->ncpu) - 1) << 8) | IRQ_LEVEL_LOW;
    int n;

    TRY(fdt_setprop_string(fdt, 0, "model", "malibu Juno-like board (GIC-400, PL011, PL031)"));
    TRY(fdt_setprop_string(fdt, 0, "compatible", "malibu,juno-emu"));
    TRY(fdt_setprop_u32(fdt, 0, "#address-cells", 2));
    TRY(fdt_setprop_u32(fdt, 0, "#size-cells", 2));
    TRY(fdt_setprop_u32(fdt, 0, "interrupt-parent", FDT_PHANDLE_GIC));

    /* Nodes are prepended by fdt_add_subnode, so add them in reverse of the wanted order. */
    if (b->has_rtc) {
        n = add_node(fdt, "rtc", b->rtc_base);
        TRY(n);
        TRY(SETPROP_LIST(fdt, n, "compatible", "arm,pl031\0arm,primecell"));
        TRY(fdt_board_setprop_reg(fdt, n, b->rtc_base, 0x1000));
        TRY(fdt_board_setprop_spis(fdt, n, &b->rtc_intid, 1));
        TRY(fdt_setprop_u32(fdt, n, "clocks", FDT_PHANDLE_APB_PCLK));
        TRY(fdt_setprop_string(fdt, n, "clock-names", "apb_pclk"));
    }
    if (b->has_uart) {
        n = add_node(fdt, "serial", b->uart_base);
        TRY(n);
        TRY(SETPROP_LIST(fdt, n, "compatible", "arm,pl011\0arm,primecell"));
        TRY(fdt_board_setprop_reg(fdt, n, b->uart_base, 0x1000));
        TRY(fdt_board_setprop_spis(fdt, n, &b->uart_intid, 1));
        fdt32_t clocks[2] = { cpu_to_fdt32(FDT_PHANDLE_UARTCLK), cpu_to_fdt32(FDT_PHANDLE_APB_PCLK) };
        TRY(fdt_setprop(fdt, n, "clocks", clocks, sizeof clocks));
        TRY(SETPROP_LIST(fdt, n, "clock-names", "uartclk\0apb_pclk"));
    }
    TRY(add_fixed_clock(fdt, "uartclk", "uartclk", 7372800, FDT_PHANDLE_UARTCLK));
    TRY(add_fixed_clock(fdt, "apb-pclk", "apb_pclk", 24000000, FDT_PHANDLE_APB_PCLK));

    n = add_node(fdt, "interrupt-controller", b->gicd_base);
    TRY(n);
    TRY(SETPROP_LIST(fdt, n, "compatible", "arm,gic-400"));
    TRY(fdt_setprop_u32(fdt, n, "#interrupt-cells", 3));
    TRY(fdt_setprop_u32(fdt, n, "#address-cells", 0));
    TRY(fdt_setprop(fdt, n, "interrupt-controller", NULL, 0));
    fdt64_t gic_reg[4] = { cpu_to_fdt64(b->gicd_base), cpu_to_fdt64(0x1000),
                           cpu_to_fdt64(b->gicc_base), cpu_to_fdt64(0x2000) };
    TRY(fdt_setprop(fdt, n, "reg", gic_reg, sizeof gic_reg));
    TRY(fdt_setprop_u32(fdt, n, "phandle", FDT_PHANDLE_GIC));

    /* secure physical, non-secure physical, virtual, hypervisor: PPIs 13, 14, 11, 10 */
    n = add_node(fdt, "timer", ~0ull);
    TRY(n);
    TRY(fdt_setprop_string(fdt, n, "compatible", "arm,armv8-timer"));
    static const unsigned ppis[4] = { 13, 14, 11, 10 };
    fdt32_t cells[12];
    for (int i = 0; i < 4; i++) {
        cells[3 * i] = cpu_to_fdt32(GIC_PPI);
        cells[3 * i + 1] = cpu_to_fdt32(ppis[i]);
        cells[3 * i + 2] = cpu_to_fdt32(ppi_flags);
    }
    TRY(fdt_setprop(fdt, n, "interrupts", cells, sizeof cells));

    n = add_node(fdt, "psci", ~0ull);
    TRY(n);
    TRY(SETPROP_LIST(fdt, n, "compatible", "arm,psci-1.0\0arm,psci-0.2"));
    TRY(fdt_setprop_string(fdt, n, "method", "hvc"));

    TRY(add_cpus(fdt, b));

    char name[32];
    snprintf(name, sizeof name, "memory@%llx", (unsigned long long)b->bank_base[0]);
    n = fdt_add_subnode(fdt, 0, name);
    TRY(n);
    TRY(fdt_setprop_string(fdt, n, "device_type", "memory"));
    fdt64_t mem[2 * FDT_BOARD_MAX_BANKS];
    for (unsigned i = 0; i < b->nbanks; i++) {
        mem[2 * i] = cpu_to_fdt64(b->bank_base[i]);
        mem[2 * i + 1] = cpu_to_fdt64(b->bank_size[i]);
    }
    TRY(fdt_setprop(fdt, n, "reg", mem, (int)(b->nbanks * 2 * sizeof(fdt64_t))));

    n = fdt_add_subnode(fdt, 0, "aliases");
    TRY(n);
    if (b->has_uart) {
        snprintf(name, sizeof name, "/serial@%llx", (unsigned long long)b->uart_base);
        TRY(fdt_setprop_string(fdt, n, "serial0", name));
    }

    n = fdt_add_subnode(fdt, 0, "chosen");
    TRY(n);
    if (b->has_uart)
        TRY(fdt_setprop_string(fdt, n, "stdout-path", "serial0:115200n8"));
    TRY(fdt_board_set_chosen(fdt, b->bootargs, b->initrd_start, b->initrd_end));

    for (unsigned i = 0; i < b->nhooks; i++)
        TRY(b->hooks[i](fdt, b->hook_opaque[i]));
    return 0;
}

int fdt_board_build(const FdtBoard *b, void *buf, size_t size)
{
    if (b->ncpu == 0 || b->ncpu > 8 || b->nbanks == 0 || b->nbanks > FDT_BOARD_MAX_BANKS ||
        size > INT32_MAX)
        return -FDT_ERR_BADVALUE;
    TRY(fdt_create_empty_tree(buf, (int)size));
    TRY(build(buf, b));
    TRY(fdt_pack(buf));
    return (int)fdt_totalsize(buf);
}

/* Device tree generation with libfdt (see fdt_board.h). */
#include "fdt_board.h"
#include "../firmware/psci.h"

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

/* Sequential-write helpers (the standard tree is written in order, then opened read-write for
 * /chosen updates and hooks). */
static int begin_node(void *fdt, const char *name, uint64_t addr)
{
    char buf[64];
    if (addr == ~0ull)
        snprintf(buf, sizeof buf, "%s", name);
    else
        snprintf(buf, sizeof buf, "%s@%llx", name, (unsigned long long)addr);
    return fdt_begin_node(fdt, buf);
}

/* A string-list property from a NUL-separated literal (size includes the final NUL). */
#define PROP_LIST(fdt, name, lit) fdt_property(fdt, name, lit, sizeof(lit))

static int prop_reg(void *fdt, uint64_t base, uint64_t size)
{
    fdt64_t reg[2] = { cpu_to_fdt64(base), cpu_to_fdt64(size) };
    return fdt_property(fdt, "reg", reg, sizeof reg);
}

static int prop_spi(void *fdt, unsigned intid)
{
    fdt32_t cells[3] = { cpu_to_fdt32(GIC_SPI), cpu_to_fdt32(intid - 32),
                         cpu_to_fdt32(IRQ_LEVEL_HIGH) };
    return fdt_property(fdt, "interrupts", cells, sizeof cells);
}

/* cpu-map: the clusters of psci_cpu_mpidr (Aff1 = cluster, Aff0 = core), as Juno's DT has them,
 * so Linux's topology shows the two clusters. */
static int add_cpu_map(void *fdt, unsigned ncpu)
{
    TRY(fdt_begin_node(fdt, "cpu-map"));
    unsigned cluster = ~0u;
    for (unsigned i = 0; i < ncpu; i++) {
        uint64_t mpidr = psci_cpu_mpidr(i);
        char name[16];
        if (((mpidr >> 8) & 0xff) != cluster) {
            if (cluster != ~0u)
                TRY(fdt_end_node(fdt));
            cluster = (mpidr >> 8) & 0xff;
            snprintf(name, sizeof name, "cluster%u", cluster);
            TRY(fdt_begin_node(fdt, name));
        }
        snprintf(name, sizeof name, "core%u", (unsigned)(mpidr & 0xff));
        TRY(fdt_begin_node(fdt, name));
        TRY(fdt_property_u32(fdt, "cpu", FDT_PHANDLE_CPU0 + i));
        TRY(fdt_end_node(fdt));
    }
    TRY(fdt_end_node(fdt)); /* last cluster */
    return fdt_end_node(fdt);
}

static int add_cpus(void *fdt, const FdtBoard *b)
{
    TRY(fdt_begin_node(fdt, "cpus"));
    TRY(fdt_property_u32(fdt, "#address-cells", 1));
    TRY(fdt_property_u32(fdt, "#size-cells", 0));
    for (unsigned i = 0; i < b->ncpu; i++) {
        uint32_t mpidr = (uint32_t)psci_cpu_mpidr(i); /* Juno-like clusters (psci.h) */
        TRY(begin_node(fdt, "cpu", mpidr));
        TRY(fdt_property_string(fdt, "device_type", "cpu"));
        TRY(fdt_property_string(fdt, "compatible", "arm,cortex-a57"));
        TRY(fdt_property_u32(fdt, "reg", mpidr)); /* MPIDR Aff1.Aff0 */
        TRY(fdt_property_string(fdt, "enable-method", "psci"));
        if (b->ncpu > 1)
            TRY(fdt_property_u32(fdt, "phandle", FDT_PHANDLE_CPU0 + i));
        TRY(fdt_end_node(fdt));
    }
    if (b->ncpu > 1)
        TRY(add_cpu_map(fdt, b->ncpu));
    return fdt_end_node(fdt);
}

static int add_fixed_clock(void *fdt, const char *name, const char *output, uint32_t hz,
                           uint32_t phandle)
{
    TRY(begin_node(fdt, name, ~0ull));
    TRY(fdt_property_string(fdt, "compatible", "fixed-clock"));
    TRY(fdt_property_u32(fdt, "#clock-cells", 0));
    TRY(fdt_property_u32(fdt, "clock-frequency", hz));
    TRY(fdt_property_string(fdt, "clock-output-names", output));
    TRY(fdt_property_u32(fdt, "phandle", phandle));
    return fdt_end_node(fdt);
}

int fdt_board_set_chosen(void *fdt, const char *bootargs, uint64_t initrd_start,
                         uint64_t initrd_end, uint32_t guest_channel)
{
    int n = fdt_path_offset(fdt, "/chosen");
    if (n == -FDT_ERR_NOTFOUND)
        n = fdt_add_subnode(fdt, 0, "chosen");
    TRY(n);
    /* the guest channel's encoding (docs/guest-channel.md): guest libraries look for it */
    if (guest_channel)
        TRY(fdt_setprop_u32(fdt, n, "malibu,channel", guest_channel));
    if (bootargs)
        TRY(fdt_setprop_string(fdt, n, "bootargs", bootargs));
    if (initrd_start != initrd_end) {
        TRY(fdt_setprop_u64(fdt, n, "linux,initrd-start", initrd_start));
        TRY(fdt_setprop_u64(fdt, n, "linux,initrd-end", initrd_end));
    }
    return 0;
}

/* The standard tree, in sequential-write mode. */
static int build(void *fdt, const FdtBoard *b)
{
    const uint32_t ppi_flags = (((1u << b->ncpu) - 1) << 8) | IRQ_LEVEL_LOW;
    char path[64];

    TRY(fdt_finish_reservemap(fdt));
    TRY(fdt_begin_node(fdt, ""));
    TRY(fdt_property_string(fdt, "model", "malibu Juno-like board (GIC-400, PL011, PL031)"));
    TRY(fdt_property_string(fdt, "compatible", "malibu,juno-emu"));
    TRY(fdt_property_u32(fdt, "#address-cells", 2));
    TRY(fdt_property_u32(fdt, "#size-cells", 2));
    TRY(fdt_property_u32(fdt, "interrupt-parent", FDT_PHANDLE_GIC));

    TRY(fdt_begin_node(fdt, "chosen"));
    if (b->guest_channel)
        TRY(fdt_property_u32(fdt, "malibu,channel", b->guest_channel));
    if (b->has_uart)
        TRY(fdt_property_string(fdt, "stdout-path", "serial0:115200n8"));
    TRY(fdt_end_node(fdt));

    TRY(fdt_begin_node(fdt, "aliases"));
    if (b->has_uart) {
        snprintf(path, sizeof path, "/serial@%llx", (unsigned long long)b->uart_base);
        TRY(fdt_property_string(fdt, "serial0", path));
    }
    TRY(fdt_end_node(fdt));

    TRY(begin_node(fdt, "memory", b->bank_base[0]));
    TRY(fdt_property_string(fdt, "device_type", "memory"));
    fdt64_t mem[2 * FDT_BOARD_MAX_BANKS];
    for (unsigned i = 0; i < b->nbanks; i++) {
        mem[2 * i] = cpu_to_fdt64(b->bank_base[i]);
        mem[2 * i + 1] = cpu_to_fdt64(b->bank_size[i]);
    }
    TRY(fdt_property(fdt, "reg", mem, (int)(b->nbanks * 2 * sizeof(fdt64_t))));
    TRY(fdt_end_node(fdt));

    TRY(add_cpus(fdt, b));

    TRY(fdt_begin_node(fdt, "psci"));
    TRY(PROP_LIST(fdt, "compatible", "arm,psci-1.0\0arm,psci-0.2"));
    TRY(fdt_property_string(fdt, "method", "hvc"));
    TRY(fdt_end_node(fdt));

    /* secure physical, non-secure physical, virtual, hypervisor: PPIs 13, 14, 11, 10 */
    TRY(fdt_begin_node(fdt, "timer"));
    TRY(fdt_property_string(fdt, "compatible", "arm,armv8-timer"));
    static const unsigned ppis[4] = { 13, 14, 11, 10 };
    fdt32_t cells[12];
    for (int i = 0; i < 4; i++) {
        cells[3 * i] = cpu_to_fdt32(GIC_PPI);
        cells[3 * i + 1] = cpu_to_fdt32(ppis[i]);
        cells[3 * i + 2] = cpu_to_fdt32(ppi_flags);
    }
    TRY(fdt_property(fdt, "interrupts", cells, sizeof cells));
    TRY(fdt_end_node(fdt));

    /* each vCPU's PMUv3 (emu/cpu/sys_pmu.h): overflow interrupt on PPI 7 (GIC_PPI_PMU, INTID 23) */
    TRY(fdt_begin_node(fdt, "pmu"));
    TRY(PROP_LIST(fdt, "compatible", "arm,cortex-a57-pmu\0arm,armv8-pmuv3"));
    fdt32_t pmu_irq[3] = { cpu_to_fdt32(GIC_PPI), cpu_to_fdt32(7),
                           cpu_to_fdt32((ppi_flags & ~0xfu) | IRQ_LEVEL_HIGH) };
    TRY(fdt_property(fdt, "interrupts", pmu_irq, sizeof pmu_irq));
    TRY(fdt_end_node(fdt));

    TRY(begin_node(fdt, "interrupt-controller", b->gicd_base));
    TRY(fdt_property_string(fdt, "compatible", "arm,gic-400"));
    TRY(fdt_property_u32(fdt, "#interrupt-cells", 3));
    TRY(fdt_property_u32(fdt, "#address-cells", 0));
    TRY(fdt_property(fdt, "interrupt-controller", NULL, 0));
    fdt64_t gic_reg[4] = { cpu_to_fdt64(b->gicd_base), cpu_to_fdt64(0x1000),
                           cpu_to_fdt64(b->gicc_base), cpu_to_fdt64(0x2000) };
    TRY(fdt_property(fdt, "reg", gic_reg, sizeof gic_reg));
    TRY(fdt_property_u32(fdt, "phandle", FDT_PHANDLE_GIC));
    TRY(fdt_end_node(fdt));

    TRY(add_fixed_clock(fdt, "apb-pclk", "apb_pclk", 24000000, FDT_PHANDLE_APB_PCLK));
    TRY(add_fixed_clock(fdt, "uartclk", "uartclk", 7372800, FDT_PHANDLE_UARTCLK));

    if (b->has_uart) {
        TRY(begin_node(fdt, "serial", b->uart_base));
        TRY(PROP_LIST(fdt, "compatible", "arm,pl011\0arm,primecell"));
        TRY(prop_reg(fdt, b->uart_base, 0x1000));
        TRY(prop_spi(fdt, b->uart_intid));
        fdt32_t clocks[2] = { cpu_to_fdt32(FDT_PHANDLE_UARTCLK), cpu_to_fdt32(FDT_PHANDLE_APB_PCLK) };
        TRY(fdt_property(fdt, "clocks", clocks, sizeof clocks));
        TRY(PROP_LIST(fdt, "clock-names", "uartclk\0apb_pclk"));
        TRY(fdt_end_node(fdt));
    }
    if (b->has_rtc) {
        TRY(begin_node(fdt, "rtc", b->rtc_base));
        TRY(PROP_LIST(fdt, "compatible", "arm,pl031\0arm,primecell"));
        TRY(prop_reg(fdt, b->rtc_base, 0x1000));
        TRY(prop_spi(fdt, b->rtc_intid));
        TRY(fdt_property_u32(fdt, "clocks", FDT_PHANDLE_APB_PCLK));
        TRY(fdt_property_string(fdt, "clock-names", "apb_pclk"));
        TRY(fdt_end_node(fdt));
    }
    TRY(fdt_end_node(fdt));
    return fdt_finish(fdt);
}

int fdt_board_build(const FdtBoard *b, void *buf, size_t size)
{
    if (b->ncpu == 0 || b->ncpu > 8 || b->nbanks == 0 || b->nbanks > FDT_BOARD_MAX_BANKS ||
        size > INT32_MAX || (b->has_uart && b->uart_intid < 32) || (b->has_rtc && b->rtc_intid < 32))
        return -FDT_ERR_BADVALUE;
    TRY(fdt_create(buf, (int)size));
    TRY(build(buf, b));
    TRY(fdt_open_into(buf, buf, (int)size)); /* read-write, with the free space for what follows */
    TRY(fdt_board_set_chosen(buf, b->bootargs, b->initrd_start, b->initrd_end, b->guest_channel));
    for (unsigned i = 0; i < b->nhooks; i++)
        TRY(b->hooks[i](buf, b->hook_opaque[i]));
    TRY(fdt_pack(buf));
    return (int)fdt_totalsize(buf);
}

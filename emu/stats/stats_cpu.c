/* The report's "cpu" section: what the machine's main reports of each CPU (stats_set_cpu) and the
 * bus's MMIO counters (the core's totals). */
#include <inttypes.h>
#include <string.h>

#include "stats.h"

#define MAX_CPUS 8
static stats_cpu_info cpus[MAX_CPUS];
static uint64_t cpu_ec[MAX_CPUS][64], cpu_vec[MAX_CPUS][4];
static bool cpu_has_ec[MAX_CPUS];
static unsigned ncpus;

void stats_set_cpu(const stats_cpu_info *ci)
{
    unsigned i;
    for (i = 0; i < ncpus; i++)
        if (cpus[i].index == ci->index)
            break;
    if (i == MAX_CPUS)
        return;
    if (i == ncpus)
        ncpus++;
    cpus[i] = *ci;
    cpu_has_ec[i] = ci->exc_by_ec && ci->exc_by_vector;
    if (cpu_has_ec[i]) {
        memcpy(cpu_ec[i], ci->exc_by_ec, sizeof(cpu_ec[i]));
        memcpy(cpu_vec[i], ci->exc_by_vector, sizeof(cpu_vec[i]));
    }
}

/* ESR_EL1.EC names (Arm ARM D17.2.37). */
static const char *ec_name(unsigned ec, char *buf, size_t len)
{
    static const char *const names[64] = {
        [0x00] = "unknown", [0x01] = "wfi_wfe", [0x07] = "fp_access", [0x0e] = "illegal_state",
        [0x15] = "svc", [0x16] = "hvc", [0x17] = "smc", [0x18] = "sysreg", [0x20] = "iabort_lower",
        [0x21] = "iabort_same", [0x22] = "pc_align", [0x24] = "dabort_lower", [0x25] = "dabort_same",
        [0x26] = "sp_align", [0x2c] = "fp_exception", [0x2f] = "serror", [0x30] = "breakpoint_lower",
        [0x31] = "breakpoint_same", [0x32] = "step_lower", [0x33] = "step_same", [0x34] = "watchpoint_lower",
        [0x35] = "watchpoint_same", [0x3c] = "brk",
    };
    if (names[ec & 63])
        return names[ec & 63];
    snprintf(buf, len, "ec_0x%02x", ec & 63);
    return buf;
}

static void write_json(FILE *f, const char *in, const stats_totals *T)
{
    fprintf(f, "\"cpus\": [");
    uint64_t insns = 0, exc = 0, irqs = 0;
    for (unsigned i = 0; i < ncpus; i++) {
        const stats_cpu_info *c = &cpus[i];
        insns += c->insns;
        exc += c->exceptions;
        irqs += c->irqs;
        fprintf(f, "%s\n%s  {\"index\": %u, \"instructions\": %" PRIu64 ", \"exceptions\": %" PRIu64
                   ", \"irqs\": %" PRIu64 ", \"blocks_translated\": %" PRIu64 ", \"tlb_misses\": %" PRIu64,
                i ? "," : "", in, c->index, c->insns, c->exceptions, c->irqs, c->tbs_translated, c->tlb_misses);
        if (c->has_idle)
            fprintf(f, ", \"idle_sleeps\": %" PRIu64 ", \"idle_ns\": %" PRIu64, c->idle_sleeps, c->idle_ns);
        if (cpu_has_ec[i]) {
            static const char *const vn[4] = { "sync", "irq", "fiq", "serror" };
            fprintf(f, ",\n%s   \"exceptions_by_vector\": {", in);
            for (unsigned v = 0; v < 4; v++)
                fprintf(f, "%s\"%s\": %" PRIu64, v ? ", " : "", vn[v], cpu_vec[i][v]);
            fprintf(f, "},\n%s   \"exceptions_by_class\": {", in);
            int first = 1;
            for (unsigned ec = 0; ec < 64; ec++)
                if (cpu_ec[i][ec]) {
                    char buf[16];
                    fprintf(f, "%s\"%s\": %" PRIu64, first ? "" : ", ", ec_name(ec, buf, sizeof(buf)), cpu_ec[i][ec]);
                    first = 0;
                }
            fprintf(f, "}");
        }
        fprintf(f, "}");
    }
    fprintf(f, "%s%s],\n%s\"instructions\": %" PRIu64 ",\n%s\"exceptions\": %" PRIu64 ",\n%s\"irqs\": %" PRIu64
               ",\n%s\"mmio\": [",
            ncpus ? "\n" : "", ncpus ? in : "", in, insns, in, exc, in, irqs, in);
    int first = 1;
    for (unsigned i = 0; i < STATS_MMIO_MAX; i++) {
        uint64_t base, size;
        const char *name = stats_bus_region_get(i, &base, &size);
        if (!name && !T->mmio[i][0] && !T->mmio[i][1])
            continue;
        fprintf(f, "%s\n%s  {\"device\": ", first ? "" : ",", in);
        stats_json_string(f, name ? name : "?");
        fprintf(f, ", \"base\": %" PRIu64 ", \"size\": %" PRIu64 ", \"reads\": %" PRIu64 ", \"writes\": %" PRIu64 "}",
                base, size, T->mmio[i][0], T->mmio[i][1]);
        first = 0;
    }
    fprintf(f, "%s%s]", first ? "" : "\n", first ? "" : in);
}

static void summary(FILE *f, const stats_totals *T)
{
    uint64_t insns = 0, exc = 0, mmio = 0;
    for (unsigned i = 0; i < ncpus; i++) {
        insns += cpus[i].insns;
        exc += cpus[i].exceptions;
    }
    for (unsigned i = 0; i < STATS_MMIO_MAX; i++)
        mmio += T->mmio[i][0] + T->mmio[i][1];
    fprintf(f, "  cpu: %" PRIu64 " instructions, %" PRIu64 " exceptions, %" PRIu64 " MMIO accesses\n", insns, exc,
            mmio);
    for (unsigned i = 0; ncpus > 1 && i < ncpus; i++) {
        const stats_cpu_info *c = &cpus[i];
        fprintf(f, "    vCPU %u: %" PRIu64 " instructions, %" PRIu64 " exceptions, %" PRIu64 " IRQs", c->index,
                c->insns, c->exceptions, c->irqs);
        if (c->has_idle)
            fprintf(f, ", idle %.1f ms (%" PRIu64 " sleeps)", c->idle_ns / 1e6, c->idle_sleeps);
        fprintf(f, "\n");
    }
}

static const stats_section cpu_section = { .name = "cpu", .write_json = write_json, .summary = summary };

__attribute__((constructor)) static void register_cpu_section(void)
{
    stats_register_section(&cpu_section);
}

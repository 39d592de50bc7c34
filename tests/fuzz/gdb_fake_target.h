/* A GdbTarget over plain arrays (2 vCPUs, 34 registers, 64 KB of memory at 0x10000), for the
 * GDB stub's unit test and fuzz harness: the stub's commands without a machine. */
#ifndef GDB_FAKE_TARGET_H
#define GDB_FAKE_TARGET_H

#include <string.h>
#include "gdb_stub.h"

#define FAKE_CPUS 2
#define FAKE_MEM_BASE 0x10000u
#define FAKE_MEM_SIZE 0x10000u

static struct {
    uint64_t regs[FAKE_CPUS][33]; /* x0..x30, sp, pc (8 bytes) */
    uint32_t cpsr[FAKE_CPUS];     /* register 33 (4 bytes) */
    uint8_t mem[FAKE_MEM_SIZE];
    int points, halts, resumes, kills;
    uint8_t last_action[GDB_MAX_CPUS];
    char last_monitor[1024];
} fake;

static unsigned fake_ncpus(void *o) { (void)o; return FAKE_CPUS; }
static unsigned fake_nregs(void *o) { (void)o; return 34; }

static unsigned fake_read_reg(void *o, unsigned cpu, unsigned r, uint8_t *buf)
{
    (void)o;
    if (cpu >= FAKE_CPUS || r > 33)
        return 0;
    if (r == 33) {
        memcpy(buf, &fake.cpsr[cpu], 4);
        return 4;
    }
    memcpy(buf, &fake.regs[cpu][r], 8);
    return 8;
}

static bool fake_write_reg(void *o, unsigned cpu, unsigned r, const uint8_t *buf)
{
    (void)o;
    if (cpu >= FAKE_CPUS || r > 33)
        return false;
    if (r == 33)
        memcpy(&fake.cpsr[cpu], buf, 4);
    else
        memcpy(&fake.regs[cpu][r], buf, 8);
    return true;
}

static bool fake_in_mem(uint64_t addr, size_t len)
{
    return addr >= FAKE_MEM_BASE && len <= FAKE_MEM_SIZE && addr - FAKE_MEM_BASE <= FAKE_MEM_SIZE - len;
}

static bool fake_read_mem(void *o, unsigned cpu, uint64_t addr, uint8_t *buf, size_t len)
{
    (void)o;
    if (cpu >= FAKE_CPUS || !fake_in_mem(addr, len))
        return false;
    memcpy(buf, fake.mem + (addr - FAKE_MEM_BASE), len);
    return true;
}

static bool fake_write_mem(void *o, unsigned cpu, uint64_t addr, const uint8_t *buf, size_t len)
{
    (void)o;
    if (cpu >= FAKE_CPUS || !fake_in_mem(addr, len))
        return false;
    memcpy(fake.mem + (addr - FAKE_MEM_BASE), buf, len);
    return true;
}

static bool fake_insert(void *o, unsigned type, uint64_t addr, uint64_t len)
{
    (void)o; (void)type; (void)addr; (void)len;
    return fake.points < 8 && ++fake.points;
}

static bool fake_remove(void *o, unsigned type, uint64_t addr, uint64_t len)
{
    (void)o; (void)type; (void)addr; (void)len;
    return fake.points > 0 && fake.points--;
}

static void fake_remove_all(void *o) { (void)o; fake.points = 0; }

static void fake_monitor(void *o, unsigned cpu, const char *cmd, GdbOut *out)
{
    (void)o;
    snprintf(fake.last_monitor, sizeof fake.last_monitor, "%s", cmd);
    gdb_printf(out, "cpu %u: %s\n", cpu, cmd);
}

static void fake_halt(void *o) { (void)o; fake.halts++; }
static void fake_resume(void *o, const uint8_t *a) { (void)o; fake.resumes++; memcpy(fake.last_action, a, GDB_MAX_CPUS); }
static void fake_kill(void *o) { (void)o; fake.kills++; }

static const GdbTarget fake_target = {
    .target_xml = "<?xml version=\"1.0\"?><target><architecture>aarch64</architecture></target>",
    .ncpus = fake_ncpus, .nregs = fake_nregs, .read_reg = fake_read_reg, .write_reg = fake_write_reg,
    .read_mem = fake_read_mem, .write_mem = fake_write_mem, .insert_point = fake_insert,
    .remove_point = fake_remove, .remove_all_points = fake_remove_all, .monitor = fake_monitor,
    .halt = fake_halt, .resume = fake_resume, .kill = fake_kill,
};

#endif

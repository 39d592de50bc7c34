/* GDB remote protocol commands, independent of the machine: the stub answers one packet at a
 * time through a GdbTarget (registers, memory, break/watchpoints, monitor commands of the vCPUs
 * it debugs) and records what to do next (resume with per-thread actions, detach, kill).
 *
 * Threads: GDB thread id N is vCPU N-1 (ids 1..ncpus).  Register numbers are those of the
 * target description the target provides. */
#ifndef MALIBU_GDB_STUB_H
#define MALIBU_GDB_STUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gdb_packet.h"

#define GDB_MAX_CPUS 64
#define GDB_MAX_REG_BYTES 16

/* Output of a monitor command (text, truncated at the end of buf). */
typedef struct GdbOut {
    char *buf;
    size_t len, cap;
} GdbOut;
void gdb_printf(GdbOut *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Z/z types */
enum { GDB_BP_SW = 0, GDB_BP_HW = 1, GDB_WP_WRITE = 2, GDB_WP_READ = 3, GDB_WP_ACCESS = 4 };
/* per-thread resume actions */
enum { GDB_ACT_STAY = 0, GDB_ACT_CONTINUE, GDB_ACT_STEP };

typedef struct GdbTarget {
    void *opaque;
    const char *target_xml;
    unsigned (*ncpus)(void *opaque);
    unsigned (*nregs)(void *opaque);
    /* Register regno of vCPU cpu as little-endian bytes; returns its size (0: no such register). */
    unsigned (*read_reg)(void *opaque, unsigned cpu, unsigned regno, uint8_t *buf);
    bool (*write_reg)(void *opaque, unsigned cpu, unsigned regno, const uint8_t *buf);
    /* Virtual memory through the vCPU's current translation. */
    bool (*read_mem)(void *opaque, unsigned cpu, uint64_t addr, uint8_t *buf, size_t len);
    bool (*write_mem)(void *opaque, unsigned cpu, uint64_t addr, const uint8_t *buf, size_t len);
    bool (*insert_point)(void *opaque, unsigned type, uint64_t addr, uint64_t len);
    bool (*remove_point)(void *opaque, unsigned type, uint64_t addr, uint64_t len);
    void (*remove_all_points)(void *opaque);
    void (*monitor)(void *opaque, unsigned cpu, const char *cmd, GdbOut *out);
    /* Machine control (gdb_server.c): ask every vCPU to stop (gdb_server_stopped() follows once
     * all are parked); let them run with per-vCPU GDB_ACT_* actions; end the machine. */
    void (*halt)(void *opaque);
    void (*resume)(void *opaque, const uint8_t *actions);
    void (*kill)(void *opaque);
} GdbTarget;

/* Why the machine stopped (the stop reply). */
typedef struct GdbStop {
    unsigned cpu;
    int signal;            /* 5 SIGTRAP, 2 SIGINT */
    unsigned watch_type;   /* GDB_WP_* or 0 */
    uint64_t watch_addr;
    bool exited;
    int status;            /* exit status when exited */
} GdbStop;

typedef struct GdbStub {
    const GdbTarget *t;
    unsigned g_cpu;                 /* Hg: registers and memory */
    bool resume;                    /* the last packet resumes the machine */
    uint8_t action[GDB_MAX_CPUS];   /* GDB_ACT_* per vCPU, valid when resume */
    bool detach, kill;
    size_t reply_len;
    GdbStop last;                   /* the last stop (for "?") */
    char reply[GDB_PACKET_MAX + 1]; /* payload of the reply (none when resume) */
} GdbStub;

void gdb_stub_init(GdbStub *g, const GdbTarget *t);
/* Handle one packet payload (NUL-terminated, len bytes).  Afterwards either g->resume is set
 * (no reply now: the stop reply follows when the machine stops) or g->reply holds the reply. */
void gdb_stub_handle(GdbStub *g, const char *pkt, size_t len);
/* The stop reply payload for st into out. */
void gdb_stub_stop_reply(const GdbStop *st, char *out, size_t cap);
/* The machine stopped (st is what the stop reply reports): gdb takes the reply's thread as the
 * stub's general thread from then on (it sends no Hg for it), so Hg follows it. */
void gdb_stub_stopped(GdbStub *g, const GdbStop *st);

#endif

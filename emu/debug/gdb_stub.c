/* GDB remote protocol commands (gdb_stub.h).  Every field of a packet is checked; anything
 * malformed gets "E01" (or the empty reply for an unknown command), never a crash. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "gdb_stub.h"

#define MAX_MEM (GDB_PACKET_MAX / 2 - 16) /* bytes of one m reply */

void gdb_printf(GdbOut *o, const char *fmt, ...)
{
    if (o->len + 1 >= o->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len = o->len + (size_t)n < o->cap ? o->len + (size_t)n : o->cap - 1;
}

void gdb_stub_init(GdbStub *g, const GdbTarget *t)
{
    memset(g, 0, sizeof *g);
    g->t = t;
    g->last.signal = 5;
}

static void reply(GdbStub *g, const char *s)
{
    size_t n = strlen(s);
    if (n > GDB_PACKET_MAX)
        n = GDB_PACKET_MAX;
    memcpy(g->reply, s, n);
    g->reply[n] = 0;
    g->reply_len = n;
}

static void reply_hex(GdbStub *g, const uint8_t *b, size_t n)
{
    if (2 * n > GDB_PACKET_MAX)
        n = GDB_PACKET_MAX / 2;
    gdb_to_hex(b, n, g->reply);
    g->reply_len = 2 * n;
}

static void error(GdbStub *g) { reply(g, "E01"); }

static unsigned ncpus(GdbStub *g)
{
    unsigned n = g->t->ncpus(g->t->opaque);
    return n > GDB_MAX_CPUS ? GDB_MAX_CPUS : n;
}

/* Thread id: -1 (all), 0 (any) or 1..ncpus; *cpu = 0-based vCPU (any/all: the first). */
static bool parse_thread(GdbStub *g, const char **s, int *cpu)
{
    if ((*s)[0] == '-' && (*s)[1] == '1') {
        *s += 2;
        *cpu = -1;
        return true;
    }
    uint64_t id;
    if (!gdb_hex_u64(s, &id) || id > ncpus(g))
        return false;
    *cpu = id == 0 ? -1 : (int)id - 1;
    return true;
}

void gdb_stub_stop_reply(const GdbStop *st, char *out, size_t cap)
{
    if (st->exited) {
        snprintf(out, cap, "W%02x", st->status & 0xff);
        return;
    }
    static const char *const wname[] = { [GDB_WP_WRITE] = "watch", [GDB_WP_READ] = "rwatch",
                                         [GDB_WP_ACCESS] = "awatch" };
    if (st->watch_type >= GDB_WP_WRITE && st->watch_type <= GDB_WP_ACCESS)
        snprintf(out, cap, "T%02x%s:%llx;thread:%x;", st->signal & 0xff, wname[st->watch_type],
                 (unsigned long long)st->watch_addr, st->cpu + 1);
    else
        snprintf(out, cap, "T%02xthread:%x;", st->signal & 0xff, st->cpu + 1);
}

void gdb_stub_stopped(GdbStub *g, const GdbStop *st)
{
    g->last = *st;
    if (!st->exited && st->cpu < ncpus(g))
        g->g_cpu = st->cpu;
}

static void read_all_regs(GdbStub *g)
{
    const GdbTarget *t = g->t;
    unsigned n = t->nregs(t->opaque);
    size_t o = 0;
    uint8_t buf[GDB_MAX_REG_BYTES];
    for (unsigned r = 0; r < n; r++) {
        unsigned sz = t->read_reg(t->opaque, g->g_cpu, r, buf);
        if (o + 2 * sz > GDB_PACKET_MAX)
            break;
        gdb_to_hex(buf, sz, g->reply + o);
        o += 2 * sz;
    }
    g->reply_len = o;
}

static void write_all_regs(GdbStub *g, const char *hex, size_t len)
{
    const GdbTarget *t = g->t;
    unsigned n = t->nregs(t->opaque);
    uint8_t buf[GDB_MAX_REG_BYTES];
    size_t o = 0;
    for (unsigned r = 0; r < n && o < len; r++) {
        unsigned sz = t->read_reg(t->opaque, g->g_cpu, r, buf);
        if (o + 2 * sz > len || !gdb_hex_bytes(hex + o, sz, buf))
            return error(g);
        if (!t->write_reg(t->opaque, g->g_cpu, r, buf))
            return error(g);
        o += 2 * sz;
    }
    reply(g, "OK");
}

static void one_reg(GdbStub *g, const char *s, bool write)
{
    uint64_t r;
    uint8_t buf[GDB_MAX_REG_BYTES];
    if (!gdb_hex_u64(&s, &r) || r >= g->t->nregs(g->t->opaque))
        return error(g);
    unsigned sz = g->t->read_reg(g->t->opaque, g->g_cpu, (unsigned)r, buf);
    if (!sz)
        return error(g);
    if (!write)
        return reply_hex(g, buf, sz);
    if (*s++ != '=' || strlen(s) != 2 * sz || !gdb_hex_bytes(s, sz, buf) ||
        !g->t->write_reg(g->t->opaque, g->g_cpu, (unsigned)r, buf))
        return error(g);
    reply(g, "OK");
}

/* "addr,len" then the separator sep (0: end of packet). */
static bool addr_len(const char **s, uint64_t *addr, uint64_t *len, char sep)
{
    if (!gdb_hex_u64(s, addr) || *(*s)++ != ',' || !gdb_hex_u64(s, len))
        return false;
    if (sep) {
        if (**s != sep)
            return false;
        (*s)++;
    }
    return sep || !**s;
}

static void read_mem(GdbStub *g, const char *s)
{
    uint64_t addr, len;
    uint8_t buf[MAX_MEM];
    if (!addr_len(&s, &addr, &len, 0) || len > MAX_MEM)
        return error(g);
    if (!g->t->read_mem(g->t->opaque, g->g_cpu, addr, buf, len))
        return reply(g, "E14");
    reply_hex(g, buf, len);
}

/* M (hex data) or X (binary data, already unescaped by the framing). */
static void write_mem(GdbStub *g, const char *s, size_t plen, bool binary)
{
    const char *start = s;
    uint64_t addr, len;
    uint8_t buf[GDB_PACKET_MAX];
    if (!addr_len(&s, &addr, &len, ':') || len > sizeof buf)
        return error(g);
    size_t left = plen - (size_t)(s - start);
    if (binary) {
        if (left != len)
            return error(g);
        memcpy(buf, s, len);
    } else if (left != 2 * len || !gdb_hex_bytes(s, len, buf)) {
        return error(g);
    }
    if (len && !g->t->write_mem(g->t->opaque, g->g_cpu, addr, buf, len))
        return reply(g, "E14");
    reply(g, "OK");
}

static void point(GdbStub *g, const char *s, bool insert)
{
    uint64_t type, addr, kind;
    if (!gdb_hex_u64(&s, &type) || *s++ != ',' || !gdb_hex_u64(&s, &addr) || *s++ != ',' ||
        !gdb_hex_u64(&s, &kind) || (*s && *s != ';'))
        return error(g);
    if (type > GDB_WP_ACCESS)
        return reply(g, ""); /* not supported */
    bool ok = insert ? g->t->insert_point(g->t->opaque, (unsigned)type, addr, kind)
                     : g->t->remove_point(g->t->opaque, (unsigned)type, addr, kind);
    reply(g, ok ? "OK" : "E22");
}

static void resume_all(GdbStub *g, unsigned act)
{
    unsigned n = ncpus(g);
    memset(g->action, GDB_ACT_CONTINUE, sizeof g->action);
    if (act == GDB_ACT_STEP) /* c / s act on the Hc thread; we step the selected vCPU */
        for (unsigned i = 0; i < n; i++)
            g->action[i] = i == g->g_cpu ? GDB_ACT_STEP : GDB_ACT_STAY;
    g->resume = true;
}

/* c [addr] / s [addr] / C sig[;addr] / S sig[;addr]: a resume address is not supported. */
static void simple_resume(GdbStub *g, const char *s, unsigned act, bool with_signal)
{
    uint64_t sig;
    if (with_signal && !gdb_hex_u64(&s, &sig))
        return error(g);
    if (*s)
        return error(g);
    resume_all(g, act);
}

/* vCont;ACTION[:TID];ACTION[:TID]...: the first action naming a thread applies to it; an action
 * without a thread applies to every thread not named before it. */
static void vcont(GdbStub *g, const char *s)
{
    unsigned n = ncpus(g);
    bool set[GDB_MAX_CPUS] = { false };
    uint8_t act[GDB_MAX_CPUS] = { 0 };
    bool any = false;
    while (*s == ';') {
        s++;
        unsigned a;
        uint64_t sig;
        switch (*s++) {
        case 'c': a = GDB_ACT_CONTINUE; break;
        case 's': a = GDB_ACT_STEP; break;
        case 'C': a = GDB_ACT_CONTINUE; if (!gdb_hex_u64(&s, &sig)) return error(g); break;
        case 'S': a = GDB_ACT_STEP; if (!gdb_hex_u64(&s, &sig)) return error(g); break;
        case 't': a = GDB_ACT_STAY; break;
        default: return error(g);
        }
        int cpu = -1;
        if (*s == ':') {
            s++;
            if (!parse_thread(g, &s, &cpu))
                return error(g);
        }
        for (unsigned i = 0; i < n; i++)
            if ((cpu < 0 || (unsigned)cpu == i) && !set[i]) {
                set[i] = true;
                act[i] = (uint8_t)a;
            }
        any = true;
    }
    if (*s || !any)
        return error(g);
    memcpy(g->action, act, sizeof act);
    g->resume = true;
}

static void xfer_features(GdbStub *g, const char *s)
{
    const char *xml = g->t->target_xml;
    static const char annex[] = "target.xml:";
    if (strncmp(s, annex, sizeof annex - 1))
        return reply(g, "E00");
    s += sizeof annex - 1;
    uint64_t off, len;
    if (!addr_len(&s, &off, &len, 0))
        return error(g);
    size_t total = strlen(xml);
    if (off >= total)
        return reply(g, "l");
    size_t n = total - off;
    if (len > GDB_PACKET_MAX - 1)
        len = GDB_PACKET_MAX - 1;
    if (n > len)
        n = len;
    g->reply[0] = n == total - off ? 'l' : 'm';
    memcpy(g->reply + 1, xml + off, n);
    g->reply_len = n + 1;
}

static void monitor(GdbStub *g, const char *hex)
{
    size_t n = strlen(hex);
    char cmd[1024];
    if (n % 2 || n / 2 >= sizeof cmd || !gdb_hex_bytes(hex, n / 2, (uint8_t *)cmd))
        return error(g);
    cmd[n / 2] = 0;
    if (strlen(cmd) != n / 2) /* NUL inside */
        return error(g);
    static char text[GDB_PACKET_MAX / 2];
    GdbOut out = { text, 0, sizeof text };
    text[0] = 0;
    g->t->monitor(g->t->opaque, g->g_cpu, cmd, &out);
    if (!out.len)
        return reply(g, "OK");
    reply_hex(g, (const uint8_t *)text, out.len);
}

static void query(GdbStub *g, const char *s)
{
    if (!strncmp(s, "Supported", 9)) {
        char r[128];
        snprintf(r, sizeof r, "PacketSize=%x;qXfer:features:read+;vContSupported+", GDB_PACKET_MAX);
        return reply(g, r);
    }
    if (!strncmp(s, "Xfer:features:read:", 19))
        return xfer_features(g, s + 19);
    if (!strcmp(s, "fThreadInfo")) {
        size_t o = 0;
        g->reply[o++] = 'm';
        for (unsigned i = 0; i < ncpus(g); i++)
            o += (size_t)snprintf(g->reply + o, 16, "%s%x", i ? "," : "", i + 1);
        g->reply_len = o;
        return;
    }
    if (!strcmp(s, "sThreadInfo"))
        return reply(g, "l");
    if (!strcmp(s, "C")) {
        char r[16];
        snprintf(r, sizeof r, "QC%x", g->g_cpu + 1);
        return reply(g, r);
    }
    if (!strcmp(s, "Attached"))
        return reply(g, "1");
    if (!strncmp(s, "ThreadExtraInfo,", 16)) {
        const char *p = s + 16;
        int cpu;
        if (!parse_thread(g, &p, &cpu) || cpu < 0 || *p)
            return error(g);
        char text[32];
        int n = snprintf(text, sizeof text, "vCPU %d", cpu);
        return reply_hex(g, (const uint8_t *)text, (size_t)n);
    }
    if (!strncmp(s, "Rcmd,", 5))
        return monitor(g, s + 5);
    if (!strncmp(s, "Symbol", 6))
        return reply(g, "OK");
    reply(g, "");
}

static void dispatch(GdbStub *g, const char *pkt, size_t len)
{
    if (len == 0)
        return;
    if (strlen(pkt) != len && pkt[0] != 'X') /* a NUL byte only makes sense in binary data */
        return error(g);
    const char *a = pkt + 1;
    switch (pkt[0]) {
    case '?':
        gdb_stub_stop_reply(&g->last, g->reply, sizeof g->reply);
        g->reply_len = strlen(g->reply);
        return;
    case 'g':
        return *a ? error(g) : read_all_regs(g);
    case 'G':
        return write_all_regs(g, a, len - 1);
    case 'p':
        return one_reg(g, a, false);
    case 'P':
        return one_reg(g, a, true);
    case 'm':
        return read_mem(g, a);
    case 'M':
        return write_mem(g, a, len - 1, false);
    case 'X':
        return write_mem(g, a, len - 1, true);
    case 'Z':
        return point(g, a, true);
    case 'z':
        return point(g, a, false);
    case 'c':
        return simple_resume(g, a, GDB_ACT_CONTINUE, false);
    case 's':
        return simple_resume(g, a, GDB_ACT_STEP, false);
    case 'C':
        return simple_resume(g, a, GDB_ACT_CONTINUE, true);
    case 'S':
        return simple_resume(g, a, GDB_ACT_STEP, true);
    case 'H': {
        int cpu;
        if ((*a != 'g' && *a != 'c') || (a++, !parse_thread(g, &a, &cpu)) || *a)
            return error(g);
        if (pkt[1] == 'g')
            g->g_cpu = cpu < 0 ? 0 : (unsigned)cpu;
        return reply(g, "OK");
    }
    case 'T': {
        int cpu;
        if (!parse_thread(g, &a, &cpu) || *a)
            return error(g);
        return reply(g, "OK");
    }
    case 'q':
        return query(g, a);
    case 'v':
        if (!strcmp(a, "Cont?"))
            return reply(g, "vCont;c;C;s;S;t");
        if (!strncmp(a, "Cont", 4) && a[4] == ';')
            return vcont(g, a + 4);
        return reply(g, "");
    case 'D':
        g->detach = true;
        return reply(g, "OK");
    case 'k':
        g->kill = true;
        return;
    default:
        return reply(g, "");
    }
}

void gdb_stub_handle(GdbStub *g, const char *pkt, size_t len)
{
    g->resume = false;
    g->reply_len = 0;
    dispatch(g, pkt, len);
    g->reply[g->reply_len] = 0;
}

/* GDB remote serial protocol framing (gdb_packet.h). */
#include <string.h>
#include "gdb_packet.h"

enum { ST_IDLE, ST_BODY, ST_ESC, ST_CS1, ST_CS2 };

void gdb_packet_init(GdbPacketParser *p)
{
    p->state = ST_IDLE;
    p->overflow = false;
    p->len = 0;
    p->sum = p->given = 0;
    p->buf[0] = 0;
}

int gdb_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void put(GdbPacketParser *p, char c)
{
    if (p->len < GDB_PACKET_MAX)
        p->buf[p->len++] = c;
    else
        p->overflow = true;
}

GdbPacketEvent gdb_packet_feed(GdbPacketParser *p, uint8_t b)
{
    switch (p->state) {
    case ST_IDLE:
        if (b == '$') {
            p->state = ST_BODY;
            p->len = 0;
            p->sum = 0;
            p->overflow = false;
            return GP_NONE;
        }
        if (b == 0x03)
            return GP_INTERRUPT;
        if (b == '+')
            return GP_ACK;
        if (b == '-')
            return GP_NAK;
        return GP_NONE; /* noise between packets is ignored, as gdb does */
    case ST_BODY:
        if (b == '#') {
            p->state = ST_CS1;
            return GP_NONE;
        }
        if (b == '$') { /* a new packet starts: the unfinished one is dropped */
            p->len = 0;
            p->sum = 0;
            p->overflow = false;
            return GP_BAD;
        }
        p->sum += b;
        if (b == '}')
            p->state = ST_ESC;
        else
            put(p, (char)b);
        return GP_NONE;
    case ST_ESC:
        p->sum += b;
        put(p, (char)(b ^ 0x20));
        p->state = ST_BODY;
        return GP_NONE;
    case ST_CS1: {
        int h = gdb_hex_digit((char)b);
        p->given = (uint8_t)(h < 0 ? 0 : h << 4);
        p->overflow |= h < 0;
        p->state = ST_CS2;
        return GP_NONE;
    }
    default: {
        int h = gdb_hex_digit((char)b);
        p->state = ST_IDLE;
        p->buf[p->len] = 0;
        if (h < 0 || p->overflow || (uint8_t)(p->given | h) != p->sum)
            return GP_BAD;
        return GP_PACKET;
    }
    }
}

size_t gdb_packet_frame(const char *payload, size_t len, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    uint8_t sum = 0;
    if (cap < 4)
        return 0;
    out[o++] = '$';
    for (size_t i = 0; i < len; i++) {
        char c = payload[i];
        if (c == '$' || c == '#' || c == '}' || c == '*') {
            if (o + 2 > cap - 3)
                return 0;
            out[o++] = '}';
            sum += '}';
            c ^= 0x20;
        } else if (o + 1 > cap - 3) {
            return 0;
        }
        out[o++] = c;
        sum += (uint8_t)c;
    }
    out[o++] = '#';
    out[o++] = hex[sum >> 4];
    out[o++] = hex[sum & 15];
    return o;
}

bool gdb_hex_u64(const char **s, uint64_t *v)
{
    const char *p = *s;
    uint64_t x = 0;
    int n = 0, d;
    while ((d = gdb_hex_digit(*p)) >= 0) {
        if (++n > 16)
            return false;
        x = x << 4 | (unsigned)d;
        p++;
    }
    if (!n)
        return false;
    *v = x;
    *s = p;
    return true;
}

bool gdb_hex_bytes(const char *s, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        int h = gdb_hex_digit(s[2 * i]), l = h < 0 ? -1 : gdb_hex_digit(s[2 * i + 1]);
        if (h < 0 || l < 0)
            return false;
        out[i] = (uint8_t)(h << 4 | l);
    }
    return true;
}

void gdb_to_hex(const uint8_t *in, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
    out[2 * n] = 0;
}

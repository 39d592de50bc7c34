/* GDB remote serial protocol framing: "$payload#cs", acks, Ctrl-C; hex helpers.
 *
 * The parser takes the client's bytes one at a time and never trusts them: a payload longer
 * than GDB_PACKET_MAX, a bad checksum or a stray byte ends as GP_BAD (the caller NAKs it).
 * No part of this file knows about CPUs; tests/fuzz/fuzz_gdb.c feeds it arbitrary bytes. */
#ifndef MALIBU_GDB_PACKET_H
#define MALIBU_GDB_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GDB_PACKET_MAX 16384 /* PacketSize we announce (payload bytes, after unescaping) */

typedef enum {
    GP_NONE,       /* byte consumed, nothing complete yet */
    GP_PACKET,     /* a packet with a good checksum: p->buf[0..p->len) (NUL-terminated) */
    GP_BAD,        /* a packet with a bad checksum or too long: NAK it */
    GP_INTERRUPT,  /* Ctrl-C (0x03) between packets */
    GP_ACK,        /* '+' */
    GP_NAK,        /* '-' */
} GdbPacketEvent;

typedef struct GdbPacketParser {
    int state;                 /* idle, body, escaped byte, checksum high, checksum low */
    bool overflow;
    uint8_t sum, given;
    size_t len;
    char buf[GDB_PACKET_MAX + 1];
} GdbPacketParser;

void gdb_packet_init(GdbPacketParser *p);
GdbPacketEvent gdb_packet_feed(GdbPacketParser *p, uint8_t byte);

/* "$payload#cs" into out (escaping $ # } *); returns the length, or 0 when it does not fit. */
size_t gdb_packet_frame(const char *payload, size_t len, char *out, size_t cap);

int gdb_hex_digit(char c);          /* 0..15, or -1 */
/* Hex number at *s (at most 16 digits); advances *s; false without a digit or when too long. */
bool gdb_hex_u64(const char **s, uint64_t *v);
/* Exactly 2*n hex digits at s into out; false otherwise. */
bool gdb_hex_bytes(const char *s, size_t n, uint8_t *out);
/* n bytes as 2*n lower-case hex digits at out (NUL-terminated). */
void gdb_to_hex(const uint8_t *in, size_t n, char *out);

#endif

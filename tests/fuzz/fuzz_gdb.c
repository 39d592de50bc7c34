/* libFuzzer harness: bytes from a gdb client through the GDB stub's framing (gdb_packet.c) and
 * commands (gdb_stub.c) on a fake target (gdb_fake_target.h); every reply is framed too. */
#include <stdint.h>
#include <stdio.h>
#include "gdb_packet.h"
#include "gdb_stub.h"
#include "gdb_fake_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static GdbPacketParser p;
    static GdbStub g;
    static char frame[2 * GDB_PACKET_MAX + 8];
    gdb_packet_init(&p);
    gdb_stub_init(&g, &fake_target);
    for (size_t i = 0; i < size; i++)
        if (gdb_packet_feed(&p, data[i]) == GP_PACKET) {
            gdb_stub_handle(&g, p.buf, p.len);
            if (!g.resume && !g.kill)
                gdb_packet_frame(g.reply, g.reply_len, frame, sizeof frame);
        }
    return 0;
}

/* libFuzzer harness: the checkpoint loader (emu/checkpoint/ckpt.c) and every section loader of the
 * board (devices/board_ckpt.c: identity, RAM, each device's own section), on a board built once
 * the way `malibu --checkpoint-load` builds it (G52, 16 MiB, no disks).
 *
 * Input: byte 0 flags, then a checkpoint file.  With bit 0 set, the harness first recomputes
 * every section's CRC (where the framing lets it find them), so that mutations reach the field
 * and device checks behind the CRC instead of all dying there.  Any bytes must give a load or a
 * refusal with a message, never a crash, hang or sanitizer report.  The seed (tests/fuzz/
 * ckpt_seed.c) is a real checkpoint of that board with the flag set. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../../devices/board.h"
#include "../../devices/board_ckpt.h"
#include "ckpt_board.h"

static Board *board;

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* docs/checkpoint.md's framing: 16-byte file header, then sections "SECT", u32 name length,
 * name, u32 instance, u32 version, u64 payload length, payload, u32 CRC of (payload, header
 * from the name length on). */
static void fix_crcs(uint8_t *b, size_t len)
{
    size_t at = 16;
    while (at + 8 <= len && !memcmp(b + at, "SECT", 4)) {
        uint64_t nl = le(b + at + 4, 4);
        if (nl > 64 || len - at - 8 < nl + 16)
            return;
        uint64_t plen = le(b + at + 8 + nl + 8, 8);
        size_t data = at + 8 + (size_t)nl + 16;
        if (plen > len - data || len - data - plen < 4)
            return;
        uLong crc = crc32(crc32(0, NULL, 0), b + data, (uInt)plen);
        crc = crc32(crc, b + at + 4, (uInt)(4 + nl + 16));
        for (unsigned i = 0; i < 4; i++)
            b[data + plen + i] = (uint8_t)(crc >> (8 * i));
        at = data + (size_t)plen + 4;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!board)
        board = fuzz_ckpt_board();
    if (size < 1)
        return 0;
    uint8_t *file = malloc(size - 1 + 1);
    if (!file)
        return 0;
    memcpy(file, data + 1, size - 1);
    if (data[0] & 1)
        fix_crcs(file, size - 1);
    char err[512];
    CkptReader *r = ckpt_reader_open_mem(file, size - 1, err, sizeof err);
    if (r) {
        if (board_ckpt_load(board, r))
            ckpt_finish(r);
        ckpt_reader_close(r);
    }
    free(file);
    return 0;
}

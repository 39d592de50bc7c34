/* The seed of the checkpoint fuzz harness: a checkpoint of fuzz_ckpt.c's board, with some RAM
 * written (so the RAM section has chunks), after the harness's flag byte (1: fix the CRCs).
 * Usage: ckpt_seed FILE */
#include <stdio.h>
#include <string.h>

#include "../../devices/board_ckpt.h"
#include "ckpt_board.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    Board *b = fuzz_ckpt_board();
    uint8_t *ram = bus_ram_ptr(b->bus, BOARD_RAM_BASE, true);
    for (unsigned i = 0; i < 8192; i++)
        ram[(1u << 20) + i] = (uint8_t)(i * 13 + 5);
    char err[256];
    char raw[4096];
    snprintf(raw, sizeof raw, "%s.raw", argv[1]);
    CkptWriter *w = ckpt_writer_open(raw, err, sizeof err);
    if (!w) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    board_ckpt_save(b, w);
    if (!ckpt_writer_close(w, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    board_free(b);
    FILE *in = fopen(raw, "rb"), *out = fopen(argv[1], "wb");
    if (!in || !out || fputc(1, out) == EOF) {
        perror(argv[1]);
        return 1;
    }
    int c;
    while ((c = fgetc(in)) != EOF)
        fputc(c, out);
    fclose(in);
    remove(raw);
    return fclose(out) == 0 ? 0 : 1;
}

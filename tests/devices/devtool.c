/* Test helper for the board devices.
 *   devtool dtb [board options]   e.g. devtool dtb --dump-dtb out.dtb --append "console=ttyAMA0"
 *                                 (build/malibu's option table, board_new, board_realize)
 *   devtool stub                  write the boot stub (boot_stub_build(0, 0)) to stdout */
#include <stdio.h>
#include <string.h>
#include "../../devices/board.h"
#include "../../emu/system/options.h"
#include "../../emu/cpu/sys_chan.h"

int main(int argc, char **argv)
{
    char err[256];
    if (argc >= 2 && strcmp(argv[1], "stub") == 0) {
        uint32_t w[BOOT_STUB_WORDS];
        boot_stub_build(w, 0, 0);
        return fwrite(w, sizeof w, 1, stdout) == 1 ? 0 : 1;
    }
    if (argc < 2 || strcmp(argv[1], "dtb") != 0) {
        fprintf(stderr, "usage: devtool dtb [board options] | devtool stub\n");
        return 2;
    }
    BoardConfig cfg;
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.guest_channel = SYS_CHAN_BASE;   /* as emu/system/main.c gives it */
    int r = options_parse_board(argc - 1, argv + 1, &cfg, err, sizeof err);
    if (r != 0) {
        if (r < 0)
            fprintf(stderr, "devtool: %s\n", err);
        return r < 0 ? 2 : 0;
    }
    Board *b = board_new(&cfg, err, sizeof err);
    if (!b || !board_realize(b, err, sizeof err)) {
        fprintf(stderr, "devtool: %s\n", err);
        return 1;
    }
    printf("dtb at 0x%llx (%llu bytes), kernel entry 0x%llx, initrd 0x%llx-0x%llx\n",
           (unsigned long long)b->dtb_pa, (unsigned long long)b->dtb_size,
           (unsigned long long)b->kernel_entry, (unsigned long long)b->initrd_start,
           (unsigned long long)b->initrd_end);
    board_free(b);
    return 0;
}

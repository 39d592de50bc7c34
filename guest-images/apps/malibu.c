/* malibu: the guest channel from shell scripts (malibu.h).
 *   malibu probe | roi-begin NAME | roi-end | annotate TEXT... | stats-reset | stats-dump TAG
 * Prints what malibu returned; exit 0 on success, 1 on an error, 2 without a channel (not
 * running on malibu), 64 on a usage error. */
#include <stdio.h>
#include <string.h>

#include "malibu.h"

static int usage(void)
{
    fprintf(stderr, "usage: malibu probe | roi-begin NAME | roi-end | annotate TEXT... | stats-reset | stats-dump TAG\n");
    return 64;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *cmd = argv[1];
    if (!malibu_available()) {
        fprintf(stderr, "malibu: no malibu channel here (%s is missing or names another encoding): "
                        "not running on malibu, nothing done\n", MALIBU_CHANNEL_DT);
        return 2;
    }
    long r;
    if (!strcmp(cmd, "probe") && argc == 2) {
        printf("malibu channel: version %ld (instruction 0x%08x | op)\n",
               MALIBU_CALL(MALIBU_OP_PROBE, 0, 0, 0, 0) & 0xffff, MALIBU_CHANNEL_INSN);
        return 0;
    } else if (!strcmp(cmd, "roi-begin") && argc == 3) {
        r = malibu_roi_begin(argv[2]);
    } else if (!strcmp(cmd, "roi-end") && argc == 2) {
        r = malibu_roi_end();
    } else if (!strcmp(cmd, "stats-reset") && argc == 2) {
        r = malibu_stats_reset();
    } else if (!strcmp(cmd, "stats-dump") && argc == 3) {
        r = malibu_stats_dump(argv[2]);
    } else if (!strcmp(cmd, "annotate") && argc >= 3) {
        char text[1024] = "";
        size_t n = 0;
        for (int i = 2; i < argc && n < sizeof text - 1; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", i > 2 ? " " : "", argv[i]);
        r = malibu_annotate("%s", text);
    } else {
        return usage();
    }
    if (r < 0) {
        fprintf(stderr, "malibu: %s: error %ld\n", cmd, r);
        return 1;
    }
    printf("malibu: %s: %ld\n", cmd, r);
    return 0;
}

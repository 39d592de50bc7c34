/* --image / --run (run_image.h). */
#include "run_image.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --image / --run (see guest-images/README.md for the kernel parameters the init reads). */
#define IMAGE_APPEND "console=ttyAMA0 panic=-1 quiet"
#define RUN_APPEND " malibu.quiet malibu.loglevel=3 malibu.run64="
#define KERNEL_CMDLINE_MAX 2048 /* arm64 COMMAND_LINE_SIZE, with the NUL */

static char *base64(const char *s)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = strlen(s);
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    if (!out)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *o++ = tab[v >> 18];
        *o++ = tab[(v >> 12) & 63];
        *o++ = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? tab[v & 63] : '=';
    }
    *o = 0;
    return out;
}

/* --image's root disk must be an ext4 filesystem as large as its superblock says (the initrd
 * mounts it as ext4; a truncated image would fail somewhere deep in the guest). */
static bool is_ext4(const char *path, char *err, size_t errlen)
{
    uint8_t sb[1024];
    struct stat st;
    FILE *f = fopen(path, "rb");
    bool ok = f && fstat(fileno(f), &st) == 0 && fseek(f, 1024, SEEK_SET) == 0 &&
              fread(sb, 1, sizeof sb, f) == sizeof sb;
    if (f)
        fclose(f);
    if (!ok || sb[0x38] != 0x53 || sb[0x39] != 0xEF) {
        snprintf(err, errlen, "--image: %s is not an ext4 filesystem (no superblock magic 0xEF53)", path);
        return false;
    }
    uint32_t log_bs = (uint32_t)sb[24] | (uint32_t)sb[25] << 8 | (uint32_t)sb[26] << 16 | (uint32_t)sb[27] << 24;
    uint64_t blocks = (uint64_t)sb[4] | (uint64_t)sb[5] << 8 | (uint64_t)sb[6] << 16 | (uint64_t)sb[7] << 24;
    bool is64 = sb[0x60] & 0x80; /* INCOMPAT_64BIT: s_blocks_count_hi is valid */
    if (is64)
        blocks |= ((uint64_t)sb[0x150] | (uint64_t)sb[0x151] << 8 | (uint64_t)sb[0x152] << 16 |
                   (uint64_t)sb[0x153] << 24) << 32;
    if (log_bs > 6 || blocks > (UINT64_MAX >> 17) || (uint64_t)st.st_size < (blocks << (10 + log_bs))) {
        snprintf(err, errlen, "--image: %s is truncated: %llu bytes, its ext4 superblock says %llu",
                 path, (unsigned long long)st.st_size,
                 (unsigned long long)(log_bs > 6 ? 0 : blocks << (10 + log_bs)));
        return false;
    }
    return true;
}

/* Strings made here (cfg points into them) stay until the next run_image_apply. */
static char *owned[5];

/* --image NAME that is not a directory: malibu-image's image NAME, in
 * $XDG_CACHE_HOME/malibu/images/NAME (default ~/.cache/...).  NULL when there is none. */
static char *image_by_name(const char *name)
{
    struct stat st;
    if (stat(name, &st) == 0 || strchr(name, '/') || !*name || name[0] == '.')
        return NULL;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *base = xdg && xdg[0] == '/' ? xdg : home, *sub = xdg && xdg[0] == '/' ? "" : "/.cache";
    if (!base)
        return NULL;
    size_t len = strlen(base) + strlen(sub) + strlen("/malibu/images/") + strlen(name) + 1;
    char *dir = malloc(len);
    if (dir)
        snprintf(dir, len, "%s%s/malibu/images/%s", base, sub, name);
    if (dir && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        free(dir);
        dir = NULL;
    }
    return dir;
}

int run_image_apply(BoardConfig *cfg, char *err, size_t errlen)
{
    for (int i = 0; i < 4; i++) {
        free(owned[i]);
        owned[i] = NULL;
    }
    char *named = cfg->image ? image_by_name(cfg->image) : NULL;
    if (named || cfg->image != owned[4]) {   /* (kept while cfg->image is the name found before) */
        free(owned[4]);
        owned[4] = named;
    }
    if (named)
        cfg->image = named;
    if (cfg->image) {
        static const char *const names[3] = { "Image", "initrd.img", "rootfs.ext4" };
        char **path = owned;
        for (int i = 0; i < 3; i++) {
            size_t len = strlen(cfg->image) + strlen(names[i]) + 2;
            if (!(path[i] = malloc(len))) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            snprintf(path[i], len, "%s/%s", cfg->image, names[i]);
            if (access(path[i], R_OK) != 0) {
                snprintf(err, errlen, "--image: %s: %s (malibu-image build NAME builds an image that "
                         "--image NAME finds; in a source tree, make image builds guest-images/out)",
                         path[i], strerror(errno));
                return -1;
            }
        }
        if (!cfg->kernel)
            cfg->kernel = path[0];
        if (!cfg->initrd)
            cfg->initrd = path[1];
        BoardDisk root[1];
        unsigned n = 0;
        if (cfg->ndisks >= BOARD_VIRTIO_SLOTS) {
            snprintf(err, errlen, "--image: at most %d disks besides the root disk",
                     BOARD_VIRTIO_SLOTS - 1);
            return -1;
        }
        if (!is_ext4(path[2], err, errlen))
            return -1;
        if (virtio_board_parse(root, &n, path[2], false, err, errlen) < 0)
            return -1;
        /* the root disk is vda: before any --disk/--share */
        memmove(&cfg->disks[1], &cfg->disks[0], cfg->ndisks * sizeof cfg->disks[0]);
        cfg->disks[0] = root[0];
        cfg->ndisks++;
    }
    if (!cfg->image && !cfg->run)
        return 0;
    const char *prefix = cfg->image || !cfg->append ? IMAGE_APPEND : "";
    const char *user = cfg->append ? cfg->append : "";
    char *run64 = cfg->run ? base64(cfg->run) : NULL;
    size_t len = strlen(prefix) + 1 + strlen(user) + sizeof RUN_APPEND + (run64 ? strlen(run64) : 0);
    char *append = malloc(len);
    if (!append || (cfg->run && !run64)) {
        free(append);
        free(run64);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(append, len, "%s%s%s%s%s", prefix, *prefix && *user ? " " : "", user,
             run64 ? RUN_APPEND : "", run64 ? run64 : "");
    free(run64);
    if (strlen(append) >= KERNEL_CMDLINE_MAX) {
        snprintf(err, errlen,
                 "--run: command too long for the kernel command line (%zu of %d bytes with "
                 "base64); put it in a script in a --share directory", strlen(append), KERNEL_CMDLINE_MAX - 1);
        free(append);
        return -1;
    }
    cfg->append = owned[3] = append;
    return 0;
}

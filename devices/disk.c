/* Disk backends: copy-on-write overlay over a read-only image, read-only, write-through
 * (see disk.h). */
#define _GNU_SOURCE
#include "disk.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "../emu/checkpoint/ckpt.h"

extern char **environ;

/* The time mke2fs gives a --share file system: fixed, so the image is too, and in the past of any
 * guest clock (2024-01-01T00:00:00Z; --clock icount starts at 2026), so that nothing in it lies in
 * the future. */
#define SHARE_FS_TIME "1704067200"

struct Disk {
    char *path;
    DiskMode mode;
    int fd;           /* the image: O_RDONLY except in DISK_WRITE_THROUGH */
    int ov_fd;        /* COW overlay (unlinked temp file), -1 otherwise */
    uint64_t size;    /* bytes, multiple of DISK_SECTOR */
    uint64_t nsect;
    uint64_t *bitmap; /* COW: bit s set = sector s lives in the overlay */
    uint64_t cow_count;
    bool share;         /* --share: made by disk_open_dir */
    uint32_t tree_crc;  /* --share: the directory tree's fingerprint (share_entry) */
    pthread_mutex_t lock;
};

#define MAX_IOV 1024

static bool bit_test(const Disk *d, uint64_t s)
{
    return (d->bitmap[s >> 6] >> (s & 63)) & 1;
}

static void bit_set(Disk *d, uint64_t s)
{
    if (!bit_test(d, s)) {
        d->bitmap[s >> 6] |= 1ull << (s & 63);
        d->cow_count++;
    }
}

/* pread/pwrite until done (EINTR and short transfers retried); reads past EOF give zeros. */
static int full_pread(int fd, void *buf, size_t len, uint64_t off)
{
    uint8_t *p = buf;
    while (len) {
        ssize_t r = pread(fd, p, len, (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (r == 0) {
            memset(p, 0, len);
            return 0;
        }
        p += r;
        off += (uint64_t)r;
        len -= (size_t)r;
    }
    return 0;
}

static int full_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
    const uint8_t *p = buf;
    while (len) {
        ssize_t r = pwrite(fd, p, len, (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (r == 0)
            return -EIO;
        p += r;
        off += (uint64_t)r;
        len -= (size_t)r;
    }
    return 0;
}

/* preadv/pwritev of the whole vector, advancing over short transfers. */
static int full_prwv(int fd, const struct iovec *iov_in, unsigned cnt, uint64_t off, bool write)
{
    struct iovec iov[MAX_IOV];
    if (cnt > MAX_IOV)
        return -EINVAL;
    memcpy(iov, iov_in, cnt * sizeof *iov);
    struct iovec *v = iov;
    while (cnt) {
        while (cnt && v->iov_len == 0) {
            v++;
            cnt--;
        }
        if (!cnt)
            break;
        ssize_t r = write ? pwritev(fd, v, (int)cnt, (off_t)off) : preadv(fd, v, (int)cnt, (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (r == 0) {
            if (write)
                return -EIO;
            for (unsigned i = 0; i < cnt; i++) /* past EOF: zeros */
                memset(v[i].iov_base, 0, v[i].iov_len);
            return 0;
        }
        off += (uint64_t)r;
        size_t n = (size_t)r;
        while (n) {
            size_t k = n < v->iov_len ? n : v->iov_len;
            v->iov_base = (uint8_t *)v->iov_base + k;
            v->iov_len -= k;
            n -= k;
            if (v->iov_len == 0) {
                v++;
                cnt--;
            }
        }
    }
    return 0;
}

static int make_overlay(uint64_t size, char *err, size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/malibu-cow-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create the copy-on-write overlay %s: %s", path,
                 strerror(errno));
        return -1;
    }
    unlink(path); /* gone when we are */
    if (ftruncate(fd, (off_t)size) < 0) {
        snprintf(err, errlen, "overlay: ftruncate: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

Disk *disk_open(const char *path, DiskMode mode, char *err, size_t errlen)
{
    int flags = (mode == DISK_WRITE_THROUGH ? O_RDWR : O_RDONLY) | O_CLOEXEC;
    if (mode != DISK_COW && mode != DISK_READ_ONLY && mode != DISK_WRITE_THROUGH) {
        snprintf(err, errlen, "%s: bad disk mode", path);
        return NULL;
    }
    int fd = open(path, flags);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    /* Another malibu writing this image through, or reading it while we write through, would
     * see torn data: shared lock for COW/read-only, exclusive for write-through. */
    if (flock(fd, (mode == DISK_WRITE_THROUGH ? LOCK_EX : LOCK_SH) | LOCK_NB) < 0) {
        snprintf(err, errlen, "%s: in use by another process (%s)", path,
                 mode == DISK_WRITE_THROUGH ? "write-through needs it alone"
                                            : "it is open in write-through mode");
        close(fd);
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        close(fd);
        return NULL;
    }
    uint64_t size = (uint64_t)st.st_size & ~(uint64_t)(DISK_SECTOR - 1);
    if (size == 0) {
        snprintf(err, errlen, "%s: empty disk image (less than %u bytes)", path, DISK_SECTOR);
        close(fd);
        return NULL;
    }
    Disk *d = calloc(1, sizeof *d);
    if (!d) {
        close(fd);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->path = strdup(path);
    d->mode = mode;
    d->fd = fd;
    d->ov_fd = -1;
    d->size = size;
    d->nsect = size / DISK_SECTOR;
    pthread_mutex_init(&d->lock, NULL);
    if (mode == DISK_COW) {
        d->bitmap = calloc((d->nsect + 63) / 64, sizeof(uint64_t));
        d->ov_fd = d->bitmap ? make_overlay(size, err, errlen) : -1;
        if (!d->bitmap && errlen)
            snprintf(err, errlen, "out of memory");
        if (d->ov_fd < 0) {
            disk_close(d);
            return NULL;
        }
    }
    return d;
}

void disk_close(Disk *d)
{
    if (!d)
        return;
    if (d->fd >= 0)
        close(d->fd);
    if (d->ov_fd >= 0)
        close(d->ov_fd);
    pthread_mutex_destroy(&d->lock);
    free(d->bitmap);
    free(d->path);
    free(d);
}

uint64_t disk_size(const Disk *d) { return d->size; }
DiskMode disk_mode(const Disk *d) { return d->mode; }
bool disk_read_only(const Disk *d) { return d->mode == DISK_READ_ONLY; }
const char *disk_path(const Disk *d) { return d->path; }

uint64_t disk_cow_sectors(const Disk *d)
{
    Disk *m = (Disk *)d;
    pthread_mutex_lock(&m->lock);
    uint64_t n = d->cow_count;
    pthread_mutex_unlock(&m->lock);
    return n;
}

/* ---- COW: flat byte ranges, lock held ---------------------------------------------------- */

static int cow_read(Disk *d, uint64_t off, uint8_t *buf, size_t len)
{
    uint64_t end_sect = (off + len + DISK_SECTOR - 1) / DISK_SECTOR;
    while (len) {
        uint64_t s = off / DISK_SECTOR, e = s + 1;
        bool in = bit_test(d, s);
        while (e < end_sect && bit_test(d, e) == in)
            e++;
        size_t n = e * DISK_SECTOR - off;
        if (n > len)
            n = len;
        int r = full_pread(in ? d->ov_fd : d->fd, buf, n, off);
        if (r < 0)
            return r;
        buf += n;
        off += n;
        len -= n;
    }
    return 0;
}

/* Part of one sector [off, off+len) not yet in the overlay: merge with the image's sector. */
static int cow_write_partial(Disk *d, uint64_t off, const uint8_t *buf, size_t len)
{
    uint64_t s = off / DISK_SECTOR;
    if (bit_test(d, s))
        return full_pwrite(d->ov_fd, buf, len, off);
    uint8_t sect[DISK_SECTOR];
    int r = full_pread(d->fd, sect, DISK_SECTOR, s * DISK_SECTOR);
    if (r < 0)
        return r;
    memcpy(sect + (off - s * DISK_SECTOR), buf, len);
    r = full_pwrite(d->ov_fd, sect, DISK_SECTOR, s * DISK_SECTOR);
    if (r == 0)
        bit_set(d, s);
    return r;
}

static int cow_write(Disk *d, uint64_t off, const uint8_t *buf, size_t len)
{
    int r;
    if (off % DISK_SECTOR) { /* head */
        size_t n = DISK_SECTOR - off % DISK_SECTOR;
        if (n > len)
            n = len;
        if ((r = cow_write_partial(d, off, buf, n)) < 0)
            return r;
        buf += n;
        off += n;
        len -= n;
    }
    size_t mid = len & ~(size_t)(DISK_SECTOR - 1);
    if (mid) {
        if ((r = full_pwrite(d->ov_fd, buf, mid, off)) < 0)
            return r;
        for (uint64_t s = off / DISK_SECTOR; s < (off + mid) / DISK_SECTOR; s++)
            bit_set(d, s);
        buf += mid;
        off += mid;
        len -= mid;
    }
    if (len) /* tail */
        return cow_write_partial(d, off, buf, len);
    return 0;
}

/* ---- public I/O ------------------------------------------------------------------------- */

static int check_range(const Disk *d, uint64_t off, const struct iovec *iov, unsigned cnt)
{
    uint64_t total = 0;
    if (cnt > MAX_IOV)
        return -EINVAL;
    for (unsigned i = 0; i < cnt; i++) {
        if (iov[i].iov_len > d->size)
            return -EINVAL;
        total += iov[i].iov_len;
    }
    if (off > d->size || total > d->size - off)
        return -EINVAL;
    return 0;
}

int disk_preadv(Disk *d, uint64_t off, const struct iovec *iov, unsigned iovcnt)
{
    int r = check_range(d, off, iov, iovcnt);
    if (r < 0)
        return r;
    if (d->mode != DISK_COW)
        return full_prwv(d->fd, iov, iovcnt, off, false);
    pthread_mutex_lock(&d->lock);
    for (unsigned i = 0; i < iovcnt && r == 0; i++) {
        r = cow_read(d, off, iov[i].iov_base, iov[i].iov_len);
        off += iov[i].iov_len;
    }
    pthread_mutex_unlock(&d->lock);
    return r;
}

int disk_pwritev(Disk *d, uint64_t off, const struct iovec *iov, unsigned iovcnt)
{
    int r = check_range(d, off, iov, iovcnt);
    if (r < 0)
        return r;
    if (d->mode == DISK_READ_ONLY)
        return -EROFS;
    if (d->mode == DISK_WRITE_THROUGH)
        return full_prwv(d->fd, iov, iovcnt, off, true);
    pthread_mutex_lock(&d->lock);
    for (unsigned i = 0; i < iovcnt && r == 0; i++) {
        r = cow_write(d, off, iov[i].iov_base, iov[i].iov_len);
        off += iov[i].iov_len;
    }
    pthread_mutex_unlock(&d->lock);
    return r;
}

int disk_pread(Disk *d, uint64_t off, void *buf, size_t len)
{
    struct iovec v = { buf, len };
    return disk_preadv(d, off, &v, 1);
}

int disk_pwrite(Disk *d, uint64_t off, const void *buf, size_t len)
{
    struct iovec v = { (void *)buf, len };
    return disk_pwritev(d, off, &v, 1);
}

int disk_flush(Disk *d)
{
    if (d->mode != DISK_WRITE_THROUGH)
        return 0; /* COW data is discarded at exit; read-only has nothing to flush */
    while (fdatasync(d->fd) < 0) {
        if (errno != EINTR)
            return -errno;
    }
    return 0;
}

/* ---- checkpoint ------------------------------------------------------------------------------ */

#define IDENT_SAMPLES 64
#define IDENT_SAMPLE (64u << 10)
#define OVERLAY_CHUNK_SECTORS 2048u /* 1 MiB of sectors a chunk */

static const char *const mode_names[] = { "cow", "ro", "write-through" };

/* The base image's identity: CRC-32 of its first and last MiB and of 64 KiB at 64 evenly spaced
 * places (a rebuilt image differs in its superblock, a changed one almost surely in one of
 * them; 6 MiB read, not the whole file).  A --share image: its first 64 KiB (superblock and group
 * descriptors: the layout, which the file times mke2fs copies do not move). */
static int image_crc(Disk *d, uint32_t *out)
{
    uLong crc = crc32(0, NULL, 0);
    uint8_t *buf = malloc(1u << 20);
    if (!buf)
        return -ENOMEM;
    int r = 0;
    uint64_t mib = 1u << 20;
    if (d->share) {
        uint64_t n = d->size < IDENT_SAMPLE ? d->size : IDENT_SAMPLE;
        r = full_pread(d->fd, buf, n, 0);
        crc = crc32(crc, buf, (uInt)n);
    } else {
        uint64_t n = d->size < mib ? d->size : mib;
        r = full_pread(d->fd, buf, n, 0);
        crc = crc32(crc, buf, (uInt)n);
        if (r == 0) {
            r = full_pread(d->fd, buf, n, d->size - n);
            crc = crc32(crc, buf, (uInt)n);
        }
        uint64_t k = d->size < IDENT_SAMPLE ? d->size : IDENT_SAMPLE;
        for (unsigned i = 0; i < IDENT_SAMPLES && r == 0; i++) {
            uint64_t off = (d->size - k) / IDENT_SAMPLES * i;
            r = full_pread(d->fd, buf, k, off);
            crc = crc32(crc, buf, (uInt)k);
        }
    }
    free(buf);
    *out = (uint32_t)crc;
    return r;
}

/* Sector runs of the overlay, at most OVERLAY_CHUNK_SECTORS each, from sector *s on. */
static bool next_run(const Disk *d, uint64_t *s, uint64_t *n)
{
    uint64_t i = *s;
    while (i < d->nsect && !bit_test(d, i))
        i++;
    if (i >= d->nsect)
        return false;
    uint64_t e = i;
    while (e < d->nsect && e - i < OVERLAY_CHUNK_SECTORS && bit_test(d, e))
        e++;
    *s = i;
    *n = e - i;
    return true;
}

bool disk_ckpt_savable(const Disk *d, char *err, size_t errlen)
{
    if (d->mode == DISK_WRITE_THROUGH) {
        snprintf(err, errlen, "%s is attached write-through: the guest keeps writing the file after "
                 "the save, so a load would find other data than the saved RAM expects; attach it "
                 "copy-on-write (the default) or read-only to checkpoint", d->path);
        return false;
    }
    return true;
}

void disk_ckpt_save(Disk *d, CkptWriter *w, uint32_t instance)
{
    uint32_t crc = 0;
    int r = image_crc(d, &crc);
    if (r < 0)
        fprintf(stderr, "malibu: checkpoint: %s: cannot read the image for its identity: %s\n", d->path,
                strerror(-r));
    ckpt_begin(w, "disk", instance, DISK_CKPT_VERSION);
    ckpt_str(w, "path", d->path);
    ckpt_str(w, "mode", mode_names[d->mode]);
    ckpt_u64(w, "share", d->share);
    ckpt_u64(w, "size", d->size);
    ckpt_u64(w, "image_crc", crc);
    if (d->share)
        ckpt_u64(w, "tree_crc", d->tree_crc);
    pthread_mutex_lock(&d->lock);
    ckpt_u64(w, "overlay_sectors", d->cow_count);
    uint8_t *raw = malloc((size_t)OVERLAY_CHUNK_SECTORS * DISK_SECTOR);
    uLong zcap = compressBound((uLong)OVERLAY_CHUNK_SECTORS * DISK_SECTOR);
    uint8_t *z = malloc(zcap);
    uint64_t s = 0, n;
    while (d->mode == DISK_COW && raw && z && next_run(d, &s, &n)) {
        uint64_t at[2] = { s, n };
        size_t len = (size_t)n * DISK_SECTOR;
        uLongf zlen = zcap;
        if (full_pread(d->ov_fd, raw, len, s * DISK_SECTOR) < 0 ||
            compress2(z, &zlen, raw, (uLong)len, 1) != Z_OK) {
            ckpt_u64s(w, "overlay_error", at, 2); /* the load refuses the file, naming the run */
            break;
        }
        ckpt_u64s(w, "overlay_at", at, 2);
        ckpt_bytes(w, "overlay_z", z, zlen);
        s += n;
    }
    if (d->mode == DISK_COW && (!raw || !z))
        ckpt_u64(w, "overlay_error", 0);
    free(raw);
    free(z);
    pthread_mutex_unlock(&d->lock);
    ckpt_end(w);
}

/* Empty the overlay (a fresh disk has nothing in it; a load replaces it whole).  Lock held. */
static int cow_discard(Disk *d)
{
    memset(d->bitmap, 0, (d->nsect + 63) / 64 * sizeof(uint64_t));
    d->cow_count = 0;
    if (ftruncate(d->ov_fd, 0) < 0 || ftruncate(d->ov_fd, (off_t)d->size) < 0)
        return -errno;
    return 0;
}

bool disk_ckpt_load(Disk *d, CkptReader *r, uint32_t instance)
{
    CkptSection *s = ckpt_section(r, "disk", instance, DISK_CKPT_VERSION);
    if (!s)
        return false;
    char path[4096], mode[16];
    uint64_t size = 0, nsaved = 0;
    uint32_t crc = 0, tree = 0;
    bool share = false;
    ckpt_get_str(s, "path", path, sizeof path);
    ckpt_get_str(s, "mode", mode, sizeof mode);
    ckpt_get_bool(s, "share", &share);
    ckpt_get_u64(s, "size", &size, UINT64_MAX);
    ckpt_get_u32(s, "image_crc", &crc, UINT32_MAX);
    if (share)
        ckpt_get_u32(s, "tree_crc", &tree, UINT32_MAX);
    ckpt_get_u64(s, "overlay_sectors", &nsaved, d->nsect);
    if (!ckpt_ok(r))
        return false;
    if (strcmp(mode, mode_names[d->mode]))
        return ckpt_fail(s, "%s: saved attached %s, attached %s here", d->path, mode, mode_names[d->mode]);
    if (!strcmp(mode, "write-through"))
        return ckpt_fail(s, "%s: a write-through disk cannot be restored (its file changed after the "
                         "save)", path);
    if (share != d->share)
        return ckpt_fail(s, "%s: saved as %s, here %s", d->path, share ? "a --share directory" : "a --disk image",
                         d->share ? "a --share directory" : "a --disk image");
    if (share && tree != d->tree_crc)
        return ckpt_fail(s, "--share %s: the directory's files differ from those of the save (%s): "
                         "names, sizes, modes, owners or modification times", d->path, path);
    if (size != d->size)
        return ckpt_fail(s, "%s: the image is %llu bytes, the saved one (%s) was %llu", d->path,
                         (unsigned long long)d->size, path, (unsigned long long)size);
    uint32_t mine = 0;
    int e = image_crc(d, &mine);
    if (e < 0)
        return ckpt_fail(s, "%s: cannot read the image: %s", d->path, strerror(-e));
    if (mine != crc)
        return ckpt_fail(s, "%s: not the image of the save (%s): same size, other content (CRC-32 "
                         "%08x, saved %08x); rebuilt or changed since", d->path, path, mine, crc);
    if (d->mode != DISK_COW)
        return nsaved == 0 || ckpt_fail(s, "%s: %llu overlay sectors for a %s disk", d->path,
                                        (unsigned long long)nsaved, mode);
    pthread_mutex_lock(&d->lock);
    bool ok = true;
    e = cow_discard(d);
    if (e < 0)
        ok = ckpt_fail(s, "%s: overlay: %s", d->path, strerror(-e));
    uint8_t *raw = malloc((size_t)OVERLAY_CHUNK_SECTORS * DISK_SECTOR);
    if (!raw)
        ok = ckpt_fail(s, "out of memory");
    CkptFieldView f;
    uint64_t at[2] = { 0, 0 }, next = 0, loaded = 0;
    bool have_at = false;
    while (ok && ckpt_next_field(s, &f)) {
        bool is_at = f.name_len == 10 && !memcmp(f.name, "overlay_at", 10);
        bool is_z = f.name_len == 9 && !memcmp(f.name, "overlay_z", 9);
        if (f.name_len == 13 && !memcmp(f.name, "overlay_error", 13)) {
            ok = ckpt_fail(s, "field 'overlay_error': the save could not read the overlay");
        } else if (is_at) {
            if (!f.is_int || f.len != 16 || have_at) {
                ok = ckpt_fail(s, "field 'overlay_at': %s", have_at ? "two in a row" : "not two integers");
                break;
            }
            memcpy(at, f.data, 16);
            if (at[0] < next || at[1] == 0 || at[1] > OVERLAY_CHUNK_SECTORS || at[0] > d->nsect ||
                at[1] > d->nsect - at[0]) {
                ok = ckpt_fail(s, "field 'overlay_at': sectors %llu+%llu (after %llu, disk of %llu, at "
                               "most %u a chunk)", (unsigned long long)at[0], (unsigned long long)at[1],
                               (unsigned long long)next, (unsigned long long)d->nsect, OVERLAY_CHUNK_SECTORS);
                break;
            }
            have_at = true;
        } else if (is_z) {
            uLongf len = (uLongf)(at[1] * DISK_SECTOR);
            if (!have_at || f.is_int ||
                uncompress(raw, &len, f.data, (uLong)f.len) != Z_OK || len != at[1] * DISK_SECTOR) {
                ok = ckpt_fail(s, "field 'overlay_z': %s", have_at ? "not the zlib data of the sectors "
                               "before it" : "without an 'overlay_at' before it");
                break;
            }
            e = cow_write(d, at[0] * DISK_SECTOR, raw, len);
            if (e < 0) {
                ok = ckpt_fail(s, "%s: overlay: %s", d->path, strerror(-e));
                break;
            }
            loaded += at[1];
            next = at[0] + at[1];
            have_at = false;
        }
    }
    if (ok && (have_at || loaded != nsaved))
        ok = ckpt_fail(s, "field 'overlay_sectors' is %llu, the chunks hold %llu", (unsigned long long)nsaved,
                       (unsigned long long)loaded);
    free(raw);
    pthread_mutex_unlock(&d->lock);
    return ok && ckpt_ok(r);
}

/* ---- --share: ext4 image of a host directory ----------------------------------------------- */

static uint64_t dir_bytes, dir_entries;
static uint32_t dir_crc;
static size_t dir_root_len;

/* Sizes for the image, and the tree's fingerprint: each entry's path below the root, type and
 * permissions, owner, size and modification time (what mke2fs -d copies, but the access and
 * change times, which a host read of the files moves: they change inode bytes, not the layout). */
static int count_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)flag;
    (void)ftw;
    dir_bytes += 4096 + (((uint64_t)st->st_size + 4095) & ~4095ull); /* data + inode/dirent */
    dir_entries++;
    char rec[96];
    int n = snprintf(rec, sizeof rec, "|%o %u %u %llu %lld.%09ld|", (unsigned)st->st_mode,
                     (unsigned)st->st_uid, (unsigned)st->st_gid, (unsigned long long)st->st_size,
                     (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
    const char *rel = strlen(path) >= dir_root_len ? path + dir_root_len : path;
    dir_crc = (uint32_t)crc32(dir_crc, (const Bytef *)rel, (uInt)strlen(rel));
    dir_crc = (uint32_t)crc32(dir_crc, (const Bytef *)rec, (uInt)n);
    return 0;
}

static const char *find_mke2fs(void)
{
    static const char *cands[] = { "/sbin/mke2fs", "/usr/sbin/mke2fs", "/bin/mke2fs",
                                   "/usr/bin/mke2fs" };
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
        if (access(cands[i], X_OK) == 0)
            return cands[i];
    return "mke2fs"; /* PATH */
}

Disk *disk_open_dir(const char *dir, DiskMode mode, char *err, size_t errlen)
{
    static pthread_mutex_t walk_lock = PTHREAD_MUTEX_INITIALIZER;
    struct stat st;
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory", dir);
        return NULL;
    }
    if (mode == DISK_WRITE_THROUGH) {
        snprintf(err, errlen, "%s: a shared directory is attached copy-on-write or read-only", dir);
        return NULL;
    }
    pthread_mutex_lock(&walk_lock);
    dir_bytes = dir_entries = 0;
    dir_crc = (uint32_t)crc32(0, NULL, 0);
    dir_root_len = strlen(dir);
    int wr = nftw(dir, count_entry, 32, FTW_PHYS);
    uint64_t bytes = dir_bytes, inodes = dir_entries + dir_entries / 4 + 1024;
    uint32_t tree_crc = dir_crc;
    pthread_mutex_unlock(&walk_lock);
    if (wr != 0) {
        snprintf(err, errlen, "%s: cannot read the directory tree", dir);
        return NULL;
    }
    uint64_t size = (bytes + bytes / 4 + (32ull << 20) + (1ull << 20) - 1) & ~((1ull << 20) - 1);

    const char *tmpdir = getenv("TMPDIR");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/malibu-share-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "--share: cannot create a temporary file: %s", strerror(errno));
        return NULL;
    }
    bool ok = ftruncate(fd, (off_t)size) == 0;
    close(fd);
    if (!ok) {
        snprintf(err, errlen, "--share: ftruncate: %s", strerror(errno));
        unlink(path);
        return NULL;
    }
    const char *mke2fs = find_mke2fs();
    char ninodes[24];
    snprintf(ninodes, sizeof ninodes, "%llu", (unsigned long long)inodes);
    /* The same tree gives the same image (a checkpoint's overlay and the guest's page cache
     * refer to its layout): the UUID and the directory hash seed from the tree instead of
     * random, the file system's own times fixed (E2FSPROGS_FAKE_TIME). */
    char uuid[40], hash_seed[64];
    uint8_t u[16];
    uint64_t h = tree_crc; /* not the path: the same tree under another name is the same disk */
    for (int i = 0; i < 16; i++) {
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        u[i] = (uint8_t)(h >> 56);
    }
    u[6] = (uint8_t)((u[6] & 0x0F) | 0x40); /* version 4, RFC 4122 variant */
    u[8] = (uint8_t)((u[8] & 0x3F) | 0x80);
    snprintf(uuid, sizeof uuid, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
             u[14], u[15]);
    snprintf(hash_seed, sizeof hash_seed, "hash_seed=%s", uuid);
    char *argv[] = { (char *)mke2fs, "-q", "-F", "-t", "ext4", "-m", "0", "-N", ninodes,
                     "-L", "malibu-share", "-U", uuid, "-E", hash_seed, "-d", (char *)dir, path, NULL };
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **envp = calloc(nenv + 2, sizeof *envp);
    if (!envp) {
        snprintf(err, errlen, "out of memory");
        unlink(path);
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < nenv; i++)
        if (strncmp(environ[i], "E2FSPROGS_FAKE_TIME=", 20))
            envp[k++] = environ[i];
    envp[k++] = "E2FSPROGS_FAKE_TIME=" SHARE_FS_TIME;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO); /* its output to stderr, not the console */
    pid_t pid;
    int sr = posix_spawnp(&pid, mke2fs, &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    int status = 0;
    if (sr == 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    if (sr != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (sr != 0)
            snprintf(err, errlen, "--share %s: cannot run mke2fs: %s", dir, strerror(sr));
        else
            snprintf(err, errlen, "--share %s: mke2fs -d failed (status %d)", dir,
                     WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        unlink(path);
        return NULL;
    }
    Disk *d = disk_open(path, mode, err, errlen);
    unlink(path); /* the open descriptor keeps it alive until exit */
    if (d) {
        free(d->path);
        d->path = strdup(dir);
        d->share = true;
        d->tree_crc = tree_crc;
    }
    return d;
}

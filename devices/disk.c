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

extern char **environ;

struct Disk {
    char *path;
    DiskMode mode;
    int fd;           /* the image: O_RDONLY except in DISK_WRITE_THROUGH */
    int ov_fd;        /* COW overlay (unlinked temp file), -1 otherwise */
    uint64_t size;    /* bytes, multiple of DISK_SECTOR */
    uint64_t nsect;
    uint64_t *bitmap; /* COW: bit s set = sector s lives in the overlay */
    uint64_t cow_count;
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

/* ---- --share: ext4 image of a host directory ----------------------------------------------- */

static uint64_t dir_bytes, dir_entries;

static int count_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)path;
    (void)flag;
    (void)ftw;
    dir_bytes += 4096 + (((uint64_t)st->st_size + 4095) & ~4095ull); /* data + inode/dirent */
    dir_entries++;
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
    int wr = nftw(dir, count_entry, 32, FTW_PHYS);
    uint64_t bytes = dir_bytes, inodes = dir_entries + dir_entries / 4 + 1024;
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
    char *argv[] = { (char *)mke2fs, "-q", "-F", "-t", "ext4", "-m", "0", "-N", ninodes,
                     "-L", "malibu-share", "-d", (char *)dir, path, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO); /* its output to stderr, not the console */
    pid_t pid;
    int sr = posix_spawnp(&pid, mke2fs, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
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
    }
    return d;
}

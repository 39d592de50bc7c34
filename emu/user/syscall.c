/* Linux AArch64 system calls (asm-generic numbering) on top of the host (x86-64 Linux) kernel.
 * Guest pointers are guest addresses: every one is validated before the host touches it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "user.h"
#include "tb.h"
#include "native.h"
#include "syscall_nr.h"
#include "syscall_names.h"

/* Newer than the toolchain's <asm/unistd.h>. */
#define GNR_fchmodat2 452
#define GNR_map_shadow_stack 453
#define GNR_statmount 457
#define GNR_listmount 458

UserProc user_proc;

/* A syscall result meaning "registers already set, do not write x0". */
#define SYSRET_KEEP USER_SYSRET_KEEP

/* ---- guest memory helpers ---------------------------------------------------------- */

bool guest_readable(uint64_t addr, uint64_t len)
{
    return guest_access_ok(addr, len, GP_READ);
}

bool guest_writable(uint64_t addr, uint64_t len)
{
    if (!guest_access_ok(addr, len, GP_WRITE))
        return false;
    guest_uncode(addr, len);
    return true;
}

/* How much of [addr, addr+len) is usable from its start (readable, or writable: code pages made
 * writable); the host kernel then copies at most that much, like Linux stopping at a fault. */
static uint64_t guest_prefix(uint64_t addr, uint64_t len, bool write)
{
    if (!len || addr >= GUEST_ADDR_SPACE)
        return 0;
    if (len > GUEST_ADDR_SPACE - addr)
        len = GUEST_ADDR_SPACE - addr;
    uint64_t ok = 0;
    unsigned need = write ? GP_WRITE : GP_READ;
    for (uint64_t p = addr & GPAGE_MASK; p < addr + len; p += GPAGE_SIZE) {
        unsigned f = guest_page_flags(p);
        if (!(f & GP_VALID) || (f & need) != need)
            break;
        ok = p + GPAGE_SIZE - addr;
    }
    if (ok > len)
        ok = len;
    if (write && ok)
        guest_uncode(addr, ok);
    return ok;
}

/* Clamp a buffer length to its usable prefix; EFAULT when nothing is usable. */
#define CLAMP_W(a, l) do { if ((l) != 0) { uint64_t n_ = guest_prefix((a), (l), true); if (!n_) return -EFAULT; (l) = n_; } } while (0)
#define CLAMP_R(a, l) do { if ((l) != 0) { uint64_t n_ = guest_prefix((a), (l), false); if (!n_) return -EFAULT; (l) = n_; } } while (0)

/* A NUL-terminated guest string, in place; NULL when not readable within 1 MiB. */
const char *guest_str(uint64_t addr)
{
    if (!addr)
        return NULL;
    uint64_t p = addr;
    while (p - addr < (1u << 20)) {
        if (!guest_access_ok(p, 1, GP_READ))
            return NULL;
        uint64_t pend = (p & GPAGE_MASK) + GPAGE_SIZE;
        const char *h = g2h(p);
        if (memchr(h, 0, pend - p))
            return g2h(addr);
        p = pend;
    }
    return NULL;
}

static inline long ret_errno(long r)
{
    return r == -1 ? -errno : r;
}

/* Host syscalls that may wait: through user_safe_syscall so that a guest signal interrupts them. */
#define BLK(nr, ...) blk_((nr), __VA_ARGS__)
static inline long blk_6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
    return user_safe_syscall(nr, a1, a2, a3, a4, a5, a6);
}
#define blk_(nr, a1, a2, a3, a4, a5, a6) blk_6((nr), (long)(a1), (long)(a2), (long)(a3), (long)(a4), (long)(a5), (long)(a6))

/* Reads and writes of regular files and block devices never wait, and Linux does not interrupt
 * them: with a signal pending they run as plain calls. */
static bool fd_never_waits(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
}
#define MAY_WAIT(fd) (!*signal_pending_flag() || !fd_never_waits(fd))

#define CHECK_R(a, l) do { if ((l) != 0 && !guest_readable((a), (l))) return -EFAULT; } while (0)
#define CHECK_W(a, l) do { if ((l) != 0 && !guest_writable((a), (l))) return -EFAULT; } while (0)
#define GSTR(var, a) const char *var = guest_str(a); if (!var) return -EFAULT

/* ---- paths ------------------------------------------------------------------------------- */

const char *user_path(const char *g, char *buf, size_t len)
{
    if (!g || g[0] != '/')
        return g;
    if (!strcmp(g, "/proc/self/exe") && user_proc.exe_abs[0])
        return user_proc.exe_abs;
    if (!user_proc.sysroot || g[1] == 0)
        return g;
    if ((size_t)snprintf(buf, len, "%s%s", user_proc.sysroot, g) >= len)
        return g;
    if (faccessat(AT_FDCWD, buf, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
        return buf;
    return g;
}

/* ---- structure conversion -------------------------------------------------------------- */

void stat_to_arm64(const struct stat *st, uint8_t out[128])
{
    memset(out, 0, 128);
#define PUT(off, type, v) do { type t_ = (type)(v); memcpy(out + (off), &t_, sizeof t_); } while (0)
    PUT(0, uint64_t, st->st_dev);
    PUT(8, uint64_t, st->st_ino);
    PUT(16, uint32_t, st->st_mode);
    PUT(20, uint32_t, st->st_nlink);
    PUT(24, uint32_t, st->st_uid);
    PUT(28, uint32_t, st->st_gid);
    PUT(32, uint64_t, st->st_rdev);
    PUT(48, int64_t, st->st_size);
    PUT(56, int32_t, st->st_blksize);
    PUT(64, int64_t, st->st_blocks);
    PUT(72, int64_t, st->st_atim.tv_sec);
    PUT(80, uint64_t, st->st_atim.tv_nsec);
    PUT(88, int64_t, st->st_mtim.tv_sec);
    PUT(96, uint64_t, st->st_mtim.tv_nsec);
    PUT(104, int64_t, st->st_ctim.tv_sec);
    PUT(112, uint64_t, st->st_ctim.tv_nsec);
#undef PUT
}

/* Open flags whose values differ between arm64 and x86-64. */
#define G_O_DIRECTORY 0040000
#define G_O_NOFOLLOW  0100000
#define G_O_DIRECT    0200000
#define G_O_LARGEFILE 0400000
#define G_O_DIFF (G_O_DIRECTORY | G_O_NOFOLLOW | G_O_DIRECT | G_O_LARGEFILE)
#define H_O_DIFF (O_DIRECTORY | O_NOFOLLOW | O_DIRECT | 0100000 /* O_LARGEFILE */)

int oflags_from_guest(int f)
{
    int h = f & ~G_O_DIFF;
    if (f & G_O_DIRECTORY) h |= O_DIRECTORY;
    if (f & G_O_NOFOLLOW) h |= O_NOFOLLOW;
    if (f & G_O_DIRECT) h |= O_DIRECT;
    if (f & G_O_LARGEFILE) h |= 0100000;
    return h;
}

int oflags_to_guest(int h)
{
    int f = h & ~H_O_DIFF;
    if (h & O_DIRECTORY) f |= G_O_DIRECTORY;
    if (h & O_NOFOLLOW) f |= G_O_NOFOLLOW;
    if (h & O_DIRECT) f |= G_O_DIRECT;
    if (h & 0100000) f |= G_O_LARGEFILE;
    return f;
}

/* Guest iovec array -> host iovecs (validated for reading or writing). */
static long iov_from_guest(uint64_t giov, uint64_t cnt, bool to_guest, struct iovec **out)
{
    if (cnt > 1024)
        return -EINVAL;
    CHECK_R(giov, cnt * 16);
    struct iovec *v = calloc(cnt ? cnt : 1, sizeof *v);
    if (!v)
        return -ENOMEM;
    const uint64_t *g = g2h(giov);
    for (uint64_t i = 0; i < cnt; i++) {
        uint64_t b = g[2 * i], l = g[2 * i + 1];
        if (l && !(to_guest ? guest_writable(b, l) : guest_readable(b, l))) {
            free(v);
            return -EFAULT;
        }
        v[i].iov_base = g2h(b);
        v[i].iov_len = l;
    }
    *out = v;
    return 0;
}

/* Names of file mappings, for /proc/self/maps (guest ranges; kept under the mm lock). */
typedef struct MapName {
    uint64_t start, end, off;
    char *name;
} MapName;
static MapName *mnames;
static size_t n_mnames, cap_mnames;

static void names_push(MapName m)
{
    if (n_mnames == cap_mnames) {
        size_t nc = cap_mnames ? cap_mnames * 2 : 64;
        MapName *n = realloc(mnames, nc * sizeof *n);
        if (!n) {
            free(m.name);
            return;
        }
        mnames = n;
        cap_mnames = nc;
    }
    mnames[n_mnames++] = m;
}

/* Forget names in [a, b) (unmapped or mapped over). */
static void names_cut(uint64_t a, uint64_t b)
{
    for (size_t i = 0; i < n_mnames;) {
        MapName *m = &mnames[i];
        if (m->end <= a || m->start >= b) {
            i++;
        } else if (m->start >= a && m->end <= b) {
            free(m->name);
            mnames[i] = mnames[--n_mnames];
        } else if (m->start < a && m->end > b) {
            MapName tail = { b, m->end, m->off + (b - m->start), strdup(m->name) };
            m->end = a;
            if (tail.name)
                names_push(tail);
            i++;
        } else {
            if (m->start < a) {
                m->end = a;
            } else {
                m->off += b - m->start;
                m->start = b;
            }
            i++;
        }
    }
}

void user_map_name(uint64_t start, uint64_t end, uint64_t off, const char *name)
{
    names_cut(start, end);
    char *n = strdup(name);
    if (n)
        names_push((MapName){ start, end, off, n });
}

static void map_name_fd(uint64_t start, uint64_t end, uint64_t off, int fd)
{
    char l[64], b[4096];
    snprintf(l, sizeof l, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(l, b, sizeof b - 1);
    if (n <= 0)
        return;
    b[n] = 0;
    user_map_name(start, end, off, b);
}

/* ---- memory ---------------------------------------------------------------------------------- */

static void flush_if_needed(CPUState *c)
{
    if (c->tbc->flush_pending)
        tbc_flush(c->tbc);
}

static bool range_free(uint64_t a, uint64_t len)
{
    for (uint64_t p = a; p < a + len; p += GPAGE_SIZE)
        if (guest_page_flags(p) & GP_VALID)
            return false;
    return true;
}

static uint64_t mmap_find(uint64_t hint, uint64_t len)
{
    if (hint && !(hint & ~GPAGE_MASK) && guest_addr_ok(hint, len) && hint >= GUEST_MAP_MIN && range_free(hint, len))
        return hint;
    uint64_t a = guest_find_free(user_proc.mmap_next, len);
    if (!a)
        a = guest_find_free(MMAP_BASE, len);
    if (!a)
        a = guest_find_free(GUEST_MAP_MIN, len);
    if (a)
        user_proc.mmap_next = a + len;
    return a;
}

static long sys_mmap(CPUState *c, uint64_t addr, uint64_t len, int prot, int flags, int fd, uint64_t off)
{
    if (!len || (off & ~GPAGE_MASK))
        return -EINVAL;
    if (len > GUEST_ADDR_SPACE)
        return -ENOMEM;
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    int type = flags & 0xf;
    if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
        return -EINVAL;
    bool anon = flags & MAP_ANONYMOUS;
    bool fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
    if (fixed) {
        if (addr & ~GPAGE_MASK)
            return -EINVAL;
        if (!guest_addr_ok(addr, len))
            return -ENOMEM;
        if (addr < GUEST_MAP_MIN)
            return -EPERM;
        if ((flags & MAP_FIXED_NOREPLACE) && !range_free(addr, len))
            return -EEXIST;
    } else {
        addr = mmap_find(addr & GPAGE_MASK, len);
        if (!addr)
            return -ENOMEM;
    }
    if (guest_range_has_code(addr, len))
        c->tbc->flush_pending = 1;
    unsigned gp = prot & (GP_READ | GP_WRITE | GP_EXEC);
    long r;
    if (anon) {
        if (type == MAP_PRIVATE) {
            r = guest_map_anon(addr, len, gp);
            /* As Linux since 6.8 for THP: not thread stacks, whose few touched pages would each
             * take 2 MiB. */
            if (r == 0 && user_proc.huge_pages && len >= GUEST_HUGE_PAGE && !(flags & MAP_STACK))
                guest_advise_huge(addr, len, true);
        } else
            r = guest_map_fd(addr, len, gp, MAP_SHARED, -1, 0);
    } else {
        r = guest_map_fd(addr, len, gp, type == MAP_PRIVATE ? MAP_PRIVATE : MAP_SHARED, fd, off);
        if ((r == -ENODEV || r == -EINVAL) && type == MAP_PRIVATE) {
            /* Not host-mappable: copy the contents into anonymous memory. */
            r = guest_map_anon(addr, len, GP_READ | GP_WRITE);
            if (r == 0) {
                ssize_t n = pread(fd, g2h(addr), len, (off_t)off);
                if (n < 0) {
                    r = -errno;
                    guest_unmap(addr, len);
                } else {
                    guest_protect(addr, len, gp);
                }
            }
        }
    }
    if (r == 0) {
        names_cut(addr, addr + len);
        if (!anon)
            map_name_fd(addr, addr + len, off, fd);
    }
    flush_if_needed(c);
    return r < 0 ? r : (long)addr;
}

static long sys_munmap(CPUState *c, uint64_t addr, uint64_t len)
{
    if ((addr & ~GPAGE_MASK) || !len)
        return -EINVAL;
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (!guest_addr_ok(addr, len))
        return -EINVAL;
    long r = guest_unmap(addr, len);
    names_cut(addr, addr + len);
    flush_if_needed(c);
    return r;
}

static long sys_mprotect(CPUState *c, uint64_t addr, uint64_t len, int prot)
{
    if (addr & ~GPAGE_MASK)
        return -EINVAL;
    if (!len)
        return 0;
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (!guest_addr_ok(addr, len))
        return -ENOMEM;
    if (guest_range_has_code(addr, len) && !(prot & PROT_EXEC))
        c->tbc->flush_pending = 1;
    long r = guest_protect(addr, len, prot & 7);
    flush_if_needed(c);
    return r;
}

static long sys_mremap(CPUState *c, uint64_t old, uint64_t osz, uint64_t nsz, int flags, uint64_t naddr)
{
    if ((old & ~GPAGE_MASK) || !nsz)
        return -EINVAL;
    osz = (osz + GPAGE_SIZE - 1) & GPAGE_MASK;
    nsz = (nsz + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (!osz || !guest_access_ok(old, osz, 0))
        return -EFAULT;
    unsigned prot = guest_page_flags(old) & (GP_READ | GP_WRITE | GP_EXEC);
    if (!(flags & MREMAP_FIXED)) {
        if (nsz <= osz) {
            if (nsz < osz)
                guest_unmap(old + nsz, osz - nsz);
            flush_if_needed(c);
            return (long)old;
        }
        if (guest_addr_ok(old + osz, nsz - osz) && range_free(old + osz, nsz - osz)) {
            long r = guest_map_anon(old + osz, nsz - osz, prot);
            return r < 0 ? r : (long)old;
        }
        if (!(flags & MREMAP_MAYMOVE))
            return -ENOMEM;
        naddr = mmap_find(0, nsz);
        if (!naddr)
            return -ENOMEM;
    } else {
        if ((naddr & ~GPAGE_MASK) || !guest_addr_ok(naddr, nsz))
            return -EINVAL;
        if (!range_free(naddr, nsz))
            guest_unmap(naddr, nsz);
    }
    if (guest_range_has_code(old, osz))
        c->tbc->flush_pending = 1;
    if (mremap(g2h(old), osz, nsz, MREMAP_MAYMOVE | MREMAP_FIXED, g2h(naddr)) == MAP_FAILED)
        return -errno;
    guest_set_mapped(naddr, nsz, prot);
    guest_unmap(old, osz); /* re-reserves the hole the host mremap left */
    names_cut(naddr, naddr + nsz);
    for (size_t i = 0; i < n_mnames; i++) /* a moved file mapping keeps its name */
        if (mnames[i].start == old && mnames[i].end <= old + osz) {
            mnames[i].end = naddr + (mnames[i].end - old);
            mnames[i].start = naddr;
        }
    names_cut(old, old + osz);
    flush_if_needed(c);
    return (long)naddr;
}

static long sys_brk(uint64_t addr)
{
    UserProc *p = &user_proc;
    if (addr < p->brk_start || !guest_addr_ok(addr, 0))
        return (long)p->brk_cur;
    uint64_t end = (addr + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (end > p->brk_mapped_end) {
        if (!guest_addr_ok(p->brk_mapped_end, end - p->brk_mapped_end) || !range_free(p->brk_mapped_end, end - p->brk_mapped_end))
            return (long)p->brk_cur;
        if (guest_map_anon(p->brk_mapped_end, end - p->brk_mapped_end, GP_READ | GP_WRITE) < 0)
            return (long)p->brk_cur;
    } else if (end < p->brk_mapped_end) {
        guest_unmap(end, p->brk_mapped_end - end);
    }
    p->brk_mapped_end = end;
    p->brk_cur = addr;
    return (long)addr;
}

/* ---- files --------------------------------------------------------------------------------- */

static long do_fstatat(int dirfd, uint64_t gpath, uint64_t gbuf, int flags)
{
    struct stat st;
    CHECK_W(gbuf, 128);
    long r;
    if (gpath) {
        GSTR(path, gpath);
        char b[4096];
        r = fstatat(dirfd, user_path(path, b, sizeof b), &st, flags);
    } else {
        r = fstat(dirfd, &st);
    }
    if (r < 0)
        return -errno;
    stat_to_arm64(&st, g2h(gbuf));
    return 0;
}

static bool open_is_readonly(int gflags)
{
    return (gflags & O_ACCMODE) == O_RDONLY && !(gflags & (O_CREAT | O_TRUNC | 020000000 /* O_TMPFILE */));
}

static int cmp_mname(const void *x, const void *y)
{
    const MapName *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

typedef struct MapsCtx {
    FILE *f;
} MapsCtx;

static void maps_emit(FILE *f, uint64_t start, uint64_t end, unsigned fl, uint64_t off, const char *name)
{
    UserProc *p = &user_proc;
    if (!name) {
        name = "";
        if (start >= p->brk_start && end <= p->brk_mapped_end && p->brk_mapped_end > p->brk_start)
            name = "[heap]";
        else if (start < STACK_TOP && end > STACK_TOP - (64ull << 20))
            name = "[stack]";
    }
    fprintf(f, "%010llx-%010llx %c%c%cp %08llx 00:00 0%s%s\n", (unsigned long long)start, (unsigned long long)end,
            fl & GP_READ ? 'r' : '-', fl & GP_WRITE ? 'w' : '-', fl & GP_EXEC ? 'x' : '-', (unsigned long long)off,
            *name ? "                          " : "", name);
}

/* One run of pages with the same protection, split where named file mappings begin and end. */
static void maps_line(uint64_t start, uint64_t end, unsigned f, void *arg)
{
    MapsCtx *m = arg;
    uint64_t cur = start;
    for (size_t i = 0; i < n_mnames && cur < end; i++) {
        const MapName *n = &mnames[i];
        if (n->end <= cur || n->start >= end)
            continue;
        if (n->start > cur) {
            maps_emit(m->f, cur, n->start, f, 0, NULL);
            cur = n->start;
        }
        uint64_t e = n->end < end ? n->end : end;
        maps_emit(m->f, cur, e, f, n->off + (cur - n->start), n->name);
        cur = e;
    }
    if (cur < end)
        maps_emit(m->f, cur, end, f, 0, NULL);
}

static bool is_self_proc(const char *path, const char *what)
{
    char b[64];
    if (!strncmp(path, "/proc/self/", 11))
        return !strcmp(path + 11, what);
    snprintf(b, sizeof b, "/proc/%d/%s", getpid(), what);
    if (!strcmp(path, b))
        return true;
    snprintf(b, sizeof b, "/proc/thread-self/%s", what);
    return !strcmp(path, b);
}

static long open_memfd_with(const char *name, const void *data, size_t len)
{
    int fd = (int)syscall(SYS_memfd_create, name, 0);
    if (fd < 0)
        return -errno;
    if (len && write(fd, data, len) != (ssize_t)len) {
        close(fd);
        return -EIO;
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

static long open_proc_maps(void)
{
    int fd = (int)syscall(SYS_memfd_create, "maps", MFD_CLOEXEC);
    if (fd < 0)
        return -errno;
    int d = dup(fd);
    FILE *f = d >= 0 ? fdopen(d, "w") : NULL;
    if (!f) {
        close(fd);
        return -ENOMEM;
    }
    MapsCtx m = { f };
    user_mm_lock();
    qsort(mnames, n_mnames, sizeof *mnames, cmp_mname);
    guest_mem_walk(maps_line, &m);
    user_mm_unlock();
    fclose(f);
    lseek(fd, 0, SEEK_SET);
    fcntl(fd, F_SETFD, 0);
    return fd;
}

static long sys_openat(int dirfd, uint64_t gpath, int flags, int mode)
{
    GSTR(path, gpath);
    if (is_self_proc(path, "auxv") && user_proc.auxv_len) {
        long fd = open_memfd_with("auxv", user_proc.auxv, user_proc.auxv_len);
        if (fd >= 0 && (flags & O_CLOEXEC))
            fcntl((int)fd, F_SETFD, FD_CLOEXEC);
        return fd;
    }
    if (is_self_proc(path, "maps") || (is_self_proc(path, "cmdline") && user_proc.cmdline)) {
        long fd = is_self_proc(path, "maps") ? open_proc_maps()
                                             : open_memfd_with("cmdline", user_proc.cmdline, user_proc.cmdline_len);
        if (fd >= 0 && (flags & O_CLOEXEC))
            fcntl((int)fd, F_SETFD, FD_CLOEXEC);
        return fd;
    }
    char b[4096];
    const char *hp = path;
    if (open_is_readonly(flags) || !strcmp(path, "/proc/self/exe"))
        hp = user_path(path, b, sizeof b);
    return ret_errno(syscall(SYS_openat, dirfd, hp, oflags_from_guest(flags), mode));
}

static long sys_readlinkat(int dirfd, uint64_t gpath, uint64_t buf, uint64_t sz)
{
    GSTR(path, gpath);
    CLAMP_W(buf, sz);
    if (!strcmp(path, "/proc/self/exe") || (!strncmp(path, "/proc/", 6) && atoi(path + 6) == getpid() &&
                                            strstr(path, "/exe") && strlen(strstr(path, "/exe")) == 4)) {
        size_t n = strlen(user_proc.exe_abs);
        if (n > sz)
            n = sz;
        memcpy(g2h(buf), user_proc.exe_abs, n);
        return (long)n;
    }
    char b[4096];
    return ret_errno(readlinkat(dirfd, user_path(path, b, sizeof b), g2h(buf), sz));
}

static long sys_fcntl(int fd, int cmd, uint64_t arg)
{
    switch (cmd) {
    case F_GETFL: {
        long r = fcntl(fd, F_GETFL);
        return r < 0 ? -errno : oflags_to_guest((int)r);
    }
    case F_SETFL:
        return ret_errno(fcntl(fd, F_SETFL, oflags_from_guest((int)arg)));
    case F_GETLK: case F_SETLK: case F_SETLKW:
    case F_OFD_GETLK: case F_OFD_SETLK: case F_OFD_SETLKW:
        if (cmd == F_GETLK || cmd == F_OFD_GETLK)
            CHECK_W(arg, sizeof(struct flock));
        else
            CHECK_R(arg, sizeof(struct flock));
        return ret_errno(fcntl(fd, cmd, g2h(arg)));
    case F_GETOWN_EX: case F_SETOWN_EX:
        CHECK_W(arg, 8);
        return ret_errno(fcntl(fd, cmd, g2h(arg)));
    case F_DUPFD: case F_DUPFD_CLOEXEC: case F_GETFD: case F_SETFD: case F_SETOWN: case F_GETOWN:
    case F_SETSIG: case F_GETSIG: case F_SETLEASE: case F_GETLEASE: case F_NOTIFY:
    case F_SETPIPE_SZ: case F_GETPIPE_SZ: case F_ADD_SEALS: case F_GET_SEALS:
        return ret_errno(fcntl(fd, cmd, (long)arg));
    default:
        return -EINVAL;
    }
}

static long sys_ioctl(int fd, unsigned long req, uint64_t arg)
{
    switch (req) {
    case TCGETS:
        CHECK_W(arg, 36);
        return ret_errno(ioctl(fd, req, g2h(arg)));
    case TCSETS: case TCSETSW: case TCSETSF:
        CHECK_R(arg, 36);
        return ret_errno(ioctl(fd, req, g2h(arg)));
    case TIOCGWINSZ:
        CHECK_W(arg, 8);
        return ret_errno(ioctl(fd, req, g2h(arg)));
    case TIOCSWINSZ:
        CHECK_R(arg, 8);
        return ret_errno(ioctl(fd, req, g2h(arg)));
    case TIOCGPTN: case TIOCGEXCL: case TIOCGETD: case TIOCMGET:
    case TIOCGPGRP: case FIONREAD: case TIOCOUTQ: case TIOCGSID:
        CHECK_W(arg, 4);
        return ret_errno(ioctl(fd, req, g2h(arg)));
    case TIOCSPTLCK: case TIOCSETD: case TIOCMSET: case TIOCMBIS: case TIOCMBIC:
    case TIOCSPGRP: case FIONBIO: case FIOASYNC:
        CHECK_R(arg, 4);
        return ret_errno(ioctl(fd, req, g2h(arg)));
    case TIOCGPTPEER:
        return ret_errno(ioctl(fd, req, (unsigned long)oflags_from_guest((int)arg)));
    case TIOCEXCL: case TIOCNXCL: case TIOCSBRK: case TIOCCBRK: case TCSBRKP:
    case FIOCLEX: case FIONCLEX: case TCFLSH: case TCXONC: case TCSBRK: case TIOCSCTTY: case TIOCNOTTY:
        return ret_errno(ioctl(fd, req, (unsigned long)arg));
    default: {
        /* Unknown requests: a tty/terminal query on a non-tty gives ENOTTY, like Linux. */
        struct stat st;
        if (fstat(fd, &st) < 0)
            return -EBADF;
        return -ENOTTY;
    }
    }
}

/* A guest sigset (at guest address g, 8 bytes, already validated) in host numbering. */
static uint64_t host_sigset(uint64_t g)
{
    uint64_t m, h = 0;
    memcpy(&m, g2h(g), 8);
    for (int i = 1; i <= 64; i++)
        if ((m >> (i - 1)) & 1) {
            int hs = signal_g2h(i);
            if (hs && hs != SIGSEGV && hs != SIGBUS)
                h |= 1ull << (hs - 1);
        }
    return h;
}

static long sys_pselect6(int n, uint64_t in, uint64_t out, uint64_t ex, uint64_t ts, uint64_t sig)
{
    size_t fsz = ((size_t)(n < 0 ? 0 : n) + 63) / 64 * 8;
    if (n < 0 || n > 65536)
        return -EINVAL;
    if (in) CHECK_W(in, fsz);
    if (out) CHECK_W(out, fsz);
    if (ex) CHECK_W(ex, fsz);
    if (ts) CHECK_W(ts, 16);
    struct { void *ss; size_t len; } hs, *hsp = NULL;
    uint64_t hmask;
    if (sig) {
        CHECK_R(sig, 16);
        const uint64_t *g = g2h(sig);
        hs.ss = NULL;
        hs.len = g[1];
        if (g[0]) {
            CHECK_R(g[0], 8);
            hmask = host_sigset(g[0]);
            hs.ss = &hmask;
        }
        hsp = &hs;
    }
    return BLK(SYS_pselect6, n, in ? g2h(in) : NULL, out ? g2h(out) : NULL, ex ? g2h(ex) : NULL,
               ts ? g2h(ts) : NULL, hsp);
}

static long sys_epoll_ctl(int epfd, int op, int fd, uint64_t gev)
{
    struct epoll_event ev = { 0 };
    if (op != EPOLL_CTL_DEL || gev) {
        if (gev) {
            CHECK_R(gev, 16);
            const uint8_t *g = g2h(gev);
            memcpy(&ev.events, g, 4);
            memcpy(&ev.data.u64, g + 8, 8);
        } else if (op != EPOLL_CTL_DEL) {
            return -EFAULT;
        }
    }
    return ret_errno(epoll_ctl(epfd, op, fd, &ev));
}

static long sys_epoll_pwait(int epfd, uint64_t gev, int maxev, int timeout, uint64_t sigmask, uint64_t sss)
{
    if (maxev <= 0 || maxev > 65536)
        return -EINVAL;
    CHECK_W(gev, (uint64_t)maxev * 16);
    if (sigmask)
        CHECK_R(sigmask, 8);
    struct epoll_event *ev = calloc((size_t)maxev, sizeof *ev);
    if (!ev)
        return -ENOMEM;
    uint64_t hmask = sigmask ? host_sigset(sigmask) : 0;
    long r = BLK(SYS_epoll_pwait, epfd, ev, maxev, timeout, sigmask ? &hmask : NULL, sss);
    for (long i = 0; i < r; i++) {
        uint8_t *g = (uint8_t *)g2h(gev) + 16 * i;
        uint32_t e = ev[i].events, pad = 0;
        uint64_t d = ev[i].data.u64;
        memcpy(g, &e, 4);
        memcpy(g + 4, &pad, 4);
        memcpy(g + 8, &d, 8);
    }
    free(ev);
    return r;
}

/* struct msghdr is laid out the same on arm64 and x86-64; pointers need translating. */
static long msg_from_guest(uint64_t gmsg, bool recv, struct msghdr *m, struct iovec **iov)
{
    CHECK_R(gmsg, 56);
    const uint8_t *g = g2h(gmsg);
    uint64_t name, iovp, iovlen, ctl, ctllen;
    uint32_t namelen, flags;
    memcpy(&name, g, 8);
    memcpy(&namelen, g + 8, 4);
    memcpy(&iovp, g + 16, 8);
    memcpy(&iovlen, g + 24, 8);
    memcpy(&ctl, g + 32, 8);
    memcpy(&ctllen, g + 40, 8);
    memcpy(&flags, g + 48, 4);
    memset(m, 0, sizeof *m);
    if (name) {
        if (recv) CHECK_W(name, namelen); else CHECK_R(name, namelen);
        m->msg_name = g2h(name);
        m->msg_namelen = namelen;
    }
    if (ctl) {
        if (recv) CHECK_W(ctl, ctllen); else CHECK_R(ctl, ctllen);
        m->msg_control = g2h(ctl);
        m->msg_controllen = ctllen;
    }
    m->msg_flags = (int)flags;
    long r = iov_from_guest(iovp, iovlen, recv, iov);
    if (r < 0)
        return r;
    m->msg_iov = *iov;
    m->msg_iovlen = iovlen;
    return 0;
}

static long sys_sendrecvmsg(int fd, uint64_t gmsg, int flags, bool recv)
{
    struct msghdr m;
    struct iovec *iov = NULL;
    long r = msg_from_guest(gmsg, recv, &m, &iov);
    if (r < 0)
        return r;
    r = BLK(recv ? SYS_recvmsg : SYS_sendmsg, fd, &m, flags, 0, 0, 0);
    if (recv && r >= 0 && guest_writable(gmsg, 56)) {
        uint8_t *g = g2h(gmsg);
        uint32_t nl = m.msg_namelen, fl = (uint32_t)m.msg_flags;
        uint64_t cl = m.msg_controllen;
        memcpy(g + 8, &nl, 4);
        memcpy(g + 40, &cl, 8);
        memcpy(g + 48, &fl, 4);
    }
    free(iov);
    return r;
}

/* RLIMIT_AS and RLIMIT_DATA are the guest's own: applied to this process they would count the
 * reserved guest window and the translation caches.  Recorded and reported, not enforced. */
static struct rlimit vm_rlimit[2] = { { RLIM_INFINITY, RLIM_INFINITY }, { RLIM_INFINITY, RLIM_INFINITY } };
static bool vm_rlimit_init;

static long sys_vm_rlimit(int res, uint64_t newp, uint64_t oldp)
{
    int i = res == RLIMIT_AS ? 0 : 1;
    if (!vm_rlimit_init) {
        getrlimit(RLIMIT_AS, &vm_rlimit[0]);
        getrlimit(RLIMIT_DATA, &vm_rlimit[1]);
        vm_rlimit_init = true;
    }
    struct rlimit n;
    if (newp) {
        memcpy(&n, g2h(newp), sizeof n);
        if (n.rlim_cur > n.rlim_max)
            return -EINVAL;
        if (n.rlim_max > vm_rlimit[i].rlim_max && geteuid() != 0)
            return -EPERM;
    }
    if (oldp)
        memcpy(g2h(oldp), &vm_rlimit[i], sizeof n);
    if (newp)
        vm_rlimit[i] = n;
    return 0;
}

/* ---- System V IPC -------------------------------------------------------------------------- */

/* Attached shared-memory segments (guest address, size), for shmdt. */
static struct { uint64_t addr, size; } shm_att[256];

static long sys_shmat(CPUState *c, int id, uint64_t addr, int flags)
{
    struct shmid_ds ds;
    if (shmctl(id, IPC_STAT, &ds) < 0)
        return -errno;
    uint64_t size = (ds.shm_segsz + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (addr) {
        if (flags & SHM_RND)
            addr &= GPAGE_MASK;
        if ((addr & ~GPAGE_MASK) || !guest_addr_ok(addr, size))
            return -EINVAL;
        if (!(flags & SHM_REMAP) && !range_free(addr, size))
            return -EINVAL;
    } else {
        addr = mmap_find(0, size);
        if (!addr)
            return -ENOMEM;
    }
    int slot = -1;
    for (int i = 0; i < 256 && slot < 0; i++)
        if (!shm_att[i].size)
            slot = i;
    if (slot < 0)
        return -EMFILE;
    if (guest_range_has_code(addr, size))
        c->tbc->flush_pending = 1;
    void *h = shmat(id, g2h(addr), (flags & (SHM_RDONLY | SHM_EXEC)) | SHM_REMAP);
    if (h == (void *)-1)
        return -errno;
    unsigned prot = GP_READ | ((flags & SHM_RDONLY) ? 0 : GP_WRITE) | ((flags & SHM_EXEC) ? GP_EXEC : 0);
    guest_set_mapped(addr, size, prot);
    shm_att[slot].addr = addr;
    shm_att[slot].size = size;
    flush_if_needed(c);
    return (long)addr;
}

static long sys_shmdt(CPUState *c, uint64_t addr)
{
    for (int i = 0; i < 256; i++)
        if (shm_att[i].size && shm_att[i].addr == addr) {
            if (shmdt(g2h(addr)) < 0)
                return -errno;
            guest_unmap(addr, shm_att[i].size); /* re-reserve the hole */
            names_cut(addr, addr + shm_att[i].size);
            shm_att[i].size = 0;
            flush_if_needed(c);
            return 0;
        }
    return -EINVAL;
}

/* struct semid64_ds: arm64 (generic) has no padding words after the times, x86-64 does. */
static long sys_semctl(int id, int num, int cmd, uint64_t arg)
{
    union { int val; void *buf; unsigned short *array; struct seminfo *info; } u;
    switch (cmd & 0xff) {
    case IPC_STAT: case SEM_STAT: case SEM_STAT_ANY: case IPC_SET: {
        CHECK_W(arg, 104);
        uint8_t host[120], *g = g2h(arg);
        memset(host, 0, sizeof host);
        if ((cmd & 0xff) == IPC_SET) {
            memcpy(host, g, 48);                 /* ipc64_perm */
            memcpy(host + 48, g + 48, 8);        /* otime */
            memcpy(host + 64, g + 56, 8);        /* ctime */
            memcpy(host + 80, g + 64, 8);        /* nsems */
        }
        u.buf = host;
        long r = ret_errno(syscall(SYS_semctl, id, num, cmd, u.buf));
        if (r >= 0 && (cmd & 0xff) != IPC_SET) {
            memset(g, 0, 104);
            memcpy(g, host, 48);
            memcpy(g + 48, host + 48, 8);
            memcpy(g + 56, host + 64, 8);
            memcpy(g + 64, host + 80, 8);
        }
        return r;
    }
    case GETALL: case SETALL: {
        struct semid_ds ds;
        if (semctl(id, 0, IPC_STAT, &ds) < 0)
            return -errno;
        uint64_t n = ds.sem_nsems * 2;
        if ((cmd & 0xff) == GETALL) CHECK_W(arg, n); else CHECK_R(arg, n);
        u.array = g2h(arg);
        return ret_errno(syscall(SYS_semctl, id, num, cmd, u.array));
    }
    case IPC_INFO: case SEM_INFO:
        CHECK_W(arg, sizeof(struct seminfo));
        u.info = g2h(arg);
        return ret_errno(syscall(SYS_semctl, id, num, cmd, u.info));
    default:
        return ret_errno(syscall(SYS_semctl, id, num, cmd, (long)(int)arg));
    }
}

/* ---- processes ----------------------------------------------------------------------------- */

static long do_fork(CPUState *c, uint64_t flags, uint64_t newsp, uint64_t ptid, uint64_t tls, uint64_t ctid)
{
    if (flags & CLONE_THREAD)
        return user_clone_thread(c, flags, newsp, ptid, tls, ctid);
    if ((flags & CLONE_VM) && !(flags & CLONE_VFORK)) {
        fprintf(stderr, "malibu-user: clone with CLONE_VM but neither CLONE_THREAD nor CLONE_VFORK is not supported\n");
        return -EINVAL;
    }
    /* fork, and vfork as fork (the child gets a copy instead of sharing until exec) */
    if ((flags & CLONE_PARENT_SETTID) && !guest_writable(ptid, 4))
        return -EFAULT;
    if ((flags & CLONE_CHILD_SETTID) && !guest_writable(ctid, 4))
        return -EFAULT;
    long pid = user_fork((int)(flags & CSIGNAL));
    if (pid < 0)
        return pid;
    if (pid == 0) {
        if (newsp)
            c->x[REG_SP] = newsp;
        if (flags & CLONE_SETTLS)
            c->tpidr_el0 = tls;
        if (flags & CLONE_CHILD_SETTID) {
            int32_t t = (int32_t)gettid();
            memcpy(g2h(ctid), &t, 4);
        }
        return 0;
    }
    if (flags & CLONE_PARENT_SETTID) {
        int32_t t = (int32_t)pid;
        memcpy(g2h(ptid), &t, 4);
    }
    return pid;
}

static long sys_clone3(CPUState *c, uint64_t ga, uint64_t size)
{
    if (size < 64 || size > 4096)
        return -EINVAL;
    CHECK_R(ga, size);
    uint64_t a[11] = { 0 };
    memcpy(a, g2h(ga), size < sizeof a ? size : sizeof a);
    /* flags pidfd child_tid parent_tid exit_signal stack stack_size tls set_tid set_tid_size cgroup */
    if (a[1] && (a[0] & CLONE_PIDFD))
        return -EINVAL;
    if (a[9])
        return -EINVAL;
    uint64_t sp = a[5] ? a[5] + a[6] : 0;
    return do_fork(c, (a[0] & ~(uint64_t)CSIGNAL) | (a[4] & CSIGNAL), sp, a[3], a[7], a[2]);
}

/* Read a NULL-terminated guest pointer array into a host argv (strings stay in place). */
static char **guest_argv(uint64_t g, long *err)
{
    size_t n = 0, cap = 16;
    char **v = malloc(cap * sizeof *v);
    if (!v) {
        *err = -ENOMEM;
        return NULL;
    }
    for (;; n++) {
        if (g && !guest_readable(g + 8 * n, 8)) {
            free(v);
            *err = -EFAULT;
            return NULL;
        }
        uint64_t p = 0;
        if (g)
            memcpy(&p, g2h(g + 8 * n), 8);
        if (n + 2 >= cap) {
            cap *= 2;
            char **nv = realloc(v, cap * sizeof *v);
            if (!nv) {
                free(v);
                *err = -ENOMEM;
                return NULL;
            }
            v = nv;
        }
        if (!p)
            break;
        const char *s = guest_str(p);
        if (!s) {
            free(v);
            *err = -EFAULT;
            return NULL;
        }
        v[n] = (char *)s;
    }
    v[n] = NULL;
    return v;
}

/* Is the file something this runner can execute (AArch64 ELF or #! script)? */
static long check_exec_file(const char *hpath)
{
    int fd = open(hpath, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    unsigned char h[20];
    ssize_t n = read(fd, h, sizeof h);
    close(fd);
    if (n >= 2 && h[0] == '#' && h[1] == '!')
        return 0;
    if (n >= 20 && !memcmp(h, "\177ELF", 4) && h[4] == 2 && h[18] == 183 && h[19] == 0)
        return 0;
    return -ENOEXEC;
}

static long exec_common(const char *path, uint64_t gargv, uint64_t genvp);

static long sys_execve(uint64_t gpath, uint64_t gargv, uint64_t genvp)
{
    GSTR(path, gpath);
    return exec_common(path, gargv, genvp);
}

static long sys_execveat(int dirfd, uint64_t gpath, uint64_t gargv, uint64_t genvp, int flags)
{
    GSTR(path, gpath);
    static char b[4200];
    if (path[0] == '/' || (dirfd == AT_FDCWD && path[0]))
        return exec_common(path, gargv, genvp);
    if (!path[0]) {
        if (!(flags & AT_EMPTY_PATH))
            return -ENOENT;
        char l[64];
        snprintf(l, sizeof l, "/proc/self/fd/%d", dirfd);
        ssize_t n = readlink(l, b, sizeof b - 1);
        if (n < 0)
            return -EBADF;
        b[n] = 0;
    } else {
        char l[64];
        snprintf(l, sizeof l, "/proc/self/fd/%d", dirfd);
        char d[4096];
        ssize_t n = readlink(l, d, sizeof d - 1);
        if (n < 0)
            return -EBADF;
        d[n] = 0;
        snprintf(b, sizeof b, "%s/%s", d, path);
    }
    return exec_common(b, gargv, genvp);
}

static long exec_common(const char *path, uint64_t gargv, uint64_t genvp)
{
    char b[4096];
    const char *hp = user_path(path, b, sizeof b);
    if (access(hp, X_OK) < 0)
        return -errno;
    struct stat st;
    if (stat(hp, &st) == 0 && !S_ISREG(st.st_mode))
        return -EACCES;
    long r = check_exec_file(hp);
    if (r < 0 && r != -ENOEXEC)
        return r;
    char **av = guest_argv(gargv, &r);
    if (!av)
        return r;
    char **ev = guest_argv(genvp, &r);
    if (!ev) {
        free(av);
        return r;
    }
    if (r == -ENOEXEC) {
        /* Not an AArch64 program: let the host run it (a host /bin/sh, like qemu-aarch64 does). */
        signal_prepare_exec();
        execve(hp, av, ev);
        r = -errno;
        signal_exec_failed();
        free(av);
        free(ev);
        return r;
    }
    size_t ac = 0;
    while (av[ac])
        ac++;
    char **hv = calloc(ac + 20, sizeof *hv);
    size_t k = 0;
    hv[k++] = user_proc.self_exe;
    if (user_proc.sysroot) {
        hv[k++] = "--sysroot";
        hv[k++] = (char *)user_proc.sysroot;
    } else {
        hv[k++] = "--sysroot";
        hv[k++] = "";
    }
    if (user_proc.strace)
        hv[k++] = "--strace";
    hv[k++] = "--backend";
    hv[k++] = native_backend() == BACKEND_NATIVE ? "native" : "portable";
    hv[k++] = "--cpu";
    hv[k++] = cpu_model == CPU_MODEL_A57 ? "a57" : "max";
    hv[k++] = "--huge-pages";
    hv[k++] = user_proc.huge_pages ? "on" : "off";
    hv[k++] = "--guest-base";
    hv[k++] = user_proc.window_base ? "window" : "zero";
    static char dbg[32];
    snprintf(dbg, sizeof dbg, "%s%s%s", user_proc.debug_exc ? "exc," : "", user_proc.debug_sig ? "sig," : "",
             user_proc.exit_hook ? "stats," : "");
    if (dbg[0]) {
        hv[k++] = "-d";
        hv[k++] = dbg;
    }
    hv[k++] = "--argv0";
    hv[k++] = ac ? av[0] : (char *)path;
    hv[k++] = "--";
    /* /proc/self/exe names this process's program, which the new runner would not know */
    hv[k++] = (char *)(hp == user_proc.exe_abs ? user_proc.exe_abs : path);
    for (size_t i = 1; i < ac; i++)
        hv[k++] = av[i];
    hv[k] = NULL;
    signal_prepare_exec();
    execve(user_proc.self_exe, hv, ev);
    r = -errno;
    signal_exec_failed();
    free(hv);
    free(av);
    free(ev);
    return r;
}

static long sys_kill_like(int nr, long a0, long a1, long a2)
{
    int sig = nr == GNR_tgkill ? (int)a2 : (int)a1;
    bool fault = sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP;
    if (sig < 0 || sig > 64)
        return -EINVAL;
    bool self = false;
    if (nr == GNR_kill)
        self = (pid_t)a0 == getpid();
    else if (nr == GNR_tkill)
        self = (pid_t)a0 == gettid();
    else
        self = (pid_t)a0 == getpid() && (pid_t)a1 == gettid();
    if (self && fault) {
        signal_queue_self(sig, nr == GNR_kill ? SI_USER : SI_TKILL);
        return 0;
    }
    int hsig = sig ? signal_g2h(sig) : 0;
    if (sig && !hsig)
        return self ? 0 : -EINVAL; /* guest 63/64: nowhere to send them */
    switch (nr) {
    case GNR_kill: return ret_errno(kill((pid_t)a0, hsig));
    case GNR_tkill: return ret_errno(syscall(SYS_tkill, (pid_t)a0, hsig));
    default: return ret_errno(syscall(SYS_tgkill, (pid_t)a0, (pid_t)a1, hsig));
    }
}

static long sys_futex(uint64_t uaddr, int op, uint32_t val, uint64_t a3, uint64_t uaddr2, uint32_t val3)
{
    int cmd = op & FUTEX_CMD_MASK;
    CHECK_R(uaddr, 4);
    void *ts = NULL;
    uint64_t val2 = 0;
    switch (cmd) {
    case FUTEX_WAIT: case FUTEX_WAIT_BITSET: case FUTEX_LOCK_PI: case FUTEX_LOCK_PI2:
    case FUTEX_WAIT_REQUEUE_PI:
        if (a3) {
            CHECK_R(a3, 16);
            ts = g2h(a3);
        }
        break;
    default:
        val2 = a3;
        break;
    }
    void *u2 = NULL;
    if (cmd == FUTEX_REQUEUE || cmd == FUTEX_CMP_REQUEUE || cmd == FUTEX_WAKE_OP ||
        cmd == FUTEX_CMP_REQUEUE_PI || cmd == FUTEX_WAIT_REQUEUE_PI) {
        CHECK_W(uaddr2, 4);
        u2 = g2h(uaddr2);
    }
    if (cmd == FUTEX_WAKE_OP || cmd == FUTEX_LOCK_PI || cmd == FUTEX_UNLOCK_PI || cmd == FUTEX_TRYLOCK_PI)
        CHECK_W(uaddr, 4);
    return BLK(SYS_futex, g2h(uaddr), op, val, ts ? ts : (void *)val2, u2, val3);
}

/* ---- dispatch ------------------------------------------------------------------------------- */

static bool restartable(int nr)
{
    switch (nr) {
    case GNR_read: case GNR_write: case GNR_readv: case GNR_writev: case GNR_pread64: case GNR_pwrite64:
    case GNR_openat: case GNR_wait4: case GNR_waitid: case GNR_ioctl: case GNR_futex: case GNR_fcntl:
    case GNR_flock: case GNR_accept: case GNR_accept4: case GNR_connect: case GNR_recvfrom: case GNR_sendto:
    case GNR_recvmsg: case GNR_sendmsg: case GNR_preadv: case GNR_pwritev: case GNR_sendfile:
    case GNR_splice: case GNR_copy_file_range:
        return true;
    default:
        return false;
    }
}

static bool may_block(unsigned nr, uint64_t a0, uint64_t a1)
{
    struct stat st;
    switch (nr) {
    case GNR_read: case GNR_readv:
        /* regular files and block devices never wait (Linux would not interrupt them) */
        return fstat((int)a0, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
    case GNR_wait4: case GNR_waitid: case GNR_accept: case GNR_accept4:
    case GNR_recvfrom: case GNR_recvmsg: case GNR_nanosleep: case GNR_clock_nanosleep: case GNR_ppoll:
    case GNR_pselect6: case GNR_epoll_pwait: case GNR_flock:
        return true;
    case GNR_futex:
        return ((int)a1 & FUTEX_CMD_MASK) == FUTEX_WAIT || ((int)a1 & FUTEX_CMD_MASK) == FUTEX_WAIT_BITSET;
    default:
        return false;
    }
}

static const char *sc_name(unsigned nr)
{
    if (nr < sizeof syscall_names / sizeof syscall_names[0] && syscall_names[nr])
        return syscall_names[nr];
    switch (nr) {
    case GNR_fchmodat2: return "fchmodat2";
    case GNR_map_shadow_stack: return "map_shadow_stack";
    case 454: return "futex_wake";
    case 455: return "futex_wait";
    case 456: return "futex_requeue";
    case GNR_statmount: return "statmount";
    case GNR_listmount: return "listmount";
    case 459: return "lsm_get_self_attr";
    case 460: return "lsm_set_self_attr";
    case 461: return "lsm_list_modules";
    case 462: return "mseal";
    }
    return "?";
}

static long unsupported(unsigned nr)
{
    static uint8_t said[1024]; /* one line per syscall number */
    if (nr >= sizeof said || !__atomic_exchange_n(&said[nr], 1, __ATOMIC_RELAXED))
        fprintf(stderr, "malibu-user: unsupported syscall %u (%s)\n", nr, sc_name(nr));
    return -ENOSYS;
}

#define PATHARG(var, a) GSTR(var##_g, a); char var##_b[4096]; const char *var = user_path(var##_g, var##_b, sizeof var##_b)
#define RAWPATH(var, a) GSTR(var, a)

static long do_syscall(CPUState *c, unsigned nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                       uint64_t a4, uint64_t a5)
{
    long r;
    switch (nr) {
    /* ---- files ---- */
    case GNR_openat:
        return sys_openat((int)a0, a1, (int)a2, (int)a3);
    case GNR_close:
        return ret_errno(close((int)a0));
    case GNR_close_range:
        return ret_errno(syscall(SYS_close_range, (unsigned)a0, (unsigned)a1, (unsigned)a2));
    case GNR_read:
        CLAMP_W(a1, a2);
        if (MAY_WAIT((int)a0))
            return BLK(SYS_read, (int)a0, g2h(a1), a2, 0, 0, 0);
        return ret_errno(read((int)a0, g2h(a1), a2));
    case GNR_write:
        CLAMP_R(a1, a2);
        if (MAY_WAIT((int)a0))
            return BLK(SYS_write, (int)a0, g2h(a1), a2, 0, 0, 0);
        return ret_errno(write((int)a0, g2h(a1), a2));
    case GNR_pread64:
        CLAMP_W(a1, a2);
        return ret_errno(pread((int)a0, g2h(a1), a2, (off_t)a3));
    case GNR_pwrite64:
        CLAMP_R(a1, a2);
        return ret_errno(pwrite((int)a0, g2h(a1), a2, (off_t)a3));
    case GNR_readv: case GNR_writev: case GNR_preadv: case GNR_pwritev: {
        bool rd = nr == GNR_readv || nr == GNR_preadv;
        struct iovec *v;
        if ((r = iov_from_guest(a1, a2, rd, &v)) < 0)
            return r;
        if (nr == GNR_readv || nr == GNR_writev)
            r = MAY_WAIT((int)a0) ? BLK(nr == GNR_readv ? SYS_readv : SYS_writev, (int)a0, v, (int)a2, 0, 0, 0)
                                  : ret_errno(nr == GNR_readv ? readv((int)a0, v, (int)a2) : writev((int)a0, v, (int)a2));
        else if (nr == GNR_preadv) r = ret_errno(preadv((int)a0, v, (int)a2, (off_t)a3));
        else r = ret_errno(pwritev((int)a0, v, (int)a2, (off_t)a3));
        free(v);
        return r;
    }
    case GNR_lseek:
        return ret_errno(lseek((int)a0, (off_t)a1, (int)a2));
    case GNR_fstat:
        return do_fstatat((int)a0, 0, a1, 0);
    case GNR_fstatat:
        return do_fstatat((int)a0, a1, a2, (int)a3);
    case GNR_statx: {
        PATHARG(p, a1);
        CHECK_W(a4, 256);
        return ret_errno(syscall(SYS_statx, (int)a0, p, (int)a2, (unsigned)a3, g2h(a4)));
    }
    case GNR_getdents64: {
        struct stat st;
        if (fstat((int)a0, &st) < 0)
            return -errno;
        if (!S_ISDIR(st.st_mode))
            return -ENOTDIR;
        CLAMP_W(a1, a2);
    }
        return ret_errno(syscall(SYS_getdents64, (int)a0, g2h(a1), (unsigned)a2));
    case GNR_faccessat: {
        PATHARG(p, a1);
        return ret_errno(syscall(SYS_faccessat, (int)a0, p, (int)a2));
    }
    case GNR_faccessat2: {
        PATHARG(p, a1);
        return ret_errno(syscall(SYS_faccessat2, (int)a0, p, (int)a2, (int)a3));
    }
    case GNR_readlinkat:
        return sys_readlinkat((int)a0, a1, a2, a3);
    case GNR_mkdirat: {
        RAWPATH(p, a1);
        return ret_errno(mkdirat((int)a0, p, (mode_t)a2));
    }
    case GNR_mknodat: {
        RAWPATH(p, a1);
        return ret_errno(mknodat((int)a0, p, (mode_t)a2, (dev_t)a3));
    }
    case GNR_unlinkat: {
        RAWPATH(p, a1);
        return ret_errno(unlinkat((int)a0, p, (int)a2));
    }
    case GNR_symlinkat: {
        RAWPATH(t, a0);
        RAWPATH(p, a2);
        return ret_errno(symlinkat(t, (int)a1, p));
    }
    case GNR_linkat: {
        RAWPATH(o, a1);
        RAWPATH(n, a3);
        return ret_errno(linkat((int)a0, o, (int)a2, n, (int)a4));
    }
    case GNR_renameat: {
        RAWPATH(o, a1);
        RAWPATH(n, a3);
        return ret_errno(renameat((int)a0, o, (int)a2, n));
    }
    case GNR_renameat2: {
        RAWPATH(o, a1);
        RAWPATH(n, a3);
        return ret_errno(syscall(SYS_renameat2, (int)a0, o, (int)a2, n, (unsigned)a4));
    }
    case GNR_fchmod:
        return ret_errno(fchmod((int)a0, (mode_t)a1));
    case GNR_fchmodat: {
        RAWPATH(p, a1);
        return ret_errno(syscall(SYS_fchmodat, (int)a0, p, (mode_t)a2));
    }
    case GNR_fchown:
        return ret_errno(fchown((int)a0, (uid_t)a1, (gid_t)a2));
    case GNR_fchownat: {
        RAWPATH(p, a1);
        return ret_errno(fchownat((int)a0, p, (uid_t)a2, (gid_t)a3, (int)a4));
    }
    case GNR_utimensat: {
        const char *p = NULL;
        if (a1) {
            p = guest_str(a1);
            if (!p)
                return -EFAULT;
        }
        if (a2)
            CHECK_R(a2, 32);
        return ret_errno(syscall(SYS_utimensat, (int)a0, p, a2 ? g2h(a2) : NULL, (int)a3));
    }
    case GNR_truncate: {
        RAWPATH(p, a0);
        return ret_errno(truncate(p, (off_t)a1));
    }
    case GNR_ftruncate:
        return ret_errno(ftruncate((int)a0, (off_t)a1));
    case GNR_fallocate:
        return ret_errno(fallocate((int)a0, (int)a1, (off_t)a2, (off_t)a3));
    case GNR_fadvise64:
        return -posix_fadvise((int)a0, (off_t)a1, (off_t)a2, (int)a3);
    case GNR_fsync:
        return ret_errno(fsync((int)a0));
    case GNR_fdatasync:
        return ret_errno(fdatasync((int)a0));
    case GNR_sync:
        sync();
        return 0;
    case GNR_syncfs:
        return ret_errno(syncfs((int)a0));
    case GNR_sync_file_range:
        return ret_errno(sync_file_range((int)a0, (off_t)a1, (off_t)a2, (unsigned)a3));
    case GNR_fcntl:
        return sys_fcntl((int)a0, (int)a1, a2);
    case GNR_dup:
        return ret_errno(dup((int)a0));
    case GNR_dup3:
        return ret_errno(dup3((int)a0, (int)a1, oflags_from_guest((int)a2)));
    case GNR_pipe2:
        CHECK_W(a0, 8);
        return ret_errno(pipe2(g2h(a0), oflags_from_guest((int)a1)));
    case GNR_ioctl:
        return sys_ioctl((int)a0, (unsigned long)a1, a2);
    case GNR_getcwd:
        CHECK_W(a0, a1);
        return ret_errno(syscall(SYS_getcwd, g2h(a0), a1));
    case GNR_chdir: {
        RAWPATH(p, a0);
        return ret_errno(chdir(p));
    }
    case GNR_fchdir:
        return ret_errno(fchdir((int)a0));
    case GNR_chroot:
        return -EPERM;
    case GNR_statfs: {
        PATHARG(p, a0);
        CHECK_W(a1, 120);
        return ret_errno(syscall(SYS_statfs, p, g2h(a1)));
    }
    case GNR_fstatfs:
        CHECK_W(a1, 120);
        return ret_errno(syscall(SYS_fstatfs, (int)a0, g2h(a1)));
    case GNR_umask:
        return umask((mode_t)a0);
    case GNR_flock:
        return BLK(SYS_flock, (int)a0, (int)a1, 0, 0, 0, 0);
    case GNR_sendfile:
        if (a2)
            CHECK_W(a2, 8);
        return ret_errno(sendfile((int)a0, (int)a1, a2 ? g2h(a2) : NULL, a3));
    case GNR_copy_file_range:
        if (a1) CHECK_W(a1, 8);
        if (a3) CHECK_W(a3, 8);
        return ret_errno(copy_file_range((int)a0, a1 ? g2h(a1) : NULL, (int)a2, a3 ? g2h(a3) : NULL, a4, (unsigned)a5));
    case GNR_splice:
        if (a1) CHECK_W(a1, 8);
        if (a3) CHECK_W(a3, 8);
        return ret_errno(splice((int)a0, a1 ? g2h(a1) : NULL, (int)a2, a3 ? g2h(a3) : NULL, a4, (unsigned)a5));
    case GNR_memfd_create: {
        RAWPATH(p, a0);
        return ret_errno(syscall(SYS_memfd_create, p, (unsigned)a1));
    }
    case GNR_eventfd2:
        return ret_errno(syscall(SYS_eventfd2, (unsigned)a0, oflags_from_guest((int)a1)));
    case GNR_ppoll:
        CHECK_W(a0, a1 * 8);
        if (a2) CHECK_W(a2, 16);
        if (a3) CHECK_R(a3, 8);
    {
        uint64_t hmask = a3 ? host_sigset(a3) : 0;
        return BLK(SYS_ppoll, g2h(a0), a1, a2 ? g2h(a2) : NULL, a3 ? &hmask : NULL, a4, 0);
    }
    case GNR_pselect6:
        return sys_pselect6((int)a0, a1, a2, a3, a4, a5);
    case GNR_epoll_create1:
        return ret_errno(epoll_create1(oflags_from_guest((int)a0)));
    case GNR_epoll_ctl:
        return sys_epoll_ctl((int)a0, (int)a1, (int)a2, a3);
    case GNR_epoll_pwait:
        return sys_epoll_pwait((int)a0, a1, (int)a2, (int)a3, a4, a5);
    case GNR_timerfd_create:
        return ret_errno(syscall(SYS_timerfd_create, (int)a0, oflags_from_guest((int)a1)));
    case GNR_timerfd_settime:
        CHECK_R(a2, 32);
        if (a3) CHECK_W(a3, 32);
        return ret_errno(syscall(SYS_timerfd_settime, (int)a0, (int)a1, g2h(a2), a3 ? g2h(a3) : NULL));
    case GNR_timerfd_gettime:
        CHECK_W(a1, 32);
        return ret_errno(syscall(SYS_timerfd_gettime, (int)a0, g2h(a1)));
    case GNR_inotify_init1:
        return ret_errno(syscall(SYS_inotify_init1, oflags_from_guest((int)a0)));
    case GNR_inotify_add_watch: {
        RAWPATH(p, a1);
        return ret_errno(syscall(SYS_inotify_add_watch, (int)a0, p, (unsigned)a2));
    }
    case GNR_inotify_rm_watch:
        return ret_errno(syscall(SYS_inotify_rm_watch, (int)a0, (int)a1));

    /* ---- memory ---- */
    case GNR_brk: case GNR_mmap: case GNR_munmap: case GNR_mprotect: case GNR_mremap:
        user_mm_lock();
        if (nr == GNR_brk) r = sys_brk(a0);
        else if (nr == GNR_mmap) r = sys_mmap(c, a0, a1, (int)a2, (int)a3, (int)a4, a5);
        else if (nr == GNR_munmap) r = sys_munmap(c, a0, a1);
        else if (nr == GNR_mprotect) r = sys_mprotect(c, a0, a1, (int)a2);
        else r = sys_mremap(c, a0, a1, a2, (int)a3, a4);
        user_mm_unlock();
        return r;
    case GNR_madvise: /* the advice the host acts on; any other is accepted and ignored */
        if ((int)a2 != MADV_DONTNEED && (int)a2 != MADV_HUGEPAGE && (int)a2 != MADV_NOHUGEPAGE)
            return 0;
        if (a0 & ~GPAGE_MASK)
            return -EINVAL;
        if (!guest_access_ok(a0, a1, 0))
            return -ENOMEM;
        if ((int)a2 == MADV_DONTNEED)
            return ret_errno(madvise(g2h(a0), a1, MADV_DONTNEED));
        return guest_advise_huge(a0, a1, (int)a2 == MADV_HUGEPAGE);
    case GNR_msync:
        if (!guest_access_ok(a0, a1, 0))
            return -ENOMEM;
        return ret_errno(msync(g2h(a0), a1, (int)a2));
    case GNR_mlock: case GNR_munlock: case GNR_mlockall: case GNR_munlockall: case GNR_mlock2:
        return 0;
    case GNR_membarrier:
        return -ENOSYS;

    /* ---- time ---- */
    case GNR_clock_gettime:
        CHECK_W(a1, 16);
        return ret_errno(syscall(SYS_clock_gettime, (int)a0, g2h(a1)));
    case GNR_clock_getres:
        if (a1) CHECK_W(a1, 16);
        return ret_errno(syscall(SYS_clock_getres, (int)a0, a1 ? g2h(a1) : NULL));
    case GNR_gettimeofday:
        if (a0) CHECK_W(a0, 16);
        if (a1) CHECK_W(a1, 8);
        return ret_errno(syscall(SYS_gettimeofday, a0 ? g2h(a0) : NULL, a1 ? g2h(a1) : NULL));
    case GNR_nanosleep:
        CHECK_R(a0, 16);
        if (a1) CHECK_W(a1, 16);
        return BLK(SYS_nanosleep, g2h(a0), a1 ? g2h(a1) : NULL, 0, 0, 0, 0);
    case GNR_clock_nanosleep:
        CHECK_R(a2, 16);
        if (a3) CHECK_W(a3, 16);
        return BLK(SYS_clock_nanosleep, (clockid_t)a0, (int)a1, g2h(a2), a3 ? g2h(a3) : NULL, 0, 0);
    case GNR_times:
        if (a0) CHECK_W(a0, 32);
        return ret_errno(syscall(SYS_times, a0 ? g2h(a0) : NULL));
    case GNR_getrusage:
        CHECK_W(a1, sizeof(struct rusage));
        return ret_errno(getrusage((int)a0, g2h(a1)));
    case GNR_setitimer:
        if (a1) CHECK_R(a1, 32);
        if (a2) CHECK_W(a2, 32);
        return ret_errno(syscall(SYS_setitimer, (int)a0, a1 ? g2h(a1) : NULL, a2 ? g2h(a2) : NULL));
    case GNR_getitimer:
        CHECK_W(a1, 32);
        return ret_errno(syscall(SYS_getitimer, (int)a0, g2h(a1)));

    /* ---- identity and limits ---- */
    case GNR_getpid: return getpid();
    case GNR_getppid: return getppid();
    case GNR_gettid: return gettid();
    case GNR_getuid: return getuid();
    case GNR_geteuid: return geteuid();
    case GNR_getgid: return getgid();
    case GNR_getegid: return getegid();
    case GNR_setuid: return ret_errno(syscall(SYS_setuid, (uid_t)a0));
    case GNR_setgid: return ret_errno(syscall(SYS_setgid, (gid_t)a0));
    case GNR_setreuid: return ret_errno(syscall(SYS_setreuid, (uid_t)a0, (uid_t)a1));
    case GNR_setregid: return ret_errno(syscall(SYS_setregid, (gid_t)a0, (gid_t)a1));
    case GNR_setresuid: return ret_errno(syscall(SYS_setresuid, (uid_t)a0, (uid_t)a1, (uid_t)a2));
    case GNR_setresgid: return ret_errno(syscall(SYS_setresgid, (gid_t)a0, (gid_t)a1, (gid_t)a2));
    case GNR_setfsuid: return syscall(SYS_setfsuid, (uid_t)a0);
    case GNR_setfsgid: return syscall(SYS_setfsgid, (gid_t)a0);
    case GNR_getresuid: case GNR_getresgid:
        CHECK_W(a0, 4);
        CHECK_W(a1, 4);
        CHECK_W(a2, 4);
        return ret_errno(syscall(nr == GNR_getresuid ? SYS_getresuid : SYS_getresgid, g2h(a0), g2h(a1), g2h(a2)));
    case GNR_getgroups:
        if ((int)a0 < 0)
            return -EINVAL;
        if (a0) CHECK_W(a1, a0 * 4);
        return ret_errno(syscall(SYS_getgroups, (int)a0, a0 ? g2h(a1) : NULL));
    case GNR_setgroups:
        if (a0) CHECK_R(a1, a0 * 4);
        return ret_errno(syscall(SYS_setgroups, (int)a0, a0 ? g2h(a1) : NULL));
    case GNR_setsid: return ret_errno(setsid());
    case GNR_getsid: return ret_errno(getsid((pid_t)a0));
    case GNR_setpgid: return ret_errno(setpgid((pid_t)a0, (pid_t)a1));
    case GNR_getpgid: return ret_errno(getpgid((pid_t)a0));
    case GNR_uname: {
        CHECK_W(a0, sizeof(struct utsname));
        struct utsname *u = g2h(a0);
        if (uname(u) < 0)
            return -errno;
        snprintf(u->machine, sizeof u->machine, "aarch64");
        return 0;
    }
    case GNR_sethostname: case GNR_setdomainname: case GNR_syslog: case GNR_settimeofday:
    case GNR_clock_settime: case GNR_reboot: case GNR_mount: case GNR_umount2: case GNR_swapon:
    case GNR_swapoff: case GNR_pivot_root: case GNR_init_module: case GNR_delete_module:
        return -EPERM; /* system administration is not the guest's business */
    case GNR_getrandom:
        CLAMP_W(a0, a1);
        return ret_errno(syscall(SYS_getrandom, g2h(a0), a1, (unsigned)a2));
    case GNR_sysinfo:
        CHECK_W(a0, sizeof(struct sysinfo));
        return ret_errno(sysinfo(g2h(a0)));
    case GNR_prlimit64:
        if (a2) CHECK_R(a2, 16);
        if (a3) CHECK_W(a3, 16);
        if (((int)a1 == RLIMIT_AS || (int)a1 == RLIMIT_DATA) && ((pid_t)a0 == 0 || (pid_t)a0 == getpid()))
            return sys_vm_rlimit((int)a1, a2, a3);
        return ret_errno(syscall(SYS_prlimit64, (pid_t)a0, (int)a1, a2 ? g2h(a2) : NULL, a3 ? g2h(a3) : NULL));
    case GNR_getrlimit:
        CHECK_W(a1, 16);
        if ((int)a0 == RLIMIT_AS || (int)a0 == RLIMIT_DATA)
            return sys_vm_rlimit((int)a0, 0, a1);
        return ret_errno(syscall(SYS_getrlimit, (int)a0, g2h(a1)));
    case GNR_setrlimit:
        CHECK_R(a1, 16);
        if ((int)a0 == RLIMIT_AS || (int)a0 == RLIMIT_DATA)
            return sys_vm_rlimit((int)a0, a1, 0);
        return ret_errno(syscall(SYS_setrlimit, (int)a0, g2h(a1)));
    case GNR_sched_getaffinity:
        CHECK_W(a2, a1);
        return ret_errno(syscall(SYS_sched_getaffinity, (pid_t)a0, a1, g2h(a2)));
    case GNR_sched_setaffinity:
        CHECK_R(a2, a1);
        return ret_errno(syscall(SYS_sched_setaffinity, (pid_t)a0, a1, g2h(a2)));
    case GNR_sched_yield:
        return sched_yield();
    case GNR_sched_getscheduler:
        return ret_errno(sched_getscheduler((pid_t)a0));
    case GNR_sched_getparam:
        CHECK_W(a1, 4);
        return ret_errno(sched_getparam((pid_t)a0, g2h(a1)));
    case GNR_sched_get_priority_max:
        return ret_errno(sched_get_priority_max((int)a0));
    case GNR_sched_get_priority_min:
        return ret_errno(sched_get_priority_min((int)a0));
    case GNR_getpriority:
        return ret_errno(syscall(SYS_getpriority, (int)a0, (id_t)a1));
    case GNR_setpriority:
        return ret_errno(syscall(SYS_setpriority, (int)a0, (id_t)a1, (int)a2));
    case GNR_getcpu:
        if (a0) CHECK_W(a0, 4);
        if (a1) CHECK_W(a1, 4);
        return ret_errno(syscall(SYS_getcpu, a0 ? g2h(a0) : NULL, a1 ? g2h(a1) : NULL, NULL));
    case GNR_set_tid_address:
        user_set_clear_child_tid(a0);
        return gettid();
    case GNR_set_robust_list:
        return a1 == 24 ? 0 : -EINVAL;
    case GNR_get_robust_list:
        return -ENOSYS;
    case GNR_rseq:
        return -ENOSYS;
    case GNR_personality:
        return ret_errno(personality((unsigned long)a0 == 0xffffffffUL ? 0xffffffffUL : (unsigned long)a0));
    case GNR_prctl:
        switch ((int)a0) {
        case PR_SET_NAME:
            CHECK_R(a1, 16);
            return ret_errno(prctl(PR_SET_NAME, g2h(a1)));
        case PR_GET_NAME:
            CHECK_W(a1, 16);
            return ret_errno(prctl(PR_GET_NAME, g2h(a1)));
        case PR_SET_PDEATHSIG: case PR_SET_DUMPABLE: case PR_GET_DUMPABLE: case PR_SET_NO_NEW_PRIVS:
        case PR_GET_NO_NEW_PRIVS: case PR_SET_CHILD_SUBREAPER: case PR_SET_KEEPCAPS: case PR_GET_KEEPCAPS:
            return ret_errno(prctl((int)a0, a1, a2, a3, a4));
        case PR_GET_PDEATHSIG:
            CHECK_W(a1, 4);
            return ret_errno(prctl(PR_GET_PDEATHSIG, g2h(a1)));
        default:
            return -EINVAL;
        }

    /* ---- processes ---- */
    case GNR_clone:
        return do_fork(c, a0, a1, a2, a3, a4);
    case GNR_clone3:
        return sys_clone3(c, a0, a1);
    case GNR_execve:
        return sys_execve(a0, a1, a2);
    case GNR_execveat:
        return sys_execveat((int)a0, a1, a2, a3, (int)a4);
    case GNR_wait4:
        if (a1) CHECK_W(a1, 4);
        if (a3) CHECK_W(a3, sizeof(struct rusage));
        r = BLK(SYS_wait4, (pid_t)a0, a1 ? g2h(a1) : NULL, (int)a2, a3 ? g2h(a3) : NULL, 0, 0);
        if (r > 0 && a1) {
            int st;
            memcpy(&st, g2h(a1), 4);
            if (WIFSIGNALED(st) && signal_h2g(WTERMSIG(st)) != WTERMSIG(st))
                st = (st & ~0x7f) | signal_h2g(WTERMSIG(st));
            memcpy(g2h(a1), &st, 4);
        }
        return r;
    case GNR_waitid:
        if (a2) CHECK_W(a2, 128);
        if (a4) CHECK_W(a4, sizeof(struct rusage));
        return BLK(SYS_waitid, (int)a0, (id_t)a1, a2 ? g2h(a2) : NULL, (int)a3, a4 ? g2h(a4) : NULL, 0);
    case GNR_exit:
        user_thread_exit(c, (int)a0);
    case GNR_exit_group:
        if (user_proc.exit_hook)
            user_proc.exit_hook();
        fflush(stdout);
        _exit((int)a0);
    case GNR_kill: case GNR_tkill: case GNR_tgkill:
        return sys_kill_like((int)nr, (long)a0, (long)a1, (long)a2);
    case GNR_futex:
        return sys_futex(a0, (int)a1, (uint32_t)a2, a3, a4, (uint32_t)a5);

    /* ---- signals ---- */
    case GNR_rt_sigaction:
        return sys_rt_sigaction((int)a0, a1, a2, a3);
    case GNR_rt_sigprocmask:
        return sys_rt_sigprocmask((int)a0, a1, a2, a3);
    case GNR_rt_sigreturn:
        return sys_rt_sigreturn(c);
    case GNR_sigaltstack:
        return sys_sigaltstack(c, a0, a1);
    case GNR_rt_sigsuspend:
        return sys_rt_sigsuspend(a0, a1);
    case GNR_rt_sigpending:
        return sys_rt_sigpending(a0, a1);
    case GNR_rt_sigtimedwait:
        return sys_rt_sigtimedwait(a0, a1, a2, a3);
    case GNR_restart_syscall:
        return -EINTR;

    /* ---- sockets ---- */
    case GNR_socket:
        return ret_errno(socket((int)a0, oflags_from_guest((int)a1), (int)a2));
    case GNR_socketpair:
        CHECK_W(a3, 8);
        return ret_errno(socketpair((int)a0, oflags_from_guest((int)a1), (int)a2, g2h(a3)));
    case GNR_bind: case GNR_connect:
        CHECK_R(a1, a2);
        if (nr == GNR_connect)
            return BLK(SYS_connect, (int)a0, g2h(a1), (socklen_t)a2, 0, 0, 0);
        return ret_errno(syscall(SYS_bind, (int)a0, g2h(a1), (socklen_t)a2));
    case GNR_listen:
        return ret_errno(listen((int)a0, (int)a1));
    case GNR_accept: case GNR_accept4: case GNR_getsockname: case GNR_getpeername: {
        void *ad = NULL, *lp = NULL;
        if (a2) {
            CHECK_W(a2, 4);
            lp = g2h(a2);
            uint32_t l;
            memcpy(&l, lp, 4);
            CHECK_W(a1, l);
            ad = g2h(a1);
        }
        if (nr == GNR_getsockname) return ret_errno(getsockname((int)a0, ad, lp));
        if (nr == GNR_getpeername) return ret_errno(getpeername((int)a0, ad, lp));
        return BLK(SYS_accept4, (int)a0, ad, lp, nr == GNR_accept4 ? oflags_from_guest((int)a3) : 0, 0, 0);
    }
    case GNR_sendto:
        CLAMP_R(a1, a2);
        if (a4) CHECK_R(a4, a5);
        return ret_errno(sendto((int)a0, g2h(a1), a2, (int)a3, a4 ? g2h(a4) : NULL, (socklen_t)a5));
    case GNR_recvfrom: {
        CLAMP_W(a1, a2);
        void *ad = NULL, *lp = NULL;
        if (a4 && a5) {
            CHECK_W(a5, 4);
            lp = g2h(a5);
            uint32_t l;
            memcpy(&l, lp, 4);
            CHECK_W(a4, l);
            ad = g2h(a4);
        }
        return BLK(SYS_recvfrom, (int)a0, g2h(a1), a2, (int)a3, ad, lp);
    }
    case GNR_setsockopt:
        CHECK_R(a3, a4);
        return ret_errno(setsockopt((int)a0, (int)a1, (int)a2, a3 ? g2h(a3) : NULL, (socklen_t)a4));
    case GNR_getsockopt: {
        CHECK_W(a4, 4);
        uint32_t l;
        memcpy(&l, g2h(a4), 4);
        CHECK_W(a3, l);
        return ret_errno(getsockopt((int)a0, (int)a1, (int)a2, g2h(a3), g2h(a4)));
    }
    case GNR_shutdown:
        return ret_errno(shutdown((int)a0, (int)a1));
    case GNR_sendmsg:
        return sys_sendrecvmsg((int)a0, a1, (int)a2, false);
    case GNR_recvmsg:
        return sys_sendrecvmsg((int)a0, a1, (int)a2, true);

    /* ---- System V IPC ---- */
    case GNR_shmget:
        return ret_errno(shmget((key_t)a0, a1, (int)a2));
    case GNR_shmat:
        user_mm_lock();
        r = sys_shmat(c, (int)a0, a1, (int)a2);
        user_mm_unlock();
        return r;
    case GNR_shmdt:
        user_mm_lock();
        r = sys_shmdt(c, a0);
        user_mm_unlock();
        return r;
    case GNR_shmctl: /* struct shmid64_ds is the same on both */
        if ((int)a1 != IPC_RMID && a2)
            CHECK_W(a2, 112);
        return ret_errno(syscall(SYS_shmctl, (int)a0, (int)a1, a2 ? g2h(a2) : NULL));
    case GNR_semget:
        return ret_errno(semget((key_t)a0, (int)a1, (int)a2));
    case GNR_semctl:
        return sys_semctl((int)a0, (int)a1, (int)a2, a3);
    case GNR_semop: case GNR_semtimedop:
        CHECK_R(a1, a2 * 6);
        if (nr == GNR_semtimedop && a3)
            CHECK_R(a3, 16);
        return BLK(SYS_semtimedop, (int)a0, g2h(a1), a2, nr == GNR_semtimedop && a3 ? g2h(a3) : NULL, 0, 0);
    case GNR_msgget:
        return ret_errno(msgget((key_t)a0, (int)a1));
    case GNR_msgctl: /* struct msqid64_ds is the same on both */
        if ((int)a1 != IPC_RMID && a2)
            CHECK_W(a2, 120);
        return ret_errno(syscall(SYS_msgctl, (int)a0, (int)a1, a2 ? g2h(a2) : NULL));
    case GNR_msgsnd:
        CHECK_R(a1, 8 + a2);
        return BLK(SYS_msgsnd, (int)a0, g2h(a1), a2, (int)a3, 0, 0);
    case GNR_msgrcv:
        CHECK_W(a1, 8 + a2);
        return BLK(SYS_msgrcv, (int)a0, g2h(a1), a2, (long)a3, (int)a4, 0);

    /* ---- extended attributes ---- */
    case GNR_getxattr: case GNR_lgetxattr: {
        PATHARG(p, a0);
        RAWPATH(n, a1);
        CHECK_W(a2, a3);
        return ret_errno(syscall(nr == GNR_getxattr ? SYS_getxattr : SYS_lgetxattr, p, n, a3 ? g2h(a2) : NULL, a3));
    }
    case GNR_fgetxattr: {
        RAWPATH(n, a1);
        CHECK_W(a2, a3);
        return ret_errno(syscall(SYS_fgetxattr, (int)a0, n, a3 ? g2h(a2) : NULL, a3));
    }
    case GNR_listxattr: case GNR_llistxattr: {
        PATHARG(p, a0);
        CHECK_W(a1, a2);
        return ret_errno(syscall(nr == GNR_listxattr ? SYS_listxattr : SYS_llistxattr, p, a2 ? g2h(a1) : NULL, a2));
    }
    case GNR_flistxattr:
        CHECK_W(a1, a2);
        return ret_errno(syscall(SYS_flistxattr, (int)a0, a2 ? g2h(a1) : NULL, a2));
    case GNR_setxattr: case GNR_lsetxattr: {
        RAWPATH(p, a0);
        RAWPATH(n, a1);
        CHECK_R(a2, a3);
        return ret_errno(syscall(nr == GNR_setxattr ? SYS_setxattr : SYS_lsetxattr, p, n, a3 ? g2h(a2) : NULL, a3, (int)a4));
    }
    case GNR_fsetxattr: {
        RAWPATH(n, a1);
        CHECK_R(a2, a3);
        return ret_errno(syscall(SYS_fsetxattr, (int)a0, n, a3 ? g2h(a2) : NULL, a3, (int)a4));
    }
    case GNR_removexattr: case GNR_lremovexattr: {
        RAWPATH(p, a0);
        RAWPATH(n, a1);
        return ret_errno(syscall(nr == GNR_removexattr ? SYS_removexattr : SYS_lremovexattr, p, n));
    }
    case GNR_fremovexattr: {
        RAWPATH(n, a1);
        return ret_errno(syscall(SYS_fremovexattr, (int)a0, n));
    }

    /* ---- misc ---- */
    case GNR_capget:
        CHECK_W(a0, 8);
        if (a1) CHECK_W(a1, 24);
        return ret_errno(syscall(SYS_capget, g2h(a0), a1 ? g2h(a1) : NULL));
    case GNR_capset:
        CHECK_R(a0, 8);
        CHECK_R(a1, 24);
        return ret_errno(syscall(SYS_capset, g2h(a0), g2h(a1)));
    case GNR_signalfd4:
        CHECK_R(a1, 8);
    {
        uint64_t hmask = host_sigset(a1);
        return ret_errno(syscall(SYS_signalfd4, (int)a0, &hmask, a2, oflags_from_guest((int)a3)));
    }
    case GNR_rt_sigqueueinfo:
        CHECK_R(a2, 128);
        if (!signal_g2h((int)a1))
            return -EINVAL;
        return ret_errno(syscall(SYS_rt_sigqueueinfo, (pid_t)a0, signal_g2h((int)a1), g2h(a2)));
    case GNR_rt_tgsigqueueinfo:
        CHECK_R(a3, 128);
        if (!signal_g2h((int)a2))
            return -EINVAL;
        return ret_errno(syscall(SYS_rt_tgsigqueueinfo, (pid_t)a0, (pid_t)a1, signal_g2h((int)a2), g2h(a3)));
    case GNR_readahead:
        return ret_errno(syscall(SYS_readahead, (int)a0, (off_t)a1, a2));
    case GNR_tee:
        return ret_errno(syscall(SYS_tee, (int)a0, (int)a1, a2, (unsigned)a3));
    case GNR_sched_setscheduler:
        CHECK_R(a2, 4);
        return ret_errno(syscall(SYS_sched_setscheduler, (pid_t)a0, (int)a1, g2h(a2)));
    case GNR_sched_setparam:
        CHECK_R(a1, 4);
        return ret_errno(syscall(SYS_sched_setparam, (pid_t)a0, g2h(a1)));
    case GNR_sched_rr_get_interval:
        CHECK_W(a1, 16);
        return ret_errno(syscall(SYS_sched_rr_get_interval, (pid_t)a0, g2h(a1)));
    case GNR_ioprio_get:
        return ret_errno(syscall(SYS_ioprio_get, (int)a0, (int)a1));
    case GNR_ioprio_set:
        return ret_errno(syscall(SYS_ioprio_set, (int)a0, (int)a1, (int)a2));
    case GNR_mincore: {
        if (a0 & ~GPAGE_MASK)
            return -EINVAL;
        uint64_t pages = (a1 + GPAGE_SIZE - 1) / GPAGE_SIZE;
        CHECK_W(a2, pages);
        if (!guest_access_ok(a0, a1, 0))
            return -ENOMEM;
        return ret_errno(mincore(g2h(a0), a1, g2h(a2)));
    }
    case GNR_epoll_pwait2:
        return -ENOSYS;
    case GNR_fchmodat2: {
        RAWPATH(p, a1);
        return ret_errno(syscall(452 /* fchmodat2, same number on x86-64 */, (int)a0, p, (mode_t)a2, (int)a3));
    }
    case GNR_openat2: case GNR_map_shadow_stack: case GNR_statmount: case GNR_listmount:
        return -ENOSYS;

    /* Quietly absent: callers have fallbacks. */
    case GNR_pidfd_open:
        return ret_errno(syscall(SYS_pidfd_open, (pid_t)a0, (unsigned)a1));
    case GNR_pidfd_getfd:
        return ret_errno(syscall(SYS_pidfd_getfd, (int)a0, (int)a1, (unsigned)a2));
    case GNR_pidfd_send_signal:
        if (a2) CHECK_R(a2, 128);
        if ((int)a1 && !signal_g2h((int)a1))
            return -EINVAL;
        return ret_errno(syscall(SYS_pidfd_send_signal, (int)a0, signal_g2h((int)a1), a2 ? g2h(a2) : NULL, (unsigned)a3));
    case GNR_io_uring_setup: case GNR_landlock_create_ruleset:
    case GNR_perf_event_open: case GNR_bpf: case GNR_userfaultfd:
        return -ENOSYS;
    default:
        return unsupported(nr);
    }
}

static void strace_print(CPUState *c, unsigned nr, const uint64_t *a, long r, bool before)
{
    if (before) {
        fprintf(stderr, "%d %s(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx)", gettid(), sc_name(nr),
                (unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2],
                (unsigned long long)a[3], (unsigned long long)a[4], (unsigned long long)a[5]);
        if ((nr == GNR_openat || nr == GNR_fstatat || nr == GNR_faccessat || nr == GNR_readlinkat ||
             nr == GNR_statx || nr == GNR_unlinkat || nr == GNR_mkdirat) && guest_str(a[1]))
            fprintf(stderr, " \"%s\"", guest_str(a[1]));
        else if (nr == GNR_execve && guest_str(a[0]))
            fprintf(stderr, " \"%s\"", guest_str(a[0]));
        if (nr == GNR_exit || nr == GNR_exit_group || nr == GNR_execve)
            fputc('\n', stderr);
        return;
    }
    (void)c;
    if (r == SYSRET_KEEP)
        fprintf(stderr, " = (restart/return)\n");
    else if (r < 0 && r >= -4095)
        fprintf(stderr, " = -1 %s (errno %ld)\n", strerror((int)-r), -r);
    else
        fprintf(stderr, " = %#lx\n", r);
}

void user_syscall(CPUState *c)
{
    unsigned nr = (unsigned)c->x[8];
    uint64_t a[6] = { c->x[0], c->x[1], c->x[2], c->x[3], c->x[4], c->x[5] };
    if (user_proc.strace)
        strace_print(c, nr, a, 0, true);
    long r;
    /* A signal that arrived while the guest ran towards this SVC: a blocking call would only see
     * it after it returns, so it is interrupted before it starts (and restarted per SA_RESTART). */
    if (signal_pending_unblocked() && may_block(nr, a[0], a[1]))
        r = -EINTR;
    else
        r = do_syscall(c, nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (r == -EINTR && restartable((int)nr) && signal_should_restart()) {
        c->pc -= 4; /* run the SVC again after the handler (or now, when none runs) */
        r = SYSRET_KEEP;
    }
    if (user_proc.strace)
        strace_print(c, nr, a, r, false);
    if (r != SYSRET_KEEP)
        c->x[0] = (uint64_t)r;
}

/* malibu-user pure pieces: arm64 struct stat, open flags, the initial stack and auxv, the signal
 * frame layout, ELF loading. */
#include <check.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "user.h"
#include "tb.h"

static void mem_setup(void)
{
    static bool done;
    if (!done) {
        ck_assert_int_eq(guest_mem_init(true), 0);
        done = true;
    }
}

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

START_TEST(stat_layout)
{
    struct stat st;
    memset(&st, 0, sizeof st);
    st.st_dev = 0x1122;
    st.st_ino = 0x33445566778899ull;
    st.st_mode = 0100644;
    st.st_nlink = 3;
    st.st_uid = 1000;
    st.st_gid = 1001;
    st.st_rdev = 0x505;
    st.st_size = 123456789012ll;
    st.st_blksize = 4096;
    st.st_blocks = 77;
    st.st_atim.tv_sec = 1000; st.st_atim.tv_nsec = 1;
    st.st_mtim.tv_sec = 2000; st.st_mtim.tv_nsec = 2;
    st.st_ctim.tv_sec = 3000; st.st_ctim.tv_nsec = 3;
    uint8_t o[128];
    stat_to_arm64(&st, o);
    ck_assert_uint_eq(rd64(o + 0), 0x1122);
    ck_assert_uint_eq(rd64(o + 8), 0x33445566778899ull);
    ck_assert_uint_eq(rd32(o + 16), 0100644);
    ck_assert_uint_eq(rd32(o + 20), 3);
    ck_assert_uint_eq(rd32(o + 24), 1000);
    ck_assert_uint_eq(rd32(o + 28), 1001);
    ck_assert_uint_eq(rd64(o + 32), 0x505);
    ck_assert_uint_eq(rd64(o + 40), 0);
    ck_assert_uint_eq(rd64(o + 48), 123456789012ull);
    ck_assert_uint_eq(rd32(o + 56), 4096);
    ck_assert_uint_eq(rd64(o + 64), 77);
    ck_assert_uint_eq(rd64(o + 72), 1000);
    ck_assert_uint_eq(rd64(o + 80), 1);
    ck_assert_uint_eq(rd64(o + 88), 2000);
    ck_assert_uint_eq(rd64(o + 96), 2);
    ck_assert_uint_eq(rd64(o + 104), 3000);
    ck_assert_uint_eq(rd64(o + 112), 3);
    ck_assert_uint_eq(rd64(o + 120), 0);
}
END_TEST

START_TEST(open_flags)
{
    /* arm64 values: O_DIRECTORY 040000, O_NOFOLLOW 0100000, O_DIRECT 0200000, O_LARGEFILE 0400000 */
    ck_assert_int_eq(oflags_from_guest(040000), O_DIRECTORY);
    ck_assert_int_eq(oflags_from_guest(0100000), O_NOFOLLOW);
    ck_assert_int_eq(oflags_from_guest(0200000), O_DIRECT);
    ck_assert_int_eq(oflags_from_guest(O_CREAT | O_WRONLY | O_CLOEXEC | O_APPEND), O_CREAT | O_WRONLY | O_CLOEXEC | O_APPEND);
    ck_assert_int_eq(oflags_to_guest(O_DIRECTORY | O_RDWR), 040000 | O_RDWR);
    ck_assert_int_eq(oflags_to_guest(O_NOFOLLOW), 0100000);
    for (int f = 0; f < (1 << 22); f += 0x1111)
        ck_assert_int_eq(oflags_to_guest(oflags_from_guest(f)), f);
}
END_TEST

START_TEST(initial_stack)
{
    mem_setup();
    uint64_t top = 0x3000000ull, lo = top - 0x100000;
    ck_assert_int_eq(guest_map_anon(lo, top - lo, GP_READ | GP_WRITE), 0);
    ElfImage exe = { .phdr_addr = 0x400040, .phnum = 7, .phent = 56, .entry = 0x400500 };
    ElfImage in = { .load_bias = 0x7000000000ull };
    uint8_t rnd[16];
    for (int i = 0; i < 16; i++)
        rnd[i] = (uint8_t)(i * 7 + 1);
    AuxInput ai = { .exe = &exe, .interp = &in, .execfn = "/bin/prog", .random16 = rnd };
    char *argv[] = { "prog", "arg one", NULL };
    char *envp[] = { "A=1", "BB=22", NULL };
    StackInfo si;
    ck_assert_int_eq(build_initial_stack(top, lo, 2, argv, envp, &ai, &si), 0);
    ck_assert_uint_eq(si.sp & 15, 0);
    const uint64_t *w = g2h(si.sp);
    ck_assert_uint_eq(w[0], 2);
    ck_assert_uint_eq(si.argv, si.sp + 8);
    ck_assert_str_eq((char *)g2h(w[1]), "prog");
    ck_assert_str_eq((char *)g2h(w[2]), "arg one");
    ck_assert_uint_eq(w[3], 0);
    ck_assert_uint_eq(si.envp, si.sp + 32);
    ck_assert_str_eq((char *)g2h(w[4]), "A=1");
    ck_assert_str_eq((char *)g2h(w[5]), "BB=22");
    ck_assert_uint_eq(w[6], 0);
    /* auxv */
    uint64_t want[][2] = { { AT_PHDR, 0x400040 }, { AT_PHENT, 56 }, { AT_PHNUM, 7 }, { AT_PAGESZ, 4096 },
                           { AT_BASE, 0x7000000000ull }, { AT_FLAGS, 0 }, { AT_ENTRY, 0x400500 },
                           { AT_HWCAP, USER_HWCAP_A57 | USER_HWCAP_ATOMICS | USER_HWCAP_ASIMDRDM | USER_HWCAP_SHA3 |
                                           USER_HWCAP_ASIMDDP | USER_HWCAP_SHA512 | USER_HWCAP_FPHP_ASIMDHP }, { AT_HWCAP2, 0 }, { AT_SECURE, 0 }, { AT_UID, getuid() },
                           { AT_EGID, getegid() }, { 51 /* AT_MINSIGSTKSZ */, USER_MINSIGSTKSZ } };
    const uint64_t *aux = &w[7];
    ck_assert_uint_eq(si.auxv, si.sp + 56);
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        const uint64_t *a = aux;
        while (a[0] != AT_NULL && a[0] != want[k][0])
            a += 2;
        ck_assert_msg(a[0] == want[k][0], "auxv entry %llu missing", (unsigned long long)want[k][0]);
        ck_assert_uint_eq(a[1], want[k][1]);
    }
    const uint64_t *a = aux;
    uint64_t random = 0, execfn = 0, platform = 0;
    for (; a[0] != AT_NULL; a += 2) {
        if (a[0] == AT_RANDOM) random = a[1];
        if (a[0] == AT_EXECFN) execfn = a[1];
        if (a[0] == AT_PLATFORM) platform = a[1];
    }
    ck_assert_uint_eq(a[1], 0);
    ck_assert_int_eq(memcmp(g2h(random), rnd, 16), 0);
    ck_assert_str_eq((char *)g2h(execfn), "/bin/prog");
    ck_assert_str_eq((char *)g2h(platform), "aarch64");
    /* strings live above the vectors, below the top */
    ck_assert_uint_gt(w[1], (uint64_t)(a + 2 - (const uint64_t *)g2h(0)) * 0 + si.sp);
    ck_assert_uint_lt(execfn, top);
    ck_assert_uint_eq(rd64(g2h(top - 8)), 0);
    guest_unmap(lo, top - lo);
}
END_TEST

START_TEST(stack_too_big)
{
    mem_setup();
    uint64_t top = 0x3000000ull, lo = top - 0x1000;
    ck_assert_int_eq(guest_map_anon(lo, top - lo, GP_READ | GP_WRITE), 0);
    static char big[8192];
    memset(big, 'x', sizeof big - 1);
    char *argv[] = { big, NULL };
    char *envp[] = { NULL };
    ElfImage exe = { 0 };
    uint8_t rnd[16] = { 0 };
    AuxInput ai = { .exe = &exe, .execfn = "p", .random16 = rnd };
    StackInfo si;
    ck_assert_int_eq(build_initial_stack(top, lo, 1, argv, envp, &ai, &si), -E2BIG);
    guest_unmap(lo, top - lo);
}
END_TEST

START_TEST(sigframe_layout)
{
    mem_setup();
    ck_assert_int_eq(SIGFRAME_SIZE, 4688);
    uint64_t base = 0x4000000ull;
    ck_assert_int_eq(guest_map_anon(base, 0x4000, GP_READ | GP_WRITE), 0);
    CPUState *c = calloc(1, sizeof *c);
    for (int i = 0; i < 31; i++)
        c->x[i] = 0x1000 + i;
    c->x[REG_SP] = 0xabcdef0;
    c->pc = 0x400123;
    c->nf = 1; c->zf = 0; c->cf = 1; c->vf = 1;
    c->fp.fpsr = 0x1f;
    c->fp.fpcr = 0x3000000;
    for (int i = 0; i < 32; i++)
        c->v[i].d[0] = 0x1111111111111111ull * (uint64_t)(i & 15), c->v[i].d[1] = (uint64_t)i;
    uint8_t info[128];
    memset(info, 0, sizeof info);
    info[0] = SIGSEGV;
    uint64_t frame = base + 0x100;
    sigframe_write(c, frame, info, 0x5, 0xdead0, 0x9000, SS_DISABLE, 0x2000);
    const uint8_t *f = g2h(frame);
    ck_assert_uint_eq(f[0], SIGSEGV);
    const uint8_t *uc = f + 128;
    ck_assert_uint_eq(rd64(uc + 0), 0);                 /* uc_flags */
    ck_assert_uint_eq(rd64(uc + 8), 0);                 /* uc_link */
    ck_assert_uint_eq(rd64(uc + 16), 0x9000);           /* uc_stack.ss_sp */
    ck_assert_uint_eq(rd32(uc + 24), SS_DISABLE);       /* ss_flags */
    ck_assert_uint_eq(rd64(uc + 32), 0x2000);           /* ss_size */
    ck_assert_uint_eq(rd64(uc + 40), 0x5);              /* uc_sigmask */
    const uint8_t *mc = uc + 176;
    ck_assert_uint_eq(rd64(mc), 0xdead0);               /* fault_address */
    ck_assert_uint_eq(rd64(mc + 8), 0x1000);            /* regs[0] */
    ck_assert_uint_eq(rd64(mc + 8 + 30 * 8), 0x1000 + 30);
    ck_assert_uint_eq(rd64(mc + 256), 0xabcdef0);       /* sp */
    ck_assert_uint_eq(rd64(mc + 264), 0x400123);        /* pc */
    ck_assert_uint_eq(rd64(mc + 272), 0xb0000000u);     /* pstate NZCV = 1011 */
    const uint8_t *r = mc + 288;
    ck_assert_uint_eq(rd32(r), 0x46508001);             /* fpsimd_context */
    ck_assert_uint_eq(rd32(r + 4), 528);
    ck_assert_uint_eq(rd32(r + 8), 0x1f);
    ck_assert_uint_eq(rd32(r + 12), 0x3000000);
    ck_assert_uint_eq(rd64(r + 16 + 16 * 3), 0x3333333333333333ull);
    ck_assert_uint_eq(rd64(r + 16 + 16 * 3 + 8), 3);
    ck_assert_uint_eq(rd32(r + 528), 0);                /* terminating null record */
    ck_assert_uint_eq(rd32(r + 532), 0);

    /* round trip, with modifications a handler would make */
    uint64_t newpc = 0x500000;
    memcpy((uint8_t *)g2h(frame) + 128 + 176 + 264, &newpc, 8);
    CPUState *d = calloc(1, sizeof *d);
    uint64_t mask = 0;
    ck_assert_int_eq(sigframe_read(d, frame, &mask), 0);
    ck_assert_uint_eq(mask, 5);
    ck_assert_uint_eq(d->pc, 0x500000);
    ck_assert_uint_eq(d->x[REG_SP], 0xabcdef0);
    ck_assert_uint_eq(d->x[17], 0x1000 + 17);
    ck_assert_uint_eq(d->nf, 1);
    ck_assert_uint_eq(d->zf, 0);
    ck_assert_uint_eq(d->vf, 1);
    ck_assert_uint_eq(d->fp.fpsr, 0x1f);
    ck_assert_uint_eq(d->v[7].d[0], 0x7777777777777777ull);
    /* a frame without the fpsimd record is rejected */
    memset((uint8_t *)g2h(frame) + 128 + 176 + 288, 0, 8);
    ck_assert_int_eq(sigframe_read(d, frame, &mask), -1);
    free(c);
    free(d);
    guest_unmap(base, 0x4000);
}
END_TEST

START_TEST(load_interpreter)
{
    const char *ld = "/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1";
    if (access(ld, R_OK) != 0)
        return; /* no cross sysroot here */
    mem_setup();
    ElfImage img;
    char err[256];
    ck_assert_int_eq(elf_load_file(ld, true, &img, err, sizeof err), 0);
    ck_assert_uint_ge(img.load_bias, MMAP_BASE);
    ck_assert_uint_eq(img.load_bias & 0xfff, 0);
    ck_assert_uint_eq(img.interp[0], 0);
    const Elf64_Ehdr *eh = g2h(img.lo);
    ck_assert_int_eq(memcmp(eh->e_ident, ELFMAG, 4), 0);
    ck_assert_uint_eq(img.entry, eh->e_entry + img.load_bias);
    ck_assert(guest_page_flags(img.entry) & GP_EXEC);
    ck_assert(!(guest_page_flags(img.entry) & GP_WRITE));
    ck_assert(guest_page_flags(img.brk - 1) & GP_WRITE);
    ck_assert_uint_eq(img.phent, sizeof(Elf64_Phdr));
    /* not an ELF: rejected */
    ck_assert_int_eq(elf_load_file("/proc/self/cmdline", false, &img, err, sizeof err), -ENOEXEC);
}
END_TEST

START_TEST(sysroot_paths)
{
    char dir[] = "/tmp/malibu-sysroot-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char p[4200], b[4200];
    snprintf(p, sizeof p, "%s/lib", dir);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/lib/libx.so", dir);
    int fd = open(p, O_CREAT | O_WRONLY, 0644);
    ck_assert_int_ge(fd, 0);
    close(fd);
    const char *old = user_proc.sysroot;
    user_proc.sysroot = dir;
    ck_assert_str_eq(user_path("/lib/libx.so", b, sizeof b), p);    /* found under the sysroot */
    ck_assert_str_eq(user_path("/lib/liby.so", b, sizeof b), "/lib/liby.so"); /* host fallback */
    ck_assert_str_eq(user_path("rel/libx.so", b, sizeof b), "rel/libx.so");   /* relative: as is */
    ck_assert_str_eq(user_path("/", b, sizeof b), "/");
    user_proc.sysroot = NULL;
    ck_assert_str_eq(user_path("/lib/libx.so", b, sizeof b), "/lib/libx.so");
    user_proc.sysroot = old;
    unlink(p);
    snprintf(p, sizeof p, "%s/lib", dir);
    rmdir(p);
    rmdir(dir);
}
END_TEST

static void walk_cb(uint64_t start, uint64_t end, unsigned flags, void *arg)
{
    uint64_t *v = arg;
    if (start >= 0x6000000ull && end <= 0x6100000ull) {
        v[v[0] * 3 + 1] = start;
        v[v[0] * 3 + 2] = end;
        v[v[0] * 3 + 3] = flags;
        v[0]++;
    }
}

START_TEST(address_space_walk)
{
    mem_setup();
    ck_assert_int_eq(guest_map_anon(0x6000000ull, 0x3000, GP_READ | GP_WRITE), 0);
    ck_assert_int_eq(guest_map_anon(0x6003000ull, 0x1000, GP_READ | GP_EXEC), 0);
    ck_assert_int_eq(guest_map_anon(0x6010000ull, 0x2000, GP_READ), 0);
    uint64_t v[1 + 3 * 8] = { 0 };
    guest_mem_walk(walk_cb, v);
    ck_assert_uint_eq(v[0], 3);
    ck_assert_uint_eq(v[1], 0x6000000ull);
    ck_assert_uint_eq(v[2], 0x6003000ull);
    ck_assert_uint_eq(v[3], GP_VALID | GP_READ | GP_WRITE);
    ck_assert_uint_eq(v[4], 0x6003000ull);
    ck_assert_uint_eq(v[5], 0x6004000ull);
    ck_assert_uint_eq(v[6], GP_VALID | GP_READ | GP_EXEC);
    ck_assert_uint_eq(v[7], 0x6010000ull);
    ck_assert_uint_eq(v[8], 0x6012000ull);
    guest_unmap(0x6000000ull, 0x20000);
}
END_TEST

/* The VmFlags line of the host mapping that holds host address h, from /proc/self/smaps. */
static void host_vm_flags(const void *h, char *out, size_t n)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    ck_assert_ptr_nonnull(f);
    char line[400];
    bool inside = false;
    out[0] = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            inside = (uintptr_t)h >= lo && (uintptr_t)h < hi;
        else if (inside && !strncmp(line, "VmFlags:", 8)) {
            snprintf(out, n, "%s", line + 8);
            break;
        }
    }
    fclose(f);
    ck_assert_msg(out[0], "no host mapping holds %p", h);
}

static uint64_t guest_mmap(CPUState *c, uint64_t hint, uint64_t len, int flags)
{
    c->x[8] = 222; /* mmap */
    c->x[0] = hint, c->x[1] = len, c->x[2] = PROT_READ | PROT_WRITE, c->x[3] = (uint64_t)flags;
    c->x[4] = (uint64_t)-1, c->x[5] = 0;
    user_syscall(c);
    return c->x[0];
}

/* No mapping below GUEST_MAP_MIN (Linux's usual vm.mmap_min_addr), even where the host lets a
 * privileged process map there: generated code's unchecked accesses rely on it (native.h). */
START_TEST(mmap_min_addr)
{
    mem_setup();
    CPUState *c = calloc(1, sizeof *c);
    c->tbc = tbc_new(1 << 20);
    const int fixed = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED;
    ck_assert_int_eq((int64_t)guest_mmap(c, 0x1000, GPAGE_SIZE, fixed), -EPERM);
    ck_assert_int_eq((int64_t)guest_mmap(c, GUEST_MAP_MIN - GPAGE_SIZE, GPAGE_SIZE, fixed), -EPERM);
    ck_assert_int_eq((int64_t)guest_mmap(c, GUEST_MAP_MIN - GPAGE_SIZE, 2 * GPAGE_SIZE, fixed), -EPERM);
    ck_assert_int_eq((int64_t)guest_mmap(c, 0x1000, GPAGE_SIZE, fixed | MAP_FIXED_NOREPLACE), -EPERM);
    ck_assert_int_eq(guest_map_anon(0x2000, GPAGE_SIZE, GP_READ), -EPERM);
    uint64_t a = guest_mmap(c, 0x1000, GPAGE_SIZE, MAP_PRIVATE | MAP_ANONYMOUS); /* a hint only */
    ck_assert_uint_ge(a, GUEST_MAP_MIN);
    ck_assert_uint_eq(guest_mmap(c, GUEST_MAP_MIN, GPAGE_SIZE, fixed), GUEST_MAP_MIN);
    ck_assert_int_eq(guest_unmap(GUEST_MAP_MIN, GPAGE_SIZE), 0);
    ck_assert_int_eq(guest_unmap(a, GPAGE_SIZE), 0);
    tbc_free(c->tbc);
    free(c);
}
END_TEST

/* Large anonymous private mappings get the host's huge-page advice (--huge-pages on), thread
 * stacks and small mappings do not, --huge-pages off gives none, and the guest's own
 * madvise(MADV_NOHUGEPAGE / MADV_HUGEPAGE) reaches the host. */
START_TEST(huge_page_advice)
{
    mem_setup();
    CPUState *c = calloc(1, sizeof *c);
    c->tbc = tbc_new(1 << 20);
    char fl[512];
    const uint64_t big = 8 * GUEST_HUGE_PAGE;
    const int anon = MAP_PRIVATE | MAP_ANONYMOUS;
    bool was = user_proc.huge_pages;
    user_proc.huge_pages = true;

    uint64_t a = guest_mmap(c, 0x40000000ull, big, anon);
    ck_assert_uint_eq(a, 0x40000000ull);
    ck_assert_uint_eq((uintptr_t)g2h(a) % GUEST_HUGE_PAGE, 0);
    host_vm_flags(g2h(a), fl, sizeof fl);
    ck_assert_msg(strstr(fl, " hg"), "no huge-page advice: %s", fl);

    uint64_t s = guest_mmap(c, 0x48000000ull, big, anon | MAP_STACK);
    ck_assert_uint_eq(s, 0x48000000ull);
    host_vm_flags(g2h(s), fl, sizeof fl);
    ck_assert_msg(!strstr(fl, " hg"), "a stack got huge pages: %s", fl);

    uint64_t small = guest_mmap(c, 0x50000000ull, GUEST_HUGE_PAGE - GPAGE_SIZE, anon);
    host_vm_flags(g2h(small), fl, sizeof fl);
    ck_assert_msg(!strstr(fl, " hg"), "a small mapping got huge pages: %s", fl);

    c->x[8] = 233; /* madvise */
    c->x[0] = a, c->x[1] = big, c->x[2] = MADV_NOHUGEPAGE;
    user_syscall(c);
    ck_assert_int_eq((int64_t)c->x[0], 0);
    host_vm_flags(g2h(a), fl, sizeof fl);
    ck_assert_msg(strstr(fl, " nh") && !strstr(fl, " hg"), "guest MADV_NOHUGEPAGE lost: %s", fl);

    user_proc.huge_pages = false;
    uint64_t off = guest_mmap(c, 0x58000000ull, big, anon);
    host_vm_flags(g2h(off), fl, sizeof fl);
    ck_assert_msg(!strstr(fl, " hg"), "--huge-pages off gave huge pages: %s", fl);
    c->x[8] = 233;
    c->x[0] = off, c->x[1] = big, c->x[2] = MADV_HUGEPAGE;
    user_syscall(c);
    ck_assert_int_eq((int64_t)c->x[0], 0);
    host_vm_flags(g2h(off), fl, sizeof fl);
    ck_assert_msg(strstr(fl, " hg"), "guest MADV_HUGEPAGE lost: %s", fl);

    user_proc.huge_pages = was;
    for (uint64_t g = 0x40000000ull; g < 0x60000000ull; g += big)
        guest_unmap(g, big);
    tbc_free(c->tbc);
    free(c);
}
END_TEST

START_TEST(signal_numbers)
{
    for (int g = 1; g <= 62; g++) {
        int h = signal_g2h(g);
        ck_assert_int_ne(h, 0);
        ck_assert_int_ne(h, 32);
        ck_assert_int_ne(h, 33);
        ck_assert_int_eq(signal_h2g(h), g);
    }
    ck_assert_int_eq(signal_g2h(SIGINT), SIGINT);
    ck_assert_int_eq(signal_g2h(32), 63);
    ck_assert_int_eq(signal_g2h(33), 64);
    ck_assert_int_eq(signal_g2h(63), 0);
    ck_assert_int_eq(signal_h2g(32), 0);
}
END_TEST

START_TEST(safe_syscall)
{
    /* plain behaviour: a real syscall result */
    ck_assert_int_eq(user_safe_syscall(39 /* x86-64 getpid */, 0, 0, 0, 0, 0, 0), getpid());
    ck_assert_int_eq(user_safe_syscall(0 /* read */, -1, 0, 0, 0, 0, 0), -EBADF);
    /* with a signal already queued the wait is not entered */
    *signal_pending_flag() = 1;
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    char c;
    ck_assert_int_eq(user_safe_syscall(0 /* read */, p[0], (long)&c, 1, 0, 0, 0), -EINTR);
    *signal_pending_flag() = 0;
    close(p[0]);
    close(p[1]);
    /* pcs outside the stub are left alone */
    ck_assert_uint_eq(safe_syscall_fixup((uintptr_t)&safe_syscall_fixup), (uintptr_t)&safe_syscall_fixup);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("user");
    TCase *tc = tcase_create("user");
    tcase_add_test(tc, stat_layout);
    tcase_add_test(tc, open_flags);
    tcase_add_test(tc, initial_stack);
    tcase_add_test(tc, stack_too_big);
    tcase_add_test(tc, sigframe_layout);
    tcase_add_test(tc, load_interpreter);
    tcase_add_test(tc, sysroot_paths);
    tcase_add_test(tc, address_space_walk);
    tcase_add_test(tc, huge_page_advice);
    tcase_add_test(tc, mmap_min_addr);
    tcase_add_test(tc, signal_numbers);
#if defined(__x86_64__)
    tcase_add_test(tc, safe_syscall);
#endif
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

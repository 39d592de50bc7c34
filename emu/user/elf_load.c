/* ELF loading and the initial process stack, as Linux's binfmt_elf builds them for arm64. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/resource.h>
#include "user.h"

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

static unsigned seg_prot(uint32_t pf)
{
    return ((pf & PF_R) ? GP_READ : 0) | ((pf & PF_W) ? GP_WRITE : 0) | ((pf & PF_X) ? GP_EXEC : 0);
}

int elf_load_file(const char *host_path, bool is_interp, ElfImage *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    int fd = open(host_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", host_path, strerror(e));
        return -e;
    }
    Elf64_Ehdr eh;
    Elf64_Phdr *ph = NULL;
    int ret = -ENOEXEC;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        eh.e_machine != EM_AARCH64 || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
        eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > 256) {
        snprintf(err, errlen, "%s: not an AArch64 ELF executable", host_path);
        goto out;
    }
    size_t phsz = (size_t)eh.e_phnum * sizeof(Elf64_Phdr);
    ph = malloc(phsz);
    if (!ph || pread(fd, ph, phsz, (off_t)eh.e_phoff) != (ssize_t)phsz) {
        snprintf(err, errlen, "%s: cannot read program headers", host_path);
        goto out;
    }
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < eh.e_phnum; i++) {
        if (ph[i].p_type == PT_LOAD && ph[i].p_memsz) {
            if (ph[i].p_filesz > ph[i].p_memsz || (ph[i].p_vaddr & (GPAGE_SIZE - 1)) != (ph[i].p_offset & (GPAGE_SIZE - 1))) {
                snprintf(err, errlen, "%s: bad PT_LOAD", host_path);
                goto out;
            }
            if (ph[i].p_vaddr < lo)
                lo = ph[i].p_vaddr;
            if (ph[i].p_vaddr + ph[i].p_memsz > hi)
                hi = ph[i].p_vaddr + ph[i].p_memsz;
        } else if (ph[i].p_type == PT_INTERP && !is_interp) {
            size_t n = ph[i].p_filesz;
            if (n == 0 || n >= sizeof img->interp || pread(fd, img->interp, n, (off_t)ph[i].p_offset) != (ssize_t)n) {
                snprintf(err, errlen, "%s: bad PT_INTERP", host_path);
                goto out;
            }
            img->interp[n] = 0;
        }
    }
    if (lo == UINT64_MAX) {
        snprintf(err, errlen, "%s: no loadable segments", host_path);
        goto out;
    }
    lo &= GPAGE_MASK;
    hi = (hi + GPAGE_SIZE - 1) & GPAGE_MASK;
    uint64_t bias = 0;
    if (eh.e_type == ET_DYN) {
        uint64_t base = guest_find_free(is_interp ? MMAP_BASE : ET_DYN_LOAD_BASE, hi - lo + (1ull << 20));
        if (!base) {
            ret = -ENOMEM;
            snprintf(err, errlen, "%s: no room in the address space", host_path);
            goto out;
        }
        bias = base - lo;
    }
    if (!guest_addr_ok(lo + bias, hi - lo)) {
        ret = -ENOMEM;
        snprintf(err, errlen, "%s: segments outside the guest address space", host_path);
        goto out;
    }
    /* Map the whole span writable, fill it, then give every page the union of the protections of
     * the segments that cover it; pages no segment covers are unmapped again. */
    if ((ret = guest_map_anon(lo + bias, hi - lo, GP_READ | GP_WRITE)) < 0) {
        snprintf(err, errlen, "%s: cannot map segments", host_path);
        goto out;
    }
    for (int i = 0; i < eh.e_phnum; i++) {
        if (ph[i].p_type != PT_LOAD || !ph[i].p_filesz)
            continue;
        uint8_t *dst = g2h(ph[i].p_vaddr + bias);
        uint64_t done = 0;
        while (done < ph[i].p_filesz) {
            ssize_t r = pread(fd, dst + done, ph[i].p_filesz - done, (off_t)(ph[i].p_offset + done));
            if (r <= 0) {
                ret = r < 0 ? -errno : -EIO;
                snprintf(err, errlen, "%s: short read of a segment", host_path);
                goto out;
            }
            done += (uint64_t)r;
        }
    }
    for (uint64_t p = lo; p < hi; p += GPAGE_SIZE) {
        unsigned prot = 0;
        bool covered = false;
        for (int i = 0; i < eh.e_phnum; i++)
            if (ph[i].p_type == PT_LOAD && ph[i].p_memsz && p + GPAGE_SIZE > ph[i].p_vaddr &&
                p < ph[i].p_vaddr + ph[i].p_memsz) {
                covered = true;
                prot |= seg_prot(ph[i].p_flags);
            }
        if (!covered)
            guest_unmap(p + bias, GPAGE_SIZE);
        else if (prot != (GP_READ | GP_WRITE))
            guest_protect(p + bias, GPAGE_SIZE, prot);
    }
    /* Program headers: PT_PHDR when present, else inside the segment mapping file offset 0. */
    img->phdr_addr = 0;
    for (int i = 0; i < eh.e_phnum; i++)
        if (ph[i].p_type == PT_PHDR)
            img->phdr_addr = ph[i].p_vaddr + bias;
    if (!img->phdr_addr)
        for (int i = 0; i < eh.e_phnum; i++)
            if (ph[i].p_type == PT_LOAD && eh.e_phoff >= ph[i].p_offset &&
                eh.e_phoff + phsz <= ph[i].p_offset + ph[i].p_filesz) {
                img->phdr_addr = ph[i].p_vaddr + bias + (eh.e_phoff - ph[i].p_offset);
                break;
            }
    img->load_bias = bias;
    img->entry = eh.e_entry + bias;
    img->phnum = eh.e_phnum;
    img->phent = eh.e_phentsize;
    img->lo = lo + bias;
    img->hi = hi + bias;
    img->brk = hi + bias;
    ret = 0;
out:
    free(ph);
    close(fd);
    return ret;
}

/* ---- initial stack ------------------------------------------------------------ */

static uint64_t push_bytes(uint64_t sp, const void *p, size_t n)
{
    sp -= n;
    memcpy(g2h(sp), p, n);
    return sp;
}

int build_initial_stack(uint64_t stack_top, uint64_t stack_limit, int argc, char *const argv[],
                        char *const envp[], const AuxInput *ai, StackInfo *out)
{
    int envc = 0;
    while (envp && envp[envc])
        envc++;
    /* Check the total size first. */
    uint64_t need = 8 + strlen(ai->execfn) + 1 + 16 + 16 + 64;
    for (int i = 0; i < argc; i++)
        need += strlen(argv[i]) + 1 + 8;
    for (int i = 0; i < envc; i++)
        need += strlen(envp[i]) + 1 + 8;
    need += 8 * 3 + 2 * 8 * 32;
    if (need > stack_top - stack_limit)
        return -E2BIG;

    uint64_t sp = stack_top - 8; /* a null word at the very top, like Linux */
    memset(g2h(sp), 0, 8);
    /* Strings, from the top: the executable name, then environment and arguments. */
    sp = push_bytes(sp, ai->execfn, strlen(ai->execfn) + 1);
    uint64_t execfn = sp;
    uint64_t *envaddr = malloc((envc + 1) * sizeof *envaddr);
    uint64_t *argaddr = malloc((argc + 1) * sizeof *argaddr);
    if (!envaddr || !argaddr) {
        free(envaddr);
        free(argaddr);
        return -ENOMEM;
    }
    for (int i = envc - 1; i >= 0; i--)
        envaddr[i] = sp = push_bytes(sp, envp[i], strlen(envp[i]) + 1);
    for (int i = argc - 1; i >= 0; i--)
        argaddr[i] = sp = push_bytes(sp, argv[i], strlen(argv[i]) + 1);
    sp &= ~15ull;
    sp = push_bytes(sp, "aarch64", 8);
    uint64_t platform = sp;
    sp &= ~15ull;
    sp = push_bytes(sp, ai->random16, 16);
    uint64_t random = sp;

    const ElfImage *exe = ai->exe;
    uint64_t aux[][2] = {
        { AT_MINSIGSTKSZ, USER_MINSIGSTKSZ },
        { AT_HWCAP, user_hwcap() },
        { AT_PAGESZ, GPAGE_SIZE },
        { AT_CLKTCK, (uint64_t)sysconf(_SC_CLK_TCK) },
        { AT_PHDR, exe->phdr_addr },
        { AT_PHENT, exe->phent },
        { AT_PHNUM, exe->phnum },
        { AT_BASE, ai->interp ? ai->interp->load_bias : 0 },
        { AT_FLAGS, 0 },
        { AT_ENTRY, exe->entry },
        { AT_UID, getuid() },
        { AT_EUID, geteuid() },
        { AT_GID, getgid() },
        { AT_EGID, getegid() },
        { AT_SECURE, 0 },
        { AT_RANDOM, random },
        { AT_HWCAP2, 0 },
        { AT_EXECFN, execfn },
        { AT_PLATFORM, platform },
        { AT_NULL, 0 },
    };
    size_t naux = sizeof aux / sizeof aux[0];
    size_t words = 1 + (argc + 1) + (envc + 1) + 2 * naux;
    sp = (sp - words * 8) & ~15ull;
    uint64_t *w = g2h(sp);
    size_t k = 0;
    w[k++] = (uint64_t)argc;
    out->argv = sp + 8 * k;
    for (int i = 0; i < argc; i++)
        w[k++] = argaddr[i];
    w[k++] = 0;
    out->envp = sp + 8 * k;
    for (int i = 0; i < envc; i++)
        w[k++] = envaddr[i];
    w[k++] = 0;
    out->auxv = sp + 8 * k;
    for (size_t i = 0; i < naux; i++) {
        w[k++] = aux[i][0];
        w[k++] = aux[i][1];
    }
    free(envaddr);
    free(argaddr);
    out->sp = sp;
    out->random = random;
    out->execfn = execfn;
    out->platform = platform;
    return 0;
}

/* ---- whole program ---------------------------------------------------------------- */

/* "#!interp [arg]" scripts: returns 1 and fills interp/arg when the file is one. */
static int read_shebang(const char *host_path, char *interp, size_t ilen, char *arg, size_t alen)
{
    int fd = open(host_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    char buf[256];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n < 2 || buf[0] != '#' || buf[1] != '!')
        return 0;
    buf[n] = 0;
    char *nl = strchr(buf, '\n');
    if (nl)
        *nl = 0;
    char *p = buf + 2;
    while (*p == ' ' || *p == '\t')
        p++;
    char *e = p;
    while (*e && *e != ' ' && *e != '\t')
        e++;
    if (e == p)
        return -ENOEXEC;
    char *a = e;
    while (*a == ' ' || *a == '\t')
        a++;
    *e = 0;
    size_t al = strlen(a);
    while (al && (a[al - 1] == ' ' || a[al - 1] == '\t' || a[al - 1] == '\r'))
        a[--al] = 0;
    snprintf(interp, ilen, "%s", p);
    snprintf(arg, alen, "%s", a);
    return 1;
}

/* Size of the initial stack mapping: the soft RLIMIT_STACK, between 8 MiB and STACK_SIZE_MAX. */
static uint64_t stack_size(void)
{
    struct rlimit rl;
    uint64_t sz = 8ull << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > sz)
        sz = rl.rlim_cur < STACK_SIZE_MAX ? rl.rlim_cur : STACK_SIZE_MAX;
    return (sz + GPAGE_SIZE - 1) & GPAGE_MASK;
}

int user_load_program(CPUState *c, const char *path, int argc, char **argv, char **envp)
{
    char hbuf[4096], err[4400];
    const char *hpath = user_path(path, hbuf, sizeof hbuf);
    char **nargv = NULL;
    /* Up to a few levels of #! scripts. */
    static char interp[3][256], iarg[3][256];
    for (int depth = 0;; depth++) {
        int r = read_shebang(hpath, interp[depth % 3], 256, iarg[depth % 3], 256);
        if (r < 0) {
            fprintf(stderr, "malibu-user: %s: %s\n", path, strerror(-r));
            return r;
        }
        if (r == 0)
            break;
        if (depth >= 3) {
            fprintf(stderr, "malibu-user: %s: too many levels of #! interpreters\n", path);
            return -ELOOP;
        }
        /* argv becomes: interp [arg] script original-args[1..] */
        char **v = calloc(argc + 3, sizeof *v);
        int k = 0;
        v[k++] = interp[depth % 3];
        if (iarg[depth % 3][0])
            v[k++] = iarg[depth % 3];
        v[k++] = (char *)path;
        for (int i = 1; i < argc; i++)
            v[k++] = argv[i];
        v[k] = NULL;
        nargv = v;
        argv = v;
        argc = k;
        path = interp[depth % 3];
        hpath = user_path(path, hbuf, sizeof hbuf);
    }
    user_proc.exe_path = path;
    if (!realpath(hpath, user_proc.exe_abs))
        snprintf(user_proc.exe_abs, sizeof user_proc.exe_abs, "%s", hpath);

    static ElfImage exe, in;
    int r = elf_load_file(hpath, false, &exe, err, sizeof err);
    if (r < 0) {
        fprintf(stderr, "malibu-user: %s\n", err);
        return r;
    }
    ElfImage *interp_img = NULL;
    if (exe.interp[0]) {
        char ibuf[4096];
        const char *ip = user_path(exe.interp, ibuf, sizeof ibuf);
        r = elf_load_file(ip, true, &in, err, sizeof err);
        if (r < 0) {
            fprintf(stderr, "malibu-user: interpreter %s\n", err);
            return r;
        }
        interp_img = &in;
        if (!realpath(ip, user_proc.interp_abs))
            snprintf(user_proc.interp_abs, sizeof user_proc.interp_abs, "%s", ip);
        user_proc.interp_lo = in.lo;
        user_proc.interp_hi = in.hi;
    }
    user_proc.exe_lo = exe.lo;
    user_proc.exe_hi = exe.hi;
    user_map_name(exe.lo, exe.hi, 0, user_proc.exe_abs);
    if (interp_img)
        user_map_name(in.lo, in.hi, 0, user_proc.interp_abs);
    /* brk starts after the main program's bss. */
    user_proc.brk_start = user_proc.brk_cur = user_proc.brk_mapped_end = exe.brk;
    user_proc.mmap_next = MMAP_BASE;

    uint64_t ssz = stack_size();
    uint64_t stack_lo = STACK_TOP - ssz;
    if ((r = guest_map_anon(stack_lo, ssz, GP_READ | GP_WRITE)) < 0) {
        fprintf(stderr, "malibu-user: cannot map the stack\n");
        return r;
    }
    uint8_t rnd[16];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        for (int i = 0; i < 16; i++)
            rnd[i] = (uint8_t)(rand() ^ i);
    AuxInput ai = { .exe = &exe, .interp = interp_img, .execfn = path, .random16 = rnd };
    StackInfo si;
    if ((r = build_initial_stack(STACK_TOP, stack_lo, argc, argv, envp, &ai, &si)) < 0) {
        fprintf(stderr, "malibu-user: arguments too long\n");
        return r;
    }
    {
        const uint64_t *a = g2h(si.auxv);
        size_t n = 0;
        while (n + 2 <= sizeof user_proc.auxv / 8 && a[n] != AT_NULL)
            n += 2;
        n += 2; /* AT_NULL */
        if (n * 8 > sizeof user_proc.auxv)
            n = sizeof user_proc.auxv / 8;
        memcpy(user_proc.auxv, a, n * 8);
        user_proc.auxv_len = n * 8;
    }
    size_t cl = 0;
    for (int i = 0; i < argc; i++)
        cl += strlen(argv[i]) + 1;
    user_proc.cmdline = malloc(cl ? cl : 1);
    if (user_proc.cmdline) {
        size_t o = 0;
        for (int i = 0; i < argc; i++) {
            size_t l = strlen(argv[i]) + 1;
            memcpy(user_proc.cmdline + o, argv[i], l);
            o += l;
        }
        user_proc.cmdline_len = cl;
    }
    free(nargv);
    c->x[REG_SP] = si.sp;
    c->pc = interp_img ? interp_img->entry : exe.entry;
    return 0;
}

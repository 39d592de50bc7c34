/* Guest signals: dispositions, masks, delivery with the arm64 rt_sigframe, sigreturn.
 *
 * The host signal mask mirrors the guest's (except SIGSEGV/SIGBUS, which the runtime needs for
 * guest memory faults), so blocked signals stay pending in the host kernel.  Dispositions are
 * mirrored too: SIG_DFL and SIG_IGN become the host's own (so a default "terminate" kills this
 * process with the right status); a guest handler becomes a host handler that queues the signal
 * and asks the CPU to stop at the next block boundary, where it is delivered. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ucontext.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "user.h"

#define NSIG_G 64
#define G_SIG_DFL 0
#define G_SIG_IGN 1
#define G_SA_NOCLDSTOP 0x00000001u
#define G_SA_NOCLDWAIT 0x00000002u
#define G_SA_SIGINFO   0x00000004u
#define G_SA_RESTORER  0x04000000u
#define G_SA_ONSTACK   0x08000000u
#define G_SA_RESTART   0x10000000u
#define G_SA_NODEFER   0x40000000u
#define G_SA_RESETHAND 0x80000000u
#define G_MINSIGSTKSZ 5120
#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1u << 31)
#endif

typedef struct GSigAction {
    uint64_t handler, flags, restorer, mask;
} GSigAction;

/* Dispositions are per process; masks, pending signals and the alternate stack per thread (the
 * host kernel routes each signal to a thread whose host mask, mirroring its guest mask, allows
 * it; that thread's host handler queues it for its own CPU). */
static GSigAction gact[NSIG_G + 1];
static __thread uint64_t gmask;                 /* bit (sig-1) set: blocked */
static __thread volatile sig_atomic_t pend[NSIG_G + 1];
static __thread siginfo_t pinfo[NSIG_G + 1];
static __thread bool psync[NSIG_G + 1];         /* synchronous fault: cannot be blocked or ignored */
static __thread CPUState *main_cpu;             /* the CPU of this thread */
static __thread uint64_t alt_sp, alt_size;
static __thread int alt_flags = SS_DISABLE;
static __thread bool have_saved_mask;           /* rt_sigsuspend: mask to put in the next frame */
static __thread uint64_t saved_mask;
static __thread volatile int sig_flag;           /* something deliverable is queued */
static uint64_t sigtramp;                       /* guest address of a rt_sigreturn trampoline */

volatile int *signal_pending_flag(void)
{
    return &sig_flag;
}

static inline uint64_t sbit(int sig) { return 1ull << (sig - 1); }

/* Guest and host signal numbers: equal, except that the host's libc reserves 32 and 33 (which the
 * guest's libc uses for thread cancellation and set*id broadcasts): guest 32 and 33 travel as host
 * 63 and 64, and guest 63 and 64 have no host counterpart (they are never raised by the host). */
int signal_g2h(int sig)
{
    if (sig == 32 || sig == 33)
        return sig + 31;
    if (sig == 63 || sig == 64)
        return 0;
    return sig;
}

int signal_h2g(int sig)
{
    if (sig == 63 || sig == 64)
        return sig - 31;
    if (sig == 32 || sig == 33)
        return 0;
    return sig;
}
#define UNBLOCKABLE (sbit(SIGKILL) | sbit(SIGSTOP))

static void host_mask_from_guest(sigset_t *s, uint64_t m)
{
    sigemptyset(s);
    for (int i = 1; i <= NSIG_G; i++)
        if ((m & sbit(i)) && i != SIGSEGV && i != SIGBUS && i != SIGKILL && i != SIGSTOP && signal_g2h(i))
            sigaddset(s, signal_g2h(i));
}

static void apply_host_mask(void)
{
    sigset_t s;
    host_mask_from_guest(&s, gmask);
    sigprocmask(SIG_SETMASK, &s, NULL);
}

static void host_handler(int hsig, siginfo_t *si, void *uc)
{
    int sig = signal_h2g(hsig);
    if (sig <= 0 || sig > NSIG_G)
        return;
    pinfo[sig] = *si;
    pinfo[sig].si_signo = sig;
    psync[sig] = false;
    pend[sig] = 1;
    sig_flag = 1;
    if (main_cpu)
        main_cpu->exit_request = 1;
#if defined(__x86_64__)
    /* Interrupted just before a blocking syscall: make it return -EINTR instead of waiting. */
    ucontext_t *u = uc;
    u->uc_mcontext.gregs[REG_RIP] = (greg_t)safe_syscall_fixup((uintptr_t)u->uc_mcontext.gregs[REG_RIP]);
#endif
}

static void set_host_disposition(int sig)
{
    if (sig == SIGSEGV || sig == SIGBUS || sig == SIGKILL || sig == SIGSTOP)
        return;
    int hsig = signal_g2h(sig);
    if (!hsig)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigfillset(&sa.sa_mask);
    const GSigAction *a = &gact[sig];
    if (a->handler == G_SIG_DFL) {
        sa.sa_handler = SIG_DFL;
    } else if (a->handler == G_SIG_IGN) {
        sa.sa_handler = SIG_IGN;
    } else {
        sa.sa_sigaction = host_handler;
        sa.sa_flags = SA_SIGINFO;
    }
    if (sig == SIGCHLD)
        sa.sa_flags |= (a->flags & G_SA_NOCLDSTOP ? SA_NOCLDSTOP : 0) | (a->flags & G_SA_NOCLDWAIT ? SA_NOCLDWAIT : 0);
    sigaction(hsig, &sa, NULL);
}

/* Map the trampoline page: mov x8, #139 (rt_sigreturn); svc #0. */
static void map_sigtramp(void)
{
    uint64_t a = guest_find_free(MMAP_BASE - 0x100000, GPAGE_SIZE);
    if (!a || guest_map_anon(a, GPAGE_SIZE, GP_READ | GP_WRITE) < 0)
        return;
    uint32_t code[2] = { 0xd2801168u, 0xd4000001u };
    memcpy(g2h(a), code, sizeof code);
    guest_protect(a, GPAGE_SIZE, GP_READ | GP_EXEC);
    sigtramp = a;
}

void signal_init(CPUState *c)
{
    main_cpu = c;
    sigset_t cur;
    sigprocmask(SIG_SETMASK, NULL, &cur);
    gmask = 0;
    for (int i = 1; i <= NSIG_G; i++) {
        int h = signal_g2h(i);
        if (!h)
            continue;
        if (sigismember(&cur, h) == 1)
            gmask |= sbit(i);
        struct sigaction sa;
        if (sigaction(h, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
            gact[i].handler = G_SIG_IGN;
    }
    gmask &= ~UNBLOCKABLE;
    apply_host_mask();
    map_sigtramp();
}

void signal_thread_init(CPUState *c, uint64_t mask)
{
    main_cpu = c;
    gmask = mask & ~UNBLOCKABLE;
    alt_flags = SS_DISABLE;
    alt_sp = alt_size = 0;
    apply_host_mask();
}

uint64_t signal_get_mask(void)
{
    return gmask;
}

_Noreturn void user_die_by_signal(int sig)
{
    if (user_proc.exit_hook)
        user_proc.exit_hook();
    fflush(stdout);
    fflush(stderr);
    struct rlimit rl = { 0, 0 };
    setrlimit(RLIMIT_CORE, &rl); /* no host core dump of the emulator */
    int h = signal_g2h(sig);
    if (h) {
        signal(h, SIG_DFL);
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, h);
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        syscall(SYS_tgkill, getpid(), gettid(), h);
        kill(getpid(), h);
    }
    _exit(128 + sig);
}

void signal_raise_sync(CPUState *c, int sig, int code, uint64_t addr)
{
    (void)c;
    siginfo_t *si = &pinfo[sig];
    memset(si, 0, sizeof *si);
    si->si_signo = sig;
    si->si_code = code;
    si->si_addr = (void *)(uintptr_t)addr;
    psync[sig] = true;
    pend[sig] = 1;
}

void signal_queue_self(int sig, int code)
{
    siginfo_t *si = &pinfo[sig];
    memset(si, 0, sizeof *si);
    si->si_signo = sig;
    si->si_code = code;
    si->si_pid = getpid();
    si->si_uid = getuid();
    psync[sig] = false;
    pend[sig] = 1;
    if (!(gmask & sbit(sig)))
        sig_flag = 1;
    if (main_cpu)
        main_cpu->exit_request = 1;
}

static int next_deliverable(void)
{
    for (int i = 1; i <= NSIG_G; i++)
        if (pend[i] && (psync[i] || !(gmask & sbit(i))))
            return i;
    return 0;
}

bool signal_pending_unblocked(void)
{
    return next_deliverable() != 0;
}

bool signal_should_restart(void)
{
    int sig = next_deliverable();
    if (!sig)
        return true;
    const GSigAction *a = &gact[sig];
    if (a->handler == G_SIG_DFL || a->handler == G_SIG_IGN)
        return true;
    return (a->flags & G_SA_RESTART) != 0;
}

static bool on_altstack(uint64_t sp)
{
    return alt_flags != SS_DISABLE && sp > alt_sp && sp <= alt_sp + alt_size;
}

void sigframe_write(CPUState *c, uint64_t frame, const void *siginfo128, uint64_t mask,
                    uint64_t fault_addr, uint64_t ss_sp, int ss_flags, uint64_t ss_size)
{
    uint8_t *f = g2h(frame);
    memset(f, 0, SIGFRAME_SIZE);
    memcpy(f + SIGFRAME_INFO, siginfo128, 128);
    uint8_t *uc = f + SIGFRAME_UC;
    memcpy(uc + UC_STACK, &ss_sp, 8);
    memcpy(uc + UC_STACK + 8, &ss_flags, 4);
    memcpy(uc + UC_STACK + 16, &ss_size, 8);
    memcpy(uc + UC_SIGMASK, &mask, 8);
    uint8_t *mc = uc + UC_MCONTEXT;
    memcpy(mc + MC_FAULT_ADDRESS, &fault_addr, 8);
    memcpy(mc + MC_REGS, c->x, 31 * 8);
    memcpy(mc + MC_SP, &c->x[REG_SP], 8);
    memcpy(mc + MC_PC, &c->pc, 8);
    uint64_t pstate = cpu_get_nzcv(c);
    memcpy(mc + MC_PSTATE, &pstate, 8);
    uint8_t *r = mc + MC_RESERVED;
    uint32_t hdr[4] = { FPSIMD_MAGIC, FPSIMD_CTX_SIZE, c->fp.fpsr, c->fp.fpcr };
    memcpy(r, hdr, 16);
    memcpy(r + 16, c->v, 32 * 16);
    /* the terminating null record follows (already zero) */
}

int sigframe_read(CPUState *c, uint64_t frame, uint64_t *mask)
{
    if (!guest_readable(frame, SIGFRAME_SIZE))
        return -1;
    const uint8_t *uc = (const uint8_t *)g2h(frame) + SIGFRAME_UC;
    const uint8_t *mc = uc + UC_MCONTEXT;
    uint64_t pstate, pc, sp;
    memcpy(&pc, mc + MC_PC, 8);
    memcpy(&sp, mc + MC_SP, 8);
    memcpy(&pstate, mc + MC_PSTATE, 8);
    if (pstate & 0x0fffffffull & ~0x0ull) {
        /* Only EL0t with no other state bits is valid for a user context. */
        if (pstate & 0xf)
            return -1;
    }
    /* Records: fpsimd must be present. */
    const uint8_t *r = mc + MC_RESERVED;
    bool have_fp = false;
    for (unsigned off = 0; off + 8 <= MC_RESERVED_SIZE;) {
        uint32_t magic, size;
        memcpy(&magic, r + off, 4);
        memcpy(&size, r + off + 4, 4);
        if (magic == 0)
            break;
        if (size < 8 || (size & 15) || off + size > MC_RESERVED_SIZE)
            return -1;
        if (magic == FPSIMD_MAGIC) {
            if (size != FPSIMD_CTX_SIZE)
                return -1;
            uint32_t fpsr, fpcr;
            memcpy(&fpsr, r + off + 8, 4);
            memcpy(&fpcr, r + off + 12, 4);
            c->fp.fpsr = fpsr;
            c->fp.fpcr = fpcr & cpu_fpcr_writable();
            memcpy(c->v, r + off + 16, 32 * 16);
            have_fp = true;
        }
        off += size;
    }
    if (!have_fp)
        return -1;
    memcpy(c->x, mc + MC_REGS, 31 * 8);
    c->x[REG_SP] = sp;
    c->pc = pc;
    cpu_set_nzcv(c, (uint32_t)pstate);
    memcpy(mask, uc + UC_SIGMASK, 8);
    return 0;
}

static void force_kill(int sig)
{
    user_die_by_signal(sig);
}

/* Default action for sig when the guest has no handler. */
static void default_action(int sig)
{
    switch (sig) {
    case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH:
        return;
    case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
        kill(getpid(), SIGSTOP);
        return;
    default:
        user_die_by_signal(sig);
    }
}

static void deliver_one(CPUState *c, int sig)
{
    siginfo_t si = pinfo[sig];
    bool sync = psync[sig];
    pend[sig] = 0;
    psync[sig] = false;
    GSigAction *a = &gact[sig];
    c->excl_size = 0; /* taking the signal is an exception entry/return: the local monitor clears */
    if (user_proc.debug_sig)
        fprintf(stderr, "malibu-user: [%d] signal %d (code %d%s) at pc=%#llx -> %s%#llx\n", (int)gettid(), sig,
                si.si_code, sync ? ", synchronous" : "", (unsigned long long)c->pc,
                a->handler == G_SIG_DFL ? "default " : a->handler == G_SIG_IGN ? "ignored " : "handler ",
                (unsigned long long)a->handler);
    if (sync && ((gmask & sbit(sig)) || a->handler == G_SIG_IGN))
        force_kill(sig);
    if (a->handler == G_SIG_IGN)
        return;
    if (a->handler == G_SIG_DFL) {
        default_action(sig);
        return;
    }
    uint64_t sp = c->x[REG_SP];
    if ((a->flags & G_SA_ONSTACK) && alt_flags != SS_DISABLE && !on_altstack(sp))
        sp = alt_sp + alt_size;
    sp = (sp - 16) & ~15ull;
    uint64_t record = sp;
    uint64_t frame = (sp - SIGFRAME_SIZE) & ~15ull;
    if (!guest_writable(frame, record + 16 - frame)) {
        force_kill(SIGSEGV);
    }
    uint64_t fault = (sig == SIGSEGV || sig == SIGBUS) && sync ? (uint64_t)(uintptr_t)si.si_addr : 0;
    uint64_t mask = have_saved_mask ? saved_mask : gmask;
    have_saved_mask = false;
    int ssf = alt_flags == SS_DISABLE ? SS_DISABLE : (on_altstack(c->x[REG_SP]) ? SS_ONSTACK : 0);
    uint8_t info[128];
    memset(info, 0, sizeof info);
    memcpy(info, &si, sizeof info < sizeof si ? sizeof info : sizeof si);
    sigframe_write(c, frame, info, mask, fault, alt_sp, ssf, alt_size);
    uint64_t rec[2] = { c->x[29], c->x[30] };
    memcpy(g2h(record), rec, 16);
    c->x[0] = (uint64_t)sig;
    if (a->flags & G_SA_SIGINFO) {
        c->x[1] = frame + SIGFRAME_INFO;
        c->x[2] = frame + SIGFRAME_UC;
    }
    c->x[29] = record;
    c->x[30] = (a->flags & G_SA_RESTORER) && a->restorer ? a->restorer : sigtramp;
    c->x[REG_SP] = frame;
    c->pc = a->handler;
    gmask |= a->mask; /* rt_sigsuspend: its temporary mask stays during the handler */
    if (!(a->flags & G_SA_NODEFER))
        gmask |= sbit(sig);
    gmask &= ~UNBLOCKABLE;
    if (a->flags & G_SA_RESETHAND) {
        a->handler = G_SIG_DFL;
        a->flags &= ~G_SA_SIGINFO;
        set_host_disposition(sig);
    }
    apply_host_mask();
}

void signal_deliver_pending(CPUState *c)
{
    int sig;
    /* Each handler frame stacks on the previous one, like Linux delivering several at once. */
    for (int n = 0; n < 8 && (sig = next_deliverable()) != 0; n++)
        deliver_one(c, sig);
    sig_flag = next_deliverable() != 0;
    if (have_saved_mask) {
        /* rt_sigsuspend woke for nothing deliverable: back to the old mask. */
        gmask = saved_mask;
        have_saved_mask = false;
        apply_host_mask();
    }
}

long sys_rt_sigaction(int sig, uint64_t act, uint64_t oact, uint64_t sigsetsize)
{
    if (sigsetsize != 8)
        return -EINVAL;
    if (sig < 1 || sig > NSIG_G)
        return -EINVAL;
    if (act && (sig == SIGKILL || sig == SIGSTOP))
        return -EINVAL;
    GSigAction na;
    if (act) {
        if (!guest_readable(act, 32))
            return -EFAULT;
        memcpy(&na, g2h(act), 32);
    }
    if (oact) {
        if (!guest_writable(oact, 32))
            return -EFAULT;
        memcpy(g2h(oact), &gact[sig], 32);
    }
    if (act) {
        na.mask &= ~UNBLOCKABLE;
        gact[sig] = na;
        set_host_disposition(sig);
        if (na.handler == G_SIG_IGN || (na.handler == G_SIG_DFL && (sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH)))
            pend[sig] = 0;
    }
    return 0;
}

long sys_rt_sigprocmask(int how, uint64_t set, uint64_t oset, uint64_t sigsetsize)
{
    if (sigsetsize != 8)
        return -EINVAL;
    uint64_t old = gmask;
    if (set) {
        if (!guest_readable(set, 8))
            return -EFAULT;
        uint64_t m;
        memcpy(&m, g2h(set), 8);
        switch (how) {
        case SIG_BLOCK: gmask |= m; break;
        case SIG_UNBLOCK: gmask &= ~m; break;
        case SIG_SETMASK: gmask = m; break;
        default: return -EINVAL;
        }
        gmask &= ~UNBLOCKABLE;
    }
    if (oset) {
        if (!guest_writable(oset, 8)) {
            gmask = old;
            return -EFAULT;
        }
        memcpy(g2h(oset), &old, 8);
    }
    if (set)
        apply_host_mask();
    return 0;
}

long sys_rt_sigreturn(CPUState *c)
{
    uint64_t frame = c->x[REG_SP], mask;
    if ((frame & 15) || sigframe_read(c, frame, &mask) < 0) {
        fprintf(stderr, "malibu-user: bad signal frame at %#llx\n", (unsigned long long)frame);
        force_kill(SIGSEGV);
    }
    gmask = mask & ~UNBLOCKABLE;
    apply_host_mask();
    /* restore_altstack */
    const uint8_t *uc = (const uint8_t *)g2h(frame) + SIGFRAME_UC;
    uint64_t ssp, ssz;
    int ssf;
    memcpy(&ssp, uc + UC_STACK, 8);
    memcpy(&ssf, uc + UC_STACK + 8, 4);
    memcpy(&ssz, uc + UC_STACK + 16, 8);
    if (!on_altstack(c->x[REG_SP])) {
        if (ssf & SS_DISABLE) {
            alt_flags = SS_DISABLE;
            alt_sp = alt_size = 0;
        } else if (ssz >= G_MINSIGSTKSZ) {
            alt_flags = 0;
            alt_sp = ssp;
            alt_size = ssz;
        }
    }
    return USER_SYSRET_KEEP;
}

long sys_sigaltstack(CPUState *c, uint64_t ss, uint64_t oss)
{
    uint64_t o[3] = { alt_sp, 0, alt_size };
    int of = alt_flags == SS_DISABLE ? SS_DISABLE : (on_altstack(c->x[REG_SP]) ? SS_ONSTACK : 0);
    memcpy(&o[1], &of, 4);
    if (ss) {
        if (!guest_readable(ss, 24))
            return -EFAULT;
        uint64_t n[3];
        memcpy(n, g2h(ss), 24);
        int fl;
        memcpy(&fl, &n[1], 4);
        if (on_altstack(c->x[REG_SP]))
            return -EPERM;
        if (fl & ~(SS_DISABLE | SS_ONSTACK | SS_AUTODISARM))
            return -EINVAL;
        if (fl & SS_DISABLE) {
            alt_flags = SS_DISABLE;
            alt_sp = alt_size = 0;
        } else {
            if (n[2] < G_MINSIGSTKSZ)
                return -ENOMEM;
            alt_flags = 0;
            alt_sp = n[0];
            alt_size = n[2];
        }
    }
    if (oss) {
        if (!guest_writable(oss, 24))
            return -EFAULT;
        memcpy(g2h(oss), o, 24);
    }
    return 0;
}

long sys_rt_sigsuspend(uint64_t mask, uint64_t sigsetsize)
{
    if (sigsetsize != 8)
        return -EINVAL;
    if (!guest_readable(mask, 8))
        return -EFAULT;
    uint64_t m;
    memcpy(&m, g2h(mask), 8);
    uint64_t old = gmask;
    sigset_t all, prev, hs;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigprocmask(SIG_BLOCK, &all, &prev);
    gmask = m & ~UNBLOCKABLE;
    if (!signal_pending_unblocked()) {
        host_mask_from_guest(&hs, gmask);
        sigsuspend(&hs);
    }
    saved_mask = old;
    have_saved_mask = true;
    /* gmask stays the temporary mask until delivery; the frame records the old one. */
    apply_host_mask();
    return -EINTR;
}

long sys_rt_sigpending(uint64_t set, uint64_t sigsetsize)
{
    if (sigsetsize != 8)
        return -EINVAL;
    if (!guest_writable(set, 8))
        return -EFAULT;
    sigset_t hs;
    sigpending(&hs);
    uint64_t m = 0;
    for (int i = 1; i <= NSIG_G; i++)
        if (pend[i] || (signal_g2h(i) && sigismember(&hs, signal_g2h(i)) == 1))
            m |= sbit(i);
    m &= gmask;
    memcpy(g2h(set), &m, 8);
    return 0;
}

long sys_rt_sigtimedwait(uint64_t set, uint64_t info, uint64_t ts, uint64_t sigsetsize)
{
    if (sigsetsize != 8)
        return -EINVAL;
    if (!guest_readable(set, 8))
        return -EFAULT;
    if (info && !guest_writable(info, 128))
        return -EFAULT;
    if (ts && !guest_readable(ts, 16))
        return -EFAULT;
    uint64_t m;
    memcpy(&m, g2h(set), 8);
    for (int i = 1; i <= NSIG_G; i++)
        if (pend[i] && (m & sbit(i))) {
            pend[i] = 0;
            if (info) {
                memset(g2h(info), 0, 128);
                memcpy(g2h(info), &pinfo[i], sizeof(siginfo_t) < 128 ? sizeof(siginfo_t) : 128);
            }
            return i;
        }
    sigset_t hs;
    host_mask_from_guest(&hs, m);
    siginfo_t si;
    int r = sigtimedwait(&hs, &si, ts ? (const struct timespec *)g2h(ts) : NULL);
    if (r < 0)
        return -errno;
    r = signal_h2g(r);
    si.si_signo = r;
    if (info)
        memcpy(g2h(info), &si, 128);
    return r;
}

void signal_prepare_exec(void)
{
    for (int i = 1; i <= NSIG_G; i++) {
        if (i == SIGKILL || i == SIGSTOP || !signal_g2h(i))
            continue;
        if (gact[i].handler != G_SIG_IGN && gact[i].handler != G_SIG_DFL)
            signal(signal_g2h(i), SIG_DFL);
    }
    sigset_t s;
    host_mask_from_guest(&s, gmask);
    sigprocmask(SIG_SETMASK, &s, NULL);
}

void signal_exec_failed(void)
{
    for (int i = 1; i <= NSIG_G; i++)
        if (i != SIGKILL && i != SIGSTOP && signal_g2h(i))
            set_host_disposition(i);
    apply_host_mask();
}

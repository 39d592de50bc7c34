/* The guest CPU loop, guest threads (host pthreads, one CPUState and translation cache each)
 * and fork. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include "user.h"
#include "tb.h"

#define MAIN_TB_CACHE (256u << 20)
#define THREAD_TB_CACHE (64u << 20)

static pthread_mutex_t mm_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cpu_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static CPUState *cpu_pool[64];          /* CPUs of exited threads, for reuse (never freed) */
static int cpu_pool_n;
static int nthreads = 1;
static __thread uint64_t clear_child_tid;

void user_set_clear_child_tid(uint64_t addr) { clear_child_tid = addr; }

void user_mm_lock(void) { pthread_mutex_lock(&mm_lock); }
void user_mm_unlock(void) { pthread_mutex_unlock(&mm_lock); }

CPUState *user_new_cpu(bool main_thread)
{
    CPUState *c = NULL;
    pthread_mutex_lock(&cpu_pool_lock);
    if (cpu_pool_n)
        c = cpu_pool[--cpu_pool_n];
    pthread_mutex_unlock(&cpu_pool_lock);
    if (c) {
        TBCache *t = c->tbc;
        cpu_init(c);
        c->tbc = t;
        tbc_flush(t);
    } else {
        c = aligned_alloc(64, (sizeof *c + 63) & ~(size_t)63);
        if (!c)
            return NULL;
        cpu_init(c);
        c->tbc = tbc_new(main_thread ? MAIN_TB_CACHE : THREAD_TB_CACHE);
        if (!c->tbc) {
            free(c);
            return NULL;
        }
    }
    c->guest_base = guest_base;
    return c;
}

static const char *exc_name(CpuException e)
{
    static const char *n[] = { "none", "svc", "undefined instruction", "brk", "hlt", "data abort",
                               "instruction abort", "alignment fault", "interrupt" };
    return (unsigned)e < sizeof n / sizeof n[0] ? n[e] : "?";
}

_Noreturn void user_cpu_loop(CPUState *c)
{
    for (;;) {
        CpuException e = cpu_exec(c);
        if (user_proc.debug_exc && e != EXC_SVC && e != EXC_INTERRUPT) {
            uint32_t insn = 0;
            if (guest_access_ok(c->pc, 4, GP_READ))
                memcpy(&insn, g2h(c->pc), 4);
            char text[96] = "";
            if (cpu_disasm)
                cpu_disasm(insn, c->pc, text, sizeof text);
            fprintf(stderr, "malibu-user: %s at pc=%#llx insn=%08x%s%s fault_addr=%#llx\n", exc_name(e),
                    (unsigned long long)c->pc, insn, text[0] ? " " : "", text,
                    (unsigned long long)c->fault_addr);
        }
        switch (e) {
        case EXC_SVC:
            user_syscall(c);
            c->excl_size = 0; /* the kernel's exception return clears the local monitor */
            break;
        case EXC_INTERRUPT:
        case EXC_NONE:
            break;
        case EXC_UDEF:
        case EXC_HLT:
            signal_raise_sync(c, SIGILL, ILL_ILLOPC, c->pc);
            break;
        case EXC_BRK:
            signal_raise_sync(c, SIGTRAP, TRAP_BRKPT, c->pc);
            break;
        case EXC_DATA_ABORT:
            if (guest_mem_take_fault_signal() == SIGBUS) /* past the end of a mapped file */
                signal_raise_sync(c, SIGBUS, BUS_ADRERR, c->fault_addr);
            else
                signal_raise_sync(c, SIGSEGV, (guest_page_flags(c->fault_addr) & GP_VALID) ? SEGV_ACCERR : SEGV_MAPERR,
                                  c->fault_addr);
            break;
        case EXC_INSN_ABORT:
            signal_raise_sync(c, SIGSEGV, (guest_page_flags(c->pc) & GP_VALID) ? SEGV_ACCERR : SEGV_MAPERR, c->pc);
            break;
        case EXC_ALIGN:
            signal_raise_sync(c, SIGBUS, BUS_ADRALN, c->fault_addr);
            break;
        }
        if (c->tbc->flush_pending && !c->exit_request)
            c->exit_request = 1;
        signal_deliver_pending(c);
    }
}

typedef struct ThreadStart {
    CPUState *cpu;
    uint64_t flags, ptid, ctid, mask;
    sem_t ready;
    pid_t tid;
} ThreadStart;

static void *thread_main(void *arg)
{
    ThreadStart *ts = arg;
    CPUState *c = ts->cpu;
    pid_t tid = gettid();
    /* Both tid stores happen before any guest code of the thread runs (it could exit and clear
     * them at once, as pthread_join expects), like the kernel does them before the clone returns. */
    if ((ts->flags & CLONE_PARENT_SETTID) && guest_writable(ts->ptid, 4))
        memcpy(g2h(ts->ptid), &tid, 4);
    if ((ts->flags & CLONE_CHILD_SETTID) && guest_writable(ts->ctid, 4))
        memcpy(g2h(ts->ctid), &tid, 4);
    clear_child_tid = (ts->flags & CLONE_CHILD_CLEARTID) ? ts->ctid : 0;
    guest_mem_set_current_cpu(c);
    guest_mem_register_cpu(c);
    uint64_t mask = ts->mask;
    ts->tid = tid;
    sem_post(&ts->ready); /* ts belongs to the creator from here on */
    signal_thread_init(c, mask);
    user_cpu_loop(c);
}

long user_clone_thread(CPUState *c, uint64_t flags, uint64_t newsp, uint64_t ptid, uint64_t tls, uint64_t ctid)
{
    const uint64_t need = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD;
    if ((flags & need) != need)
        return -EINVAL;
    if ((flags & CLONE_PARENT_SETTID) && !guest_writable(ptid, 4))
        return -EFAULT;
    CPUState *n = user_new_cpu(false);
    if (!n)
        return -EAGAIN;
    TBCache *t = n->tbc;
    memcpy(n->x, c->x, sizeof n->x);
    memcpy(n->v, c->v, sizeof n->v);
    n->pc = c->pc;
    n->nf = c->nf; n->zf = c->zf; n->cf = c->cf; n->vf = c->vf;
    n->fp = c->fp;
    n->tpidr_el0 = (flags & CLONE_SETTLS) ? tls : c->tpidr_el0;
    n->tpidrro_el0 = c->tpidrro_el0;
    n->tbc = t;
    n->guest_base = guest_base;
    n->x[0] = 0;
    if (newsp)
        n->x[REG_SP] = newsp;

    ThreadStart ts = { .cpu = n, .flags = flags, .ptid = ptid, .ctid = ctid, .mask = signal_get_mask() };
    sem_init(&ts.ready, 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 1u << 20);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread starts with everything blocked */
    __sync_fetch_and_add(&nthreads, 1);
    pthread_t th;
    int e = pthread_create(&th, &attr, thread_main, &ts);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (e) {
        __sync_fetch_and_sub(&nthreads, 1);
        pthread_mutex_lock(&cpu_pool_lock);
        if (cpu_pool_n < 64)
            cpu_pool[cpu_pool_n++] = n;
        pthread_mutex_unlock(&cpu_pool_lock);
        sem_destroy(&ts.ready);
        return -EAGAIN;
    }
    while (sem_wait(&ts.ready) != 0)
        ;
    sem_destroy(&ts.ready);
    return ts.tid;
}

_Noreturn void user_thread_exit(CPUState *c, int status)
{
    if (clear_child_tid && guest_writable(clear_child_tid, 4)) {
        uint32_t z = 0;
        memcpy(g2h(clear_child_tid), &z, 4);
        syscall(SYS_futex, g2h(clear_child_tid), FUTEX_WAKE, 1, NULL, NULL, 0);
    }
    if (__sync_sub_and_fetch(&nthreads, 1) == 0) {
        if (user_proc.exit_hook)
            user_proc.exit_hook();
        fflush(stdout);
        _exit(status);
    }
    /* Host signals must not pick this dying thread. */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, NULL);
    guest_mem_unregister_cpu(c);
    guest_mem_set_current_cpu(NULL);
    pthread_mutex_lock(&cpu_pool_lock);
    if (cpu_pool_n < 64)
        cpu_pool[cpu_pool_n++] = c;
    pthread_mutex_unlock(&cpu_pool_lock);
    pthread_exit(NULL);
}

long user_fork(int exit_signal)
{
    fflush(stdout);
    fflush(stderr);
    user_mm_lock();
    long pid;
    if (exit_signal == SIGCHLD)
        pid = fork(); /* the host libc resets its own locks in the child */
    else
        pid = syscall(SYS_clone, (unsigned long)exit_signal, NULL, NULL, NULL, 0);
    int e = errno;
    if (pid == 0) {
        nthreads = 1;
        pthread_mutex_init(&mm_lock, NULL);
        pthread_mutex_init(&cpu_pool_lock, NULL);
        return 0;
    }
    user_mm_unlock();
    return pid < 0 ? -e : pid;
}

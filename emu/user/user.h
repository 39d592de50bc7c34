/* malibu-user: Linux AArch64 user-mode runtime (shared declarations). */
#ifndef MALIBU_USER_H
#define MALIBU_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "cpu.h"
#include "guest_mem.h"

/* Guest address-space layout (inside the 40-bit window). */
#define ET_DYN_LOAD_BASE 0x5500000000ull  /* PIE main programs */
#define MMAP_BASE        0x7000000000ull  /* first address tried by mmap and the interpreter */
#define STACK_TOP        0xfffff00000ull  /* initial stack grows down from here */
#define STACK_SIZE_MAX   (64ull << 20)

/* AT_HWCAP: what a Cortex-A57 reports (FP ASIMD AES PMULL SHA1 SHA2 CRC32, plus CPUID as
 * qemu-aarch64 -cpu cortex-a57 does: EL0 reads of the ID registers are emulated); --cpu max
 * adds ATOMICS (bit 8, FEAT_LSE), FPHP and ASIMDHP (bits 9, 10, FEAT_FP16), ASIMDRDM (bit 12,
 * FEAT_RDM), SHA3 (bit 17, FEAT_SHA3), ASIMDDP (bit 20, FEAT_DotProd) and SHA512 (bit 21,
 * FEAT_SHA512). */
#define USER_HWCAP_A57 0x8fbull
#define USER_HWCAP_ATOMICS (1ull << 8)
#define USER_HWCAP_FPHP_ASIMDHP (3ull << 9)
#define USER_HWCAP_ASIMDRDM (1ull << 12)
#define USER_HWCAP_SHA3 (1ull << 17)
#define USER_HWCAP_ASIMDDP (1ull << 20)
#define USER_HWCAP_SHA512 (1ull << 21)
static inline uint64_t user_hwcap(void)
{
    return USER_HWCAP_A57 | (cpu_feat_lse() ? USER_HWCAP_ATOMICS : 0) |
           (cpu_feat_fp16() ? USER_HWCAP_FPHP_ASIMDHP : 0) | (cpu_feat_rdm() ? USER_HWCAP_ASIMDRDM : 0) |
           (cpu_feat_sha3() ? USER_HWCAP_SHA3 : 0) | (cpu_feat_dotprod() ? USER_HWCAP_ASIMDDP : 0) |
           (cpu_feat_sha512() ? USER_HWCAP_SHA512 : 0);
}
#define USER_MINSIGSTKSZ 4720

/* Per-process runtime state. */
typedef struct UserProc {
    const char *sysroot;      /* NULL: none */
    const char *exe_path;     /* guest path of the main program as given */
    char exe_abs[4096];       /* absolute host path of the main program (for /proc/self/exe) */
    char self_exe[4096];      /* this malibu-user binary, for execve */
    char interp_abs[4096];    /* host path of the ELF interpreter */
    uint64_t exe_lo, exe_hi, interp_lo, interp_hi; /* their mapped spans */
    uint8_t auxv[64 * 16];    /* the initial auxiliary vector, for /proc/self/auxv */
    size_t auxv_len;
    char *cmdline;            /* guest argv, NUL-separated, for /proc/self/cmdline */
    size_t cmdline_len;
    bool strace;
    bool debug_exc;           /* log guest exceptions */
    bool debug_sig;           /* log signal delivery */
    bool huge_pages;          /* large anonymous mappings on host huge pages (--huge-pages) */
    bool window_base;         /* --guest-base window: never guest address = host address */
    void (*exit_hook)(void);  /* run just before the process exits (statistics) */
    uint64_t brk_start, brk_cur, brk_mapped_end;
    uint64_t mmap_next;
} UserProc;

extern UserProc user_proc;

/* ---- ELF loading (elf_load.c) ---- */
typedef struct ElfImage {
    uint64_t load_bias;
    uint64_t entry;          /* with bias */
    uint64_t phdr_addr;      /* guest address of the program headers */
    uint64_t phnum, phent;
    uint64_t lo, hi;         /* mapped span (with bias) */
    uint64_t brk;            /* end of bss */
    char interp[4096];       /* PT_INTERP, empty when none */
} ElfImage;

/* Load an ELF file into guest memory.  is_interp picks the interpreter base. Returns 0 or -errno
 * and writes a reason to err. */
int elf_load_file(const char *host_path, bool is_interp, ElfImage *img, char *err, size_t errlen);

typedef struct StackInfo {
    uint64_t sp;
    uint64_t argv, envp, auxv, random, execfn, platform;
} StackInfo;

typedef struct AuxInput {
    const ElfImage *exe, *interp;   /* interp may be NULL */
    const char *execfn;
    const uint8_t *random16;
} AuxInput;

/* Build the initial stack below stack_top in guest memory (already mapped writable). */
int build_initial_stack(uint64_t stack_top, uint64_t stack_limit, int argc, char *const argv[],
                        char *const envp[], const AuxInput *ai, StackInfo *out);

/* Load a program (with #! handling and PT_INTERP) and set up CPU state ready to run. */
int user_load_program(CPUState *c, const char *path, int argc, char **argv, char **envp);

/* ---- CPUs and threads (thread.c) ---- */
/* Run guest code on c forever: syscalls, exceptions to signals, signal delivery. */
_Noreturn void user_cpu_loop(CPUState *c);
/* clone() with CLONE_VM|CLONE_THREAD: a host thread running a copy of c. Returns tid or -errno. */
long user_clone_thread(CPUState *c, uint64_t flags, uint64_t newsp, uint64_t ptid, uint64_t tls, uint64_t ctid);
/* set_tid_address: where exit() of this thread writes 0 and wakes a futex. */
void user_set_clear_child_tid(uint64_t addr);
/* exit() of one thread (the process ends with the last one). */
_Noreturn void user_thread_exit(CPUState *c, int status);
/* fork() safe with threads: returns like fork; exit_signal is the child's termination signal. */
long user_fork(int exit_signal);
/* Serialises address-space changes (mmap & co) between threads. */
void user_mm_lock(void);
void user_mm_unlock(void);
/* A new CPU (with its own translation cache), or NULL. */
CPUState *user_new_cpu(bool main_thread);

/* ---- paths (syscall.c) ---- */
/* Host path for a guest path: tries the sysroot first for absolute paths when the file exists
 * there (reads of libraries, ld.so.cache, ...).  Returns buf or the path itself. */
const char *user_path(const char *gpath, char *buf, size_t len);

/* ---- syscalls (syscall.c) ---- */
/* Name [start, end) in /proc/self/maps (file mappings; offset of start in the file). */
void user_map_name(uint64_t start, uint64_t end, uint64_t off, const char *name);
/* A syscall result meaning "registers already set, do not write x0". */
#define USER_SYSRET_KEEP (-100000L)
void user_syscall(CPUState *c);
/* Copy a NUL-terminated guest string; NULL when not readable or too long. */
const char *guest_str(uint64_t addr);
/* Validate a guest range for reading / writing by the host (write also makes code pages writable). */
bool guest_readable(uint64_t addr, uint64_t len);
bool guest_writable(uint64_t addr, uint64_t len);

/* ---- blocking host syscalls that cannot miss a signal (safe_syscall.c) ---- */
/* Raw host syscall; -EINTR without entering the kernel when a guest signal is already pending. */
long user_safe_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
/* Host signal handler: where an interrupted pc inside user_safe_syscall must continue. */
uintptr_t safe_syscall_fixup(uintptr_t pc);

/* ---- signals (signal.c) ---- */
/* This thread's "a deliverable guest signal is queued" flag. */
volatile int *signal_pending_flag(void);
/* Guest <-> host signal numbers (0: none). */
int signal_g2h(int sig);
int signal_h2g(int sig);
void signal_init(CPUState *c);
/* A new thread's signal state: mask inherited from its creator, no alternate stack. */
void signal_thread_init(CPUState *c, uint64_t mask);
uint64_t signal_get_mask(void);
/* Queue a synchronous fault signal for the current instruction. */
void signal_raise_sync(CPUState *c, int sig, int code, uint64_t addr);
/* Queue a signal generated by the process itself (kill/tgkill to self of fault signals). */
void signal_queue_self(int sig, int code);
/* Deliver pending, unblocked signals (set up handler frames, or take default actions). */
void signal_deliver_pending(CPUState *c);
bool signal_pending_unblocked(void);
/* SA_RESTART state of the first deliverable pending signal: true when the interrupted syscall
 * should restart. */
bool signal_should_restart(void);
long sys_rt_sigaction(int sig, uint64_t act, uint64_t oact, uint64_t sigsetsize);
long sys_rt_sigprocmask(int how, uint64_t set, uint64_t oset, uint64_t sigsetsize);
long sys_rt_sigreturn(CPUState *c);
long sys_sigaltstack(CPUState *c, uint64_t ss, uint64_t oss);
long sys_rt_sigsuspend(uint64_t mask, uint64_t sigsetsize);
long sys_rt_sigpending(uint64_t set, uint64_t sigsetsize);
long sys_rt_sigtimedwait(uint64_t set, uint64_t info, uint64_t ts, uint64_t sigsetsize);
/* Before execve: make host dispositions/mask match the guest's so the new image inherits them. */
void signal_prepare_exec(void);
/* The execve failed after all: back to the guest's dispositions. */
void signal_exec_failed(void);
/* Terminate the host process the way the guest died from sig. */
_Noreturn void user_die_by_signal(int sig);

/* ---- pure helpers, unit-tested ---- */
struct stat;
/* Convert a host struct stat to the arm64 layout (128 bytes at out). */
void stat_to_arm64(const struct stat *st, uint8_t out[128]);
/* Open-flag translation arm64 <-> host. */
int oflags_from_guest(int f);
int oflags_to_guest(int f);

/* arm64 signal frame layout. */
enum {
    SIGFRAME_INFO = 0,            /* siginfo, 128 bytes */
    SIGFRAME_UC = 128,            /* struct ucontext */
    UC_FLAGS = 0, UC_LINK = 8, UC_STACK = 16, UC_SIGMASK = 40, UC_MCONTEXT = 176,
    MC_FAULT_ADDRESS = 0, MC_REGS = 8, MC_SP = 256, MC_PC = 264, MC_PSTATE = 272, MC_RESERVED = 288,
    MC_RESERVED_SIZE = 4096,
    SIGFRAME_SIZE = 128 + 176 + 288 + 4096, /* sizeof(struct rt_sigframe) = 4688 */
    FPSIMD_MAGIC = 0x46508001, FPSIMD_CTX_SIZE = 528,
};
/* Write the signal frame for c into guest memory at frame (which must be writable). */
void sigframe_write(CPUState *c, uint64_t frame, const void *siginfo128, uint64_t mask,
                    uint64_t fault_addr, uint64_t ss_sp, int ss_flags, uint64_t ss_size);
/* Restore c from the frame; returns the saved signal mask, or -1 when the frame is bad. */
int sigframe_read(CPUState *c, uint64_t frame, uint64_t *mask);

#endif

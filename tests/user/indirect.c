/* Indirect branches (BR, BLR, RET) through user mode's indirect-branch cache: targets whose
 * cache entries collide, a computed-goto interpreter, and branches to address 0 (an empty
 * entry's address), which must fault as on hardware. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* 16 KiB apart: one cache entry for all of them (it holds 4096 addresses of 4 bytes). */
#define COLLIDING __attribute__((noinline, aligned(16384)))
COLLIDING static uint64_t f0(uint64_t x) { return x * 3 + 1; }
COLLIDING static uint64_t f1(uint64_t x) { return x ^ (x >> 7); }
COLLIDING static uint64_t f2(uint64_t x) { return x + 0x9e3779b97f4a7c15ull; }
COLLIDING static uint64_t f3(uint64_t x) { return (x << 5) | (x >> 59); }

static uint64_t (*volatile table[4])(uint64_t) = { f0, f1, f2, f3 };

static uint64_t colliding_calls(void)
{
    uint64_t x = 1;
    for (unsigned i = 0; i < 200000; i++)
        x = table[(i ^ (i >> 3)) & 3](x); /* BLR to a target whose entry another just took */
    return x;
}

/* A computed-goto interpreter: one BR per instruction, many targets per site. */
static uint64_t interpret(unsigned rounds)
{
    static const uint8_t prog[] = { 1, 2, 3, 1, 4, 2, 5, 3, 0 };
    static void *const ops[] = { &&op_end, &&op_add, &&op_mul, &&op_xor, &&op_rot, &&op_sub };
    uint64_t acc = 7, sum = 0;
    for (unsigned r = 0; r < rounds; r++) {
        const uint8_t *pc = prog;
        goto *ops[*pc++];
    op_add: acc += r; goto *ops[*pc++];
    op_mul: acc *= 0x100000001b3ull; goto *ops[*pc++];
    op_xor: acc ^= acc >> 29; goto *ops[*pc++];
    op_rot: acc = (acc << 13) | (acc >> 51); goto *ops[*pc++];
    op_sub: acc -= r * 3; goto *ops[*pc++];
    op_end: sum += acc;
    }
    return sum;
}

static sigjmp_buf env;
static volatile uintptr_t fault_addr;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    fault_addr = (uintptr_t)si->si_addr;
    siglongjmp(env, 1);
}

/* Call address 0 through a pointer the compiler cannot see: an instruction abort at 0. */
static void call_null(const char *when)
{
    void (*volatile fn)(void) = 0;
    fault_addr = 1;
    if (!sigsetjmp(env, 1))
        fn();
    if (when)
        printf("call 0 %s: SIGSEGV at %#lx\n", when, (unsigned long)fault_addr);
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, 0);

    call_null("first");
    for (int k = 0; k < 3; k++)
        printf("colliding %d: %016llx\n", k, (unsigned long long)colliding_calls());
    call_null("after the colliding calls"); /* address 0 shares their entry */
    printf("interpret: %016llx\n", (unsigned long long)interpret(300000));
    for (int k = 0; k < 20; k++) /* again and again, once its blocks are compiled */
        call_null(k == 19 ? "the twentieth time" : NULL);
    return 0;
}

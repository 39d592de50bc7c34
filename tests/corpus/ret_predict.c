/* Returns that do not go where the call said: the native back end predicts each RET from the
 * newest call (a host call frame per BL/BLR), and must fall back to the real target whenever
 * the prediction is wrong: a callee that changes x30, a RET to another function, longjmp out
 * of deep recursion, recursion deeper than the prediction stack, and a return into code that
 * the callee rewrote. */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* skip_next returns past the instruction after its call; via_other returns into `landing`
 * first (a RET to an address no call pushed), which then returns to the caller. */
__asm__(".text\n"
        ".global skip_next\n"
        "skip_next:\n"
        "    add x30, x30, #4\n"
        "    ret\n"
        ".global call_skip\n"
        "call_skip:\n" /* x0 = 1 + 10 when the add of 100 is skipped */
        "    stp x29, x30, [sp, #-16]!\n"
        "    mov x0, #1\n"
        "    bl skip_next\n"
        "    add x0, x0, #100\n"
        "    add x0, x0, #10\n"
        "    ldp x29, x30, [sp], #16\n"
        "    ret\n"
        ".global via_other\n"
        "via_other:\n"
        "    mov x9, x30\n"
        "    adr x30, 1f\n"
        "    ret\n"
        "    mov x0, #999\n"
        "1:  add x0, x0, #5\n"
        "    ret x9\n");
long call_skip(void);
long via_other(long);

static jmp_buf env;
static long depth_sum;

static __attribute__((noinline)) long dive(long n, long jump_at)
{
    if (n == jump_at)
        longjmp(env, (int)n + 1);
    if (n == 0)
        return 0;
    long r = dive(n - 1, jump_at) + n;
    __asm__ volatile("" : "+r"(r));
    return r;
}

static __attribute__((noinline)) long deep(long n)
{
    if (n == 0)
        return 0;
    long r = deep(n - 1) + (n & 7);
    __asm__ volatile("" : "+r"(r));
    return r;
}

/* Generated code: stp x29, x30; blr x1; movz w0, #1; ldp x29, x30; ret.  The callee may
 * rewrite the movz (the instruction its return lands on) before returning. */
static uint32_t *jit;
static int patch_to;

static uint32_t movz_w0(unsigned imm) { return 0x52800000u | (imm & 0xffff) << 5; }

static void callee(void)
{
    if (patch_to) {
        jit[2] = movz_w0((unsigned)patch_to);
        __builtin___clear_cache((char *)&jit[2], (char *)&jit[3]);
    }
}

int main(void)
{
    long s = 0;
    for (int i = 0; i < 1000; i++)
        s += call_skip();
    printf("skip: %ld\n", s);

    s = 0;
    for (int i = 0; i < 1000; i++)
        s += via_other(i);
    printf("other: %ld\n", s);

    for (long k = 0; k < 200; k++) {
        int v = setjmp(env);
        if (v == 0)
            depth_sum += dive(300, k * 3 % 301);
        else
            depth_sum += v;
        depth_sum += dive(20, -1); /* calls and returns go on after the jump */
    }
    printf("longjmp: %ld\n", depth_sum);

    printf("deep: %ld %ld %ld\n", deep(100), deep(20000), deep(5));

    long pg = sysconf(_SC_PAGESIZE);
    jit = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (jit == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    static const uint32_t code[] = { 0xa9bf7bfd, 0xd63f0020, 0x52800020, 0xa8c17bfd, 0xd65f03c0 };
    memcpy(jit, code, sizeof code);
    __builtin___clear_cache((char *)jit, (char *)jit + sizeof code);
    long (*f)(long, void (*)(void)) = (long (*)(long, void (*)(void)))(void *)jit;
    long r[6];
    for (int i = 0; i < 6; i++) {
        patch_to = i >= 3 ? 10 + i : 0;
        r[i] = f(0, callee);
    }
    printf("rewritten return: %ld %ld %ld %ld %ld %ld\n", r[0], r[1], r[2], r[3], r[4], r[5]);
    return 0;
}

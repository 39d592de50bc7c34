/* setjmp/longjmp: nested, across frames, with callee-saved registers and FP state live. */
#include <setjmp.h>
#include <stdio.h>
#include <signal.h>

static jmp_buf env, env2;
static volatile int depth;

static void deep(int n, double f)
{
    volatile double g = f * 1.5;
    if (n < -1) return;
    if (n == 0) longjmp(env, (int)g);
    deep(n - 1, g);
}

static int inner(int x)
{
    if (setjmp(env2) == 0) {
        if (x > 3) longjmp(env2, x * 10);
        return x;
    }
    return -x;
}

int main(void)
{
    volatile int count = 0;
    register long r19 asm("x19") = 0x1919;
    volatile double d = 2.0;
    int v = setjmp(env);
    count++;
    if (count < 5) deep(count * 3, d + count);
    printf("setjmp returned %d after %d, r19=%lx d=%g\n", v, count, (long)r19, d);
    for (int i = 0; i < 6; i++) printf("inner(%d)=%d\n", i, inner(i));
    sigjmp_buf sj;
    volatile int tries = 0;
    if (sigsetjmp(sj, 1) < 3) {
        tries++;
        siglongjmp(sj, tries);
    }
    printf("siglongjmp tries=%d\n", tries);
    long total = 0;
    for (int i = 0; i < 100000; i++) {
        jmp_buf e;
        int r = setjmp(e);
        if (!r) longjmp(e, i % 7 + 1);
        total += r;
    }
    printf("loop total %ld\n", total);
    return count;
}

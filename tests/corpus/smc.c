/* Self-modifying / generated code: the emulator must notice writes to code it has translated. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef uint64_t (*fn_t)(uint64_t);

static uint32_t movz_w0(unsigned imm) { return 0x52800000u | (imm & 0xffff) << 5; }   /* movz w0, #imm */
#define ADD_X0_X0_IMM(i) (0x91000000u | ((i) & 0xfff) << 10)                           /* add x0, x0, #i */
#define RET 0xd65f03c0u

static void flush(void *p, size_t n) { __builtin___clear_cache((char *)p, (char *)p + n); }

int main(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    uint32_t *code = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED) { perror("mmap"); return 1; }
    fn_t f = (fn_t)(void *)code;

    /* 1: rewrite a constant and call again, many times */
    uint64_t sum = 0;
    for (unsigned i = 0; i < 2000; i++) {
        code[0] = movz_w0(i * 7);
        code[1] = RET;
        flush(code, 8);
        sum += f(0);
    }
    printf("rewrite sum %llu\n", (unsigned long long)sum);

    /* 2: a chain of adds, patched one instruction at a time in the middle */
    for (int i = 0; i < 64; i++) code[i] = ADD_X0_X0_IMM(i);
    code[64] = RET;
    flush(code, 65 * 4);
    uint64_t a = f(1000);
    code[32] = ADD_X0_X0_IMM(4000);
    flush(code + 32, 4);
    uint64_t b = f(1000);
    code[10] = RET;
    flush(code + 10, 4);
    uint64_t c = f(1000);
    printf("chain %llu %llu %llu\n", (unsigned long long)a, (unsigned long long)b, (unsigned long long)c);

    /* 3: data and code on one page: writing data next to the code must not break it */
    uint32_t *data = code + 512;
    uint64_t t = 0;
    for (int i = 0; i < 5000; i++) {
        data[i % 64] = (uint32_t)i;
        t += f(i) + data[(i * 7) % 64];
    }
    printf("mixed %llu\n", (unsigned long long)t);

    /* 4: code crossing a page boundary, second half rewritten */
    uint32_t *x = (uint32_t *)((char *)code + pg - 8);
    x[0] = ADD_X0_X0_IMM(1); x[1] = ADD_X0_X0_IMM(2); x[2] = ADD_X0_X0_IMM(3); x[3] = RET;
    flush(x, 16);
    uint64_t p1 = ((fn_t)(void *)x)(10);
    x[2] = ADD_X0_X0_IMM(300);
    flush(x + 2, 4);
    uint64_t p2 = ((fn_t)(void *)x)(10);
    printf("crosspage %llu %llu\n", (unsigned long long)p1, (unsigned long long)p2);

    /* 5: mprotect round trip: make it read-only + exec, then writable again and patch */
    mprotect(code, 2 * pg, PROT_READ | PROT_EXEC);
    uint64_t q1 = f(5);
    mprotect(code, 2 * pg, PROT_READ | PROT_WRITE | PROT_EXEC);
    code[0] = movz_w0(4242);
    code[1] = RET;
    flush(code, 8);
    printf("mprotect %llu %llu\n", (unsigned long long)q1, (unsigned long long)f(5));
    return 0;
}

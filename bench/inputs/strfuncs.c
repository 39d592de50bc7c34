/* glibc's string functions (AdvSIMD code on arm64: LDR Q, CMEQ, UMAXP, SHRN, FMOV ...) in a
 * loop, for the native back end's AdvSIMD emitters (issue 40; bench/RESULTS.md).  Build and
 * run against the Debian sysroot of bench/cpu-user.sh:
 *   aarch64-linux-gnu-gcc -O2 -o build/bench/strfuncs bench/inputs/strfuncs.c
 *   build/malibu-user --sysroot guest-images/cache/debian-arm64/sysroot build/bench/strfuncs 150000
 * It prints a checksum of the results (140530000 for 20000). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    static char a[4096], b[4096];
    for (int i = 0; i < 4095; i++)
        a[i] = b[i] = (char)('a' + i % 23);
    unsigned long s = 0;
    for (int k = 0; k < n; k++) {
        a[4000 + k % 50] = 0; /* the string's end moves */
        s += strlen(a);
        s += (unsigned long)(char *)memchr(a, 'z' + 1, 4000) | 1;
        s += strchr(a, '{') ? 1 : 0;
        s += strnlen(a, 3000);
        s += memcmp(a, b, 3900) != 0;
        s += strcmp(a + 1, b + 1) != 0;
        memcpy(b + 8, a, 2048);
        memset(b + 3000, 'q', 512);
        a[4000 + k % 50] = 'x';
        memcpy(b, a, 4095);
    }
    printf("%lu\n", s);
    return 0;
}

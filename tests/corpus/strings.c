/* glibc string/memory functions (NEON-optimised in glibc) at many alignments and lengths. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static uint32_t h = 2166136261u;
static void mix(long v) { h = (h ^ (uint32_t)v) * 16777619u; h ^= (uint32_t)(v >> 32); }

int main(void)
{
    static char a[4096], b[4096], c[4096];
    for (int i = 0; i < 4096; i++) a[i] = 'A' + (i * 7 + i / 13) % 26;
    for (int al = 0; al < 17; al++)
        for (int len = 0; len < 300; len += 1 + len / 8) {
            memset(b, 0, sizeof b);
            memcpy(b + al, a + (al * 3) % 16, len);
            mix(memcmp(b + al, a + (al * 3) % 16, len));
            b[al + len] = 0;
            mix(strlen(b + al));
            mix(strnlen(b + al, len / 2));
            char *p = strchr(b + al, 'Q'); mix(p ? p - b : -1);
            p = strrchr(b + al, 'E'); mix(p ? p - b : -1);
            p = memchr(b + al, 'Z', len); mix(p ? p - b : -1);
            memmove(b + al + 3, b + al, len); mix(b[al + len / 2]);
            memmove(b + al, b + al + 5, len); mix(b[al + len / 3]);
            strcpy(c + (al * 5) % 16, b + al); mix(strcmp(c + (al * 5) % 16, b + al));
            mix(strncmp(c + (al * 5) % 16, a, len % 20));
            memset(c + al, al, len); mix(c[al + len - (len > 0)]);
        }
    printf("mix %08x\n", h);
    const char *hay = "the quick brown fox jumps over the lazy dog; the end";
    printf("strstr %ld %ld %s\n", strstr(hay, "lazy") - hay, strstr(hay, "the end") - hay, strstr(hay, "cat") ? "yes" : "no");
    printf("span %zu %zu %s\n", strspn(hay, "the qick"), strcspn(hay, ";"), strpbrk(hay, "xyz"));
    char buf[200];
    strcpy(buf, hay);
    char *save, *tok = strtok_r(buf, " ;", &save);
    int n = 0;
    while (tok) { n += strlen(tok); tok = strtok_r(NULL, " ;", &save); }
    printf("tokens %d\n", n);
    printf("strtol %ld %ld %lu %lld %ld\n", strtol("-12345xyz", NULL, 10), strtol("0x7fz", NULL, 0),
           strtoul("777", NULL, 8), strtoll("9223372036854775807", NULL, 10), strtol("zz", NULL, 36));
    printf("atoi %d %g %g %Lg\n", atoi("  42abc"), atof("3.25e2"), strtod("-0x1.8p3", NULL), strtold("1e-4000", NULL));
    char out[256];
    int k = snprintf(out, sizeof out, "[%5d|%-5d|%05.1f|%x|%#o|%s|%.3s|%c|%%|%lld|%zu|%p]",
                     42, -42, 3.14159, 0xbeef, 8, "str", "truncate", 'z', -1234567890123ll, sizeof(long), (void *)0);
    printf("%d %s\n", k, out);
    int up = 0;
    for (int i = 0; hay[i]; i++) up += toupper((unsigned char)hay[i]) + isalpha((unsigned char)hay[i]) * 3;
    printf("ctype %d\n", up);
    wchar_t w[64];
    mbstowcs(w, "wide chars", 64);
    printf("wcs %zu %d\n", wcslen(w), (int)w[5]);
    char *dup = strdup(hay);
    printf("dup %d %s\n", strcmp(dup, hay), strcasestr(dup, "BROWN") ? "found" : "nf");
    free(dup);
    return 0;
}

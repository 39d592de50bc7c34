/* qsort/bsearch with several comparators and element sizes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int key; char name[13]; double w; } Rec;

static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int cmp_dbl(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int cmp_rec(const void *a, const void *b)
{
    const Rec *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->w > y->w) - (x->w < y->w);
}

static uint32_t s = 2463534242u;
static uint32_t rnd(void) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; }

int main(void)
{
    enum { N = 100000 };
    int *v = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++) v[i] = (int)rnd() % 50000;
    qsort(v, N, sizeof *v, cmp_int);
    long long h = 0;
    for (int i = 0; i < N; i++) h = h * 1000003 + v[i];
    printf("ints %d %d %d %lld\n", v[0], v[N / 2], v[N - 1], h);
    int found = 0;
    for (int k = -100; k < 60000; k += 37) found += bsearch(&k, v, N, sizeof *v, cmp_int) != NULL;
    printf("bsearch %d\n", found);

    double *d = malloc(N * sizeof *d);
    for (int i = 0; i < N; i++) d[i] = (double)(int)rnd() / (rnd() | 1);
    qsort(d, N, sizeof *d, cmp_dbl);
    printf("doubles %.17g %.17g %.17g\n", d[0], d[N / 3], d[N - 1]);

    enum { M = 20000 };
    char **strs = malloc(M * sizeof *strs);
    for (int i = 0; i < M; i++) {
        int len = 1 + rnd() % 12;
        strs[i] = malloc(len + 1);
        for (int j = 0; j < len; j++) strs[i][j] = 'a' + rnd() % 6;
        strs[i][len] = 0;
    }
    qsort(strs, M, sizeof *strs, cmp_str);
    printf("strings %s %s %s\n", strs[0], strs[M / 2], strs[M - 1]);

    Rec *r = malloc(M * sizeof *r);
    for (int i = 0; i < M; i++) {
        r[i].key = rnd() % 100;
        snprintf(r[i].name, sizeof r[i].name, "n%u", rnd() % 1000);
        r[i].w = (rnd() % 1000) / 8.0;
    }
    qsort(r, M, sizeof *r, cmp_rec);
    unsigned hh = 0;
    for (int i = 0; i < M; i++) hh = hh * 33 + r[i].key + (unsigned)r[i].w + (unsigned char)r[i].name[1];
    printf("records %d %s %g %u\n", r[M - 1].key, r[M - 1].name, r[M - 1].w, hh);
    return 0;
}

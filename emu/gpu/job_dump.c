/* GPU job dump files (job_dump.h): writer (a job-walk visitor) and reader. */
#include "job_dump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_walk.h"

#define MAX_JOBS 64u

typedef struct {
    FILE *f;
    const char *shader_dir;
} writer;

static void write_block(void *ctx, enum mali_desc_kind kind, uint64_t va, const uint8_t *bytes, size_t len,
                        unsigned index, unsigned depth)
{
    writer *w = ctx;
    fprintf(w->f, "# %s\nmem 0x%" PRIx64 " %zu\n", mali_desc_name(kind), va, len);
    for (size_t i = 0; i < len; i++)
        fprintf(w->f, "%02x%s", bytes[i], (i % 32 == 31 || i + 1 == len) ? "\n" : "");
    if (kind == MALI_DESC_SHADER && w->shader_dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/shader-%" PRIx64 ".bin", w->shader_dir, va);
        FILE *s = fopen(path, "wb");
        if (s) {
            fwrite(bytes, 1, len, s);
            fclose(s);
        }
    }
}

int mali_dump_write(const char *path, const char *shader_dir, unsigned arch, unsigned as, uint64_t job_va,
                    int (*read)(void *ctx, uint64_t va, void *buf, size_t len), void *ctx)
{
    writer w = { .f = fopen(path, "w"), .shader_dir = shader_dir };
    if (!w.f)
        return -1;
    fprintf(w.f, "malibu-gpu-dump 1\narch %u\nas %u\njob 0x%" PRIx64 "\n", arch, as, job_va);
    mali_walk walk = { .read = read, .read_ctx = ctx, .visit = write_block, .visit_ctx = &w };
    mali_walk_chain(&walk, job_va, MAX_JOBS);
    int bad = ferror(w.f);
    if (fclose(w.f) || bad)
        return -1;
    return 0;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int mali_dump_load(const char *path, mali_dump *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, errlen, "%s: %s", path, strerror(errno));
    char line[1024];
    unsigned lineno = 0, version = 0;
    mali_dump_block *cur = NULL;
    size_t filled = 0;
    int rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        uint64_t va;
        size_t len;
        if (cur && filled < cur->len) {
            for (char *p = line; *p && *p != '\n' && !rc; p += 2) {
                int hi = hexval(p[0]), lo = hi < 0 ? -1 : hexval(p[1]);
                if (lo < 0 || filled == cur->len)
                    rc = fail(err, errlen, "%s:%u: bad memory bytes", path, lineno);
                else
                    cur->data[filled++] = (uint8_t)(hi << 4 | lo);
            }
        } else if (sscanf(line, "malibu-gpu-dump %u", &version) == 1) {
            if (version != 1)
                rc = fail(err, errlen, "%s: dump format version %u not known", path, version);
        } else if (sscanf(line, "arch %u", &d->arch) == 1 || sscanf(line, "as %u", &d->as) == 1 ||
                   sscanf(line, "job %" SCNx64, &d->job_va) == 1) {
            /* header item */
        } else if (sscanf(line, "mem %" SCNx64 " %zu", &va, &len) == 2 && len <= (64u << 20)) {
            mali_dump_block *nb = realloc(d->blocks, (d->nblocks + 1) * sizeof *nb);
            if (!nb)
                rc = fail(err, errlen, "out of memory");
            else {
                d->blocks = nb;
                cur = &nb[d->nblocks++];
                *cur = (mali_dump_block){ .va = va, .len = len, .data = malloc(len ? len : 1) };
                filled = 0;
                if (!cur->data)
                    rc = fail(err, errlen, "out of memory");
            }
        } else {
            rc = fail(err, errlen, "%s:%u: not a dump line", path, lineno);
        }
    }
    fclose(f);
    if (!rc && version != 1)
        rc = fail(err, errlen, "%s: not a malibu GPU dump", path);
    if (!rc && cur && filled < cur->len)
        rc = fail(err, errlen, "%s: memory block at 0x%" PRIx64 " cut short", path, cur->va);
    if (rc)
        mali_dump_free(d);
    return rc;
}

int mali_dump_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    const mali_dump *d = ctx;
    for (size_t i = 0; i < d->nblocks; i++) {
        const mali_dump_block *b = &d->blocks[i];
        if (va >= b->va && va - b->va <= b->len && len <= b->len - (va - b->va)) {
            memcpy(buf, b->data + (va - b->va), len);
            return 0;
        }
    }
    return -1;
}

void mali_dump_free(mali_dump *d)
{
    for (size_t i = 0; i < d->nblocks; i++)
        free(d->blocks[i].data);
    free(d->blocks);
    memset(d, 0, sizeof *d);
}

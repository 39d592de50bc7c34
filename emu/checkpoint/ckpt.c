/* Checkpoint files (ckpt.h; the layout in docs/checkpoint.md):
 *
 *   file     = magic "MALIBUCK", u32 format version, u32 0, section*, the "end" section
 *   section  = "SECT", u32 name length, name, u32 instance, u32 version, u64 payload length,
 *              payload, u32 CRC-32 of (payload, then the bytes from the name length to the
 *              payload length)
 *   payload  = field*;  field = u16 name length, name, u8 kind ('I' integers, 'B' bytes),
 *              u64 data length, data (integers: little-endian u64s)
 *   "end"    = a section whose one field "sections" counts the sections before it
 *
 * All numbers are little-endian.  The writer streams (a section's length is patched when it
 * ends, so RAM never needs a second copy); the reader maps the file, checks the framing and every
 * CRC when it opens it, and indexes the fields of each section. */
#include "ckpt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MAGIC "MALIBUCK"
#define SECT_MAGIC "SECT"
#define NAME_MAX_LEN 64u
#define MAX_SECTIONS 65536u
#define KIND_INT 'I'
#define KIND_BYTES 'B'

/* ---------------------------------------------------------------- writing */

struct CkptWriter {
    FILE *f;
    char *path, *tmp;
    bool failed, in_section;
    char err[256];
    uint64_t sections;
    long len_pos;          /* file offset of the open section's payload length */
    uint64_t payload_len;
    uLong crc;             /* of the open section's payload so far */
    char name[NAME_MAX_LEN + 1];
    uint32_t instance, version;
};

static void w_fail(CkptWriter *w, const char *what)
{
    if (!w->failed)
        snprintf(w->err, sizeof w->err, "%s: %s: %s", w->path, what, strerror(errno ? errno : EIO));
    w->failed = true;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void w_raw(CkptWriter *w, const void *p, size_t n)
{
    if (w->failed || !n)
        return;
    if (fwrite(p, 1, n, w->f) != n)
        w_fail(w, "write");
}

/* payload bytes: written and summed */
static void w_payload(CkptWriter *w, const void *p, size_t n)
{
    if (w->failed)
        return;
    w_raw(w, p, n);
    while (n) {                             /* crc32 takes a uInt length */
        size_t part = n > (1u << 30) ? (1u << 30) : n;
        w->crc = crc32(w->crc, p, (uInt)part);
        p = (const uint8_t *)p + part;
        n -= part;
    }
}

CkptWriter *ckpt_writer_open(const char *path, char *err, size_t errlen)
{
    CkptWriter *w = calloc(1, sizeof *w);
    if (!w)
        return snprintf(err, errlen, "out of memory"), NULL;
    w->path = strdup(path);
    w->tmp = malloc(strlen(path) + 5);
    if (!w->path || !w->tmp) {
        free(w->path), free(w->tmp), free(w);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    sprintf(w->tmp, "%s.tmp", path);
    w->f = fopen(w->tmp, "wb");
    if (!w->f) {
        snprintf(err, errlen, "%s: %s", w->tmp, strerror(errno));
        free(w->path), free(w->tmp), free(w);
        return NULL;
    }
    uint8_t head[16];
    memcpy(head, MAGIC, 8);
    put_le(head + 8, CKPT_FORMAT_VERSION, 4);
    put_le(head + 12, 0, 4);
    w_raw(w, head, sizeof head);
    return w;
}

void ckpt_begin(CkptWriter *w, const char *section, uint32_t instance, uint32_t version)
{
    if (w->failed)
        return;
    size_t n = strlen(section);
    if (w->in_section || n == 0 || n > NAME_MAX_LEN) { /* a bug in the caller, not an I/O error */
        snprintf(w->err, sizeof w->err, "section '%s': %s", section,
                 w->in_section ? "begun inside another section" : "bad name length");
        w->failed = true;
        return;
    }
    memcpy(w->name, section, n + 1);
    w->instance = instance;
    w->version = version;
    uint8_t head[8];
    memcpy(head, SECT_MAGIC, 4);
    put_le(head + 4, n, 4);
    w_raw(w, head, 8);
    w_raw(w, section, n);
    uint8_t iv[16];
    put_le(iv, instance, 4);
    put_le(iv + 4, version, 4);
    put_le(iv + 8, 0, 8);               /* payload length, patched by ckpt_end */
    w_raw(w, iv, 8);
    w->len_pos = ftell(w->f);
    w_raw(w, iv + 8, 8);
    w->payload_len = 0;
    w->crc = crc32(0, NULL, 0);
    w->in_section = true;
}

static void w_field(CkptWriter *w, const char *field, char kind, uint64_t len)
{
    size_t n = strlen(field);
    if (!w->in_section || n == 0 || n > NAME_MAX_LEN) {
        if (!w->failed)
            snprintf(w->err, sizeof w->err, "field '%s': %s", field,
                     w->in_section ? "bad name length" : "outside a section");
        w->failed = true;
        return;
    }
    uint8_t h[2];
    put_le(h, n, 2);
    w_payload(w, h, 2);
    w_payload(w, field, n);
    uint8_t k[9];
    k[0] = (uint8_t)kind;
    put_le(k + 1, len, 8);
    w_payload(w, k, 9);
    w->payload_len += 2 + n + 9 + len;
}

void ckpt_u64s(CkptWriter *w, const char *field, const uint64_t *v, size_t n)
{
    w_field(w, field, KIND_INT, (uint64_t)n * 8);
    for (size_t i = 0; i < n && !w->failed; i++) {
        uint8_t b[8];
        put_le(b, v[i], 8);
        w_payload(w, b, 8);
    }
}

void ckpt_u64(CkptWriter *w, const char *field, uint64_t v)
{
    ckpt_u64s(w, field, &v, 1);
}

void ckpt_u32s(CkptWriter *w, const char *field, const uint32_t *v, size_t n)
{
    w_field(w, field, KIND_INT, (uint64_t)n * 8);
    for (size_t i = 0; i < n && !w->failed; i++) {
        uint8_t b[8];
        put_le(b, v[i], 8);
        w_payload(w, b, 8);
    }
}

void ckpt_bytes(CkptWriter *w, const char *field, const void *p, size_t n)
{
    w_field(w, field, KIND_BYTES, n);
    w_payload(w, p, n);
}

void ckpt_str(CkptWriter *w, const char *field, const char *s)
{
    ckpt_bytes(w, field, s, strlen(s));
}

void ckpt_end(CkptWriter *w)
{
    if (w->failed)
        return;
    if (!w->in_section) {
        snprintf(w->err, sizeof w->err, "ckpt_end outside a section");
        w->failed = true;
        return;
    }
    /* the CRC goes on over the header fields, so a damaged name, instance, version or length
     * is caught as surely as damaged data */
    size_t n = strlen(w->name);
    uint8_t h[4 + NAME_MAX_LEN + 16];
    put_le(h, n, 4);
    memcpy(h + 4, w->name, n);
    put_le(h + 4 + n, w->instance, 4);
    put_le(h + 8 + n, w->version, 4);
    put_le(h + 12 + n, w->payload_len, 8);
    uLong crc = crc32(w->crc, h, (uInt)(20 + n));
    long end = ftell(w->f);
    uint8_t len[8];
    put_le(len, w->payload_len, 8);
    if (end < 0 || fseek(w->f, w->len_pos, SEEK_SET) != 0)
        return w_fail(w, "seek");
    w_raw(w, len, 8);
    if (fseek(w->f, end, SEEK_SET) != 0)
        return w_fail(w, "seek");
    uint8_t c[4];
    put_le(c, crc, 4);
    w_raw(w, c, 4);
    w->in_section = false;
    w->sections++;
}

static void w_free(CkptWriter *w)
{
    free(w->path);
    free(w->tmp);
    free(w);
}

void ckpt_writer_abort(CkptWriter *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    unlink(w->tmp);
    w_free(w);
}

bool ckpt_writer_close(CkptWriter *w, char *err, size_t errlen)
{
    if (w->in_section && !w->failed) {
        snprintf(w->err, sizeof w->err, "section '%s' not ended", w->name);
        w->failed = true;
    }
    uint64_t count = w->sections;
    ckpt_begin(w, "end", 0, 1);
    ckpt_u64(w, "sections", count);
    ckpt_end(w);
    if (!w->failed && fflush(w->f) != 0)
        w_fail(w, "write");
    if (!w->failed && fsync(fileno(w->f)) != 0)
        w_fail(w, "fsync");
    if (fclose(w->f) != 0 && !w->failed)
        w_fail(w, "close");
    w->f = NULL;
    if (!w->failed && rename(w->tmp, w->path) != 0)
        w_fail(w, "rename");
    bool ok = !w->failed;
    if (!ok) {
        snprintf(err, errlen, "%s", w->err);
        unlink(w->tmp);
    }
    w_free(w);
    return ok;
}

/* ---------------------------------------------------------------- field tables */

static uint64_t field_get(const CkptField *f, const void *base, size_t i)
{
    const uint8_t *p = (const uint8_t *)base + f->offset + i * CKPT_ELEM_SIZE(f->type);
    switch (f->type) {
    case CKPT_T_U8: return *p;
    case CKPT_T_BOOL: return *(const bool *)p;
    case CKPT_T_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case CKPT_T_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case CKPT_T_I32: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
    case CKPT_T_U64: case CKPT_T_I64: default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

void ckpt_fields(CkptWriter *w, const CkptField *fields, const void *base)
{
    for (const CkptField *f = fields; f->name && !w->failed; f++) {
        w_field(w, f->name, KIND_INT, (uint64_t)f->count * 8);
        for (size_t i = 0; i < f->count && !w->failed; i++) {
            uint8_t b[8];
            put_le(b, field_get(f, base, i), 8);
            w_payload(w, b, 8);
        }
    }
}

/* ---------------------------------------------------------------- reading */

typedef struct Field {
    const char *name;
    size_t name_len;
    char kind;
    const uint8_t *data;
    uint64_t len;
} Field;

struct CkptSection {
    CkptReader *r;
    const char *name;
    size_t name_len;
    char cname[NAME_MAX_LEN + 1];   /* NUL-terminated, for messages */
    uint32_t instance, version;
    Field *fields;
    size_t nfields, next;           /* next: ckpt_next_field's position */
    bool used;
};

struct CkptReader {
    const uint8_t *buf;
    size_t len;
    void *map;                      /* mmap'ed file (NULL: caller's memory) */
    size_t map_len;
    CkptSection *sec;
    size_t nsec;
    bool failed;
    char err[320];
};

static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* The reader's first problem (ckpt_reader_fail, below): every check in this file records through it. */
#define r_fail ckpt_reader_fail

static bool printable_name(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x21 || p[i] > 0x7e)
            return false;
    return n > 0;
}

/* The fields of one section's payload, checked for framing. */
static bool index_fields(CkptReader *r, CkptSection *s, const uint8_t *p, uint64_t len)
{
    size_t cap = 0;
    uint64_t at = 0;
    while (at < len) {
        if (len - at < 2)
            return r_fail(r, "section '%s' %u: damaged field header at payload byte %llu", s->cname,
                          s->instance, (unsigned long long)at);
        size_t nl = (size_t)get_le(p + at, 2);
        if (nl == 0 || nl > NAME_MAX_LEN || len - at - 2 < nl + 9 || !printable_name(p + at + 2, nl))
            return r_fail(r, "section '%s' %u: damaged field name at payload byte %llu", s->cname,
                          s->instance, (unsigned long long)at);
        const uint8_t *h = p + at + 2 + nl;
        char kind = (char)h[0];
        uint64_t dl = get_le(h + 1, 8);
        uint64_t room = len - at - 2 - nl - 9;
        if ((kind != KIND_INT && kind != KIND_BYTES) || dl > room || (kind == KIND_INT && dl % 8))
            return r_fail(r, "section '%s' %u: field '%.*s' is damaged (kind 0x%02x, %llu bytes, %llu left)",
                          s->cname, s->instance, (int)nl, (const char *)p + at + 2, (unsigned)(uint8_t)kind,
                          (unsigned long long)dl, (unsigned long long)room);
        if (s->nfields == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            Field *nf = realloc(s->fields, ncap * sizeof *nf);
            if (!nf)
                return r_fail(r, "out of memory");
            s->fields = nf;
            cap = ncap;
        }
        s->fields[s->nfields++] = (Field){ (const char *)p + at + 2, nl, kind, h + 9, dl };
        at += 2 + nl + 9 + dl;
    }
    return true;
}

static bool parse(CkptReader *r)
{
    const uint8_t *b = r->buf;
    size_t len = r->len;
    if (len < 16 || memcmp(b, MAGIC, 8) != 0)
        return r_fail(r, "not a malibu checkpoint (no MALIBUCK magic)");
    uint32_t fmt = (uint32_t)get_le(b + 8, 4);
    if (fmt != CKPT_FORMAT_VERSION)
        return r_fail(r, "checkpoint format version %u; this malibu reads version %u", fmt, CKPT_FORMAT_VERSION);
    if (get_le(b + 12, 4) != 0)
        return r_fail(r, "damaged: the file header's reserved word is not 0");
    size_t at = 16, cap = 0;
    const char *last = "the file header";
    char lastbuf[NAME_MAX_LEN + 16];
    for (;;) {
        if (at == len)
            return r_fail(r, "truncated: the file ends after %s without the end marker", last);
        if (len - at < 8 || memcmp(b + at, SECT_MAGIC, 4) != 0)
            return r_fail(r, len - at < 8 ? "truncated: the file ends inside the section after %s"
                                          : "damaged: no section starts after %s (byte %zu)",
                          last, at);
        size_t nl = (size_t)get_le(b + at + 4, 4);
        if (nl == 0 || nl > NAME_MAX_LEN)
            return r_fail(r, "damaged: the section after %s has a bad name length %zu", last, nl);
        if (len - at - 8 < nl + 16)
            return r_fail(r, "truncated: the file ends inside the section after %s", last);
        const uint8_t *name = b + at + 8;
        if (!printable_name(name, nl))
            return r_fail(r, "damaged: the section after %s has a bad name", last);
        const uint8_t *iv = name + nl;
        uint32_t instance = (uint32_t)get_le(iv, 4), version = (uint32_t)get_le(iv + 4, 4);
        uint64_t plen = get_le(iv + 8, 8);
        size_t data_at = at + 8 + nl + 16;
        char cname[NAME_MAX_LEN + 1];
        memcpy(cname, name, nl);
        cname[nl] = 0;
        if (plen > len - data_at || len - data_at - plen < 4)
            return r_fail(r, "truncated: section '%s' %u needs %llu bytes, the file has %zu after its header",
                          cname, instance, (unsigned long long)plen + 4, len - data_at);
        const uint8_t *payload = b + data_at;
        uLong crc = crc32(0, NULL, 0);
        for (uint64_t done = 0; done < plen;) {
            uint64_t part = plen - done > (1u << 30) ? (1u << 30) : plen - done;
            crc = crc32(crc, payload + done, (uInt)part);
            done += part;
        }
        crc = crc32(crc, b + at + 4, (uInt)(4 + nl + 16));
        uint32_t stored = (uint32_t)get_le(payload + plen, 4);
        if ((uint32_t)crc != stored)
            return r_fail(r, "damaged: section '%s' %u fails its CRC (stored 0x%08x, computed 0x%08x)",
                          cname, instance, stored, (unsigned)crc);
        at = data_at + (size_t)plen + 4;
        if (nl == 3 && !memcmp(name, "end", 3)) {
            CkptSection end = { .r = r, .name = (const char *)name, .name_len = nl, .instance = instance };
            memcpy(end.cname, "end", 4);
            bool ok = index_fields(r, &end, payload, plen);
            uint64_t count = UINT64_MAX;
            for (size_t i = 0; ok && i < end.nfields; i++)
                if (end.fields[i].name_len == 8 && !memcmp(end.fields[i].name, "sections", 8) &&
                    end.fields[i].kind == KIND_INT && end.fields[i].len == 8)
                    count = get_le(end.fields[i].data, 8);
            free(end.fields);
            if (!ok)
                return false;
            if (count != r->nsec)
                return r_fail(r, "damaged: the end marker counts %llu sections, the file has %zu",
                              (unsigned long long)count, r->nsec);
            if (at != len)
                return r_fail(r, "damaged: %zu bytes after the end marker", len - at);
            return true;
        }
        for (size_t i = 0; i < r->nsec; i++)
            if (r->sec[i].instance == instance && r->sec[i].name_len == nl && !memcmp(r->sec[i].name, name, nl))
                return r_fail(r, "damaged: section '%s' %u appears twice", cname, instance);
        if (r->nsec == MAX_SECTIONS)
            return r_fail(r, "damaged: more than %u sections", MAX_SECTIONS);
        if (r->nsec == cap) {
            size_t ncap = cap ? cap * 2 : 32;
            CkptSection *ns = realloc(r->sec, ncap * sizeof *ns);
            if (!ns)
                return r_fail(r, "out of memory");
            r->sec = ns;
            cap = ncap;
        }
        CkptSection *s = &r->sec[r->nsec++];
        *s = (CkptSection){ .r = r, .name = (const char *)name, .name_len = nl, .instance = instance,
                            .version = version };
        memcpy(s->cname, cname, nl + 1);
        if (!index_fields(r, s, payload, plen))
            return false;
        snprintf(lastbuf, sizeof lastbuf, "section '%s' %u", cname, instance);
        last = lastbuf;
    }
}

static CkptReader *finish_open(CkptReader *r, char *err, size_t errlen)
{
    if (!parse(r)) {
        snprintf(err, errlen, "%s", r->err);
        ckpt_reader_close(r);
        return NULL;
    }
    return r;
}

CkptReader *ckpt_reader_open_mem(const void *buf, size_t len, char *err, size_t errlen)
{
    CkptReader *r = calloc(1, sizeof *r);
    if (!r)
        return snprintf(err, errlen, "out of memory"), NULL;
    r->buf = buf;
    r->len = len;
    return finish_open(r, err, errlen);
}

CkptReader *ckpt_reader_open(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return snprintf(err, errlen, "%s: %s", path, strerror(errno)), NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        close(fd);
        return NULL;
    }
    CkptReader *r = calloc(1, sizeof *r);
    if (!r) {
        close(fd);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    if (st.st_size > 0) {
        r->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (r->map == MAP_FAILED) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            close(fd);
            free(r);
            return NULL;
        }
        r->map_len = (size_t)st.st_size;
    }
    close(fd);
    r->buf = r->map;
    r->len = r->map_len;
    char inner[320];
    CkptReader *ok = finish_open(r, inner, sizeof inner);
    if (!ok)
        snprintf(err, errlen, "%s: %s", path, inner);
    return ok;
}

void ckpt_reader_close(CkptReader *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nsec; i++)
        free(r->sec[i].fields);
    free(r->sec);
    if (r->map)
        munmap(r->map, r->map_len);
    free(r);
}

static CkptSection *find_section(CkptReader *r, const char *name, uint32_t instance, uint32_t max_version,
                                 bool required)
{
    if (r->failed)
        return NULL;
    size_t nl = strlen(name);
    for (size_t i = 0; i < r->nsec; i++) {
        CkptSection *s = &r->sec[i];
        if (s->instance != instance || s->name_len != nl || memcmp(s->name, name, nl))
            continue;
        s->used = true;
        if (s->version > max_version)
            return r_fail(r, "section '%s' %u has version %u; this malibu reads up to version %u", name,
                          instance, s->version, max_version), NULL;
        if (s->version == 0)
            return r_fail(r, "section '%s' %u has version 0", name, instance), NULL;
        s->next = 0;
        return s;
    }
    if (required)
        r_fail(r, "no section '%s' %u (the checkpoint is of a board without it)", name, instance);
    return NULL;
}

CkptSection *ckpt_section(CkptReader *r, const char *name, uint32_t instance, uint32_t max_version)
{
    return find_section(r, name, instance, max_version, true);
}

CkptSection *ckpt_section_optional(CkptReader *r, const char *name, uint32_t instance, uint32_t max_version)
{
    return find_section(r, name, instance, max_version, false);
}

uint32_t ckpt_section_version(const CkptSection *s)
{
    return s->version;
}

static const Field *lookup(CkptSection *s, const char *field)
{
    size_t nl = strlen(field);
    for (size_t i = 0; i < s->nfields; i++)
        if (s->fields[i].name_len == nl && !memcmp(s->fields[i].name, field, nl))
            return &s->fields[i];
    return NULL;
}

/* The field, of kind; NULL (recorded) when missing or of another kind. */
static const Field *need(CkptSection *s, const char *field, char kind)
{
    if (!s || s->r->failed)
        return NULL;
    const Field *f = lookup(s, field);
    if (!f)
        return r_fail(s->r, "section '%s' %u: no field '%s'", s->cname, s->instance, field), NULL;
    if (f->kind != kind)
        return r_fail(s->r, "section '%s' %u: field '%s' holds %s, expected %s", s->cname, s->instance, field,
                      f->kind == KIND_INT ? "integers" : "bytes", kind == KIND_INT ? "integers" : "bytes"),
               NULL;
    return f;
}

bool ckpt_has(CkptSection *s, const char *field)
{
    return s && lookup(s, field) != NULL;
}

bool ckpt_get_u64(CkptSection *s, const char *field, uint64_t *v, uint64_t max)
{
    const Field *f = need(s, field, KIND_INT);
    if (!f)
        return false;
    if (f->len != 8)
        return r_fail(s->r, "section '%s' %u: field '%s' holds %llu integers, expected 1", s->cname,
                      s->instance, field, (unsigned long long)f->len / 8);
    uint64_t x = get_le(f->data, 8);
    if (x > max)
        return r_fail(s->r, "section '%s' %u: field '%s' is %llu, at most %llu", s->cname, s->instance, field,
                      (unsigned long long)x, (unsigned long long)max);
    *v = x;
    return true;
}

bool ckpt_get_u32(CkptSection *s, const char *field, uint32_t *v, uint32_t max)
{
    uint64_t x;
    if (!ckpt_get_u64(s, field, &x, max))
        return false;
    *v = (uint32_t)x;
    return true;
}

bool ckpt_get_bool(CkptSection *s, const char *field, bool *v)
{
    uint64_t x;
    if (!ckpt_get_u64(s, field, &x, 1))
        return false;
    *v = x != 0;
    return true;
}

static const Field *need_ints(CkptSection *s, const char *field, size_t n)
{
    const Field *f = need(s, field, KIND_INT);
    if (f && f->len != (uint64_t)n * 8)
        return r_fail(s->r, "section '%s' %u: field '%s' holds %llu integers, expected %zu", s->cname,
                      s->instance, field, (unsigned long long)f->len / 8, n), NULL;
    return f;
}

bool ckpt_get_u64s(CkptSection *s, const char *field, uint64_t *v, size_t n)
{
    const Field *f = need_ints(s, field, n);
    if (!f)
        return false;
    for (size_t i = 0; i < n; i++)
        v[i] = get_le(f->data + 8 * i, 8);
    return true;
}

bool ckpt_get_u32s(CkptSection *s, const char *field, uint32_t *v, size_t n)
{
    const Field *f = need_ints(s, field, n);
    if (!f)
        return false;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = get_le(f->data + 8 * i, 8);
        if (x > UINT32_MAX)
            return r_fail(s->r, "section '%s' %u: field '%s'[%zu] is %llu, at most %u", s->cname, s->instance,
                          field, i, (unsigned long long)x, UINT32_MAX);
        v[i] = (uint32_t)x;
    }
    return true;
}

bool ckpt_get_bytes(CkptSection *s, const char *field, void *buf, size_t n)
{
    const Field *f = need(s, field, KIND_BYTES);
    if (!f)
        return false;
    if (f->len != n)
        return r_fail(s->r, "section '%s' %u: field '%s' holds %llu bytes, expected %zu", s->cname, s->instance,
                      field, (unsigned long long)f->len, n);
    memcpy(buf, f->data, n);
    return true;
}

const void *ckpt_get_blob(CkptSection *s, const char *field, size_t *len, size_t max)
{
    const Field *f = need(s, field, KIND_BYTES);
    if (!f)
        return NULL;
    if (f->len > max)
        return r_fail(s->r, "section '%s' %u: field '%s' holds %llu bytes, at most %zu", s->cname, s->instance,
                      field, (unsigned long long)f->len, max), NULL;
    *len = (size_t)f->len;
    return f->data;
}

bool ckpt_get_str(CkptSection *s, const char *field, char *buf, size_t max)
{
    size_t n;
    const uint8_t *p = ckpt_get_blob(s, field, &n, max ? max - 1 : 0);
    if (!p)
        return false;
    if (memchr(p, 0, n))
        return r_fail(s->r, "section '%s' %u: field '%s' holds a NUL byte", s->cname, s->instance, field);
    memcpy(buf, p, n);
    buf[n] = 0;
    return true;
}

bool ckpt_next_field(CkptSection *s, CkptFieldView *v)
{
    if (!s || s->r->failed || s->next >= s->nfields)
        return false;
    const Field *f = &s->fields[s->next++];
    *v = (CkptFieldView){ f->name, f->name_len, f->data, (size_t)f->len, f->kind == KIND_INT };
    return true;
}

static bool field_fits(CkptType t, uint64_t x)
{
    switch (t) {
    case CKPT_T_U8: return x <= UINT8_MAX;
    case CKPT_T_BOOL: return x <= 1;
    case CKPT_T_U16: return x <= UINT16_MAX;
    case CKPT_T_U32: return x <= UINT32_MAX;
    case CKPT_T_I32: return (int64_t)x >= INT32_MIN && (int64_t)x <= INT32_MAX;
    default: return true;
    }
}

bool ckpt_load_fields(CkptSection *s, const CkptField *fields, void *base)
{
    for (const CkptField *fd = fields; fd->name; fd++) {
        const Field *f = need_ints(s, fd->name, fd->count);
        if (!f)
            return false;
        for (size_t i = 0; i < fd->count; i++)
            if (!field_fits(fd->type, get_le(f->data + 8 * i, 8)))
                return r_fail(s->r, "section '%s' %u: field '%s'%s is %llu, which does not fit", s->cname,
                              s->instance, fd->name, fd->count > 1 ? "[i]" : "",
                              (unsigned long long)get_le(f->data + 8 * i, 8));
    }
    for (const CkptField *fd = fields; fd->name; fd++) {
        const Field *f = lookup(s, fd->name);
        for (size_t i = 0; i < fd->count; i++) {
            uint64_t x = get_le(f->data + 8 * i, 8);
            uint8_t *p = (uint8_t *)base + fd->offset + i * CKPT_ELEM_SIZE(fd->type);
            switch (fd->type) {
            case CKPT_T_U8: *p = (uint8_t)x; break;
            case CKPT_T_BOOL: *(bool *)p = x != 0; break;
            case CKPT_T_U16: { uint16_t v = (uint16_t)x; memcpy(p, &v, 2); break; }
            case CKPT_T_U32: { uint32_t v = (uint32_t)x; memcpy(p, &v, 4); break; }
            case CKPT_T_I32: { int32_t v = (int32_t)(int64_t)x; memcpy(p, &v, 4); break; }
            default: memcpy(p, &x, 8); break;
            }
        }
    }
    return true;
}

bool ckpt_fail(CkptSection *s, const char *fmt, ...)
{
    CkptReader *r = s->r;
    if (!r->failed) {
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        r_fail(r, "section '%s' %u: %s", s->cname, s->instance, msg);
    }
    return false;
}

bool ckpt_reader_fail(CkptReader *r, const char *fmt, ...)
{
    if (!r->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err, sizeof r->err, fmt, ap);
        va_end(ap);
        r->failed = true;
    }
    return false;
}

bool ckpt_ok(const CkptReader *r)
{
    return !r->failed;
}

const char *ckpt_error(const CkptReader *r)
{
    return r->failed ? r->err : "";
}

bool ckpt_finish(CkptReader *r)
{
    if (r->failed)
        return false;
    for (size_t i = 0; i < r->nsec; i++)
        if (!r->sec[i].used)
            return r_fail(r, "section '%s' %u belongs to no device of this board", r->sec[i].cname,
                          r->sec[i].instance);
    return true;
}

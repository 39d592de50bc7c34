/* Checkpoint files: a whole board saved as a sequence of named, versioned sections, each holding
 * named fields (the manner of QEMU's VMState; the layout is in docs/checkpoint.md).
 *
 * Who writes what: each device saves and loads its own section(s), under a name and a version
 * number it owns (e.g. "pl011" version 1), through the functions below; the board (devices/
 * board_ckpt.c) and the system main (emu/system/checkpoint.c) call them in a fixed order.
 *
 *   save:  CkptWriter *w = ckpt_writer_open(path, err, n);
 *          ckpt_begin(w, "header", 0, 1); ckpt_str(w, "gpu", "g52"); ... ckpt_end(w);
 *          dev_save(dev, w)  ->  ckpt_begin(w, "pl011", 0, PL011_CKPT_VERSION);
 *                                ckpt_fields(w, pl011_fields, u); ckpt_u64(w, "fifo_len", n); ...
 *                                ckpt_end(w);
 *          ckpt_writer_close(w, err, n)   (the file appears complete or not at all: path.tmp, renamed)
 *   load:  CkptReader *r = ckpt_reader_open(path, err, n);   framing and every CRC checked here
 *          dev_load(dev, r)  ->  CkptSection *s = ckpt_section(r, "pl011", 0, PL011_CKPT_VERSION);
 *                                if (!s) return false;
 *                                ckpt_load_fields(s, pl011_fields, u); ckpt_get_u64(s, "fifo_len", &n, 16);
 *                                return ckpt_ok(r);
 *          ckpt_finish(r) refuses sections nobody asked for; ckpt_error(r) names the first problem.
 *
 * Everything read is hostile (a file from anywhere): every getter checks the field's presence,
 * kind, size and range and records the first failure as a message naming the section and field
 * ("section 'pl011' 0: field 'fifo_len' is 40, at most 16"); later calls on a failed reader do
 * nothing and return false, so a loader may read all its fields and check ckpt_ok once.  Devices
 * check the relations between fields themselves and report with ckpt_fail.  Nothing here aborts.
 *
 * Integers are stored as little-endian u64 arrays whatever their C type (a field table converts,
 * and checks on load that the value fits the member); byte strings and text as they are. */
#ifndef MALIBU_CHECKPOINT_CKPT_H
#define MALIBU_CHECKPOINT_CKPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CKPT_FORMAT_VERSION 1u

typedef struct CkptWriter CkptWriter;
typedef struct CkptReader CkptReader;
typedef struct CkptSection CkptSection;

/* ---- writing ---- */
CkptWriter *ckpt_writer_open(const char *path, char *err, size_t errlen);
/* Start a section; instance tells apart devices of one kind (vCPU index, virtio slot). */
void ckpt_begin(CkptWriter *w, const char *section, uint32_t instance, uint32_t version);
void ckpt_u64(CkptWriter *w, const char *field, uint64_t v);
void ckpt_u64s(CkptWriter *w, const char *field, const uint64_t *v, size_t n);
void ckpt_u32s(CkptWriter *w, const char *field, const uint32_t *v, size_t n);
void ckpt_bytes(CkptWriter *w, const char *field, const void *p, size_t n);
void ckpt_str(CkptWriter *w, const char *field, const char *s);
void ckpt_end(CkptWriter *w);
/* Complete the file (end marker, rename into place).  false with a message (and no file) after
 * any write error. */
bool ckpt_writer_close(CkptWriter *w, char *err, size_t errlen);
/* Drop a half-written file (no file left). */
void ckpt_writer_abort(CkptWriter *w);

/* ---- field tables: a device's plain members described once, for saving and loading ---- */
typedef enum { CKPT_T_U8, CKPT_T_U16, CKPT_T_U32, CKPT_T_U64, CKPT_T_BOOL, CKPT_T_I32, CKPT_T_I64 } CkptType;
typedef struct CkptField {
    const char *name;
    CkptType type;
    size_t offset;
    size_t count;  /* elements (1: a scalar) */
} CkptField;
#define CKPT_ELEM_SIZE(type)                                                                       \
    ((type) == CKPT_T_U8 || (type) == CKPT_T_BOOL ? 1u : (type) == CKPT_T_U16 ? 2u :              \
     (type) == CKPT_T_U32 || (type) == CKPT_T_I32 ? 4u : 8u)
/* A member (scalar, or array: every element) of struct T, stored under the member's name. */
#define CKPT_FIELD(T, member, type)                                                                \
    { #member, type, offsetof(T, member), sizeof(((T *)0)->member) / CKPT_ELEM_SIZE(type) }
#define CKPT_FIELD_NAMED(name, T, member, type)                                                    \
    { name, type, offsetof(T, member), sizeof(((T *)0)->member) / CKPT_ELEM_SIZE(type) }
#define CKPT_FIELDS_END { NULL, CKPT_T_U8, 0, 0 }
void ckpt_fields(CkptWriter *w, const CkptField *fields, const void *base);
/* Every field present with its element count, each value fitting its member (bool: 0 or 1). */
bool ckpt_load_fields(CkptSection *s, const CkptField *fields, void *base);

/* ---- reading ---- */
CkptReader *ckpt_reader_open(const char *path, char *err, size_t errlen);
/* The same on a file's bytes in memory (the fuzz harness; buf must outlive the reader). */
CkptReader *ckpt_reader_open_mem(const void *buf, size_t len, char *err, size_t errlen);
void ckpt_reader_close(CkptReader *r);
/* The section saved under (name, instance); NULL (recorded) when missing or when its version
 * is newer than max_version, the newest this build reads. */
CkptSection *ckpt_section(CkptReader *r, const char *name, uint32_t instance, uint32_t max_version);
/* The same, but a missing section is not an error (an optional device: NULL, nothing recorded). */
CkptSection *ckpt_section_optional(CkptReader *r, const char *name, uint32_t instance, uint32_t max_version);
uint32_t ckpt_section_version(const CkptSection *s);
/* Scalars: false (recorded) when missing, not a single integer, or above max. */
bool ckpt_get_u64(CkptSection *s, const char *field, uint64_t *v, uint64_t max);
bool ckpt_get_u32(CkptSection *s, const char *field, uint32_t *v, uint32_t max);
bool ckpt_get_bool(CkptSection *s, const char *field, bool *v);
/* Arrays of exactly n integers. */
bool ckpt_get_u64s(CkptSection *s, const char *field, uint64_t *v, size_t n);
bool ckpt_get_u32s(CkptSection *s, const char *field, uint32_t *v, size_t n);
/* Byte strings: exactly n bytes; or any length up to max (*len set). */
bool ckpt_get_bytes(CkptSection *s, const char *field, void *buf, size_t n);
const void *ckpt_get_blob(CkptSection *s, const char *field, size_t *len, size_t max);
/* Text of at most max-1 bytes, no NUL inside, copied NUL-terminated. */
bool ckpt_get_str(CkptSection *s, const char *field, char *buf, size_t max);
bool ckpt_has(CkptSection *s, const char *field);

/* Fields in file order, for sections whose fields repeat (RAM chunks): *name, *data (the raw
 * bytes, integers little-endian u64), *len in bytes, *is_int.  false at the end. */
typedef struct CkptFieldView {
    const char *name;
    size_t name_len;
    const uint8_t *data;
    size_t len;
    bool is_int;
} CkptFieldView;
bool ckpt_next_field(CkptSection *s, CkptFieldView *f);

/* Record a device's own complaint ("vCPU 2: EL 3 is not implemented"); always returns false. */
bool ckpt_fail(CkptSection *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record a problem that belongs to no section (a board mismatch). */
bool ckpt_reader_fail(CkptReader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool ckpt_ok(const CkptReader *r);
const char *ckpt_error(const CkptReader *r);
/* After every device has loaded: a section nobody asked for means a different board. */
bool ckpt_finish(CkptReader *r);

#endif

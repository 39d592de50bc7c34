/* Bifrost clause decoder; the encoding facts live in isa/bifrost/ops.isa and clause.isa (generated tables). */
#include "bifrost_decode.h"

#include <stdarg.h>
#include <string.h>

static uint64_t qw_bits(const uint8_t *qw, unsigned lo, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lo + i;
        v |= (uint64_t)((qw[b >> 3] >> (b & 7)) & 1) << i;
    }
    return v;
}

/* Wide bit-field helpers for the 78-bit tuples (t[0] = bits 0-63, t[1] = bits 64-77). */
static void wide_set(uint64_t *t, unsigned lo, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lo + i;
        if ((v >> i) & 1)
            t[b >> 6] |= 1ull << (b & 63);
    }
}

static uint64_t wide_get(const uint64_t *t, unsigned lo, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lo + i;
        v |= ((t[b >> 6] >> (b & 63)) & 1) << i;
    }
    return v;
}

static inline uint32_t field(uint64_t v, unsigned start, unsigned size)
{
    return (uint32_t)((v >> start) & ((1ull << size) - 1));
}

static bool isconst_format(const struct bi_format_desc *f)
{
    return f->pieces[0].dest == 'P';
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

bool bi_decode_instr(uint32_t bits, bool is_add, enum bi_arch arch, bi_instr *out)
{
    const struct bi_variant_desc *vs = is_add ? bi_variants_add : bi_variants_fma;
    unsigned n = is_add ? bi_num_variants_add : bi_num_variants_fma;

    memset(out, 0, sizeof(*out));
    out->bits = bits;
    for (unsigned i = 0; i < n; i++) {
        const struct bi_variant_desc *v = &vs[i];
        if ((bits & v->mask) != v->value)
            continue;
        const struct bi_op_desc *op = &bi_ops[v->op];
        if ((op->flags & BI_OPF_V7) && arch < BI_ARCH_V7)
            continue;
        bool ok = true;
        uint8_t mod[BI_MAX_MODS];
        for (unsigned m = 0; m < op->nmods; m++)
            mod[m] = op->mods[m].dflt >= 0 ? (uint8_t)op->mods[m].dflt : 0;
        for (unsigned d = 0; d < v->ndirect && ok; d++) {
            int8_t val = v->direct[d].map[field(bits, v->direct[d].start, v->direct[d].size)];
            if (val < 0)
                ok = false;
            else
                mod[v->direct[d].mod] = (uint8_t)val;
        }
        if (!ok)
            continue;
        if (v->cases) {
            unsigned key = 0, sh = 0;
            for (unsigned k = 0; k < v->nkey; k++) {
                key |= field(bits, v->key_start[k], v->key_size[k]) << sh;
                sh += v->key_size[k];
            }
            if (v->ord)
                key |= (unsigned)(field(bits, op->src_start[0], 3) > field(bits, op->src_start[1], 3)) << sh;
            int16_t row = v->cases[key];
            if (row < 0)
                continue;
            for (unsigned d = 0; d < v->ndmods; d++)
                mod[v->dmods[d]] = v->case_vals[row * v->ndmods + d];
        }
        out->op = v->op;
        out->variant = (uint16_t)i;
        memcpy(out->mod, mod, sizeof(mod));
        for (unsigned s = 0; s < op->nsrcs; s++)
            out->sel[s] = (uint8_t)field(bits, op->src_start[s], 3);
        for (unsigned m = 0; m < op->nimms; m++)
            out->imm[m] = (uint16_t)field(bits, op->imms[m].start, op->imms[m].size);
        return true;
    }
    out->op = BI_OP_INVALID;
    return false;
}

int bi_mod_value(const bi_instr *ins, const char *name)
{
    const struct bi_op_desc *op = &bi_ops[ins->op];
    for (unsigned m = 0; m < op->nmods; m++)
        if (!strcmp(op->mods[m].name, name))
            return ins->mod[m];
    return -1;
}

const char *bi_mod_value_name(const bi_instr *ins, const char *name)
{
    const struct bi_op_desc *op = &bi_ops[ins->op];
    for (unsigned m = 0; m < op->nmods; m++)
        if (!strcmp(op->mods[m].name, name))
            return op->mods[m].vals[ins->mod[m]];
    return NULL;
}

static void decode_M(uint8_t *mod, unsigned M1, unsigned M2, bool single)
{
    const uint8_t *row = M1 == 7 ? bi_m2_table[M2] : bi_m1_table[M1];
    mod[0] = row[0];
    if (!single)
        mod[1] = row[1];
}

static void resolve_src(const bi_clause *c, const bi_tuple *t, bool is_add, unsigned sel, bi_src *s)
{
    s->hi = 0;
    s->index = 0;
    switch (sel) {
    case 0: case 1: case 2:
        if (t->port_read[sel]) {
            s->kind = BI_SRC_REG;
            s->index = t->port[sel];
        } else {
            s->kind = BI_SRC_BAD;
        }
        break;
    case 3: s->kind = is_add ? BI_SRC_T : BI_SRC_ZERO; break;
    case 6: s->kind = BI_SRC_T0; break;
    case 7: s->kind = BI_SRC_T1; break;
    default: /* 4, 5: FAU */
        s->hi = sel == 5;
        if (t->fau_idx & 0x80) {
            s->kind = BI_SRC_UNIFORM;
            s->index = t->fau_idx & 0x7f;
        } else if (t->fau_idx >= 0x20) {
            int idx = bi_const_index[t->fau_idx >> 4];
            s->kind = (idx >= 0 && (unsigned)idx < c->nconsts) ? BI_SRC_CONST : BI_SRC_BAD;
            s->index = (uint16_t)(idx < 0 ? 0 : idx);
        } else {
            s->kind = BI_SRC_SPECIAL;
            s->index = t->fau_idx;
        }
        break;
    }
}

static const uint8_t slot_mask[] = { [BI_SLOT_W] = 3, [BI_SLOT_WL] = 1, [BI_SLOT_WH] = 2 };

int bi_decode_clause(const uint8_t *code, size_t len, uint32_t offset, enum bi_arch arch,
                     bi_clause *c, char *err, size_t errlen)
{
    uint64_t tup[8][2];
    uint64_t header = 0, E = 0, M = 0;
    bool haveE = false, haveM = false;
    unsigned ntuples = 0, w, nfmt = 0;
    int8_t fmts[32];

    memset(c, 0, sizeof(*c));
    memset(tup, 0, sizeof(tup));
    c->offset = offset;
    for (w = 0;; w++) {
        if ((size_t)(w + 1) * 16 > len)
            return fail(err, errlen, "clause at %#x: truncated", offset);
        if (w >= 32)
            return fail(err, errlen, "clause at %#x: too long", offset);
        const uint8_t *qw = code + 16 * w;
        uint8_t tag = qw[0];
        const struct bi_format_desc *f = NULL;
        for (unsigned i = 0; i < BI_NUM_FORMATS; i++)
            if ((tag & bi_formats[i].tag_mask) == bi_formats[i].tag_value) {
                f = &bi_formats[i];
                break;
            }
        if (!f)
            return fail(err, errlen, "clause at %#x: word %u: bad tag %#04x", offset, w, tag);
        bool first_fmt = f->pieces[0].dest == 'T' && f->pieces[0].index == 0;
        if ((w == 0) != first_fmt)
            return fail(err, errlen, "clause at %#x: word %u: unexpected format %s", offset, w, f->name);
        bool isconst = false;
        uint64_t A = 0, B = 0;
        unsigned P = 0;
        for (unsigned p = 0; p < f->npieces; p++) {
            const struct bi_piece *pc = &f->pieces[p];
            if (pc->dest == 'T') {
                for (unsigned b = 0; b < pc->width; b += 32) {
                    unsigned wdt = pc->width - b < 32 ? pc->width - b : 32;
                    wide_set(tup[pc->index], pc->lo + b, wdt, qw_bits(qw, pc->qwbit + b, wdt));
                }
                continue;
            }
            uint64_t v = qw_bits(qw, pc->qwbit, pc->width);
            switch (pc->dest) {
            case 'H': header |= v << pc->lo; break;
            case 'E': E |= v << pc->lo; haveE = true; break;
            case 'M': M |= v << pc->lo; haveM = true; break;
            case 'P': P = (unsigned)v; isconst = true; break;
            case 'A': A = v; break;
            case 'B': B = v; break;
            }
        }
        if (!isconst_format(f))
            fmts[nfmt++] = (int8_t)(f - bi_formats);
        if (f->final_tuples)
            ntuples = f->final_tuples;
        if (isconst) {
            if (!ntuples || bi_constpos_tuples[P] != (int)ntuples)
                return fail(err, errlen, "clause at %#x: word %u: constant position %u does not fit %u tuples",
                            offset, w, P, ntuples);
            unsigned idx = (unsigned)bi_constpos_first[P];
            c->consts[idx] = A << 4;
            c->consts[idx + 1] = B << 4;
            if (c->nconsts < idx + 2)
                c->nconsts = idx + 2;
            unsigned M1 = (unsigned)(16 + (A >> 56) - (B >> 56)) & 15;   /* bits 63:60 of the constants */
            unsigned M2 = (unsigned)(16 + ((A >> 24) & 15) - ((B >> 24) & 15)) & 15;  /* bits 31:28 */
            decode_M(&c->constmod[idx], M1, M2, false);
        }
        bool stop = f->has_z && (tag & 0x40);
        if (stop && (f->final_tuples || isconst))
            break;
        if (stop)
            return fail(err, errlen, "clause at %#x: word %u: stop bit in format %s", offset, w, f->name);
    }
    if (!ntuples)
        return fail(err, errlen, "clause at %#x: no final tuple word", offset);
    for (unsigned i = 0; i < 8; i++) {
        int want = bi_sequences[ntuples][i];
        if ((i < nfmt ? fmts[i] : -1) != want)
            return fail(err, errlen, "clause at %#x: quadword formats do not form a %u-tuple clause", offset, ntuples);
        if (want < 0)
            break;
    }
    c->size = 16 * (w + 1);
    if (haveE) {
        c->consts[0] = E << 4;
        if (c->nconsts < 1)
            c->nconsts = 1;
        if (haveM)
            decode_M(&c->constmod[0], (unsigned)(M & 15), (unsigned)(M >> 4) & 15, true);
    }
    for (unsigned i = 0; i < c->nconsts; i++)
        if (c->constmod[i] == BI_CONSTMOD_RESERVED)
            return fail(err, errlen, "clause at %#x: reserved PC-relative modifier on constant %u", offset, i);
    c->header = header;
    for (unsigned i = 0; i < BI_NUM_HEADER_FIELDS; i++)
        c->hdr[i] = field(header, bi_header_fields[i].start, bi_header_fields[i].size);
    c->ntuples = ntuples;

    /* Register blocks: reads of tuple i, writes of tuple i-1 (block 0: of the last tuple). */
    for (unsigned i = 0; i < ntuples; i++) {
        bi_tuple *t = &c->t[i];
        uint64_t rb = wide_get(tup[i], BI_TUPLE_REGS_START, BI_TUPLE_REGS_SIZE);
        t->regs = rb;
        t->fau_idx = (uint8_t)field(rb, BI_REGS_FAU_IDX_START, BI_REGS_FAU_IDX_SIZE);
        unsigned reg0 = field(rb, BI_REGS_REG0_START, BI_REGS_REG0_SIZE);
        unsigned reg1 = field(rb, BI_REGS_REG1_START, BI_REGS_REG1_SIZE);
        unsigned reg2 = field(rb, BI_REGS_REG2_START, BI_REGS_REG2_SIZE);
        unsigned reg3 = field(rb, BI_REGS_REG3_START, BI_REGS_REG3_SIZE);
        unsigned ctrl = field(rb, BI_REGS_CTRL_START, BI_REGS_CTRL_SIZE);
        unsigned cc;
        if (ctrl == 0) {
            cc = reg1 >> 2;
            t->port_read[0] = !(reg1 & 2);
            t->port[0] = (uint8_t)(reg0 | (reg1 & 1) << 5);
        } else {
            cc = ctrl;
            t->port_read[0] = t->port_read[1] = 1;
            if (reg0 <= reg1) {
                t->port[0] = (uint8_t)reg0;
                t->port[1] = (uint8_t)reg1;
            } else {
                t->port[0] = (uint8_t)(63 - reg0);
                t->port[1] = (uint8_t)(63 - reg1);
            }
        }
        unsigned mode = i == 0 ? ((cc & 7) | ((cc & 8) << 1)) : cc + (reg2 == reg3 ? 16 : 0);
        const struct bi_regmode_desc *rm = &bi_regmodes[mode];
        if (!rm->valid)
            return fail(err, errlen, "clause at %#x: tuple %u: reserved register mode %u", offset, i, mode);
        t->mode = (uint8_t)mode;
        t->port[2] = (uint8_t)reg2;
        t->port_read[2] = rm->slot2 == BI_SLOT_READ;
        bi_tuple *wt = &c->t[i == 0 ? ntuples - 1 : i - 1];
        if (rm->slot2 >= BI_SLOT_W)
            wt->writes[wt->nwrites++] = (bi_write){ (uint8_t)reg2, slot_mask[rm->slot2], 0 };
        if (rm->slot3 >= BI_SLOT_W)
            wt->writes[wt->nwrites++] = (bi_write){ (uint8_t)reg3, slot_mask[rm->slot3], rm->slot3_add };
        t->fau_const = 0;
        if (!(t->fau_idx & 0x80) && t->fau_idx >= 0x20) {
            int idx = bi_const_index[t->fau_idx >> 4];
            if (idx >= 0 && (unsigned)idx < c->nconsts) {
                t->fau_const = 1;
                t->fau_value = c->consts[idx] | (t->fau_idx & 15);
                t->fau_mod = c->constmod[idx];
            }
        }
    }
    for (unsigned i = 0; i < ntuples; i++) {
        bi_tuple *t = &c->t[i];
        uint32_t fb = (uint32_t)wide_get(tup[i], BI_TUPLE_FMA_START, BI_TUPLE_FMA_SIZE);
        uint32_t ab = (uint32_t)wide_get(tup[i], BI_TUPLE_ADD_START, BI_TUPLE_ADD_SIZE);
        bi_decode_instr(fb, false, arch, &t->fma);
        bi_decode_instr(ab, true, arch, &t->add);
        for (unsigned s = 0; s < bi_ops[t->fma.op].nsrcs; s++)
            resolve_src(c, t, false, t->fma.sel[s], &t->fma.src[s]);
        for (unsigned s = 0; s < bi_ops[t->add.op].nsrcs; s++)
            resolve_src(c, t, true, t->add.sel[s], &t->add.src[s]);
    }
    return 0;
}

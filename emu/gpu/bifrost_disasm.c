/* Bifrost disassembler: text form of decoded clauses.  The syntax is the one the test assembler
 * (isa/bifrost/bifrost_asm.py) reads; see docs/gpu.md. */
#include "bifrost_decode.h"

#include <string.h>

static void print_mod(FILE *fp, const struct bi_mod_desc *m, unsigned val)
{
    if ((int)val == m->dflt)
        return;
    if (m->qualify)
        fprintf(fp, ".%s=%s", m->name, m->vals[val]);
    else
        fprintf(fp, ".%s", m->vals[val]);
}

static void print_src(FILE *fp, const bi_clause *c, const bi_tuple *t, const bi_src *s, unsigned sel)
{
    switch (s->kind) {
    case BI_SRC_REG: fprintf(fp, "r%u", s->index); break;
    case BI_SRC_ZERO: fputs("#0", fp); break;
    case BI_SRC_T: fputs("t", fp); break;
    case BI_SRC_T0: fputs("t0", fp); break;
    case BI_SRC_T1: fputs("t1", fp); break;
    case BI_SRC_UNIFORM: fprintf(fp, "u%u.%s", s->index, s->hi ? "hi" : "lo"); break;
    case BI_SRC_SPECIAL:
        if (bi_fau_special[s->index])
            fprintf(fp, "%s.%s", bi_fau_special[s->index], s->hi ? "hi" : "lo");
        else
            fprintf(fp, "special%u.%s", s->index, s->hi ? "hi" : "lo");
        break;
    case BI_SRC_CONST: {
        uint64_t v = t->fau_value;
        uint8_t mod = t->fau_mod;
        if (s->hi && (mod == BI_CONSTMOD_PC_HI)) {
            int32_t off = (int32_t)((uint32_t)(v >> 32) << 4) >> 4;   /* sign-extend 28 bits */
            fprintf(fp, "pc%+d", off);
        } else if (mod == BI_CONSTMOD_PC_LO || mod == BI_CONSTMOD_PC_LO_HI) {
            fprintf(fp, "pcmod%u:%#llx.%s", mod, (unsigned long long)v, s->hi ? "hi" : "lo");
        } else {
            fprintf(fp, "#0x%x", (unsigned)(s->hi ? v >> 32 : v));
        }
        (void)c;
        break;
    }
    default: fprintf(fp, "?sel%u", sel); break;
    }
}

void bi_disasm_instr(FILE *fp, const bi_clause *c, unsigned tuple, bool is_add)
{
    const bi_tuple *t = &c->t[tuple];
    const bi_instr *ins = is_add ? &t->add : &t->fma;
    const struct bi_op_desc *op = &bi_ops[ins->op];
    char unit = is_add ? '+' : '*';

    if (ins->op == BI_OP_INVALID) {
        fprintf(fp, "%cINVALID %#x", unit, ins->bits);
        return;
    }
    fprintf(fp, "%c%s", unit, op->name);
    for (unsigned m = 0; m < op->nmods; m++)
        if (op->mods[m].src < 0)
            print_mod(fp, &op->mods[m], ins->mod[m]);
    const char *sep = " ";
    if (op->dests) {
        const bi_write *w = NULL;
        for (unsigned i = 0; i < t->nwrites; i++)
            if (t->writes[i].from_add == is_add)
                w = &t->writes[i];
        if (!w)
            fprintf(fp, " %s", is_add ? "t1" : "t0");
        else
            fprintf(fp, " r%u%s", w->reg, w->mask == 3 ? "" : w->mask == 1 ? ".h0" : ".h1");
        sep = ", ";
    }
    for (unsigned s = 0; s < op->nsrcs; s++) {
        fputs(sep, fp);
        sep = ", ";
        print_src(fp, c, t, &ins->src[s], ins->sel[s]);
        for (unsigned m = 0; m < op->nmods; m++)
            if (op->mods[m].src == (int)s)
                print_mod(fp, &op->mods[m], ins->mod[m]);
    }
    for (unsigned i = 0; i < op->nimms; i++) {
        fprintf(fp, "%s%s:%u", sep, op->imms[i].name, ins->imm[i]);
        sep = ", ";
    }
    if (op->staging_dir != BI_STAGING_NONE)
        fprintf(fp, "%s@r%u", sep, c->hdr[BI_H_SR]);
}

void bi_disasm_clause(FILE *fp, const bi_clause *c)
{
    fprintf(fp, "clause_%u:", c->offset);
    for (unsigned i = 0; i < BI_NUM_HEADER_FIELDS; i++) {
        const struct bi_header_field *h = &bi_header_fields[i];
        uint32_t v = c->hdr[i];
        if (!v)
            continue;
        if (h->nvals && v < h->nvals)
            fprintf(fp, " %s=%s", h->name, h->vals[v]);
        else if (!strcmp(h->name, "wait"))
            fprintf(fp, " %s=%#x", h->name, v);
        else
            fprintf(fp, " %s=%u", h->name, v);
    }
    fputs("\n{\n", fp);
    for (unsigned i = 0; i < c->ntuples; i++) {
        fputs("    ", fp);
        bi_disasm_instr(fp, c, i, false);
        fputs("\n    ", fp);
        bi_disasm_instr(fp, c, i, true);
        fputs("\n", fp);
    }
    fputs("}\n", fp);
}

static void dump_verbose(FILE *fp, const uint8_t *code, const bi_clause *c)
{
    for (uint32_t o = 0; o < c->size; o += 16) {
        fputs("# qw", fp);
        for (int b = 15; b >= 0; b--)
            fprintf(fp, "%s%02x", b % 4 == 3 ? " " : "", code[o + (unsigned)b]);
        fprintf(fp, "  (tag 0x%02x)\n", code[o]);
    }
    fprintf(fp, "# header %011llx\n", (unsigned long long)c->header);
    for (unsigned i = 0; i < c->ntuples; i++) {
        const bi_tuple *t = &c->t[i];
        fprintf(fp, "# tuple %u: regs %09llx fma %06x add %05x mode %u fau 0x%02x ports", i,
                (unsigned long long)t->regs, t->fma.bits, t->add.bits, t->mode, t->fau_idx);
        for (unsigned p = 0; p < 3; p++)
            if (t->port_read[p])
                fprintf(fp, " %u:r%u", p, t->port[p]);
        fputs("\n", fp);
    }
    for (unsigned i = 0; i < c->nconsts; i++)
        fprintf(fp, "# const %u: %016llx%s\n", i, (unsigned long long)c->consts[i],
                c->constmod[i] == BI_CONSTMOD_PC_HI ? " (pc_hi)" : c->constmod[i] ? " (pc-relative)" : "");
}

int bi_disasm_shader(FILE *fp, const uint8_t *code, size_t len, enum bi_arch arch)
{
    return bi_disasm_shader_verbose(fp, code, len, arch, false);
}

int bi_disasm_shader_verbose(FILE *fp, const uint8_t *code, size_t len, enum bi_arch arch, bool verbose)
{
    size_t off = 0;
    int rc = 0;
    while (off + 16 <= len) {
        static const uint8_t zero[16];
        if (!memcmp(code + off, zero, 16))
            break;
        bi_clause c;
        char err[160];
        if (bi_decode_clause(code + off, len - off, (uint32_t)off, arch, &c, err, sizeof(err))) {
            fprintf(fp, "# error: %s\n", err);
            rc = -1;
            break;
        }
        if (verbose)
            dump_verbose(fp, code + off, &c);
        bi_disasm_clause(fp, &c);
        off += c.size;
    }
    return rc;
}

/* Bifrost clause decoder and disassembler (emu/gpu/bifrost_decode.c, bifrost_disasm.c).
 * Vectors: blob-captured clause encodings whose tuples and headers are stated in Mesa's
 * test-pack-formats.cpp (restated here as raw quadwords + expected tuples), and shaders
 * assembled from tests/bifrost/ sources by isa/bifrost/bifrost_asm.py. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_decode.h"
#include "bifrost_exec.h"
#include "shaders.inc"

struct vec {
    const char *name;
    unsigned nwords;
    uint64_t words[16];          /* 64-bit halves of the quadwords, low first */
    uint64_t header;
    unsigned ntuples;
    uint64_t tuple[8][2];        /* 78-bit tuples: bits 0-63, bits 64-77 */
    int64_t ec0;                 /* expected constant 0, or -1 */
};

static const struct vec vecs[] = {
    { "pack1", 2, { 0x80cb1c022000004a, 0x10800008c000e023 }, 0x021000011800, 1,
      { { 0x2380cb1c02200000, 0x10e0 } }, -1 },
    { "pack2", 6, { 0x80cb604400004429, 0x29400008c0076593, 0x8721a05c00008103, 0x60000000000031af, 0x71, 0 },
      0x52800011800, 2, { { 0x9380cb6044000044, 0xf65 }, { 0xaf8721a05c000081, 0x1831 } }, -1 },
    { "pack3", 6, { 0x805b804000000029, 0x0188000000076593, 0x886db05c00000021, 0x58c0600004076593,
                    0x0000000000000044, 0x60002c6ce0300000 },
      0x3100000000, 3, { { 0x93805b8040000000, 0xf65 }, { 0x93886db05c000000, 0xf65 },
                          { 0xb380cb180c000080, 0x18b1 } }, -1 },
    { "pack4", 10, { 0x8c87004000005f2d, 0x01880000000718ad, 0x8c87385c00004f25, 0x39c2e000037718ad,
                     0x80cb182c00008005, 0xac01c62b6320b1b3, 0x32, 0, 0x75, 0 },
      0x3100000000, 4, { { 0xad8c87004000005f, 0x2f18 }, { 0xad8c87385c00004f, 0x2f18 },
                          { 0xad8c87385c00006e, 0x2f18 }, { 0xb380cb182c000080, 0x18b1 } }, -1 },
    { "pack5", 8, { 0x8068804000000029, 0x0188000000076593, 0x4057300c00004021, 0x58c2c0000007260d,
                    0x7401f85c0000008b, 0x00006ac7e0376593, 0x80cb180c00008053, 0x000000183f80a1b3 },
      0x3100000000, 5, { { 0x9380688040000000, 0xf65 }, { 0xd4057300c000040, 0xf26 },
                          { 0x1f80cb1858000000, 0x19ab }, { 0x937401f85c000000, 0xf65 },
                          { 0xb380cb180c000080, 0x18a1 } }, 0x183f800000 },
    { "pack6", 16, { 0x8c8700680000482d, 0x30000008c00718ad, 0x8c87385c00005025, 0x39c2e000035718ad,
                     0x8c87385c00007401, 0xb401c62b632718ad, 0x8c87385c00002065, 0x39c2e000018718ad,
                     0x3456789123456706, 0xa001c62b63200000, 0x37, 0, 0x3b, 0, 0x7e, 0 },
      0x60000011800, 6, { { 0xad8c870068000048, 0x2f18 }, { 0xad8c87385c000050, 0x2f18 },
                           { 0xad8c87385c00006a, 0x2f18 }, { 0xad8c87385c000074, 0x2f18 },
                           { 0xad8c87385c000020, 0x2f18 }, { 0xad8c87385c000030, 0x2f18 } },
      0x345678912345670 },
    { "pack7", 10, { 0x2007404000008329, 0x0180008000076590, 0x000d405810008021, 0x5182c38004176590,
                     0x2007400811458101, 0x2401d96400076590, 0x000d005800008061, 0x4182c38004176590,
                     0x80cb199ac3840047, 0x3801d96400027a23 },
      0x3000100000, 7, { { 0x9020074040000083, 0xf65 }, { 0x90000d4058100080, 0xf65 },
                          { 0x90000a3058700082, 0xf65 }, { 0x9020074008114581, 0xf65 },
                          { 0x90000d0058000080, 0xf65 }, { 0x9000083058700082, 0xf65 },
                          { 0x2380cb199ac38400, 0x327a } }, -1 },
    { "pack8", 12, { 0x2087037a2f86432e, 0x30800988c0002144, 0x008d058610004320, 0x6801400a2a1a0084,
                     0x0007005820008101, 0x0c00001f0021801c, 0x600dd87832040060, 0xe0d8418448020001,
                     0x2007807881ca00c0, 0xc6ba80125c20406c, 0x70fc0d9490008359, 0x0000000032e0008d },
      0x61001311800, 8, { { 0x442087037a2f8643, 0x3021 }, { 0x84008d0586100043, 0x200 },
                           { 0x7c008d0028014543, 0x0 }, { 0x1c00070058200081, 0x1980 },
                           { 0x1600dd878320400, 0x200 }, { 0x49709c1b08308900, 0x200 },
                           { 0x6c2007807881ca00, 0x40 }, { 0x8d70fc0d94900083, 0x800 } }, 0x32e635d0 },
};

static void vec_bytes(const struct vec *v, uint8_t *buf)
{
    for (unsigned i = 0; i < v->nwords; i++)
        for (unsigned b = 0; b < 8; b++)
            buf[8 * i + b] = (uint8_t)(v->words[i] >> (8 * b));
}

START_TEST(test_vectors)
{
    const struct vec *v = &vecs[_i];
    uint8_t buf[256];
    bi_clause c;
    char err[128] = "";

    vec_bytes(v, buf);
    ck_assert_msg(bi_decode_clause(buf, 8 * v->nwords, 0, BI_ARCH_V7, &c, err, sizeof(err)) == 0,
                  "%s: %s", v->name, err);
    ck_assert_uint_eq(c.size, 8 * v->nwords);
    ck_assert_uint_eq(c.ntuples, v->ntuples);
    ck_assert_msg(c.header == v->header, "%s: header %llx", v->name, (unsigned long long)c.header);
    for (unsigned i = 0; i < c.ntuples; i++) {
        const bi_tuple *t = &c.t[i];
        unsigned __int128 x = (unsigned __int128)t->regs | (unsigned __int128)t->fma.bits << 35 |
                              (unsigned __int128)t->add.bits << 58;
        ck_assert_msg((uint64_t)x == v->tuple[i][0] && (uint64_t)(x >> 64) == v->tuple[i][1],
                      "%s: tuple %u = %llx %llx", v->name, i, (unsigned long long)(x >> 64),
                      (unsigned long long)x);
    }
    if (v->ec0 >= 0)
        ck_assert_msg(c.consts[0] == (uint64_t)v->ec0, "%s: EC0 %llx", v->name,
                      (unsigned long long)c.consts[0]);
}
END_TEST

static char *disasm_to_string(const uint8_t *code, size_t len, enum bi_arch arch)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    bi_disasm_shader(f, code, len, arch);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* Expected disassembly of blob clauses (header fields restated from their header values:
 * e.g. 0x021000011800 = flow 3 (NBTB), prefetch, message/next message type 2 (attribute)). */
START_TEST(test_disasm_text)
{
    uint8_t buf[256];
    vec_bytes(&vecs[0], buf);
    char *s = disasm_to_string(buf, 16, BI_ARCH_V7);
    ck_assert_str_eq(s, "clause_0: flow=nbtb prefetch=1 msg=attribute next_msg=attribute\n{\n"
                        "    *NOP\n    +LD_ATTR_IMM.f32.v4 t1, r61, r62, attribute_index:0, @r0\n}\n");
    free(s);
    vec_bytes(&vecs[2], buf);
    s = disasm_to_string(buf, 48, BI_ARCH_V7);
    ck_assert_str_eq(s, "clause_0: slot=1 msg=store\n{\n"
                        "    *S8_TO_S32 t0, r0.b3\n    +NOP\n"
                        "    *MKVEC.v4i8 r0, t0, t0, t0, t0\n    +NOP\n"
                        "    *NOP\n    +STORE.i32 u0.lo, u0.hi, @r0\n}\n");
    free(s);
}
END_TEST

/* Operand resolution: pack5 tuple 1 = *FMA_RSCALE with the embedded constant 0x183f800000:
 * low word 1.0f (selector 4), high word 0x18 (selector 5). */
START_TEST(test_operands)
{
    uint8_t buf[256];
    bi_clause c;
    vec_bytes(&vecs[4], buf);
    ck_assert_int_eq(bi_decode_clause(buf, 64, 0, BI_ARCH_V7, &c, NULL, 0), 0);
    const bi_instr *f = &c.t[1].fma;
    ck_assert_str_eq(bi_ops[f->op].name, "FMA_RSCALE.f32");
    ck_assert_int_eq(f->src[0].kind, BI_SRC_T0);
    ck_assert_int_eq(f->src[1].kind, BI_SRC_CONST);
    ck_assert_int_eq(f->src[1].hi, 0);
    ck_assert_int_eq(f->src[2].kind, BI_SRC_ZERO);
    ck_assert_int_eq(f->src[3].kind, BI_SRC_CONST);
    ck_assert_int_eq(f->src[3].hi, 1);
    ck_assert(c.t[1].fau_const);
    ck_assert_uint_eq(c.t[1].fau_value, 0x183f800000ull);
    ck_assert_int_eq(c.t[1].fau_mod, BI_CONSTMOD_NONE);
    /* tuple 0 writes r0 (first tuple's register block carries the last tuple's writes) */
    ck_assert_uint_eq(c.t[0].nwrites, 1);
    ck_assert_uint_eq(c.t[0].writes[0].reg, 0);
    ck_assert_uint_eq(c.t[0].writes[0].mask, 3);
}
END_TEST

/* +CLPER.i32 is v7-only: the same bits are INVALID on v6. Encoding: opcode 0x7c000/0xfc000. */
START_TEST(test_arch)
{
    bi_instr i;
    uint32_t bits = 0x7c000 | (1 << 3);   /* src1 = port 1 */
    ck_assert(bi_decode_instr(bits, true, BI_ARCH_V7, &i));
    ck_assert_str_eq(bi_ops[i.op].name, "CLPER.i32");
    ck_assert(!bi_decode_instr(bits, true, BI_ARCH_V6, &i) || strcmp(bi_ops[i.op].name, "CLPER.i32"));
    /* *NOP = 0x701963 exactly; +NOP = 0xd7874 ^ ... (0xd7800 family): check the FMA one */
    ck_assert(bi_decode_instr(0x701963, false, BI_ARCH_V6, &i));
    ck_assert_str_eq(bi_ops[i.op].name, "NOP");
}
END_TEST

/* Malformed input: a bad first tag, truncation and a constant word for the wrong tuple count. */
START_TEST(test_errors)
{
    uint8_t buf[64] = { 0 };
    bi_clause c;
    char err[128];
    buf[0] = 0x03;   /* format 1 cannot start a clause */
    ck_assert_int_eq(bi_decode_clause(buf, 16, 0, BI_ARCH_V7, &c, err, sizeof(err)), -1);
    vec_bytes(&vecs[1], buf);
    ck_assert_int_eq(bi_decode_clause(buf, 32, 0, BI_ARCH_V7, &c, err, sizeof(err)), -1);  /* truncated */
    buf[32] = 0x72;  /* constant position 2 belongs to 4-tuple clauses */
    ck_assert_int_eq(bi_decode_clause(buf, 48, 0, BI_ARCH_V7, &c, err, sizeof(err)), -1);
    vec_bytes(&vecs[2], buf);
    ck_assert_int_eq(bi_decode_clause(buf, 48, 0, BI_ARCH_V7, &c, err, sizeof(err)), 0);
    buf[16] = 0x61;  /* format 2 -> format 7: not a valid 3-tuple format sequence */
    ck_assert_int_eq(bi_decode_clause(buf, 48, 0, BI_ARCH_V7, &c, err, sizeof(err)), -1);
    ck_assert_ptr_nonnull(strstr(err, "formats"));
}
END_TEST

/* tests/bifrost/ sources assembled by bifrost_asm.py decode without error and disassemble. */
START_TEST(test_assembled)
{
    char *s = disasm_to_string(bi_shader_formats, sizeof(bi_shader_formats), BI_ARCH_V7);
    ck_assert_ptr_nonnull(strstr(s, "clause_"));
    ck_assert_ptr_null(strstr(s, "error"));
    ck_assert_ptr_null(strstr(s, "INVALID"));
    free(s);
}
END_TEST

/* Robustness: random quadwords (tags drawn from valid formats half of the time) never crash the
 * decoder, the disassembler or the executor (run with ASan/UBSan by make test). */
START_TEST(test_fuzz)
{
    static const uint8_t tags[] = { 0x29, 0x09, 0x49, 0x03, 0x43, 0x21, 0x04, 0x44, 0x01, 0x05, 0x45, 0x80,
                                    0x93, 0x12, 0x52, 0x61, 0x06, 0x46, 0x07, 0x47, 0xc0, 0x1b, 0x5b, 0x30,
                                    0x70, 0x73, 0x75 };
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    uint8_t buf[16 * 12];
    unsigned ok = 0, executed = 0;
    for (unsigned iter = 0; iter < 20000; iter++) {
        size_t len = 16 * (1 + iter % 12);
        for (size_t i = 0; i < len; i++) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            buf[i] = (uint8_t)seed;
        }
        for (size_t q = 0; q < len; q += 16)
            if ((seed >> (q / 16)) & 1)
                buf[q] = tags[(seed >> (8 + q / 16)) % sizeof(tags)];
        bi_clause c;
        char err[128];
        if (bi_decode_clause(buf, len, 0, (iter & 1) ? BI_ARCH_V7 : BI_ARCH_V6, &c, err, sizeof(err)) == 0) {
            ok++;
            ck_assert_uint_le(c.size, len);
            ck_assert_uint_ge(c.ntuples, 1);
            ck_assert_uint_le(c.ntuples, 8);
            static bi_xclause x;
            static bi_warp w;
            if (bi_prepare_clause(&x, &c, NULL) == BI_EXEC_OK) {
                bi_warp_init(&w, BI_ARCH_V7);
                for (unsigned r = 0; r < 64; r++)
                    for (unsigned l = 0; l < 8; l++)
                        w.reg[r][l] = (uint32_t)(seed >> (r % 32)) * (l + 1);
                bi_fault f = { 0 };
                int rc = bi_exec_clause(&w, &x, 0xff, &f);
                ck_assert(rc == BI_EXEC_OK || (rc == BI_EXEC_FAULT && f.kind != BI_FAULT_NONE));
                executed++;
            }
        }
        char *s = disasm_to_string(buf, len, BI_ARCH_V7);
        free(s);
    }
    ck_assert_uint_gt(ok, 100);
    ck_assert_uint_gt(executed, 10);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bifrost_decode");
    TCase *tc = tcase_create("decode");
    tcase_add_loop_test(tc, test_vectors, 0, (int)(sizeof(vecs) / sizeof(vecs[0])));
    tcase_add_test(tc, test_disasm_text);
    tcase_add_test(tc, test_operands);
    tcase_add_test(tc, test_arch);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_assembled);
    tcase_add_test(tc, test_fuzz);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

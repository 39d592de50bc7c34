/* AdvSIMD floating point (SIMDF_): vector and scalar forms.
 *
 * Table-driven: each case sets v0..v3 (mirrored in v16..v19 for instructions
 * that name those), FPCR, runs one instruction and checks the destination
 * register, FPSR and that the other registers are unchanged.  Expected values
 * and FPSR come from running the same instruction under
 * `qemu-aarch64 -cpu cortex-a57` (static test program, results pasted as
 * constants).  Cases marked "(sweep)" are random encodings and inputs from a
 * sweep over every field value of the SIMDF_ patterns. */
#include <stdio.h>
#include "cpu_harness.h"

typedef struct {
    uint32_t insn, fpcr;
    uint16_t in[4];      /* v0..v3 before: indices into pool[] */
    unsigned rd;         /* the register that changes */
    uint64_t out[2];     /* its value after */
    uint32_t fpsr;
    const char *text;
} FCase;

/* Input register values, referenced by index. */
static const uint64_t pool[][2] = {
    { 0x400000003f800000ull, 0x4080000040400000ull }, /* 0 */
    { 0x7f8000003fc00000ull, 0x7f8123457fc12345ull }, /* 1 */
    { 0xff80000040100000ull, 0xffc543213f800000ull }, /* 2 */
    { 0x0000000000000000ull, 0x0000000000000000ull }, /* 3 */
    { 0x3f000000bf800000ull, 0x40e0000080000000ull }, /* 4 */
    { 0x0000000080000000ull, 0x7f7fffff3f800000ull }, /* 5 */
    { 0x8000000000000000ull, 0x7f7fffff807fffffull }, /* 6 */
    { 0x7fc0000040400000ull, 0x4110000041100000ull }, /* 7 */
    { 0x3e800000bf000000ull, 0x4110000041100000ull }, /* 8 */
    { 0x3ff0000000000000ull, 0x4000000000000000ull }, /* 9 */
    { 0x3ff8000000000000ull, 0x7ff8000000012345ull }, /* 10 */
    { 0x7ff0000000012345ull, 0x4000000000000000ull }, /* 11 */
    { 0xc008000000000000ull, 0x3fe0000000000000ull }, /* 12 */
    { 0x7ff0000000000000ull, 0x7fe1ccf385ebc8a0ull }, /* 13 */
    { 0xfff0000000000000ull, 0xffe1ccf385ebc8a0ull }, /* 14 */
    { 0xa5a5a5a5a5a5a5a5ull, 0x5a5a5a5a5a5a5a5aull }, /* 15 */
    { 0x7f80000000000000ull, 0x7e967699c0400000ull }, /* 16 */
    { 0x000000007f800000ull, 0x7e967699000ae398ull }, /* 17 */
    { 0x3f8000003f800000ull, 0x3f8000003f800000ull }, /* 18 */
    { 0x7fc123457f812345ull, 0x7f8123453f800000ull }, /* 19 */
    { 0xff800777ffc54321ull, 0x000000007f812345ull }, /* 20 */
    { 0x4008000000000000ull, 0x3fe0000000000000ull }, /* 21 */
    { 0x41a0000041200000ull, 0x4220000041f00000ull }, /* 22 */
    { 0x3f800000bf800000ull, 0x800000003f800000ull }, /* 23 */
    { 0x3f8000013f800001ull, 0x000000001e3ce508ull }, /* 24 */
    { 0x3f7fffff3f7fffffull, 0x800000001e3ce508ull }, /* 25 */
    { 0x3ff0000000000000ull, 0x0000000000000000ull }, /* 26 */
    { 0x3ff0000000000001ull, 0x0000000000000000ull }, /* 27 */
    { 0x3fefffffffffffffull, 0xbff0000000000000ull }, /* 28 */
    { 0x7fc123457f800000ull, 0x0000000000000000ull }, /* 29 */
    { 0x3f80000000000000ull, 0x0000000000000000ull }, /* 30 */
    { 0x7f8123457f800000ull, 0x0000000000000000ull }, /* 31 */
    { 0x7fc123457fc12345ull, 0x3f8000003f800000ull }, /* 32 */
    { 0x7f81234500000000ull, 0x7f7fffff7f800000ull }, /* 33 */
    { 0x3f8000007f800000ull, 0x7f7fffffff800000ull }, /* 34 */
    { 0xff8000003f800000ull, 0x4000000000000000ull }, /* 35 */
    { 0x7f800000ffc54321ull, 0x800000013f800000ull }, /* 36 */
    { 0x3f8000003f800000ull, 0x0000000180000000ull }, /* 37 */
    { 0x0000000000800000ull, 0x0000000000000000ull }, /* 38 */
    { 0x7f80000000000000ull, 0x7149f2ca3fc00000ull }, /* 39 */
    { 0x000000007f800000ull, 0x7149f2ca40000000ull }, /* 40 */
    { 0x0000000000000000ull, 0x3ff8000000000000ull }, /* 41 */
    { 0xfff0000000000000ull, 0x4008000000000000ull }, /* 42 */
    { 0x40a0000000000000ull, 0x40a0000040a00000ull }, /* 43 */
    { 0x40e00000ff800000ull, 0x40e0000040e00000ull }, /* 44 */
    { 0x00000000c0200000ull, 0x0000000000000000ull }, /* 45 */
    { 0x0000000040200000ull, 0x0000000000000000ull }, /* 46 */
    { 0x7ff0000000012345ull, 0x3ff0000000000000ull }, /* 47 */
    { 0xc008000000000000ull, 0x3ff0000000000000ull }, /* 48 */
    { 0x3fe8000000000000ull, 0x4000000000000000ull }, /* 49 */
    { 0x7fc123453fc00000ull, 0x42c8000042c80000ull }, /* 50 */
    { 0x40400000c0000000ull, 0x42c8000042c80000ull }, /* 51 */
    { 0x8000000000000000ull, 0x0000000000000000ull }, /* 52 */
    { 0x3f8000007fc12345ull, 0x7f81234540000000ull }, /* 53 */
    { 0xff800777ffc54321ull, 0xc0a0000040a00000ull }, /* 54 */
    { 0x7fc12345ffc54321ull, 0xc0a0000040a00000ull }, /* 55 */
    { 0x7ff8000000012345ull, 0x7ff0000000012345ull }, /* 56 */
    { 0xfff0000000000000ull, 0x7ff0000000000000ull }, /* 57 */
    { 0xc020000040200000ull, 0xbfc000003f000000ull }, /* 58 */
    { 0xd01502f9501502f9ull, 0x407fffd67fc12345ull }, /* 59 */
    { 0x800000003f800000ull, 0xff8000007f800000ull }, /* 60 */
    { 0xbf0000007f812345ull, 0x4effffff4f7fffffull }, /* 61 */
    { 0x4004000000000000ull, 0xc00c000000000000ull }, /* 62 */
    { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, /* 63 */
    { 0xc415af1d78b58c40ull, 0x7ff0000000012345ull }, /* 64 */
    { 0x43dfffffffffffffull, 0xbfd3333333333333ull }, /* 65 */
    { 0x00800001807fffffull, 0xfe967699000ae398ull }, /* 66 */
    { 0x800000003f800000ull, 0xbf8000007fc12345ull }, /* 67 */
    { 0x000000007f812345ull, 0x807fffff3f800000ull }, /* 68 */
    { 0x00000000c0000000ull, 0x3f8000003f800000ull }, /* 69 */
    { 0x7ff0000000012345ull, 0x8000000000000000ull }, /* 70 */
    { 0xbff0000000000000ull, 0x4014000000000000ull }, /* 71 */
    { 0x40a000007fc12345ull, 0x0000000000000000ull }, /* 72 */
    { 0x80000000ffffffffull, 0x010000017fffffffull }, /* 73 */
    { 0xfffffffd01000001ull, 0x40a0000040a00000ull }, /* 74 */
    { 0xffffffffffffffffull, 0x8000000000000001ull }, /* 75 */
    { 0x0020000000000001ull, 0x7fffffffffffffffull }, /* 76 */
    { 0x4110000080000001ull, 0x0000000000000000ull }, /* 77 */
    { 0xfffffffffffffc01ull, 0x4022000000000000ull }, /* 78 */
    { 0x0020000040400000ull, 0x800000007e800000ull }, /* 79 */
    { 0x7f00000000100000ull, 0x000116c280000000ull }, /* 80 */
    { 0x7f00000000100000ull, 0x80100000ff000000ull }, /* 81 */
    { 0x4008000000000000ull, 0x0004000000000000ull }, /* 82 */
    { 0x7fd0000000000000ull, 0xc01e000000000000ull }, /* 83 */
    { 0x3e80000040400000ull, 0x3f800000bf800000ull }, /* 84 */
    { 0x000000007f800000ull, 0x7f00000080000000ull }, /* 85 */
    { 0x3ff0000000000000ull, 0x01cac9a7b3b7302full }, /* 86 */
    { 0x405edd2f1a9fbe77ull, 0x7ff0000000000000ull }, /* 87 */
    { 0x4000000000000000ull, 0x3ff0000000000000ull }, /* 88 */
    { 0x3f8000003dcccccdull, 0x0000000000000000ull }, /* 89 */
    { 0x8000000000000000ull, 0x3ff0000000000000ull }, /* 90 */
    { 0x3f8000007f812345ull, 0x0000000000000000ull }, /* 91 */
    { 0x0000000040400000ull, 0x0000000000000000ull }, /* 92 */
    { 0x000000003f800000ull, 0x0000000000000000ull }, /* 93 */
    { 0x00000000ff800000ull, 0x0000000000000000ull }, /* 94 */
    { 0x000000007f812345ull, 0x0000000000000000ull }, /* 95 */
    { 0x0000000080000000ull, 0x0000000000000000ull }, /* 96 */
    { 0x0000000000400000ull, 0x0000000000000000ull }, /* 97 */
    { 0x4008000000000000ull, 0x0000000000000000ull }, /* 98 */
    { 0x7ff8000000012345ull, 0x0000000000000000ull }, /* 99 */
    { 0x800012688b70e62bull, 0x0000000000000000ull }, /* 100 */
    { 0x3f800000c0200000ull, 0x0000000000000000ull }, /* 101 */
    { 0x3f8000004f9502f9ull, 0x0000000000000000ull }, /* 102 */
    { 0x4004000000000000ull, 0x3ff0000000000000ull }, /* 103 */
    { 0xc3e158e460913d00ull, 0x3ff0000000000000ull }, /* 104 */
    { 0x7ff8000000000000ull, 0x3ff0000000000000ull }, /* 105 */
    { 0x477ff0003f800000ull, 0x7fc12345322bcc77ull }, /* 106 */
    { 0x477fe0007f812345ull, 0x33000001337ffae5ull }, /* 107 */
    { 0x3dcccccd3f800000ull, 0x80000000ff800000ull }, /* 108 */
    { 0x478000003dcccccdull, 0xff800000322bcc77ull }, /* 109 */
    { 0x47c350003dcccccdull, 0xff800000322bcc77ull }, /* 110 */
    { 0x3fb999999999999aull, 0x7e37e43c8800759cull }, /* 111 */
    { 0x7ff0000000012345ull, 0x01a56e1fc2f8f359ull }, /* 112 */
    { 0x3fb999999999999aull, 0xfe37e43c8800759cull }, /* 113 */
    { 0x37a16c262777579cull, 0x3ff0000000000000ull }, /* 114 */
    { 0x00017d017c003c00ull, 0x0009000900090009ull }, /* 115 */
    { 0x0009000900090009ull, 0x04007bff8000fe55ull }, /* 116 */
    { 0x0001fc007d017c00ull, 0x0000000000000000ull }, /* 117 */
    { 0x00013c0000017d01ull, 0x0000000000000000ull }, /* 118 */
    { 0x7f8123453dcccccdull, 0x4110000041100000ull }, /* 119 */
    { 0x4110000041100000ull, 0xff8000003f800000ull }, /* 120 */
    { 0x7f8123453f800000ull, 0x0000000000000000ull }, /* 121 */
    { 0x3ff0000010000000ull, 0x3ff0000000000001ull }, /* 122 */
    { 0x7e37e43c8800759cull, 0x81a56e1fc2f8f359ull }, /* 123 */
    { 0x7ff0000000012345ull, 0x3ff0000008000000ull }, /* 124 */
    { 0x3ff0000018000000ull, 0x380fffffe0000001ull }, /* 125 */
    { 0x3ff0000000000001ull, 0x4014000000000000ull }, /* 126 */
    { 0x7ff8000000012345ull, 0x4014000000000000ull }, /* 127 */
    { 0x80000000000007e8ull, 0x4014000000000000ull }, /* 128 */
    { 0xc00000003f800000ull, 0xc080000040400000ull }, /* 129 */
    { 0xc00000007fc12345ull, 0xffc543217f812345ull }, /* 130 */
    { 0x7fc123453f800000ull, 0x80000000ffc54321ull }, /* 131 */
    { 0x0000000080000000ull, 0x807fffff3f800000ull }, /* 132 */
    { 0x4040000040000000ull, 0x40a0000040800000ull }, /* 133 */
    { 0x000000003fc00000ull, 0x4040000080000000ull }, /* 134 */
    { 0x4040000040000000ull, 0x7f80000040800000ull }, /* 135 */
    { 0xc04000003fc00000ull, 0x40e0000040e00000ull }, /* 136 */
    { 0xffc5432140000000ull, 0x40a0000040800000ull }, /* 137 */
    { 0x400000007fc12345ull, 0x4080000040400000ull }, /* 138 */
    { 0x7f8123453fc00000ull, 0x40e0000040e00000ull }, /* 139 */
    { 0xffc5432140000000ull, 0x40a00000ff800777ull }, /* 140 */
    { 0x3ff8000000000000ull, 0x7ff0000000000000ull }, /* 141 */
    { 0x7ff8000000000000ull, 0x4000000000000000ull }, /* 142 */
    { 0x7ff0000000012345ull, 0x4008000000000000ull }, /* 143 */
    { 0x3fe0000000000000ull, 0x0000000000000000ull }, /* 144 */
    { 0x402000003fc00000ull, 0x4090000040600000ull }, /* 145 */
    { 0x411000003fc00000ull, 0x4110000041100000ull }, /* 146 */
    { 0x4040000040000000ull, 0xc0a0000040800000ull }, /* 147 */
    { 0x4110000000000000ull, 0x4110000041100000ull }, /* 148 */
    { 0x7f80000040000000ull, 0xc0a0000040800000ull }, /* 149 */
    { 0x3ff8000000000000ull, 0x4022000000000000ull }, /* 150 */
    { 0x4000000000000000ull, 0xc01c000000000000ull }, /* 151 */
    { 0x7ff0000000000000ull, 0x4022000000000000ull }, /* 152 */
    { 0x0000000000000000ull, 0x3ff0000000000000ull }, /* 153 */
    { 0x3f800000bf800000ull, 0x8000000000000000ull }, /* 154 */
    { 0x3f7fffff00000000ull, 0x0000000000000000ull }, /* 155 */
    { 0x40400000ffffffffull, 0x4110000041100000ull }, /* 156 */
    { 0xbfe000003fc00000ull, 0x7fc000004e6e6b28ull }, /* 157 */
    { 0xbfe000003fc00000ull, 0x3f7fbe774e6e6b28ull }, /* 158 */
    { 0x411000003f400000ull, 0x0000000000000000ull }, /* 159 */
    { 0xffffffffffffffffull, 0x8000000000000000ull }, /* 160 */
    { 0xffffffffffffffffull, 0x0010000000000003ull }, /* 161 */
    { 0xbff8000000000000ull, 0x3fe8000000000000ull }, /* 162 */
    { 0xbfd0000000000000ull, 0x4022000000000000ull }, /* 163 */
    { 0x8000000000000401ull, 0x4022000000000000ull }, /* 164 */
    { 0xbff0000000000000ull, 0xfffffffffffffffeull }, /* 165 */
    { 0x3690000000000000ull, 0x7fb6883d4100ae9bull }, /* 166 */
    { 0x4004000000000000ull, 0xffffffffffffffffull }, /* 167 */
    { 0x0000000000000001ull, 0x123456789abcdef1ull }, /* 168 */
    { 0x3ff0000018000001ull, 0xffffffffffffffffull }, /* 169 */
    { 0xc004000000000000ull, 0x400921fb54442d18ull }, /* 170 */
    { 0xffffffffffffffffull, 0x0000000000000000ull }, /* 171 */
    { 0x400921fb54442d18ull, 0xfff0000000000000ull }, /* 172 */
    { 0x7ac989fc80000000ull, 0x000000033eaaaaabull }, /* 173 */
    { 0x38800000657b8326ull, 0x4fdda710c0400000ull }, /* 174 */
    { 0x3f000000477fe000ull, 0x402000003fc00000ull }, /* 175 */
    { 0x008000004f2308d5ull, 0x3fc0000100000000ull }, /* 176 */
    { 0xd9295882cb40a753ull, 0x3380000040490fdbull }, /* 177 */
    { 0x00000001477ff000ull, 0xc03f641dffffffffull }, /* 178 */
    { 0x7fc0000033800000ull, 0xcf00000000ffffffull }, /* 179 */
    { 0x000000013f7fffffull, 0x7cbb0b07c0400000ull }, /* 180 */
    { 0x41f0000000000000ull, 0x0010000000000000ull }, /* 181 */
    { 0x0000000000000001ull, 0x7ff0000000012345ull }, /* 182 */
    { 0x7fefffffffffffffull, 0x3690000000000000ull }, /* 183 */
    { 0x3fe0000000000000ull, 0x800fffffffffffffull }, /* 184 */
    { 0x388000007f812345ull, 0x8000000000000000ull }, /* 185 */
    { 0xbf800000af50b0e0ull, 0x3f7fffff12345678ull }, /* 186 */
    { 0xffc54321c7e3221cull, 0x800000004f800000ull }, /* 187 */
    { 0x7ffffffffffffffeull, 0x4f7fffff477ff000ull }, /* 188 */
    { 0xcf000000dd519739ull, 0x00000000ff7fffffull }, /* 189 */
    { 0x4f80000038800000ull, 0x338000004b800001ull }, /* 190 */
    { 0xff7fffffc0400000ull, 0xff80000000000001ull }, /* 191 */
    { 0x7e800000df000000ull, 0x0a544ed1a1a46aa6ull }, /* 192 */
    { 0x00000001ffffffffull, 0x80000000ff7fffffull }, /* 193 */
    { 0x80000000ff800000ull, 0x7e80000087eb353full }, /* 194 */
    { 0x9ce1c08cfffffffeull, 0xff80000080000000ull }, /* 195 */
    { 0xa74948943fc00001ull, 0x3eaaaaab80000000ull }, /* 196 */
    { 0x000000034effffffull, 0x7f8000007f7fffffull }, /* 197 */
    { 0x7f7fffff7fc12345ull, 0x7e8000004f7fffffull }, /* 198 */
    { 0x0000000033800000ull, 0xb88987da3fc00000ull }, /* 199 */
    { 0x4f8000007f7fffffull, 0x807fffff0aa25da8ull }, /* 200 */
    { 0x8000000000000001ull, 0x80000000ffffffffull }, /* 201 */
    { 0x477fe000ff800001ull, 0xfffffffe00000001ull }, /* 202 */
    { 0x861611977fffffffull, 0x92669ca800400000ull }, /* 203 */
    { 0xc0cf2d6a3f800000ull, 0xb40645ae3eaaaaabull }, /* 204 */
    { 0xffffffff00ffffffull, 0x7f7fffffa0a67e89ull }, /* 205 */
    { 0xc040000080000000ull, 0xff80000080000000ull }, /* 206 */
    { 0x7fffffff00ffffffull, 0x6923623d01000001ull }, /* 207 */
    { 0xbdef838b5f800000ull, 0x894b83104b800001ull }, /* 208 */
    { 0x0020000000000001ull, 0xdb7c19d78374fb84ull }, /* 209 */
    { 0x0000000000000001ull, 0xfffffffffffffffeull }, /* 210 */
    { 0xdf8acb040e79346aull, 0xfffffffffffffffeull }, /* 211 */
    { 0x0000000000000001ull, 0x56b4b672963e7ac0ull }, /* 212 */
    { 0x0000000000000001ull, 0x0000000000000000ull }, /* 213 */
    { 0x4e23eeec583619f8ull, 0x7fffffffffffffffull }, /* 214 */
    { 0x7fffffffffffffffull, 0x0000000000000001ull }, /* 215 */
    { 0x400921fb54442d18ull, 0x4004000000000000ull }, /* 216 */
    { 0x43f0000000000000ull, 0x7a87ab800310ae06ull }, /* 217 */
    { 0xc3e0000000000000ull, 0x19aee5e85fe39738ull }, /* 218 */
    { 0x3ff0000010000000ull, 0x49dd22f5771f44c1ull }, /* 219 */
    { 0x65117be0339efe10ull, 0x7ff0000000000000ull }, /* 220 */
    { 0x4000000000000001ull, 0x3fc000014f000000ull }, /* 221 */
    { 0x7f81234538800000ull, 0x5f800000c0400000ull }, /* 222 */
    { 0x38800000ff800000ull, 0x33800000477ff000ull }, /* 223 */
    { 0x4f00000080000000ull, 0x88aff2b75f800000ull }, /* 224 */
    { 0xbf400000ffffffffull, 0x800000001da298dcull }, /* 225 */
    { 0xf80ce0d880000000ull, 0x1184a31b7f800000ull }, /* 226 */
    { 0xff8000006f2e455aull, 0x761188d57f800000ull }, /* 227 */
    { 0x8000000080000000ull, 0x0000000100000000ull }, /* 228 */
    { 0x7f8123453fc00001ull, 0x928541c133800000ull }, /* 229 */
    { 0x3f0000004f000000ull, 0x7f800000bf400000ull }, /* 230 */
    { 0x9b7fddf04f800000ull, 0x33800000c0400000ull }, /* 231 */
    { 0x4f7fffff4f000000ull, 0x3f80000040490fdbull }, /* 232 */
    { 0x7ff8000000012345ull, 0xbff0000000000000ull }, /* 233 */
    { 0x800fffffffffffffull, 0x0020000000000001ull }, /* 234 */
    { 0x0000000000000000ull, 0x3810000000000000ull }, /* 235 */
    { 0xc004000000000000ull, 0x7fefffffffffffffull }, /* 236 */
    { 0x1234567800ffffffull, 0x212562fa5f800000ull }, /* 237 */
    { 0x7f80000000000000ull, 0x3c5018423f000000ull }, /* 238 */
    { 0x800000003f800000ull, 0x3f7fffff2975c6fcull }, /* 239 */
    { 0x01000001756e201dull, 0x010000010d516806ull }, /* 240 */
    { 0x3f00000000000003ull, 0x4f7fffff00ffffffull }, /* 241 */
    { 0x4f80000000000000ull, 0x01000001a8e6e665ull }, /* 242 */
    { 0x0000000333800000ull, 0x4f80000001000001ull }, /* 243 */
    { 0x3dc4a7ae38800000ull, 0x800000005f800000ull }, /* 244 */
    { 0xfff0000000000001ull, 0x3810000020000000ull }, /* 245 */
    { 0xc1e0000000000000ull, 0xfff8000000054321ull }, /* 246 */
    { 0x7ff8000000000000ull, 0x47effffff0000000ull }, /* 247 */
    { 0x43f0000000000000ull, 0xfff0000000000001ull }, /* 248 */
    { 0x3810000020000000ull, 0x41f0000000000000ull }, /* 249 */
    { 0x3ff8000000000000ull, 0x41f0000000000000ull }, /* 250 */
    { 0x3fefffffffffffffull, 0x3fe0000000000000ull }, /* 251 */
    { 0x0000000000000000ull, 0xa8e4dce669d93c79ull }, /* 252 */
    { 0x7fc123453f7fffffull, 0x7f7fffff4f800000ull }, /* 253 */
    { 0x004000004f7fffffull, 0x4f000000807fffffull }, /* 254 */
    { 0x4effffff7f800000ull, 0x7fc00000ff800001ull }, /* 255 */
    { 0x477fe0003f000000ull, 0xcf0000004f800000ull }, /* 256 */
    { 0xfffffffe00ffffffull, 0xff8000004effffffull }, /* 257 */
    { 0x8000000000ffffffull, 0x477fe00000000000ull }, /* 258 */
    { 0x5f000000709d87c2ull, 0x5f80000000000000ull }, /* 259 */
    { 0x7ffffffffffffffeull, 0xcf0000004affbbf3ull }, /* 260 */
    { 0xae2b92e49ebd163full, 0x3fd5555555555555ull }, /* 261 */
    { 0x0010000000000000ull, 0x3ff0000000000000ull }, /* 262 */
    { 0x0ad8ebe4e3eab244ull, 0x3ff0000000000000ull }, /* 263 */
    { 0x3ff8000000000000ull, 0x3ff0000010000000ull }, /* 264 */
    { 0x4f0000003f000000ull, 0xff800001ffc54321ull }, /* 265 */
    { 0x000000004f800000ull, 0x402000007e800000ull }, /* 266 */
    { 0xdf00000000000003ull, 0x7fc000003fc00001ull }, /* 267 */
    { 0x400000004effffffull, 0x33800000cf000000ull }, /* 268 */
    { 0x3eaaaaab00000001ull, 0x4b8000014effffffull }, /* 269 */
    { 0x00400000c0400000ull, 0x00000003477fe000ull }, /* 270 */
    { 0x3880000040490fdbull, 0xcf00000040000000ull }, /* 271 */
    { 0x40490fdb3fc00001ull, 0x5f800000ffc54321ull }, /* 272 */
    { 0x4004000000000000ull, 0x47effffff0000000ull }, /* 273 */
    { 0x77c3e84a00af9ad9ull, 0x70ddccfe1c672c77ull }, /* 274 */
    { 0x7ff0000000000000ull, 0xfff0000000000000ull }, /* 275 */
    { 0x47efffffe0000000ull, 0x4000000000000000ull }, /* 276 */
    { 0x7ff0000000000000ull, 0xc008000000000000ull }, /* 277 */
    { 0x3fe0000000000000ull, 0xc2bdb890d1f0d7e5ull }, /* 278 */
    { 0x7ff0000000000000ull, 0x3810000020000000ull }, /* 279 */
    { 0x3ff0000010000000ull, 0x0000000000000001ull }, /* 280 */
    { 0x0000000000000000ull, 0x7fefffffffffffffull }, /* 281 */
    { 0x093b6aa3646e66d3ull, 0x7538f14a3ec90449ull }, /* 282 */
    { 0x7ff8000000000000ull, 0xdb23ad6e495b3e3eull }, /* 283 */
    { 0x43f0000000000000ull, 0xfffffffffffffffeull }, /* 284 */
    { 0x67cc0c4f4b800001ull, 0x000000003eaaaaabull }, /* 285 */
    { 0x387fc0005f800000ull, 0x3effffff7f7fffffull }, /* 286 */
    { 0xff800000807fffffull, 0x477ff000ff800000ull }, /* 287 */
    { 0xff7fffffba924157ull, 0x3f000000c0200000ull }, /* 288 */
    { 0x0020000000000001ull, 0x001fffffffffffffull }, /* 289 */
    { 0xfff8000000054321ull, 0x8000000000000000ull }, /* 290 */
    { 0x3ff0000018000001ull, 0xadfc8e2070b5a715ull }, /* 291 */
    { 0x3810000000000000ull, 0x7fefffffffffffffull }, /* 292 */
    { 0xff800001bd3582f4ull, 0x972c0d8440200000ull }, /* 293 */
    { 0xcf000000bb649333ull, 0x5f0000007f812345ull }, /* 294 */
    { 0x0000000340000000ull, 0x3fc00001cf000000ull }, /* 295 */
    { 0x00000003bf800000ull, 0x3eaaaaab477ff000ull }, /* 296 */
    { 0x0010000000000000ull, 0x380fffffe0000000ull }, /* 297 */
    { 0x800fffffffffffffull, 0x3ff0000000000000ull }, /* 298 */
    { 0x3fd5555555555555ull, 0x7fefffffffffffffull }, /* 299 */
    { 0x41e0000000000000ull, 0x41f0000000000000ull }, /* 300 */
    { 0x3fefffffffffffffull, 0x8000000000000000ull }, /* 301 */
    { 0x800fffffffffffffull, 0x8000000000000000ull }, /* 302 */
    { 0x001fffffffffffffull, 0x594af14b79ed7334ull }, /* 303 */
    { 0x0020000000000001ull, 0x0000000000000001ull }, /* 304 */
    { 0x4f7fffff00800000ull, 0xff800000ff800001ull }, /* 305 */
    { 0xff8000013eaaaaabull, 0xff7fffff38800000ull }, /* 306 */
    { 0x4b8000014f800000ull, 0x5f8000007f812345ull }, /* 307 */
    { 0x7f800000ff800000ull, 0xff80000100800000ull }, /* 308 */
    { 0x36a0000000000000ull, 0x7fffffffffffffffull }, /* 309 */
    { 0xcf17ac04808a51bcull, 0x0400000000000000ull }, /* 310 */
    { 0x001fffffffffffffull, 0x7ff0000000000000ull }, /* 311 */
    { 0xfffffffffffffffeull, 0x0000000000000000ull }, /* 312 */
    { 0x477ff0005f800000ull, 0x402000004f000000ull }, /* 313 */
    { 0xff800001e4135417ull, 0x3f0000003f000000ull }, /* 314 */
    { 0x7fc123454f800000ull, 0xc0200000cf000000ull }, /* 315 */
    { 0x3f0000007fc00000ull, 0x7f7fffff4f800000ull }, /* 316 */
    { 0x41dfffffffc00000ull, 0xfff8000000054321ull }, /* 317 */
    { 0xc3e0000000000000ull, 0x4000000000000000ull }, /* 318 */
    { 0x3fe0000000000000ull, 0x41f0000000000000ull }, /* 319 */
    { 0xc3e0000000000000ull, 0x7ff0000000012345ull }, /* 320 */
    { 0x3810000020000000ull, 0x0010000000000000ull }, /* 321 */
    { 0xfff8000000054321ull, 0x0000000000000000ull }, /* 322 */
    { 0x43f0000000000000ull, 0x7ff8000000012345ull }, /* 323 */
    { 0x3ff0000008000000ull, 0x47effffff0000000ull }, /* 324 */
    { 0xbf800000ae9299efull, 0x5f00000015466b50ull }, /* 325 */
    { 0x40490fdbc0400000ull, 0xff80000033800000ull }, /* 326 */
    { 0x4effffff477fe000ull, 0x03ffbb65cf000000ull }, /* 327 */
    { 0x7e800000387fc000ull, 0x4f000000477ff000ull }, /* 328 */
    { 0x7fc000003f7fffffull, 0x4effffff5f000000ull }, /* 329 */
    { 0x5f000000455a8cb5ull, 0x80000000ff7fffffull }, /* 330 */
    { 0x2863b995bf400000ull, 0x38800000ff7fffffull }, /* 331 */
    { 0x3eaaaaab4f000000ull, 0x3fc0000140490fdbull }, /* 332 */
    { 0xfff0000000000001ull, 0x7ff0000000000000ull }, /* 333 */
    { 0x41f0000000000000ull, 0x8000000000000000ull }, /* 334 */
    { 0xfff0000000000000ull, 0xc008000000000000ull }, /* 335 */
    { 0x47efffffe0000000ull, 0x3ff0000008000000ull }, /* 336 */
    { 0x7ff0000000000000ull, 0xc1e0000000000000ull }, /* 337 */
    { 0x3690000000000000ull, 0x400921fb54442d18ull }, /* 338 */
    { 0xe083309d57a32a07ull, 0x7ff0000000012345ull }, /* 339 */
    { 0x61640ece2f14e134ull, 0x3810000000000000ull }, /* 340 */
    { 0x000000007fffffffull, 0x00000001fffffffeull }, /* 341 */
    { 0xcf00000080000000ull, 0x3fc00001cca66cf2ull }, /* 342 */
    { 0x6c3821ba8d68b679ull, 0x000000014f800000ull }, /* 343 */
    { 0x0000000001000001ull, 0x448207a5ff800000ull }, /* 344 */
    { 0xc1e0000000000000ull, 0xc008000000000000ull }, /* 345 */
    { 0x0000000000000001ull, 0x41dfffffffc00000ull }, /* 346 */
    { 0x43f0000000000000ull, 0x41dfffffffc00000ull }, /* 347 */
    { 0xffffffffffffffffull, 0x800fffffffffffffull }, /* 348 */
    { 0x43f0000000000000ull, 0x3ff0000010000000ull }, /* 349 */
    { 0x3810000020000000ull, 0x43e0000000000000ull }, /* 350 */
    { 0x3690000000000000ull, 0x0000000000000001ull }, /* 351 */
    { 0xbf800000bf400000ull, 0x4f00000000000000ull }, /* 352 */
    { 0x40490fdb807fffffull, 0x4effffff3fc00000ull }, /* 353 */
    { 0x4f800000ffc54321ull, 0x3f000000bf800000ull }, /* 354 */
    { 0x7fc000004f800000ull, 0x3add83dbbf400000ull }, /* 355 */
    { 0x7e9c755b65e0c452ull, 0xe30711cf2002de3aull }, /* 356 */
    { 0x481d09b8d1b4e881ull, 0x0e71ea87f8f648c4ull }, /* 357 */
    { 0x123456789abcdef1ull, 0x38e957df2a5c40bfull }, /* 358 */
    { 0x7ff8000000012345ull, 0x0000000000000001ull }, /* 359 */
    { 0x3ff0000000000000ull, 0x3810000000000000ull }, /* 360 */
    { 0x6cd8152df5fde003ull, 0xc008000000000000ull }, /* 361 */
    { 0x4000000000000000ull, 0x3810000000000000ull }, /* 362 */
    { 0x400921fb54442d18ull, 0x7ff0000000012345ull }, /* 363 */
    { 0x3eaaaaab3fc00000ull, 0xff800001ffc54321ull }, /* 364 */
    { 0x008000004f800000ull, 0x3fc00001ffc54321ull }, /* 365 */
    { 0xff7fffff3f800000ull, 0xc0400000387fc000ull }, /* 366 */
    { 0x4b80000180000000ull, 0x40200000df000000ull }, /* 367 */
    { 0xa14b0740fa703508ull, 0x3fd5555555555555ull }, /* 368 */
    { 0x3514ae0dac2c8e42ull, 0x9415b4e397194e1eull }, /* 369 */
    { 0x36a0000000000000ull, 0x3690000000000000ull }, /* 370 */
    { 0x0000000000000000ull, 0xc008000000000000ull }, /* 371 */
    { 0x7ff0000000000000ull, 0x47effffff0000000ull }, /* 372 */
    { 0x3ff8000000000000ull, 0xfff8000000054321ull }, /* 373 */
    { 0x47effffff0000000ull, 0x3810000000000000ull }, /* 374 */
    { 0x380fffffe0000000ull, 0x36a0000000000000ull }, /* 375 */
    { 0x3ff0000010000000ull, 0x0000000000000000ull }, /* 376 */
    { 0xffffffffffffffffull, 0xfffffffffffffffeull }, /* 377 */
    { 0x3ff0000000000000ull, 0xfff0000000000000ull }, /* 378 */
    { 0x47effffff0000000ull, 0x0000000000000001ull }, /* 379 */
    { 0x8000000000000000ull, 0x5f24338d7cdf76ffull }, /* 380 */
    { 0x3ff8000000000000ull, 0xe76b4e2fcbdcb4c3ull }, /* 381 */
    { 0xc004000000000000ull, 0x380fffffe0000000ull }, /* 382 */
    { 0x4004000000000000ull, 0x3fe0000000000000ull }, /* 383 */
    { 0x800fffffffffffffull, 0x001fffffffffffffull }, /* 384 */
    { 0x43e0000000000000ull, 0x0020000000000001ull }, /* 385 */
    { 0x8000000000000000ull, 0xbb2dc8f565aa3a76ull }, /* 386 */
    { 0x7fffffffffffffffull, 0xffffffffffffffffull }, /* 387 */
    { 0x7e4d2e62826ee529ull, 0x47efffffe0000000ull }, /* 388 */
    { 0x36a0000000000000ull, 0x3fefffffffffffffull }, /* 389 */
    { 0x00a20a95745c325full, 0xbff0000000000000ull }, /* 390 */
    { 0x7ff0000000000000ull, 0x7ff8000000012345ull }, /* 391 */
    { 0x15fdb511fa7827e4ull, 0x7ff8000000000000ull }, /* 392 */
    { 0x41efffffffe00000ull, 0x3fefffffffffffffull }, /* 393 */
    { 0x7ff8000000012345ull, 0x40fc55a9b58fa827ull }, /* 394 */
    { 0x7ff0000000012345ull, 0xc3e0000000000000ull }, /* 395 */
    { 0x7fffffffffffffffull, 0xf301684a88bcc55cull }, /* 396 */
    { 0x123456789abcdef1ull, 0xffffffffffffffffull }, /* 397 */
    { 0x7ff0000000000000ull, 0x7fffffffffffffffull }, /* 398 */
    { 0x3ff0000008000000ull, 0x0000000000000001ull }, /* 399 */
    { 0x8000000000000000ull, 0x7fffffffffffffffull }, /* 400 */
    { 0xbff0000000000000ull, 0x0000000000000000ull }, /* 401 */
    { 0xc1e0000000000000ull, 0x7fffffffffffffffull }, /* 402 */
    { 0x32c8cdb7f105176bull, 0x43e0000000000000ull }, /* 403 */
    { 0x43f0000000000000ull, 0x0000000000000000ull }, /* 404 */
    { 0x0020000000000001ull, 0x7ff0000000012345ull }, /* 405 */
    { 0xfff8000000054321ull, 0xfffffffffffffffeull }, /* 406 */
    { 0xc3e0000000000000ull, 0x43e0000000000000ull }, /* 407 */
    { 0x4004000000000000ull, 0x36a0000000000000ull }, /* 408 */
    { 0x800fffffffffffffull, 0xfff0000000000000ull }, /* 409 */
    { 0x400921fb54442d18ull, 0xbff0000000000000ull }, /* 410 */
    { 0x3690000000000000ull, 0x36a0000000000000ull }, /* 411 */
    { 0x7f812345387fc000ull, 0x7f7fffff3f000000ull }, /* 412 */
    { 0x7fc000002072053cull, 0x800000007f812345ull }, /* 413 */
    { 0x000000035f000000ull, 0x7e8000004f7fffffull }, /* 414 */
    { 0x387fc00040490fdbull, 0x00000001df000000ull }, /* 415 */
    { 0xc0200000ffc54321ull, 0xff7fffffbf400000ull }, /* 416 */
    { 0xff800000ff800000ull, 0xff8000013eaaaaabull }, /* 417 */
    { 0x477ff00012b672ebull, 0x477ff000056ef85cull }, /* 418 */
    { 0xa58b8720125ab8c7ull, 0x8000000040200000ull }, /* 419 */
    { 0xfffffffffffffffeull, 0xffffffffffffffffull }, /* 420 */
    { 0xfffffffffffffffeull, 0x25873501b1e2f455ull }, /* 421 */
    { 0x3ff0000000000000ull, 0x8000000000000000ull }, /* 422 */
    { 0xfff0000000000001ull, 0x3810000000000000ull }, /* 423 */
    { 0xbff0000000000000ull, 0x400921fb54442d18ull }, /* 424 */
    { 0x8000000000000000ull, 0xfff8000000054321ull }, /* 425 */
    { 0x0000000000000001ull, 0x800fffffffffffffull }, /* 426 */
    { 0xc3e0000000000000ull, 0x123456789abcdef1ull }, /* 427 */
    { 0x4b8000013eaaaaabull, 0x00000000ff800001ull }, /* 428 */
    { 0x7fc000001418c41dull, 0x33800000477fe000ull }, /* 429 */
    { 0x4f0000004effffffull, 0x3fc000007fc00000ull }, /* 430 */
    { 0xbf80000000400000ull, 0x477fe0003fc00000ull }, /* 431 */
    { 0x7fc00000c89f8a82ull, 0xa549e122c0400000ull }, /* 432 */
    { 0xff8000005f000000ull, 0x3fc0000140000000ull }, /* 433 */
    { 0xe30afb4acf000000ull, 0x3f00000052db083bull }, /* 434 */
    { 0x387fc0003f000000ull, 0x7e8000003eaaaaabull }, /* 435 */
    { 0x0020000000000001ull, 0x123456789abcdef1ull }, /* 436 */
    { 0x0020000000000001ull, 0x3fe0000000000000ull }, /* 437 */
    { 0x123456789abcdef1ull, 0xbff0000000000000ull }, /* 438 */
    { 0xbf8000007f812345ull, 0xff80000040000000ull }, /* 439 */
    { 0xef0c27cd00000001ull, 0x5f0000007f800000ull }, /* 440 */
    { 0x4effffff2a23e7c9ull, 0x00000001443d8137ull }, /* 441 */
    { 0x3f8000003f000000ull, 0x3f7fffff00000000ull }, /* 442 */
    { 0x004000007b5186b2ull, 0xfffffffe00000000ull }, /* 443 */
    { 0xc040000028106a68ull, 0x80000000477fe000ull }, /* 444 */
    { 0x7f7fffffffffffffull, 0x00ffffff477ff000ull }, /* 445 */
    { 0x7fffffff4f7fffffull, 0x387fc00012345678ull }, /* 446 */
    { 0x7f7fffff38800000ull, 0x004000003eaaaaabull }, /* 447 */
    { 0x4020000040000000ull, 0x40000000bf400000ull }, /* 448 */
    { 0xbf40000092e7ee5dull, 0x7fc123454f000000ull }, /* 449 */
    { 0x3880000000000003ull, 0x3fc000006ac4cedaull }, /* 450 */
    { 0x4b325287e334adfeull, 0x0000000000000000ull }, /* 451 */
    { 0x400921fb54442d18ull, 0x3810000000000000ull }, /* 452 */
    { 0xaf7bf66b20218fcfull, 0x7fffffffffffffffull }, /* 453 */
    { 0x001fffffffffffffull, 0x521c80349e5c9c9dull }, /* 454 */
    { 0x47effffff0000000ull, 0x7fefffffffffffffull }, /* 455 */
    { 0x0400000000000000ull, 0x8000000000000000ull }, /* 456 */
    { 0x3810000000000000ull, 0x8000000000000000ull }, /* 457 */
    { 0x70f7e3c6beb82f27ull, 0x7ff0000000000000ull }, /* 458 */
    { 0xc004000000000000ull, 0xc008000000000000ull }, /* 459 */
    { 0x3ff0000018000001ull, 0x3810000020000000ull }, /* 460 */
    { 0x43e0000000000000ull, 0x41efffffffe00000ull }, /* 461 */
    { 0x07c19e07dfa7091aull, 0xfff0000000000001ull }, /* 462 */
    { 0xfff0000000000000ull, 0x400921fb54442d18ull }, /* 463 */
    { 0x8000000000000000ull, 0x9d4c7f6b27e5df46ull }, /* 464 */
    { 0x791a1970f4eb6731ull, 0xfff8000000054321ull }, /* 465 */
    { 0x38800000e630fa09ull, 0xbf8000000418db38ull }, /* 466 */
    { 0xbf800000ff7fffffull, 0x00000003bf800000ull }, /* 467 */
    { 0x3f00000000800000ull, 0xbf8000004f800000ull }, /* 468 */
    { 0xff800001662680e7ull, 0x5f8000003eaaaaabull }, /* 469 */
    { 0xf0c913f33fc00000ull, 0xdf0000007f7fffffull }, /* 470 */
    { 0x4b800001ff800000ull, 0x3f000000c0400000ull }, /* 471 */
    { 0x4000000000000000ull, 0x4f8000003f000000ull }, /* 472 */
    { 0x5f800000ffc54321ull, 0x7f800000ffc54321ull }, /* 473 */
    { 0x3ff0000008000000ull, 0xc004000000000000ull }, /* 474 */
    { 0x66ba688cdaedcd99ull, 0x0000000000000001ull }, /* 475 */
    { 0x3d7258b7b2cad957ull, 0xfff8000000054321ull }, /* 476 */
    { 0x3481bc33d0cf7e41ull, 0xfff0000000000000ull }, /* 477 */
    { 0xd228ffd1b0664390ull, 0x3ff8000000000000ull }, /* 478 */
    { 0x36a0000000000000ull, 0x5b9f460c7dc14975ull }, /* 479 */
    { 0x569c6ef79f9e6f05ull, 0x3ff0000000000000ull }, /* 480 */
    { 0x0400000000000000ull, 0x380fffffe0000000ull }, /* 481 */
    { 0xfff0000000000000ull, 0x3690000000000000ull }, /* 482 */
    { 0x0000000000000000ull, 0xc004000000000000ull }, /* 483 */
    { 0x0000000000000001ull, 0x4000000000000000ull }, /* 484 */
    { 0x4004000000000000ull, 0x7ff8000000000000ull }, /* 485 */
    { 0x3fd5555555555555ull, 0x41dfffffffc00000ull }, /* 486 */
    { 0x41efffffffe00000ull, 0x7fffffffffffffffull }, /* 487 */
    { 0x8000000000000000ull, 0x123456789abcdef1ull }, /* 488 */
    { 0xc008000000000000ull, 0xf73d9c2a14ebeeeaull }, /* 489 */
    { 0x807fffff3eaaaaabull, 0x807fffff00000001ull }, /* 490 */
    { 0xfc3a709b80000000ull, 0x3f7fffff00400000ull }, /* 491 */
    { 0xcf000000a379ae10ull, 0x00400000807fffffull }, /* 492 */
    { 0xbd9af908c64e6371ull, 0x402000004b800001ull }, /* 493 */
    { 0x477ff0003f800000ull, 0x2951076800000001ull }, /* 494 */
    { 0x7e80000000000000ull, 0x7fffffff792e5098ull }, /* 495 */
    { 0x12345678c0200000ull, 0x00ffffffc0200000ull }, /* 496 */
    { 0x4f80000001000001ull, 0x477ff00000000001ull }, /* 497 */
    { 0xff8000007f800000ull, 0x3f00000059172d32ull }, /* 498 */
    { 0xdf000000ff800001ull, 0x3fc000003eaaaaabull }, /* 499 */
    { 0xc020000000000001ull, 0xff8000003f000000ull }, /* 500 */
    { 0x5f8000007f800000ull, 0x477fe000ff800000ull }, /* 501 */
    { 0x402000003f000000ull, 0x387fc00033800000ull }, /* 502 */
    { 0x7f8000008b39af62ull, 0x70027322ffc54321ull }, /* 503 */
    { 0x807fffff00000001ull, 0x5f000000cf000000ull }, /* 504 */
    { 0x477ff00000000003ull, 0xfbb53a604f000000ull }, /* 505 */
    { 0x7fc0000000800000ull, 0x3f80000033800000ull }, /* 506 */
    { 0xff80000040000000ull, 0x000000003f7fffffull }, /* 507 */
    { 0x8000000038800000ull, 0x402000003fc00000ull }, /* 508 */
    { 0x3effffff161fda07ull, 0x008000003f000000ull }, /* 509 */
    { 0x33800000ff800000ull, 0x0000000340490fdbull }, /* 510 */
    { 0xff800000477fe000ull, 0x0000000140000000ull }, /* 511 */
    { 0x5f800000ffc54321ull, 0xff8000014f000000ull }, /* 512 */
    { 0x3eaaaaab40200000ull, 0x008000004b800001ull }, /* 513 */
    { 0x001fffffffffffffull, 0x0000000000000000ull }, /* 514 */
    { 0x4000000000000000ull, 0x0000000000000000ull }, /* 515 */
    { 0x0020000000000001ull, 0xc004000000000000ull }, /* 516 */
    { 0x0000000000000001ull, 0xc0b81fc88e9d9028ull }, /* 517 */
    { 0x7ff0000000012345ull, 0x36a0000000000000ull }, /* 518 */
    { 0x7ff0000000012345ull, 0x7e4faedf045a12e9ull }, /* 519 */
    { 0x3ff0000018000001ull, 0x3ff0000000000000ull }, /* 520 */
    { 0x3ff0000010000000ull, 0x3810000020000000ull }, /* 521 */
    { 0x0020000000000001ull, 0x3810000020000000ull }, /* 522 */
    { 0x0020000000000001ull, 0x3690000000000000ull }, /* 523 */
    { 0x0000000000000000ull, 0x3810000020000000ull }, /* 524 */
    { 0x0000000000000000ull, 0x50c34d81f9d0aad3ull }, /* 525 */
    { 0xff7fffff4f7fffffull, 0x4c789f333effffffull }, /* 526 */
    { 0xdf00000000000001ull, 0x7e6b29945f000000ull }, /* 527 */
    { 0x40000000ff800001ull, 0x800000003fc00000ull }, /* 528 */
    { 0xc04000007f800000ull, 0x093592614c5424d9ull }, /* 529 */
    { 0x7fffffffffffffffull, 0xfe6e8aa4291b7d9eull }, /* 530 */
    { 0xeb7fed6d38492c35ull, 0x43f0000000000000ull }, /* 531 */
    { 0x4a302554d95be203ull, 0x41dfffffffc00000ull }, /* 532 */
    { 0x7ff0000000012345ull, 0x427cdc04247fecdaull }, /* 533 */
    { 0x3ff0000018000001ull, 0x67c9668b06c3592eull }, /* 534 */
    { 0xc008000000000000ull, 0x7ff0000000012345ull }, /* 535 */
    { 0x3eaaaaab40200000ull, 0x4267ad914effffffull }, /* 536 */
    { 0xde4986f5ff800001ull, 0x388000004f800000ull }, /* 537 */
    { 0xbf8f47bbbf400000ull, 0xc02000003f000000ull }, /* 538 */
    { 0x4f000000bf800000ull, 0x4000000040200000ull }, /* 539 */
    { 0x4effffff80000000ull, 0x4effffff477fe000ull }, /* 540 */
    { 0xbf8000004f7fffffull, 0x1234567880000000ull }, /* 541 */
    { 0x40490fdbff7fffffull, 0x00000001965be097ull }, /* 542 */
    { 0xfffffffe387fc000ull, 0x7e8000004effffffull }, /* 543 */
    { 0x7fefffffffffffffull, 0x0400000000000000ull }, /* 544 */
    { 0xfff0000000000001ull, 0x3fe0000000000000ull }, /* 545 */
    { 0x3fa57688dd4c2fbcull, 0xbff0000000000000ull }, /* 546 */
    { 0x3fd5555555555555ull, 0x3810000000000000ull }, /* 547 */
    { 0x3f00000000000003ull, 0xc0400000ff7fffffull }, /* 548 */
    { 0x4effffff00000000ull, 0x0000000080000000ull }, /* 549 */
    { 0xff7fffffdf000000ull, 0x5eaca28c00000001ull }, /* 550 */
    { 0x477fe00000800000ull, 0xff8000005f800000ull }, /* 551 */
    { 0x3effffff3cbdfa6full, 0x7f8000003eaaaaabull }, /* 552 */
    { 0xaa08b9c87f800000ull, 0x024c98e7c0400000ull }, /* 553 */
    { 0x7f7fffff3fc00000ull, 0x4effffff3fc00001ull }, /* 554 */
    { 0x5f0000005f800000ull, 0x80000000387fc000ull }, /* 555 */
    { 0x7ff0000000000000ull, 0x3fd5555555555555ull }, /* 556 */
    { 0x400921fb54442d18ull, 0x3ff0000000000000ull }, /* 557 */
    { 0x47effffff0000000ull, 0x3ff8000000000000ull }, /* 558 */
    { 0x3ff0000000000000ull, 0x36a0000000000000ull }, /* 559 */
};

static const FCase cases[] = {
    { 0x4e22d420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7fc0000040700000ull, 0x7fc123457fc12345ull }, 0x01, "fadd v0.4s, v1.4s, v2.4s" },
    { 0x4e22d420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x0000000000000000ull, 0x7f8000003f800000ull }, 0x14, "fadd v0.4s, v1.4s, v2.4s" },
    { 0x0e22d420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc0000040200000ull, 0x0000000000000000ull }, 0x00, "fadd v0.2s, v1.2s, v2.2s" },
    { 0x4e62d420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fadd v0.2d, v1.2d, v2.2d" },
    { 0x4e62d420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff8000000000000ull, 0x0000000000000000ull }, 0x01, "fadd v0.2d, v1.2d, v2.2d" },
    { 0x4e21d443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7f8000007f800000ull, 0x7f167699c0400000ull }, 0x80, "fadd v3.4s, v2.4s, v1.4s" },
    { 0x4e22d420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fadd v0.4s, v1.4s, v2.4s" },
    { 0x4ea2d420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7f800000bf400000ull, 0x7fc123457fc12345ull }, 0x01, "fsub v0.4s, v1.4s, v2.4s" },
    { 0x4ea2d420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x0000000080000000ull, 0x000000003f800000ull }, 0x10, "fsub v0.4s, v1.4s, v2.4s" },
    { 0x0ea2d420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc0000040600000ull, 0x0000000000000000ull }, 0x00, "fsub v0.2s, v1.2s, v2.2s" },
    { 0x4ee2d420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fsub v0.2d, v1.2d, v2.2d" },
    { 0x4ee2d420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0x7ff0000000000000ull }, 0x14, "fsub v0.2d, v1.2d, v2.2d" },
    { 0x4ea1d443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0xff8000007f800000ull, 0x0000000040400000ull }, 0x80, "fsub v3.4s, v2.4s, v1.4s" },
    { 0x4ea2d420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fsub v0.4s, v1.4s, v2.4s" },
    { 0x6e22dc20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0xff80000040580000ull, 0x7fc123457fc12345ull }, 0x01, "fmul v0.4s, v1.4s, v2.4s" },
    { 0x6e22dc20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x8000000080000000ull, 0x7f800000807fffffull }, 0x14, "fmul v0.4s, v1.4s, v2.4s" },
    { 0x2e22dc20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc00000bfc00000ull, 0x0000000000000000ull }, 0x00, "fmul v0.2s, v1.2s, v2.2s" },
    { 0x6e62dc20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fmul v0.2d, v1.2d, v2.2d" },
    { 0x6e62dc20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0xfff0000000000000ull, 0xfff0000000000000ull }, 0x14, "fmul v0.2d, v1.2d, v2.2d" },
    { 0x6e21dc43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7fc000007fc00000ull, 0x7f80000080000000ull }, 0x95, "fmul v3.4s, v2.4s, v1.4s" },
    { 0x6e22dc20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmul v0.4s, v1.4s, v2.4s" },
    { 0x6e22fc20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7fc000003f2aaaabull, 0x7fc123457fc12345ull }, 0x11, "fdiv v0.4s, v1.4s, v2.4s" },
    { 0x6e22fc20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x7fc000007fc00000ull, 0x3f800000fe800001ull }, 0x11, "fdiv v0.4s, v1.4s, v2.4s" },
    { 0x2e22fc20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc00000c0c00000ull, 0x0000000000000000ull }, 0x00, "fdiv v0.2s, v1.2s, v2.2s" },
    { 0x6e62fc20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fdiv v0.2d, v1.2d, v2.2d" },
    { 0x6e62fc20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff8000000000000ull, 0xbff0000000000000ull }, 0x01, "fdiv v0.2d, v1.2d, v2.2d" },
    { 0x6e21fc43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x000000007f800000ull, 0x3f80000080000000ull }, 0x80, "fdiv v3.4s, v2.4s, v1.4s" },
    { 0x6e22fc20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fdiv v0.4s, v1.4s, v2.4s" },
    { 0x4e22f420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7f80000040100000ull, 0x7fc123457fc12345ull }, 0x01, "fmax v0.4s, v1.4s, v2.4s" },
    { 0x4e22f420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x0000000000000000ull, 0x7f7fffff3f800000ull }, 0x00, "fmax v0.4s, v1.4s, v2.4s" },
    { 0x0e22f420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc0000040400000ull, 0x0000000000000000ull }, 0x00, "fmax v0.2s, v1.2s, v2.2s" },
    { 0x4e62f420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fmax v0.2d, v1.2d, v2.2d" },
    { 0x4e62f420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0x7fe1ccf385ebc8a0ull }, 0x00, "fmax v0.2d, v1.2d, v2.2d" },
    { 0x4e21f443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7f8000007f800000ull, 0x7e96769900000000ull }, 0x80, "fmax v3.4s, v2.4s, v1.4s" },
    { 0x4e22f420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmax v0.4s, v1.4s, v2.4s" },
    { 0x4ea2f420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0xff8000003fc00000ull, 0x7fc123457fc12345ull }, 0x01, "fmin v0.4s, v1.4s, v2.4s" },
    { 0x4ea2f420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x8000000080000000ull, 0x7f7fffff807fffffull }, 0x00, "fmin v0.4s, v1.4s, v2.4s" },
    { 0x0ea2f420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc00000bf000000ull, 0x0000000000000000ull }, 0x00, "fmin v0.2s, v1.2s, v2.2s" },
    { 0x4ee2f420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fmin v0.2d, v1.2d, v2.2d" },
    { 0x4ee2f420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0xfff0000000000000ull, 0xffe1ccf385ebc8a0ull }, 0x00, "fmin v0.2d, v1.2d, v2.2d" },
    { 0x4ea1f443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x0000000000000000ull, 0x7e967699c0400000ull }, 0x80, "fmin v3.4s, v2.4s, v1.4s" },
    { 0x4ea2f420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmin v0.4s, v1.4s, v2.4s" },
    { 0x4e22c420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7f80000040100000ull, 0x7fc123453f800000ull }, 0x01, "fmaxnm v0.4s, v1.4s, v2.4s" },
    { 0x4e22c420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x0000000000000000ull, 0x7f7fffff3f800000ull }, 0x00, "fmaxnm v0.4s, v1.4s, v2.4s" },
    { 0x0e22c420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x3e80000040400000ull, 0x0000000000000000ull }, 0x00, "fmaxnm v0.2s, v1.2s, v2.2s" },
    { 0x4e62c420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x4000000000000000ull }, 0x01, "fmaxnm v0.2d, v1.2d, v2.2d" },
    { 0x4e62c420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0x7fe1ccf385ebc8a0ull }, 0x00, "fmaxnm v0.2d, v1.2d, v2.2d" },
    { 0x4e21c443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7f8000007f800000ull, 0x7e96769900000000ull }, 0x80, "fmaxnm v3.4s, v2.4s, v1.4s" },
    { 0x4e22c420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmaxnm v0.4s, v1.4s, v2.4s" },
    { 0x4ea2c420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0xff8000003fc00000ull, 0x7fc123453f800000ull }, 0x01, "fminnm v0.4s, v1.4s, v2.4s" },
    { 0x4ea2c420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x8000000080000000ull, 0x7f7fffff807fffffull }, 0x00, "fminnm v0.4s, v1.4s, v2.4s" },
    { 0x0ea2c420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x3e800000bf000000ull, 0x0000000000000000ull }, 0x00, "fminnm v0.2s, v1.2s, v2.2s" },
    { 0x4ee2c420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x4000000000000000ull }, 0x01, "fminnm v0.2d, v1.2d, v2.2d" },
    { 0x4ee2c420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0xfff0000000000000ull, 0xffe1ccf385ebc8a0ull }, 0x00, "fminnm v0.2d, v1.2d, v2.2d" },
    { 0x4ea1c443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x0000000000000000ull, 0x7e967699c0400000ull }, 0x80, "fminnm v3.4s, v2.4s, v1.4s" },
    { 0x4ea2c420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fminnm v0.4s, v1.4s, v2.4s" },
    { 0x4e22dc20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0xff80000040580000ull, 0x7fc123457fc12345ull }, 0x01, "fmulx v0.4s, v1.4s, v2.4s" },
    { 0x4e22dc20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x8000000080000000ull, 0x7f800000807fffffull }, 0x14, "fmulx v0.4s, v1.4s, v2.4s" },
    { 0x0e22dc20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc00000bfc00000ull, 0x0000000000000000ull }, 0x00, "fmulx v0.2s, v1.2s, v2.2s" },
    { 0x4e62dc20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fmulx v0.2d, v1.2d, v2.2d" },
    { 0x4e62dc20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0xfff0000000000000ull, 0xfff0000000000000ull }, 0x14, "fmulx v0.2d, v1.2d, v2.2d" },
    { 0x4e21dc43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x4000000040000000ull, 0x7f80000080000000ull }, 0x94, "fmulx v3.4s, v2.4s, v1.4s" },
    { 0x4e22dc20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmulx v0.4s, v1.4s, v2.4s" },
    { 0x6ea2d420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7f8000003f400000ull, 0x7fc123457fc12345ull }, 0x01, "fabd v0.4s, v1.4s, v2.4s" },
    { 0x6ea2d420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x0000000000000000ull, 0x000000003f800000ull }, 0x10, "fabd v0.4s, v1.4s, v2.4s" },
    { 0x2ea2d420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc0000040600000ull, 0x0000000000000000ull }, 0x00, "fabd v0.2s, v1.2s, v2.2s" },
    { 0x6ee2d420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fabd v0.2d, v1.2d, v2.2d" },
    { 0x6ee2d420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0x7ff0000000000000ull }, 0x14, "fabd v0.2d, v1.2d, v2.2d" },
    { 0x6ea1d443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7f8000007f800000ull, 0x0000000040400000ull }, 0x80, "fabd v3.4s, v2.4s, v1.4s" },
    { 0x6ea2d420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fabd v0.4s, v1.4s, v2.4s" },
    { 0x4e22e420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmeq v0.4s, v1.4s, v2.4s" },
    { 0x4e22e420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0xffffffffffffffffull, 0xffffffff00000000ull }, 0x00, "fcmeq v0.4s, v1.4s, v2.4s" },
    { 0x0e22e420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmeq v0.2s, v1.2s, v2.2s" },
    { 0x4e62e420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmeq v0.2d, v1.2d, v2.2d" },
    { 0x4e62e420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmeq v0.2d, v1.2d, v2.2d" },
    { 0x4e21e443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x0000000000000000ull, 0xffffffff00000000ull }, 0x80, "fcmeq v3.4s, v2.4s, v1.4s" },
    { 0x4e22e420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmeq v0.4s, v1.4s, v2.4s" },
    { 0x6e22e420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0xffffffff00000000ull, 0x0000000000000000ull }, 0x01, "fcmge v0.4s, v1.4s, v2.4s" },
    { 0x6e22e420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0xffffffffffffffffull, 0xffffffffffffffffull }, 0x00, "fcmge v0.4s, v1.4s, v2.4s" },
    { 0x2e22e420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcmge v0.2s, v1.2s, v2.2s" },
    { 0x6e62e420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmge v0.2d, v1.2d, v2.2d" },
    { 0x6e62e420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0xffffffffffffffffull, 0xffffffffffffffffull }, 0x00, "fcmge v0.2d, v1.2d, v2.2d" },
    { 0x6e21e443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x00000000ffffffffull, 0xffffffffffffffffull }, 0x80, "fcmge v3.4s, v2.4s, v1.4s" },
    { 0x6e22e420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmge v0.4s, v1.4s, v2.4s" },
    { 0x6ea2e420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0xffffffff00000000ull, 0x0000000000000000ull }, 0x01, "fcmgt v0.4s, v1.4s, v2.4s" },
    { 0x6ea2e420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x0000000000000000ull, 0x00000000ffffffffull }, 0x00, "fcmgt v0.4s, v1.4s, v2.4s" },
    { 0x2ea2e420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcmgt v0.2s, v1.2s, v2.2s" },
    { 0x6ee2e420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmgt v0.2d, v1.2d, v2.2d" },
    { 0x6ee2e420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0xffffffffffffffffull, 0xffffffffffffffffull }, 0x00, "fcmgt v0.2d, v1.2d, v2.2d" },
    { 0x6ea1e443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x00000000ffffffffull, 0x00000000ffffffffull }, 0x80, "fcmgt v3.4s, v2.4s, v1.4s" },
    { 0x6ea2e420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmgt v0.4s, v1.4s, v2.4s" },
    { 0x6e22ec20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0xffffffff00000000ull, 0x0000000000000000ull }, 0x01, "facge v0.4s, v1.4s, v2.4s" },
    { 0x6e22ec20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0xffffffffffffffffull, 0xffffffffffffffffull }, 0x00, "facge v0.4s, v1.4s, v2.4s" },
    { 0x2e22ec20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "facge v0.2s, v1.2s, v2.2s" },
    { 0x6e62ec20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "facge v0.2d, v1.2d, v2.2d" },
    { 0x6e62ec20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0xffffffffffffffffull, 0xffffffffffffffffull }, 0x00, "facge v0.2d, v1.2d, v2.2d" },
    { 0x6e21ec43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x00000000ffffffffull, 0xffffffff00000000ull }, 0x80, "facge v3.4s, v2.4s, v1.4s" },
    { 0x6e22ec20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "facge v0.4s, v1.4s, v2.4s" },
    { 0x6ea2ec20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "facgt v0.4s, v1.4s, v2.4s" },
    { 0x6ea2ec20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x0000000000000000ull, 0x00000000ffffffffull }, 0x00, "facgt v0.4s, v1.4s, v2.4s" },
    { 0x2ea2ec20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "facgt v0.2s, v1.2s, v2.2s" },
    { 0x6ee2ec20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "facgt v0.2d, v1.2d, v2.2d" },
    { 0x6ee2ec20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "facgt v0.2d, v1.2d, v2.2d" },
    { 0x6ea1ec43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x80, "facgt v3.4s, v2.4s, v1.4s" },
    { 0x6ea2ec20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "facgt v0.4s, v1.4s, v2.4s" },
    { 0x4e22fc20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7f800000bfb00000ull, 0xffc12345ffc12345ull }, 0x01, "frecps v0.4s, v1.4s, v2.4s" },
    { 0x4e22fc20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x4000000040000000ull, 0xff80000040000000ull }, 0x14, "frecps v0.4s, v1.4s, v2.4s" },
    { 0x0e22fc20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0xffc0000040600000ull, 0x0000000000000000ull }, 0x00, "frecps v0.2s, v1.2s, v2.2s" },
    { 0x4e62fc20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0xfff8000000012345ull }, 0x01, "frecps v0.2d, v1.2d, v2.2d" },
    { 0x4e62fc20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0x7ff0000000000000ull }, 0x14, "frecps v0.2d, v1.2d, v2.2d" },
    { 0x4e21fc43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x4000000040000000ull, 0xff80000040000000ull }, 0x94, "frecps v3.4s, v2.4s, v1.4s" },
    { 0x4e22fc20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "frecps v0.4s, v1.4s, v2.4s" },
    { 0x4ea2fc20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7f800000be400000ull, 0xffc12345ffc12345ull }, 0x01, "frsqrts v0.4s, v1.4s, v2.4s" },
    { 0x4ea2fc20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x3fc000003fc00000ull, 0xff8000003fc00000ull }, 0x14, "frsqrts v0.4s, v1.4s, v2.4s" },
    { 0x0ea2fc20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0xffc0000040100000ull, 0x0000000000000000ull }, 0x00, "frsqrts v0.2s, v1.2s, v2.2s" },
    { 0x4ee2fc20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0xfff8000000012345ull }, 0x01, "frsqrts v0.2d, v1.2d, v2.2d" },
    { 0x4ee2fc20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0x7ff0000000000000ull }, 0x14, "frsqrts v0.2d, v1.2d, v2.2d" },
    { 0x4ea1fc43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x3fc000003fc00000ull, 0xff8000003fc00000ull }, 0x94, "frsqrts v3.4s, v2.4s, v1.4s" },
    { 0x4ea2fc20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "frsqrts v0.4s, v1.4s, v2.4s" },
    { 0x4e22cc20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0xff800000408c0000ull, 0x7fc123457fc12345ull }, 0x01, "fmla v0.4s, v1.4s, v2.4s" },
    { 0x4e22cc20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x3f000000bf800000ull, 0x7f800000807fffffull }, 0x14, "fmla v0.4s, v1.4s, v2.4s" },
    { 0x0e22cc20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x7fc00000bf000000ull, 0x0000000000000000ull }, 0x00, "fmla v0.2s, v1.2s, v2.2s" },
    { 0x4e62cc20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fmla v0.2d, v1.2d, v2.2d" },
    { 0x4e62cc20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0xfff0000000000000ull, 0xfff0000000000000ull }, 0x14, "fmla v0.2d, v1.2d, v2.2d" },
    { 0x4e21cc43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7fc000007fc00000ull, 0x7f8000003f800000ull }, 0x95, "fmla v3.4s, v2.4s, v1.4s" },
    { 0x4e22cc20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmla v0.4s, v1.4s, v2.4s" },
    { 0x4ea2cc20u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7f800000c0180000ull, 0xffc12345ffc12345ull }, 0x01, "fmls v0.4s, v1.4s, v2.4s" },
    { 0x4ea2cc20u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x3f000000bf800000ull, 0xff800000007fffffull }, 0x14, "fmls v0.4s, v1.4s, v2.4s" },
    { 0x0ea2cc20u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0xffc0000040200000ull, 0x0000000000000000ull }, 0x00, "fmls v0.2s, v1.2s, v2.2s" },
    { 0x4ee2cc20u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0xfff8000000012345ull }, 0x01, "fmls v0.2d, v1.2d, v2.2d" },
    { 0x4ee2cc20u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0x7ff0000000000000ull }, 0x14, "fmls v0.2d, v1.2d, v2.2d" },
    { 0x4ea1cc43u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7fc000007fc00000ull, 0xff8000003f800000ull }, 0x95, "fmls v3.4s, v2.4s, v1.4s" },
    { 0x4ea2cc20u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmls v0.4s, v1.4s, v2.4s" },
    { 0x6e22d420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7fc123457f800000ull, 0xffc54321ff800000ull }, 0x01, "faddp v0.4s, v1.4s, v2.4s" },
    { 0x6e22d420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x7f7fffff00000000ull, 0x7f7fffff00000000ull }, 0x10, "faddp v0.4s, v1.4s, v2.4s" },
    { 0x2e22d420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0xbe8000007fc00000ull, 0x0000000000000000ull }, 0x00, "faddp v0.2s, v1.2s, v2.2s" },
    { 0x6e62d420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "faddp v0.2d, v1.2d, v2.2d" },
    { 0x6e62d420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0xfff0000000000000ull }, 0x00, "faddp v0.2d, v1.2d, v2.2d" },
    { 0x6e21d443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7e9676997f800000ull, 0x7e9676997f800000ull }, 0x90, "faddp v3.4s, v2.4s, v1.4s" },
    { 0x6e22d420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "faddp v0.4s, v1.4s, v2.4s" },
    { 0x6e22f420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7fc123457f800000ull, 0xffc5432140100000ull }, 0x01, "fmaxp v0.4s, v1.4s, v2.4s" },
    { 0x6e22f420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x7f7fffff00000000ull, 0x7f7fffff00000000ull }, 0x00, "fmaxp v0.4s, v1.4s, v2.4s" },
    { 0x2e22f420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x3e8000007fc00000ull, 0x0000000000000000ull }, 0x00, "fmaxp v0.2s, v1.2s, v2.2s" },
    { 0x6e62f420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fmaxp v0.2d, v1.2d, v2.2d" },
    { 0x6e62f420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0xffe1ccf385ebc8a0ull }, 0x00, "fmaxp v0.2d, v1.2d, v2.2d" },
    { 0x6e21f443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7e9676997f800000ull, 0x7e9676997f800000ull }, 0x80, "fmaxp v3.4s, v2.4s, v1.4s" },
    { 0x6e22f420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmaxp v0.4s, v1.4s, v2.4s" },
    { 0x6ea2f420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7fc123453fc00000ull, 0xffc54321ff800000ull }, 0x01, "fminp v0.4s, v1.4s, v2.4s" },
    { 0x6ea2f420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x3f80000080000000ull, 0x807fffff80000000ull }, 0x00, "fminp v0.4s, v1.4s, v2.4s" },
    { 0x2ea2f420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0xbf0000007fc00000ull, 0x0000000000000000ull }, 0x00, "fminp v0.2s, v1.2s, v2.2s" },
    { 0x6ee2f420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000012345ull }, 0x01, "fminp v0.2d, v1.2d, v2.2d" },
    { 0x6ee2f420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7fe1ccf385ebc8a0ull, 0xfff0000000000000ull }, 0x00, "fminp v0.2d, v1.2d, v2.2d" },
    { 0x6ea1f443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x0000000000000000ull, 0xc040000000000000ull }, 0x80, "fminp v3.4s, v2.4s, v1.4s" },
    { 0x6ea2f420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fminp v0.4s, v1.4s, v2.4s" },
    { 0x6e22c420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7fc123457f800000ull, 0x3f80000040100000ull }, 0x01, "fmaxnmp v0.4s, v1.4s, v2.4s" },
    { 0x6e22c420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x7f7fffff00000000ull, 0x7f7fffff00000000ull }, 0x00, "fmaxnmp v0.4s, v1.4s, v2.4s" },
    { 0x2e22c420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0x3e80000040400000ull, 0x0000000000000000ull }, 0x00, "fmaxnmp v0.2s, v1.2s, v2.2s" },
    { 0x6e62c420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x3ff8000000000000ull, 0x7ff8000000012345ull }, 0x01, "fmaxnmp v0.2d, v1.2d, v2.2d" },
    { 0x6e62c420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7ff0000000000000ull, 0xffe1ccf385ebc8a0ull }, 0x00, "fmaxnmp v0.2d, v1.2d, v2.2d" },
    { 0x6e21c443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x7e9676997f800000ull, 0x7e9676997f800000ull }, 0x80, "fmaxnmp v3.4s, v2.4s, v1.4s" },
    { 0x6e22c420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fmaxnmp v0.4s, v1.4s, v2.4s" },
    { 0x6ea2c420u, 0x00000000u, { 0, 1, 2, 3 }, 0, { 0x7fc123453fc00000ull, 0x3f800000ff800000ull }, 0x01, "fminnmp v0.4s, v1.4s, v2.4s" },
    { 0x6ea2c420u, 0x00000000u, { 4, 5, 6, 3 }, 0, { 0x3f80000080000000ull, 0x807fffff80000000ull }, 0x00, "fminnmp v0.4s, v1.4s, v2.4s" },
    { 0x2ea2c420u, 0x00000000u, { 0, 7, 8, 3 }, 0, { 0xbf00000040400000ull, 0x0000000000000000ull }, 0x00, "fminnmp v0.2s, v1.2s, v2.2s" },
    { 0x6ee2c420u, 0x00000000u, { 9, 10, 11, 3 }, 0, { 0x3ff8000000000000ull, 0x7ff8000000012345ull }, 0x01, "fminnmp v0.2d, v1.2d, v2.2d" },
    { 0x6ee2c420u, 0x00000000u, { 12, 13, 14, 3 }, 0, { 0x7fe1ccf385ebc8a0ull, 0xfff0000000000000ull }, 0x00, "fminnmp v0.2d, v1.2d, v2.2d" },
    { 0x6ea1c443u, 0x01000000u, { 15, 16, 17, 18 }, 3, { 0x0000000000000000ull, 0xc040000000000000ull }, 0x80, "fminnmp v3.4s, v2.4s, v1.4s" },
    { 0x6ea2c420u, 0x02000000u, { 15, 19, 20, 3 }, 0, { 0x7fc000007fc00000ull, 0x7fc000007fc00000ull }, 0x01, "fminnmp v0.4s, v1.4s, v2.4s" },
    { 0x4e21d421u, 0x00000000u, { 15, 0, 3, 3 }, 1, { 0x4080000040000000ull, 0x4100000040c00000ull }, 0x00, "fadd v1.4s, v1.4s, v1.4s" },
    { 0x4e62cc42u, 0x00000000u, { 15, 3, 21, 3 }, 2, { 0x4028000000000000ull, 0x3fe8000000000000ull }, 0x00, "fmla v2.2d, v2.2d, v2.2d" },
    { 0x4eb2d620u, 0x00000000u, { 15, 22, 0, 3 }, 0, { 0x4190000041100000ull, 0x4210000041d80000ull }, 0x00, "fsub v0.4s, v17.4s, v18.4s" },
    { 0x4e22cc20u, 0x00000000u, { 23, 24, 25, 3 }, 0, { 0x40000000337ffffeull, 0x800000003f800000ull }, 0x10, "fmla v0.4s, v1.4s, v2.4s" },
    { 0x4ee2cc20u, 0x00000000u, { 26, 27, 28, 3 }, 0, { 0xbc9ffffffffffffeull, 0x0000000000000000ull }, 0x00, "fmls v0.2d, v1.2d, v2.2d" },
    { 0x0e22cc20u, 0x00000000u, { 29, 30, 31, 3 }, 0, { 0x7fc123457fc00000ull, 0x0000000000000000ull }, 0x01, "fmla v0.2s, v1.2s, v2.2s" },
    { 0x4e22cc20u, 0x00000000u, { 32, 33, 34, 3 }, 0, { 0x7fc123457fc00000ull, 0x7f800000ff800000ull }, 0x15, "fmla v0.4s, v1.4s, v2.4s" },
    { 0x4ea2cc20u, 0x00000000u, { 35, 36, 37, 38 }, 0, { 0xff8000007fc54321ull, 0x4000000000000000ull }, 0x10, "fmls v0.4s, v1.4s, v2.4s" },
    { 0x4e22fc20u, 0x00000000u, { 15, 39, 40, 3 }, 0, { 0x4000000040000000ull, 0xff800000bf800000ull }, 0x14, "frecps v0.4s, v1.4s, v2.4s" },
    { 0x4ee2fc20u, 0x00000000u, { 15, 41, 42, 3 }, 0, { 0x3ff8000000000000ull, 0xbfe8000000000000ull }, 0x00, "frsqrts v0.2d, v1.2d, v2.2d" },
    { 0x5e22dc20u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x00000000c0000000ull, 0x0000000000000000ull }, 0x00, "fmulx s0, s1, s2" },
    { 0x5e22dc20u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x00000000c0c80000ull, 0x0000000000000000ull }, 0x00, "fmulx s0, s1, s2" },
    { 0x5e62dc20u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0x7ff8000000012345ull, 0x0000000000000000ull }, 0x01, "fmulx d0, d1, d2" },
    { 0x5e62dc20u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0xc002000000000000ull, 0x0000000000000000ull }, 0x00, "fmulx d0, d1, d2" },
    { 0x5e22e420u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmeq s0, s1, s2" },
    { 0x5e22e420u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmeq s0, s1, s2" },
    { 0x5e62e420u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmeq d0, d1, d2" },
    { 0x5e62e420u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmeq d0, d1, d2" },
    { 0x5e22fc20u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x0000000040000000ull, 0x0000000000000000ull }, 0x00, "frecps s0, s1, s2" },
    { 0x5e22fc20u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x0000000041040000ull, 0x0000000000000000ull }, 0x00, "frecps s0, s1, s2" },
    { 0x5e62fc20u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0xfff8000000012345ull, 0x0000000000000000ull }, 0x01, "frecps d0, d1, d2" },
    { 0x5e62fc20u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0x4011000000000000ull, 0x0000000000000000ull }, 0x00, "frecps d0, d1, d2" },
    { 0x5ea2fc20u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x000000003fc00000ull, 0x0000000000000000ull }, 0x00, "frsqrts s0, s1, s2" },
    { 0x5ea2fc20u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x0000000040940000ull, 0x0000000000000000ull }, 0x00, "frsqrts s0, s1, s2" },
    { 0x5ee2fc20u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0xfff8000000012345ull, 0x0000000000000000ull }, 0x01, "frsqrts d0, d1, d2" },
    { 0x5ee2fc20u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0x4005000000000000ull, 0x0000000000000000ull }, 0x00, "frsqrts d0, d1, d2" },
    { 0x7e22e420u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x00, "fcmge s0, s1, s2" },
    { 0x7e22e420u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmge s0, s1, s2" },
    { 0x7e62e420u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmge d0, d1, d2" },
    { 0x7e62e420u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmge d0, d1, d2" },
    { 0x7e22ec20u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "facge s0, s1, s2" },
    { 0x7e22ec20u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x00, "facge s0, s1, s2" },
    { 0x7e62ec20u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "facge d0, d1, d2" },
    { 0x7e62ec20u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x00, "facge d0, d1, d2" },
    { 0x7ea2d420u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x000000007f800000ull, 0x0000000000000000ull }, 0x00, "fabd s0, s1, s2" },
    { 0x7ea2d420u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x0000000040a00000ull, 0x0000000000000000ull }, 0x00, "fabd s0, s1, s2" },
    { 0x7ee2d420u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0x7ff8000000012345ull, 0x0000000000000000ull }, 0x01, "fabd d0, d1, d2" },
    { 0x7ee2d420u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0x400e000000000000ull, 0x0000000000000000ull }, 0x00, "fabd d0, d1, d2" },
    { 0x7ea2e420u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x00, "fcmgt s0, s1, s2" },
    { 0x7ea2e420u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmgt s0, s1, s2" },
    { 0x7ee2e420u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmgt d0, d1, d2" },
    { 0x7ee2e420u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmgt d0, d1, d2" },
    { 0x7ea2ec20u, 0x00000000u, { 15, 43, 44, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "facgt s0, s1, s2" },
    { 0x7ea2ec20u, 0x00000000u, { 15, 45, 46, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "facgt s0, s1, s2" },
    { 0x7ee2ec20u, 0x00000000u, { 15, 47, 9, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "facgt d0, d1, d2" },
    { 0x7ee2ec20u, 0x00000000u, { 15, 48, 49, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x00, "facgt d0, d1, d2" },
    { 0x7e30d820u, 0x00000000u, { 15, 50, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x00, "faddp s0, v1.2s" },
    { 0x7e30d820u, 0x00000000u, { 15, 51, 3, 3 }, 0, { 0x000000003f800000ull, 0x0000000000000000ull }, 0x00, "faddp s0, v1.2s" },
    { 0x7e70d820u, 0x00000000u, { 15, 11, 3, 3 }, 0, { 0x7ff8000000012345ull, 0x0000000000000000ull }, 0x01, "faddp d0, v1.2d" },
    { 0x7e70d820u, 0x00000000u, { 15, 52, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "faddp d0, v1.2d" },
    { 0x7e30f820u, 0x00000000u, { 15, 50, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x00, "fmaxp s0, v1.2s" },
    { 0x7e30f820u, 0x00000000u, { 15, 51, 3, 3 }, 0, { 0x0000000040400000ull, 0x0000000000000000ull }, 0x00, "fmaxp s0, v1.2s" },
    { 0x7e70f820u, 0x00000000u, { 15, 11, 3, 3 }, 0, { 0x7ff8000000012345ull, 0x0000000000000000ull }, 0x01, "fmaxp d0, v1.2d" },
    { 0x7e70f820u, 0x00000000u, { 15, 52, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fmaxp d0, v1.2d" },
    { 0x7eb0f820u, 0x00000000u, { 15, 50, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x00, "fminp s0, v1.2s" },
    { 0x7eb0f820u, 0x00000000u, { 15, 51, 3, 3 }, 0, { 0x00000000c0000000ull, 0x0000000000000000ull }, 0x00, "fminp s0, v1.2s" },
    { 0x7ef0f820u, 0x00000000u, { 15, 11, 3, 3 }, 0, { 0x7ff8000000012345ull, 0x0000000000000000ull }, 0x01, "fminp d0, v1.2d" },
    { 0x7ef0f820u, 0x00000000u, { 15, 52, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x00, "fminp d0, v1.2d" },
    { 0x7e30c820u, 0x00000000u, { 15, 50, 3, 3 }, 0, { 0x000000003fc00000ull, 0x0000000000000000ull }, 0x00, "fmaxnmp s0, v1.2s" },
    { 0x7e30c820u, 0x00000000u, { 15, 51, 3, 3 }, 0, { 0x0000000040400000ull, 0x0000000000000000ull }, 0x00, "fmaxnmp s0, v1.2s" },
    { 0x7e70c820u, 0x00000000u, { 15, 11, 3, 3 }, 0, { 0x7ff8000000012345ull, 0x0000000000000000ull }, 0x01, "fmaxnmp d0, v1.2d" },
    { 0x7e70c820u, 0x00000000u, { 15, 52, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fmaxnmp d0, v1.2d" },
    { 0x7eb0c820u, 0x00000000u, { 15, 50, 3, 3 }, 0, { 0x000000003fc00000ull, 0x0000000000000000ull }, 0x00, "fminnmp s0, v1.2s" },
    { 0x7eb0c820u, 0x00000000u, { 15, 51, 3, 3 }, 0, { 0x00000000c0000000ull, 0x0000000000000000ull }, 0x00, "fminnmp s0, v1.2s" },
    { 0x7ef0c820u, 0x00000000u, { 15, 11, 3, 3 }, 0, { 0x7ff8000000012345ull, 0x0000000000000000ull }, 0x01, "fminnmp d0, v1.2d" },
    { 0x7ef0c820u, 0x00000000u, { 15, 52, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x00, "fminnmp d0, v1.2d" },
    { 0x6e22f420u, 0x00000000u, { 15, 53, 54, 3 }, 0, { 0x7fc123457fc12345ull, 0x40a00000ffc00777ull }, 0x01, "fmaxp v0.4s, v1.4s, v2.4s" },
    { 0x6ea2c420u, 0x00000000u, { 15, 53, 55, 3 }, 0, { 0x7fc123453f800000ull, 0xc0a00000ffc54321ull }, 0x01, "fminnmp v0.4s, v1.4s, v2.4s" },
    { 0x6e62d420u, 0x00000000u, { 15, 56, 57, 3 }, 0, { 0x7ff8000000012345ull, 0x7ff8000000000000ull }, 0x01, "faddp v0.2d, v1.2d, v2.2d" },
    { 0x4ea0f820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x4020000040200000ull, 0x3fc000003f000000ull }, 0x00, "fabs v0.4s, v1.4s" },
    { 0x4ea0f820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x501502f9501502f9ull, 0x407fffd67fc12345ull }, 0x00, "fabs v0.4s, v1.4s" },
    { 0x4ea0f820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x000000003f800000ull, 0x7f8000007f800000ull }, 0x00, "fabs v0.4s, v1.4s" },
    { 0x4ea0f820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x3f0000007f812345ull, 0x4effffff4f7fffffull }, 0x00, "fabs v0.4s, v1.4s" },
    { 0x0ea0f820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x4020000040200000ull, 0x0000000000000000ull }, 0x00, "fabs v0.2s, v1.2s" },
    { 0x4ee0f820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x4004000000000000ull, 0x400c000000000000ull }, 0x00, "fabs v0.2d, v1.2d" },
    { 0x4ee0f820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, 0x00, "fabs v0.2d, v1.2d" },
    { 0x4ee0f820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff0000000012345ull }, 0x00, "fabs v0.2d, v1.2d" },
    { 0x4ee0f820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x43dfffffffffffffull, 0x3fd3333333333333ull }, 0x00, "fabs v0.2d, v1.2d" },
    { 0x4ee0f820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x4004000000000000ull, 0x400c000000000000ull }, 0x00, "fabs v0.2d, v1.2d" },
    { 0x4ea0f820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x00800001007fffffull, 0x7e967699000ae398ull }, 0x00, "fabs v0.4s, v1.4s" },
    { 0x6ea0f820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x40200000c0200000ull, 0x3fc00000bf000000ull }, 0x00, "fneg v0.4s, v1.4s" },
    { 0x6ea0f820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x501502f9d01502f9ull, 0xc07fffd6ffc12345ull }, 0x00, "fneg v0.4s, v1.4s" },
    { 0x6ea0f820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x00000000bf800000ull, 0x7f800000ff800000ull }, 0x00, "fneg v0.4s, v1.4s" },
    { 0x6ea0f820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x3f000000ff812345ull, 0xceffffffcf7fffffull }, 0x00, "fneg v0.4s, v1.4s" },
    { 0x2ea0f820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x40200000c0200000ull, 0x0000000000000000ull }, 0x00, "fneg v0.2s, v1.2s" },
    { 0x6ee0f820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0xc004000000000000ull, 0x400c000000000000ull }, 0x00, "fneg v0.2d, v1.2d" },
    { 0x6ee0f820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0xc415af1d78b58c40ull, 0xfff8000000000000ull }, 0x00, "fneg v0.2d, v1.2d" },
    { 0x6ee0f820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0xfff0000000012345ull }, 0x00, "fneg v0.2d, v1.2d" },
    { 0x6ee0f820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0xc3dfffffffffffffull, 0x3fd3333333333333ull }, 0x00, "fneg v0.2d, v1.2d" },
    { 0x6ee0f820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0xc004000000000000ull, 0x400c000000000000ull }, 0x00, "fneg v0.2d, v1.2d" },
    { 0x6ea0f820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x80800001007fffffull, 0x7e967699800ae398ull }, 0x00, "fneg v0.4s, v1.4s" },
    { 0x6ea1f820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x7fc000003fca62c2ull, 0x7fc000003f3504f3ull }, 0x11, "fsqrt v0.4s, v1.4s" },
    { 0x6ea1f820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x7fc0000047c35000ull, 0x3fffffeb7fc12345ull }, 0x11, "fsqrt v0.4s, v1.4s" },
    { 0x6ea1f820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x800000003f800000ull, 0x7fc000007f800000ull }, 0x01, "fsqrt v0.4s, v1.4s" },
    { 0x6ea1f820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x7fc000007fc12345ull, 0x473504f3477fffffull }, 0x11, "fsqrt v0.4s, v1.4s" },
    { 0x2ea1f820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x7fc000003fca62c2ull, 0x0000000000000000ull }, 0x11, "fsqrt v0.2s, v1.2s" },
    { 0x6ee1f820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x3ff94c583ada5b53ull, 0x7ff8000000000000ull }, 0x11, "fsqrt v0.2d, v1.2d" },
    { 0x6ee1f820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4202a05f20000000ull, 0x7ff8000000000000ull }, 0x00, "fsqrt v0.2d, v1.2d" },
    { 0x6ee1f820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x7ff8000000000000ull, 0x7ff8000000012345ull }, 0x01, "fsqrt v0.2d, v1.2d" },
    { 0x6ee1f820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x41e6a09e667f3bccull, 0x7ff8000000000000ull }, 0x11, "fsqrt v0.2d, v1.2d" },
    { 0x6ee1f820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x3ff94c583ada5b52ull, 0x7ff8000000000000ull }, 0x11, "fsqrt v0.2d, v1.2d" },
    { 0x6ea1f820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x2000000080000000ull, 0x7fc0000000000000ull }, 0x91, "fsqrt v0.4s, v1.4s" },
    { 0x4e218820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xc000000040000000ull, 0xc000000000000000ull }, 0x00, "frintn v0.4s, v1.4s" },
    { 0x4e218820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0xd01502f9501502f9ull, 0x408000007fc12345ull }, 0x00, "frintn v0.4s, v1.4s" },
    { 0x4e218820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x800000003f800000ull, 0xff8000007f800000ull }, 0x00, "frintn v0.4s, v1.4s" },
    { 0x4e218820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x800000007fc12345ull, 0x4effffff4f7fffffull }, 0x01, "frintn v0.4s, v1.4s" },
    { 0x0e218820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xc000000040000000ull, 0x0000000000000000ull }, 0x00, "frintn v0.2s, v1.2s" },
    { 0x4e618820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc010000000000000ull }, 0x00, "frintn v0.2d, v1.2d" },
    { 0x4e618820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, 0x00, "frintn v0.2d, v1.2d" },
    { 0x4e618820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0xc415af1d78b58c40ull, 0x7ff8000000012345ull }, 0x01, "frintn v0.2d, v1.2d" },
    { 0x4e618820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x43dfffffffffffffull, 0x8000000000000000ull }, 0x00, "frintn v0.2d, v1.2d" },
    { 0x4e618820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc010000000000000ull }, 0x00, "frintn v0.2d, v1.2d" },
    { 0x4e218820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000080000000ull, 0xfe96769900000000ull }, 0x80, "frintn v0.4s, v1.4s" },
    { 0x6e218820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xc040000040400000ull, 0xc00000003f800000ull }, 0x00, "frinta v0.4s, v1.4s" },
    { 0x6e218820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0xd01502f9501502f9ull, 0x408000007fc12345ull }, 0x00, "frinta v0.4s, v1.4s" },
    { 0x6e218820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x800000003f800000ull, 0xff8000007f800000ull }, 0x00, "frinta v0.4s, v1.4s" },
    { 0x6e218820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0xbf8000007fc12345ull, 0x4effffff4f7fffffull }, 0x01, "frinta v0.4s, v1.4s" },
    { 0x2e218820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xc040000040400000ull, 0x0000000000000000ull }, 0x00, "frinta v0.2s, v1.2s" },
    { 0x6e618820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x4008000000000000ull, 0xc010000000000000ull }, 0x00, "frinta v0.2d, v1.2d" },
    { 0x6e618820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, 0x00, "frinta v0.2d, v1.2d" },
    { 0x6e618820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0xc415af1d78b58c40ull, 0x7ff8000000012345ull }, 0x01, "frinta v0.2d, v1.2d" },
    { 0x6e618820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x43dfffffffffffffull, 0x8000000000000000ull }, 0x00, "frinta v0.2d, v1.2d" },
    { 0x6e618820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x4008000000000000ull, 0xc010000000000000ull }, 0x00, "frinta v0.2d, v1.2d" },
    { 0x6e218820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000080000000ull, 0xfe96769900000000ull }, 0x80, "frinta v0.4s, v1.4s" },
    { 0x4ea18820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xc000000040400000ull, 0xbf8000003f800000ull }, 0x00, "frintp v0.4s, v1.4s" },
    { 0x4ea18820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0xd01502f9501502f9ull, 0x408000007fc12345ull }, 0x00, "frintp v0.4s, v1.4s" },
    { 0x4ea18820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x800000003f800000ull, 0xff8000007f800000ull }, 0x00, "frintp v0.4s, v1.4s" },
    { 0x4ea18820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x800000007fc12345ull, 0x4effffff4f7fffffull }, 0x01, "frintp v0.4s, v1.4s" },
    { 0x0ea18820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xc000000040400000ull, 0x0000000000000000ull }, 0x00, "frintp v0.2s, v1.2s" },
    { 0x4ee18820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x4008000000000000ull, 0xc008000000000000ull }, 0x00, "frintp v0.2d, v1.2d" },
    { 0x4ee18820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, 0x00, "frintp v0.2d, v1.2d" },
    { 0x4ee18820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0xc415af1d78b58c40ull, 0x7ff8000000012345ull }, 0x01, "frintp v0.2d, v1.2d" },
    { 0x4ee18820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x43dfffffffffffffull, 0x8000000000000000ull }, 0x00, "frintp v0.2d, v1.2d" },
    { 0x4ee18820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x4008000000000000ull, 0xc008000000000000ull }, 0x00, "frintp v0.2d, v1.2d" },
    { 0x4ea18820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x3f80000080000000ull, 0xfe96769900000000ull }, 0x80, "frintp v0.4s, v1.4s" },
    { 0x4e219820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xc040000040000000ull, 0xc000000000000000ull }, 0x00, "frintm v0.4s, v1.4s" },
    { 0x4e219820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0xd01502f9501502f9ull, 0x404000007fc12345ull }, 0x00, "frintm v0.4s, v1.4s" },
    { 0x4e219820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x800000003f800000ull, 0xff8000007f800000ull }, 0x00, "frintm v0.4s, v1.4s" },
    { 0x4e219820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0xbf8000007fc12345ull, 0x4effffff4f7fffffull }, 0x01, "frintm v0.4s, v1.4s" },
    { 0x0e219820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xc040000040000000ull, 0x0000000000000000ull }, 0x00, "frintm v0.2s, v1.2s" },
    { 0x4e619820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc010000000000000ull }, 0x00, "frintm v0.2d, v1.2d" },
    { 0x4e619820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, 0x00, "frintm v0.2d, v1.2d" },
    { 0x4e619820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0xc415af1d78b58c40ull, 0x7ff8000000012345ull }, 0x01, "frintm v0.2d, v1.2d" },
    { 0x4e619820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x43dfffffffffffffull, 0xbff0000000000000ull }, 0x00, "frintm v0.2d, v1.2d" },
    { 0x4e619820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc010000000000000ull }, 0x00, "frintm v0.2d, v1.2d" },
    { 0x4e219820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000080000000ull, 0xfe96769900000000ull }, 0x80, "frintm v0.4s, v1.4s" },
    { 0x4ea19820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xc000000040000000ull, 0xbf80000000000000ull }, 0x00, "frintz v0.4s, v1.4s" },
    { 0x4ea19820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0xd01502f9501502f9ull, 0x404000007fc12345ull }, 0x00, "frintz v0.4s, v1.4s" },
    { 0x4ea19820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x800000003f800000ull, 0xff8000007f800000ull }, 0x00, "frintz v0.4s, v1.4s" },
    { 0x4ea19820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x800000007fc12345ull, 0x4effffff4f7fffffull }, 0x01, "frintz v0.4s, v1.4s" },
    { 0x0ea19820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xc000000040000000ull, 0x0000000000000000ull }, 0x00, "frintz v0.2s, v1.2s" },
    { 0x4ee19820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc008000000000000ull }, 0x00, "frintz v0.2d, v1.2d" },
    { 0x4ee19820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, 0x00, "frintz v0.2d, v1.2d" },
    { 0x4ee19820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0xc415af1d78b58c40ull, 0x7ff8000000012345ull }, 0x01, "frintz v0.2d, v1.2d" },
    { 0x4ee19820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x43dfffffffffffffull, 0x8000000000000000ull }, 0x00, "frintz v0.2d, v1.2d" },
    { 0x4ee19820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc008000000000000ull }, 0x00, "frintz v0.2d, v1.2d" },
    { 0x4ea19820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000080000000ull, 0xfe96769900000000ull }, 0x80, "frintz v0.4s, v1.4s" },
    { 0x6e219820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xc000000040000000ull, 0xc000000000000000ull }, 0x10, "frintx v0.4s, v1.4s" },
    { 0x6e219820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0xd01502f9501502f9ull, 0x408000007fc12345ull }, 0x10, "frintx v0.4s, v1.4s" },
    { 0x6e219820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x800000003f800000ull, 0xff8000007f800000ull }, 0x00, "frintx v0.4s, v1.4s" },
    { 0x6e219820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x800000007fc12345ull, 0x4effffff4f7fffffull }, 0x11, "frintx v0.4s, v1.4s" },
    { 0x2e219820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xc000000040400000ull, 0x0000000000000000ull }, 0x10, "frintx v0.2s, v1.2s" },
    { 0x6e619820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc010000000000000ull }, 0x10, "frintx v0.2d, v1.2d" },
    { 0x6e619820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, 0x00, "frintx v0.2d, v1.2d" },
    { 0x6e619820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0xc415af1d78b58c40ull, 0x7ff8000000012345ull }, 0x01, "frintx v0.2d, v1.2d" },
    { 0x6e619820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x43dfffffffffffffull, 0x8000000000000000ull }, 0x10, "frintx v0.2d, v1.2d" },
    { 0x6e619820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc010000000000000ull }, 0x10, "frintx v0.2d, v1.2d" },
    { 0x6e219820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000080000000ull, 0xfe96769900000000ull }, 0x90, "frintx v0.4s, v1.4s" },
    { 0x6ea19820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xc000000040000000ull, 0xc000000000000000ull }, 0x00, "frinti v0.4s, v1.4s" },
    { 0x6ea19820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0xd01502f9501502f9ull, 0x408000007fc12345ull }, 0x00, "frinti v0.4s, v1.4s" },
    { 0x6ea19820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x800000003f800000ull, 0xff8000007f800000ull }, 0x00, "frinti v0.4s, v1.4s" },
    { 0x6ea19820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x800000007fc12345ull, 0x4effffff4f7fffffull }, 0x01, "frinti v0.4s, v1.4s" },
    { 0x2ea19820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xc000000040400000ull, 0x0000000000000000ull }, 0x00, "frinti v0.2s, v1.2s" },
    { 0x6ee19820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc010000000000000ull }, 0x00, "frinti v0.2d, v1.2d" },
    { 0x6ee19820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x4415af1d78b58c40ull, 0x7ff8000000000000ull }, 0x00, "frinti v0.2d, v1.2d" },
    { 0x6ee19820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0xc415af1d78b58c40ull, 0x7ff8000000012345ull }, 0x01, "frinti v0.2d, v1.2d" },
    { 0x6ee19820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x43dfffffffffffffull, 0x8000000000000000ull }, 0x00, "frinti v0.2d, v1.2d" },
    { 0x6ee19820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x4000000000000000ull, 0xc010000000000000ull }, 0x00, "frinti v0.2d, v1.2d" },
    { 0x6ea19820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000080000000ull, 0xfe96769900000000ull }, 0x80, "frinti v0.4s, v1.4s" },
    { 0x4e21a820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xfffffffe00000002ull, 0xfffffffe00000000ull }, 0x10, "fcvtns v0.4s, v1.4s" },
    { 0x4e21a820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x800000007fffffffull, 0x0000000400000000ull }, 0x11, "fcvtns v0.4s, v1.4s" },
    { 0x4e21a820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x800000007fffffffull }, 0x01, "fcvtns v0.4s, v1.4s" },
    { 0x4e21a820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x0000000000000000ull, 0x7fffff807fffffffull }, 0x11, "fcvtns v0.4s, v1.4s" },
    { 0x0e21a820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xfffffffe00000002ull, 0x0000000000000000ull }, 0x10, "fcvtns v0.2s, v1.2s" },
    { 0x4e61a820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0xfffffffffffffffcull }, 0x10, "fcvtns v0.2d, v1.2d" },
    { 0x4e61a820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtns v0.2d, v1.2d" },
    { 0x4e61a820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtns v0.2d, v1.2d" },
    { 0x4e61a820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x10, "fcvtns v0.2d, v1.2d" },
    { 0x4e61a820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0xfffffffffffffffcull }, 0x10, "fcvtns v0.2d, v1.2d" },
    { 0x4e21a820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000000000000ull, 0x8000000000000000ull }, 0x91, "fcvtns v0.4s, v1.4s" },
    { 0x6e21a820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtnu v0.4s, v1.4s" },
    { 0x6e21a820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000400000000ull }, 0x11, "fcvtnu v0.4s, v1.4s" },
    { 0x6e21a820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x00000000ffffffffull }, 0x01, "fcvtnu v0.4s, v1.4s" },
    { 0x6e21a820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x0000000000000000ull, 0x7fffff80ffffff00ull }, 0x11, "fcvtnu v0.4s, v1.4s" },
    { 0x2e21a820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtnu v0.2s, v1.2s" },
    { 0x6e61a820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtnu v0.2d, v1.2d" },
    { 0x6e61a820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtnu v0.2d, v1.2d" },
    { 0x6e61a820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtnu v0.2d, v1.2d" },
    { 0x6e61a820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x10, "fcvtnu v0.2d, v1.2d" },
    { 0x6e61a820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtnu v0.2d, v1.2d" },
    { 0x6e21a820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x91, "fcvtnu v0.4s, v1.4s" },
    { 0x4e21b820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xfffffffd00000002ull, 0xfffffffe00000000ull }, 0x10, "fcvtms v0.4s, v1.4s" },
    { 0x4e21b820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x800000007fffffffull, 0x0000000300000000ull }, 0x11, "fcvtms v0.4s, v1.4s" },
    { 0x4e21b820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x800000007fffffffull }, 0x01, "fcvtms v0.4s, v1.4s" },
    { 0x4e21b820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0xffffffff00000000ull, 0x7fffff807fffffffull }, 0x11, "fcvtms v0.4s, v1.4s" },
    { 0x0e21b820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xfffffffd00000002ull, 0x0000000000000000ull }, 0x10, "fcvtms v0.2s, v1.2s" },
    { 0x4e61b820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0xfffffffffffffffcull }, 0x10, "fcvtms v0.2d, v1.2d" },
    { 0x4e61b820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtms v0.2d, v1.2d" },
    { 0x4e61b820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtms v0.2d, v1.2d" },
    { 0x4e61b820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0xffffffffffffffffull }, 0x10, "fcvtms v0.2d, v1.2d" },
    { 0x4e61b820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0xfffffffffffffffcull }, 0x10, "fcvtms v0.2d, v1.2d" },
    { 0x4e21b820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000000000000ull, 0x8000000000000000ull }, 0x91, "fcvtms v0.4s, v1.4s" },
    { 0x6e21b820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtmu v0.4s, v1.4s" },
    { 0x6e21b820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000300000000ull }, 0x11, "fcvtmu v0.4s, v1.4s" },
    { 0x6e21b820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x00000000ffffffffull }, 0x01, "fcvtmu v0.4s, v1.4s" },
    { 0x6e21b820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x0000000000000000ull, 0x7fffff80ffffff00ull }, 0x01, "fcvtmu v0.4s, v1.4s" },
    { 0x2e21b820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtmu v0.2s, v1.2s" },
    { 0x6e61b820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtmu v0.2d, v1.2d" },
    { 0x6e61b820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtmu v0.2d, v1.2d" },
    { 0x6e61b820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtmu v0.2d, v1.2d" },
    { 0x6e61b820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x01, "fcvtmu v0.2d, v1.2d" },
    { 0x6e61b820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtmu v0.2d, v1.2d" },
    { 0x6e21b820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x91, "fcvtmu v0.4s, v1.4s" },
    { 0x4e21c820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xfffffffd00000003ull, 0xfffffffe00000001ull }, 0x10, "fcvtas v0.4s, v1.4s" },
    { 0x4e21c820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x800000007fffffffull, 0x0000000400000000ull }, 0x11, "fcvtas v0.4s, v1.4s" },
    { 0x4e21c820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x800000007fffffffull }, 0x01, "fcvtas v0.4s, v1.4s" },
    { 0x4e21c820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0xffffffff00000000ull, 0x7fffff807fffffffull }, 0x11, "fcvtas v0.4s, v1.4s" },
    { 0x0e21c820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xfffffffd00000003ull, 0x0000000000000000ull }, 0x10, "fcvtas v0.2s, v1.2s" },
    { 0x4e61c820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000003ull, 0xfffffffffffffffcull }, 0x10, "fcvtas v0.2d, v1.2d" },
    { 0x4e61c820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtas v0.2d, v1.2d" },
    { 0x4e61c820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtas v0.2d, v1.2d" },
    { 0x4e61c820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x10, "fcvtas v0.2d, v1.2d" },
    { 0x4e61c820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000003ull, 0xfffffffffffffffcull }, 0x10, "fcvtas v0.2d, v1.2d" },
    { 0x4e21c820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000000000000ull, 0x8000000000000000ull }, 0x91, "fcvtas v0.4s, v1.4s" },
    { 0x6e21c820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000001ull }, 0x11, "fcvtau v0.4s, v1.4s" },
    { 0x6e21c820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000400000000ull }, 0x11, "fcvtau v0.4s, v1.4s" },
    { 0x6e21c820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x00000000ffffffffull }, 0x01, "fcvtau v0.4s, v1.4s" },
    { 0x6e21c820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x0000000000000000ull, 0x7fffff80ffffff00ull }, 0x01, "fcvtau v0.4s, v1.4s" },
    { 0x2e21c820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x11, "fcvtau v0.2s, v1.2s" },
    { 0x6e61c820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x11, "fcvtau v0.2d, v1.2d" },
    { 0x6e61c820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtau v0.2d, v1.2d" },
    { 0x6e61c820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtau v0.2d, v1.2d" },
    { 0x6e61c820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x10, "fcvtau v0.2d, v1.2d" },
    { 0x6e61c820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x11, "fcvtau v0.2d, v1.2d" },
    { 0x6e21c820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x91, "fcvtau v0.4s, v1.4s" },
    { 0x4ea1a820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xfffffffe00000003ull, 0xffffffff00000001ull }, 0x10, "fcvtps v0.4s, v1.4s" },
    { 0x4ea1a820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x800000007fffffffull, 0x0000000400000000ull }, 0x11, "fcvtps v0.4s, v1.4s" },
    { 0x4ea1a820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x800000007fffffffull }, 0x01, "fcvtps v0.4s, v1.4s" },
    { 0x4ea1a820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x0000000000000000ull, 0x7fffff807fffffffull }, 0x11, "fcvtps v0.4s, v1.4s" },
    { 0x0ea1a820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xfffffffe00000003ull, 0x0000000000000000ull }, 0x10, "fcvtps v0.2s, v1.2s" },
    { 0x4ee1a820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000003ull, 0xfffffffffffffffdull }, 0x10, "fcvtps v0.2d, v1.2d" },
    { 0x4ee1a820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtps v0.2d, v1.2d" },
    { 0x4ee1a820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtps v0.2d, v1.2d" },
    { 0x4ee1a820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x10, "fcvtps v0.2d, v1.2d" },
    { 0x4ee1a820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000003ull, 0xfffffffffffffffdull }, 0x10, "fcvtps v0.2d, v1.2d" },
    { 0x4ea1a820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000100000000ull, 0x8000000000000000ull }, 0x91, "fcvtps v0.4s, v1.4s" },
    { 0x6ea1a820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000001ull }, 0x11, "fcvtpu v0.4s, v1.4s" },
    { 0x6ea1a820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000400000000ull }, 0x11, "fcvtpu v0.4s, v1.4s" },
    { 0x6ea1a820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x00000000ffffffffull }, 0x01, "fcvtpu v0.4s, v1.4s" },
    { 0x6ea1a820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x0000000000000000ull, 0x7fffff80ffffff00ull }, 0x11, "fcvtpu v0.4s, v1.4s" },
    { 0x2ea1a820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x11, "fcvtpu v0.2s, v1.2s" },
    { 0x6ee1a820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x11, "fcvtpu v0.2d, v1.2d" },
    { 0x6ee1a820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtpu v0.2d, v1.2d" },
    { 0x6ee1a820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtpu v0.2d, v1.2d" },
    { 0x6ee1a820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x10, "fcvtpu v0.2d, v1.2d" },
    { 0x6ee1a820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x11, "fcvtpu v0.2d, v1.2d" },
    { 0x6ea1a820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000100000000ull, 0x0000000000000000ull }, 0x91, "fcvtpu v0.4s, v1.4s" },
    { 0x4ea1b820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xfffffffe00000002ull, 0xffffffff00000000ull }, 0x10, "fcvtzs v0.4s, v1.4s" },
    { 0x4ea1b820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x800000007fffffffull, 0x0000000300000000ull }, 0x11, "fcvtzs v0.4s, v1.4s" },
    { 0x4ea1b820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x800000007fffffffull }, 0x01, "fcvtzs v0.4s, v1.4s" },
    { 0x4ea1b820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x0000000000000000ull, 0x7fffff807fffffffull }, 0x11, "fcvtzs v0.4s, v1.4s" },
    { 0x0ea1b820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xfffffffe00000002ull, 0x0000000000000000ull }, 0x10, "fcvtzs v0.2s, v1.2s" },
    { 0x4ee1b820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0xfffffffffffffffdull }, 0x10, "fcvtzs v0.2d, v1.2d" },
    { 0x4ee1b820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtzs v0.2d, v1.2d" },
    { 0x4ee1b820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzs v0.2d, v1.2d" },
    { 0x4ee1b820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x10, "fcvtzs v0.2d, v1.2d" },
    { 0x4ee1b820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0xfffffffffffffffdull }, 0x10, "fcvtzs v0.2d, v1.2d" },
    { 0x4ea1b820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000000000000ull, 0x8000000000000000ull }, 0x91, "fcvtzs v0.4s, v1.4s" },
    { 0x6ea1b820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtzu v0.4s, v1.4s" },
    { 0x6ea1b820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000300000000ull }, 0x11, "fcvtzu v0.4s, v1.4s" },
    { 0x6ea1b820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0x0000000000000001ull, 0x00000000ffffffffull }, 0x01, "fcvtzu v0.4s, v1.4s" },
    { 0x6ea1b820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x0000000000000000ull, 0x7fffff80ffffff00ull }, 0x11, "fcvtzu v0.4s, v1.4s" },
    { 0x2ea1b820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtzu v0.2s, v1.2s" },
    { 0x6ee1b820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtzu v0.2d, v1.2d" },
    { 0x6ee1b820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtzu v0.2d, v1.2d" },
    { 0x6ee1b820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzu v0.2d, v1.2d" },
    { 0x6ee1b820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x7ffffffffffffc00ull, 0x0000000000000000ull }, 0x10, "fcvtzu v0.2d, v1.2d" },
    { 0x6ee1b820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x11, "fcvtzu v0.2d, v1.2d" },
    { 0x6ea1b820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x91, "fcvtzu v0.4s, v1.4s" },
    { 0x4ea1d820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0xbecc80003ecc8000ull, 0xbf2a80003fff8000ull }, 0x00, "frecpe v0.4s, v1.4s" },
    { 0x4ea1d820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0xaedb80002edb8000ull, 0x3e8000007fc12345ull }, 0x00, "frecpe v0.4s, v1.4s" },
    { 0x4ea1d820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0xff8000003f7f8000ull, 0x8000000000000000ull }, 0x02, "frecpe v0.4s, v1.4s" },
    { 0x4ea1d820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0xbfff80007fc12345ull, 0x300000002f800000ull }, 0x01, "frecpe v0.4s, v1.4s" },
    { 0x0ea1d820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0xbecc80003ecc8000ull, 0x0000000000000000ull }, 0x00, "frecpe v0.2s, v1.2s" },
    { 0x4ee1d820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x3fd9900000000000ull, 0xbfd2400000000000ull }, 0x00, "frecpe v0.2d, v1.2d" },
    { 0x4ee1d820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x3bc7a00000000000ull, 0x7ff8000000000000ull }, 0x00, "frecpe v0.2d, v1.2d" },
    { 0x4ee1d820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0xbbc7a00000000000ull, 0x7ff8000000012345ull }, 0x01, "frecpe v0.2d, v1.2d" },
    { 0x4ee1d820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x3c00000000000000ull, 0xc00aa00000000000ull }, 0x00, "frecpe v0.2d, v1.2d" },
    { 0x4ee1d820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x3fd9900000000000ull, 0xbfd2400000000000ull }, 0x00, "frecpe v0.2d, v1.2d" },
    { 0x4ea1d820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x7e7f8000ff800000ull, 0x800000007f800000ull }, 0x8a, "frecpe v0.4s, v1.4s" },
    { 0x6ea1d820u, 0x00000000u, { 15, 58, 3, 3 }, 0, { 0x7fc000003f218000ull, 0x7fc000003fb48000ull }, 0x01, "frsqrte v0.4s, v1.4s" },
    { 0x6ea1d820u, 0x00000000u, { 15, 59, 3, 3 }, 0, { 0x7fc0000037278000ull, 0x3f0000007fc12345ull }, 0x01, "frsqrte v0.4s, v1.4s" },
    { 0x6ea1d820u, 0x00000000u, { 15, 60, 3, 3 }, 0, { 0xff8000003f7f8000ull, 0x7fc0000000000000ull }, 0x03, "frsqrte v0.4s, v1.4s" },
    { 0x6ea1d820u, 0x00000000u, { 15, 61, 3, 3 }, 0, { 0x7fc000007fc12345ull, 0x37b5000037800000ull }, 0x01, "frsqrte v0.4s, v1.4s" },
    { 0x2ea1d820u, 0x00400000u, { 15, 58, 3, 3 }, 0, { 0x7fc000003f218000ull, 0x0000000000000000ull }, 0x01, "frsqrte v0.2s, v1.2s" },
    { 0x6ee1d820u, 0x00000000u, { 15, 62, 3, 3 }, 0, { 0x3fe4300000000000ull, 0x7ff8000000000000ull }, 0x01, "frsqrte v0.2d, v1.2d" },
    { 0x6ee1d820u, 0x00000000u, { 15, 63, 3, 3 }, 0, { 0x3ddb800000000000ull, 0x7ff8000000000000ull }, 0x00, "frsqrte v0.2d, v1.2d" },
    { 0x6ee1d820u, 0x00000000u, { 15, 64, 3, 3 }, 0, { 0x7ff8000000000000ull, 0x7ff8000000012345ull }, 0x01, "frsqrte v0.2d, v1.2d" },
    { 0x6ee1d820u, 0x00000000u, { 15, 65, 3, 3 }, 0, { 0x3df6a00000000000ull, 0x7ff8000000000000ull }, 0x01, "frsqrte v0.2d, v1.2d" },
    { 0x6ee1d820u, 0x00800000u, { 15, 62, 3, 3 }, 0, { 0x3fe4300000000000ull, 0x7ff8000000000000ull }, 0x01, "frsqrte v0.2d, v1.2d" },
    { 0x6ea1d820u, 0x03000000u, { 15, 66, 3, 3 }, 0, { 0x5eff8000ff800000ull, 0x7fc000007f800000ull }, 0x83, "frsqrte v0.4s, v1.4s" },
    { 0x4ea0c820u, 0x00000000u, { 15, 67, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcmgt v0.4s, v1.4s, #0.0" },
    { 0x4ea0c820u, 0x01000000u, { 15, 68, 3, 3 }, 0, { 0x0000000000000000ull, 0x00000000ffffffffull }, 0x81, "fcmgt v0.4s, v1.4s, #0.0" },
    { 0x0ea0c820u, 0x00000000u, { 15, 69, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmgt v0.2s, v1.2s, #0.0" },
    { 0x4ee0c820u, 0x00000000u, { 15, 70, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmgt v0.2d, v1.2d, #0.0" },
    { 0x5ee0c820u, 0x00000000u, { 15, 71, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmgt d0, d1, #0.0" },
    { 0x5ea0c820u, 0x00000000u, { 15, 72, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmgt s0, s1, #0.0" },
    { 0x6ea0c820u, 0x00000000u, { 15, 67, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcmge v0.4s, v1.4s, #0.0" },
    { 0x6ea0c820u, 0x01000000u, { 15, 68, 3, 3 }, 0, { 0xffffffff00000000ull, 0xffffffffffffffffull }, 0x81, "fcmge v0.4s, v1.4s, #0.0" },
    { 0x2ea0c820u, 0x00000000u, { 15, 69, 3, 3 }, 0, { 0xffffffff00000000ull, 0x0000000000000000ull }, 0x00, "fcmge v0.2s, v1.2s, #0.0" },
    { 0x6ee0c820u, 0x00000000u, { 15, 70, 3, 3 }, 0, { 0x0000000000000000ull, 0xffffffffffffffffull }, 0x01, "fcmge v0.2d, v1.2d, #0.0" },
    { 0x7ee0c820u, 0x00000000u, { 15, 71, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmge d0, d1, #0.0" },
    { 0x7ea0c820u, 0x00000000u, { 15, 72, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmge s0, s1, #0.0" },
    { 0x4ea0d820u, 0x00000000u, { 15, 67, 3, 3 }, 0, { 0xffffffff00000000ull, 0x0000000000000000ull }, 0x00, "fcmeq v0.4s, v1.4s, #0.0" },
    { 0x4ea0d820u, 0x01000000u, { 15, 68, 3, 3 }, 0, { 0xffffffff00000000ull, 0xffffffff00000000ull }, 0x81, "fcmeq v0.4s, v1.4s, #0.0" },
    { 0x0ea0d820u, 0x00000000u, { 15, 69, 3, 3 }, 0, { 0xffffffff00000000ull, 0x0000000000000000ull }, 0x00, "fcmeq v0.2s, v1.2s, #0.0" },
    { 0x4ee0d820u, 0x00000000u, { 15, 70, 3, 3 }, 0, { 0x0000000000000000ull, 0xffffffffffffffffull }, 0x01, "fcmeq v0.2d, v1.2d, #0.0" },
    { 0x5ee0d820u, 0x00000000u, { 15, 71, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmeq d0, d1, #0.0" },
    { 0x5ea0d820u, 0x00000000u, { 15, 72, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmeq s0, s1, #0.0" },
    { 0x6ea0d820u, 0x00000000u, { 15, 67, 3, 3 }, 0, { 0xffffffff00000000ull, 0xffffffff00000000ull }, 0x01, "fcmle v0.4s, v1.4s, #0.0" },
    { 0x6ea0d820u, 0x01000000u, { 15, 68, 3, 3 }, 0, { 0xffffffff00000000ull, 0xffffffff00000000ull }, 0x81, "fcmle v0.4s, v1.4s, #0.0" },
    { 0x2ea0d820u, 0x00000000u, { 15, 69, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x00, "fcmle v0.2s, v1.2s, #0.0" },
    { 0x6ee0d820u, 0x00000000u, { 15, 70, 3, 3 }, 0, { 0x0000000000000000ull, 0xffffffffffffffffull }, 0x01, "fcmle v0.2d, v1.2d, #0.0" },
    { 0x7ee0d820u, 0x00000000u, { 15, 71, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x00, "fcmle d0, d1, #0.0" },
    { 0x7ea0d820u, 0x00000000u, { 15, 72, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmle s0, s1, #0.0" },
    { 0x4ea0e820u, 0x00000000u, { 15, 67, 3, 3 }, 0, { 0x0000000000000000ull, 0xffffffff00000000ull }, 0x01, "fcmlt v0.4s, v1.4s, #0.0" },
    { 0x4ea0e820u, 0x01000000u, { 15, 68, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x81, "fcmlt v0.4s, v1.4s, #0.0" },
    { 0x0ea0e820u, 0x00000000u, { 15, 69, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x00, "fcmlt v0.2s, v1.2s, #0.0" },
    { 0x4ee0e820u, 0x00000000u, { 15, 70, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmlt v0.2d, v1.2d, #0.0" },
    { 0x5ee0e820u, 0x00000000u, { 15, 71, 3, 3 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x00, "fcmlt d0, d1, #0.0" },
    { 0x5ea0e820u, 0x00000000u, { 15, 72, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcmlt s0, s1, #0.0" },
    { 0x4e21d820u, 0x00000000u, { 15, 73, 3, 3 }, 0, { 0xcf000000bf800000ull, 0x4b8000004f000000ull }, 0x10, "scvtf v0.4s, v1.4s" },
    { 0x0e21d820u, 0x00400000u, { 15, 74, 3, 3 }, 0, { 0xc04000004b800001ull, 0x0000000000000000ull }, 0x10, "scvtf v0.2s, v1.2s" },
    { 0x4e61d820u, 0x00000000u, { 15, 75, 3, 3 }, 0, { 0xbff0000000000000ull, 0xc3e0000000000000ull }, 0x10, "scvtf v0.2d, v1.2d" },
    { 0x4e61d820u, 0x00800000u, { 15, 76, 3, 3 }, 0, { 0x4340000000000000ull, 0x43dfffffffffffffull }, 0x10, "scvtf v0.2d, v1.2d" },
    { 0x5e21d820u, 0x00000000u, { 15, 77, 3, 3 }, 0, { 0x00000000cf000000ull, 0x0000000000000000ull }, 0x10, "scvtf s0, s1" },
    { 0x5e61d820u, 0x00c00000u, { 15, 78, 3, 3 }, 0, { 0xc08ff80000000000ull, 0x0000000000000000ull }, 0x00, "scvtf d0, d1" },
    { 0x6e21d820u, 0x00000000u, { 15, 73, 3, 3 }, 0, { 0x4f0000004f800000ull, 0x4b8000004f000000ull }, 0x10, "ucvtf v0.4s, v1.4s" },
    { 0x2e21d820u, 0x00400000u, { 15, 74, 3, 3 }, 0, { 0x4f8000004b800001ull, 0x0000000000000000ull }, 0x10, "ucvtf v0.2s, v1.2s" },
    { 0x6e61d820u, 0x00000000u, { 15, 75, 3, 3 }, 0, { 0x43f0000000000000ull, 0x43e0000000000000ull }, 0x10, "ucvtf v0.2d, v1.2d" },
    { 0x6e61d820u, 0x00800000u, { 15, 76, 3, 3 }, 0, { 0x4340000000000000ull, 0x43dfffffffffffffull }, 0x10, "ucvtf v0.2d, v1.2d" },
    { 0x7e21d820u, 0x00000000u, { 15, 77, 3, 3 }, 0, { 0x000000004f000000ull, 0x0000000000000000ull }, 0x10, "ucvtf s0, s1" },
    { 0x7e61d820u, 0x00c00000u, { 15, 78, 3, 3 }, 0, { 0x43efffffffffffffull, 0x0000000000000000ull }, 0x10, "ucvtf d0, d1" },
    { 0x4ea1d820u, 0x00000000u, { 15, 79, 3, 3 }, 0, { 0x7f7f80003eaa8000ull, 0xff800000007fc000ull }, 0x02, "frecpe v0.4s, v1.4s" },
    { 0x4ea1d820u, 0x00c00000u, { 15, 80, 3, 3 }, 0, { 0x003fe0007f7fffffull, 0x7f7fffffff800000ull }, 0x16, "frecpe v0.4s, v1.4s" },
    { 0x4ea1d820u, 0x00400000u, { 15, 81, 3, 3 }, 0, { 0x003fe0007f800000ull, 0xff7fffff803fe000ull }, 0x14, "frecpe v0.4s, v1.4s" },
    { 0x4ee1d820u, 0x00000000u, { 15, 82, 3, 3 }, 0, { 0x3fd5500000000000ull, 0x7feff00000000000ull }, 0x00, "frecpe v0.2d, v1.2d" },
    { 0x4ee1d820u, 0x00000000u, { 15, 83, 3, 3 }, 0, { 0x000ff80000000000ull, 0xbfc1100000000000ull }, 0x00, "frecpe v0.2d, v1.2d" },
    { 0x6ea1d820u, 0x00000000u, { 15, 84, 3, 3 }, 0, { 0x3fff80003f138000ull, 0x3f7f80007fc00000ull }, 0x01, "frsqrte v0.4s, v1.4s" },
    { 0x6ea1d820u, 0x00000000u, { 15, 85, 3, 3 }, 0, { 0x7f80000000000000ull, 0x1fb48000ff800000ull }, 0x02, "frsqrte v0.4s, v1.4s" },
    { 0x6ee1d820u, 0x00000000u, { 15, 86, 3, 3 }, 0, { 0x3feff00000000000ull, 0x5f01800000000000ull }, 0x00, "frsqrte v0.2d, v1.2d" },
    { 0x6ee1d820u, 0x00000000u, { 15, 87, 3, 3 }, 0, { 0x3fb7100000000000ull, 0x0000000000000000ull }, 0x00, "frsqrte v0.2d, v1.2d" },
    { 0x7ee1d820u, 0x00000000u, { 15, 88, 3, 3 }, 0, { 0x3fe6900000000000ull, 0x0000000000000000ull }, 0x00, "frsqrte d0, d1" },
    { 0x5ea1d820u, 0x00000000u, { 15, 89, 3, 3 }, 0, { 0x0000000041200000ull, 0x0000000000000000ull }, 0x00, "frecpe s0, s1" },
    { 0x5ee1d820u, 0x00000000u, { 15, 90, 3, 3 }, 0, { 0xfff0000000000000ull, 0x0000000000000000ull }, 0x02, "frecpe d0, d1" },
    { 0x7ea1d820u, 0x00000000u, { 15, 91, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x01, "frsqrte s0, s1" },
    { 0x5ea1f820u, 0x00000000u, { 15, 92, 3, 3 }, 0, { 0x000000003f800000ull, 0x0000000000000000ull }, 0x00, "frecpx s0, s1" },
    { 0x5ea1f820u, 0x00000000u, { 15, 93, 3, 3 }, 0, { 0x0000000040000000ull, 0x0000000000000000ull }, 0x00, "frecpx s0, s1" },
    { 0x5ea1f820u, 0x00000000u, { 15, 94, 3, 3 }, 0, { 0x0000000080000000ull, 0x0000000000000000ull }, 0x00, "frecpx s0, s1" },
    { 0x5ea1f820u, 0x00000000u, { 15, 95, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x01, "frecpx s0, s1" },
    { 0x5ea1f820u, 0x00000000u, { 15, 96, 3, 3 }, 0, { 0x00000000ff000000ull, 0x0000000000000000ull }, 0x00, "frecpx s0, s1" },
    { 0x5ea1f820u, 0x00000000u, { 15, 97, 3, 3 }, 0, { 0x000000007f000000ull, 0x0000000000000000ull }, 0x00, "frecpx s0, s1" },
    { 0x5ee1f820u, 0x00000000u, { 15, 98, 3, 3 }, 0, { 0x3ff0000000000000ull, 0x0000000000000000ull }, 0x00, "frecpx d0, d1" },
    { 0x5ee1f820u, 0x00000000u, { 15, 26, 3, 3 }, 0, { 0x4000000000000000ull, 0x0000000000000000ull }, 0x00, "frecpx d0, d1" },
    { 0x5ee1f820u, 0x00000000u, { 15, 99, 3, 3 }, 0, { 0x7ff8000000012345ull, 0x0000000000000000ull }, 0x00, "frecpx d0, d1" },
    { 0x5ee1f820u, 0x00000000u, { 15, 100, 3, 3 }, 0, { 0xffe0000000000000ull, 0x0000000000000000ull }, 0x00, "frecpx d0, d1" },
    { 0x5ea1f820u, 0x01000000u, { 15, 93, 3, 3 }, 0, { 0x0000000040000000ull, 0x0000000000000000ull }, 0x00, "frecpx s0, s1" },
    { 0x5e21a820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x00000000fffffffeull, 0x0000000000000000ull }, 0x10, "fcvtns s0, s1" },
    { 0x5e21a820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x000000007fffffffull, 0x0000000000000000ull }, 0x01, "fcvtns s0, s1" },
    { 0x5e61a820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x10, "fcvtns d0, d1" },
    { 0x5e61a820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtns d0, d1" },
    { 0x5e61a820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtns d0, d1" },
    { 0x7e21a820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtnu s0, s1" },
    { 0x7e21a820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcvtnu s0, s1" },
    { 0x7e61a820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x10, "fcvtnu d0, d1" },
    { 0x7e61a820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtnu d0, d1" },
    { 0x7e61a820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtnu d0, d1" },
    { 0x5e21b820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x00000000fffffffdull, 0x0000000000000000ull }, 0x10, "fcvtms s0, s1" },
    { 0x5e21b820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x000000007fffffffull, 0x0000000000000000ull }, 0x01, "fcvtms s0, s1" },
    { 0x5e61b820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x10, "fcvtms d0, d1" },
    { 0x5e61b820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtms d0, d1" },
    { 0x5e61b820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtms d0, d1" },
    { 0x7e21b820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtmu s0, s1" },
    { 0x7e21b820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcvtmu s0, s1" },
    { 0x7e61b820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x10, "fcvtmu d0, d1" },
    { 0x7e61b820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtmu d0, d1" },
    { 0x7e61b820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtmu d0, d1" },
    { 0x5e21c820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x00000000fffffffdull, 0x0000000000000000ull }, 0x10, "fcvtas s0, s1" },
    { 0x5e21c820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x000000007fffffffull, 0x0000000000000000ull }, 0x01, "fcvtas s0, s1" },
    { 0x5e61c820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x10, "fcvtas d0, d1" },
    { 0x5e61c820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtas d0, d1" },
    { 0x5e61c820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtas d0, d1" },
    { 0x7e21c820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtau s0, s1" },
    { 0x7e21c820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcvtau s0, s1" },
    { 0x7e61c820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x10, "fcvtau d0, d1" },
    { 0x7e61c820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtau d0, d1" },
    { 0x7e61c820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtau d0, d1" },
    { 0x5ea1a820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x00000000fffffffeull, 0x0000000000000000ull }, 0x10, "fcvtps s0, s1" },
    { 0x5ea1a820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x000000007fffffffull, 0x0000000000000000ull }, 0x01, "fcvtps s0, s1" },
    { 0x5ee1a820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x10, "fcvtps d0, d1" },
    { 0x5ee1a820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtps d0, d1" },
    { 0x5ee1a820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtps d0, d1" },
    { 0x7ea1a820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtpu s0, s1" },
    { 0x7ea1a820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcvtpu s0, s1" },
    { 0x7ee1a820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000000000000ull }, 0x10, "fcvtpu d0, d1" },
    { 0x7ee1a820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtpu d0, d1" },
    { 0x7ee1a820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtpu d0, d1" },
    { 0x5ea1b820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x00000000fffffffeull, 0x0000000000000000ull }, 0x10, "fcvtzs s0, s1" },
    { 0x5ea1b820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x000000007fffffffull, 0x0000000000000000ull }, 0x01, "fcvtzs s0, s1" },
    { 0x5ee1b820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x10, "fcvtzs d0, d1" },
    { 0x5ee1b820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzs d0, d1" },
    { 0x5ee1b820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzs d0, d1" },
    { 0x7ea1b820u, 0x00000000u, { 15, 101, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzu s0, s1" },
    { 0x7ea1b820u, 0x00000000u, { 15, 102, 3, 3 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcvtzu s0, s1" },
    { 0x7ee1b820u, 0x00000000u, { 15, 103, 3, 3 }, 0, { 0x0000000000000002ull, 0x0000000000000000ull }, 0x10, "fcvtzu d0, d1" },
    { 0x7ee1b820u, 0x00000000u, { 15, 104, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzu d0, d1" },
    { 0x7ee1b820u, 0x00000000u, { 15, 105, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzu d0, d1" },
    { 0x0e216820u, 0x00000000u, { 15, 106, 3, 3 }, 0, { 0x7e0900007c003c00ull, 0x0000000000000000ull }, 0x1c, "fcvtn v0.4h, v1.4s" },
    { 0x0e216820u, 0x02000000u, { 15, 107, 3, 3 }, 0, { 0x000100017bff7e00ull, 0x0000000000000000ull }, 0x19, "fcvtn v0.4h, v1.4s" },
    { 0x4e216820u, 0x00000000u, { 15, 108, 3, 3 }, 0, { 0xa5a5a5a5a5a5a5a5ull, 0x8000fc002e663c00ull }, 0x10, "fcvtn2 v0.8h, v1.4s" },
    { 0x0e216820u, 0x04000000u, { 15, 109, 3, 3 }, 0, { 0xffff00007c002e66ull, 0x0000000000000000ull }, 0x19, "fcvtn v0.4h, v1.4s" },
    { 0x0e216820u, 0x00c00000u, { 15, 110, 3, 3 }, 0, { 0xfc0000007bff2e66ull, 0x0000000000000000ull }, 0x1c, "fcvtn v0.4h, v1.4s" },
    { 0x0e616820u, 0x00000000u, { 15, 111, 3, 3 }, 0, { 0x7f8000003dcccccdull, 0x0000000000000000ull }, 0x14, "fcvtn v0.2s, v1.2d" },
    { 0x4e616820u, 0x00000000u, { 15, 112, 3, 3 }, 0, { 0xa5a5a5a5a5a5a5a5ull, 0x000000007fc00000ull }, 0x19, "fcvtn2 v0.4s, v1.2d" },
    { 0x0e616820u, 0x00800000u, { 15, 113, 3, 3 }, 0, { 0xff8000003dccccccull, 0x0000000000000000ull }, 0x14, "fcvtn v0.2s, v1.2d" },
    { 0x0e616820u, 0x01000000u, { 15, 114, 3, 3 }, 0, { 0x3f80000000000000ull, 0x0000000000000000ull }, 0x08, "fcvtn v0.2s, v1.2d" },
    { 0x0e217820u, 0x00000000u, { 15, 115, 3, 3 }, 0, { 0x7f8000003f800000ull, 0x338000007fe02000ull }, 0x01, "fcvtl v0.4s, v1.4h" },
    { 0x4e217820u, 0x00000000u, { 15, 116, 3, 3 }, 0, { 0x80000000ffcaa000ull, 0x38800000477fe000ull }, 0x00, "fcvtl2 v0.4s, v1.8h" },
    { 0x0e217820u, 0x04000000u, { 15, 117, 3, 3 }, 0, { 0x47a0200047800000ull, 0x33800000c7800000ull }, 0x00, "fcvtl v0.4s, v1.4h" },
    { 0x0e217820u, 0x03000000u, { 15, 118, 3, 3 }, 0, { 0x338000007fc00000ull, 0x338000003f800000ull }, 0x01, "fcvtl v0.4s, v1.4h" },
    { 0x0e617820u, 0x00000000u, { 15, 119, 3, 3 }, 0, { 0x3fb99999a0000000ull, 0x7ff82468a0000000ull }, 0x01, "fcvtl v0.2d, v1.2s" },
    { 0x4e617820u, 0x00000000u, { 15, 120, 3, 3 }, 0, { 0x3ff0000000000000ull, 0xfff0000000000000ull }, 0x00, "fcvtl2 v0.2d, v1.4s" },
    { 0x0e617820u, 0x03000000u, { 15, 121, 3, 3 }, 0, { 0x3ff0000000000000ull, 0x7ff8000000000000ull }, 0x01, "fcvtl v0.2d, v1.2s" },
    { 0x2e616820u, 0x00000000u, { 15, 122, 3, 3 }, 0, { 0x3f8000013f800001ull, 0x0000000000000000ull }, 0x10, "fcvtxn v0.2s, v1.2d" },
    { 0x6e616820u, 0x00000000u, { 15, 123, 3, 3 }, 0, { 0xa5a5a5a5a5a5a5a5ull, 0x800000017f7fffffull }, 0x1c, "fcvtxn2 v0.4s, v1.2d" },
    { 0x2e616820u, 0x02000000u, { 15, 124, 3, 3 }, 0, { 0x3f8000017fc00000ull, 0x0000000000000000ull }, 0x11, "fcvtxn v0.2s, v1.2d" },
    { 0x2e616820u, 0x00400000u, { 15, 125, 3, 3 }, 0, { 0x007fffff3f800001ull, 0x0000000000000000ull }, 0x18, "fcvtxn v0.2s, v1.2d" },
    { 0x7e616820u, 0x00000000u, { 15, 126, 3, 3 }, 0, { 0x000000003f800001ull, 0x0000000000000000ull }, 0x10, "fcvtxn s0, d1" },
    { 0x7e616820u, 0x00000000u, { 15, 127, 3, 3 }, 0, { 0x000000007fc00000ull, 0x0000000000000000ull }, 0x00, "fcvtxn s0, d1" },
    { 0x7e616820u, 0x01000000u, { 15, 128, 3, 3 }, 0, { 0x0000000080000000ull, 0x0000000000000000ull }, 0x80, "fcvtxn s0, d1" },
    { 0x6e30f820u, 0x00000000u, { 15, 129, 3, 3 }, 0, { 0x0000000040400000ull, 0x0000000000000000ull }, 0x00, "fmaxv s0, v1.4s" },
    { 0x6e30f820u, 0x00000000u, { 15, 130, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x01, "fmaxv s0, v1.4s" },
    { 0x6e30f820u, 0x00000000u, { 15, 131, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x00, "fmaxv s0, v1.4s" },
    { 0x6e30f820u, 0x01000000u, { 15, 132, 3, 3 }, 0, { 0x000000003f800000ull, 0x0000000000000000ull }, 0x80, "fmaxv s0, v1.4s" },
    { 0x6eb0f820u, 0x00000000u, { 15, 129, 3, 3 }, 0, { 0x00000000c0800000ull, 0x0000000000000000ull }, 0x00, "fminv s0, v1.4s" },
    { 0x6eb0f820u, 0x00000000u, { 15, 130, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x01, "fminv s0, v1.4s" },
    { 0x6eb0f820u, 0x00000000u, { 15, 131, 3, 3 }, 0, { 0x000000007fc12345ull, 0x0000000000000000ull }, 0x00, "fminv s0, v1.4s" },
    { 0x6eb0f820u, 0x01000000u, { 15, 132, 3, 3 }, 0, { 0x0000000080000000ull, 0x0000000000000000ull }, 0x80, "fminv s0, v1.4s" },
    { 0x6e30c820u, 0x00000000u, { 15, 129, 3, 3 }, 0, { 0x0000000040400000ull, 0x0000000000000000ull }, 0x00, "fmaxnmv s0, v1.4s" },
    { 0x6e30c820u, 0x00000000u, { 15, 130, 3, 3 }, 0, { 0x00000000c0000000ull, 0x0000000000000000ull }, 0x01, "fmaxnmv s0, v1.4s" },
    { 0x6e30c820u, 0x00000000u, { 15, 131, 3, 3 }, 0, { 0x000000003f800000ull, 0x0000000000000000ull }, 0x00, "fmaxnmv s0, v1.4s" },
    { 0x6e30c820u, 0x01000000u, { 15, 132, 3, 3 }, 0, { 0x000000003f800000ull, 0x0000000000000000ull }, 0x80, "fmaxnmv s0, v1.4s" },
    { 0x6eb0c820u, 0x00000000u, { 15, 129, 3, 3 }, 0, { 0x00000000c0800000ull, 0x0000000000000000ull }, 0x00, "fminnmv s0, v1.4s" },
    { 0x6eb0c820u, 0x00000000u, { 15, 130, 3, 3 }, 0, { 0x00000000c0000000ull, 0x0000000000000000ull }, 0x01, "fminnmv s0, v1.4s" },
    { 0x6eb0c820u, 0x00000000u, { 15, 131, 3, 3 }, 0, { 0x0000000080000000ull, 0x0000000000000000ull }, 0x00, "fminnmv s0, v1.4s" },
    { 0x6eb0c820u, 0x01000000u, { 15, 132, 3, 3 }, 0, { 0x0000000080000000ull, 0x0000000000000000ull }, 0x80, "fminnmv s0, v1.4s" },
    { 0x4f829020u, 0x00000000u, { 0, 1, 133, 3 }, 0, { 0x7f80000040400000ull, 0x7fc123457fc12345ull }, 0x01, "fmul v0.4s, v1.4s, v2.s[0]" },
    { 0x4fa29820u, 0x00000000u, { 0, 134, 135, 3 }, 0, { 0x7fc000007f800000ull, 0x7f8000007fc00000ull }, 0x01, "fmul v0.4s, v1.4s, v2.s[3]" },
    { 0x0fa29020u, 0x00000000u, { 0, 136, 137, 3 }, 0, { 0xffc54321ffc54321ull, 0x0000000000000000ull }, 0x00, "fmul v0.2s, v1.2s, v2.s[1]" },
    { 0x4f829820u, 0x00000000u, { 138, 139, 140, 3 }, 0, { 0x7fc12345ffc00777ull, 0xffc00777ffc00777ull }, 0x01, "fmul v0.4s, v1.4s, v2.s[2]" },
    { 0x4fc29820u, 0x00000000u, { 9, 141, 99, 3 }, 0, { 0x0000000000000000ull, 0x7ff8000000000000ull }, 0x01, "fmul v0.2d, v1.2d, v2.d[1]" },
    { 0x4fc29020u, 0x00000000u, { 142, 143, 144, 3 }, 0, { 0x7ff8000000012345ull, 0x3ff8000000000000ull }, 0x01, "fmul v0.2d, v1.2d, v2.d[0]" },
    { 0x4fb29020u, 0x00000000u, { 0, 145, 133, 3 }, 0, { 0x40f0000040900000ull, 0x4158000041280000ull }, 0x00, "fmul v0.4s, v1.4s, v18.s[1]" },
    { 0x4fa39863u, 0x00000000u, { 15, 3, 3, 145 }, 3, { 0x4134000040d80000ull, 0x41a20000417c0000ull }, 0x00, "fmul v3.4s, v3.4s, v3.s[3]" },
    { 0x5fa29820u, 0x00000000u, { 0, 146, 147, 3 }, 0, { 0x00000000c0f00000ull, 0x0000000000000000ull }, 0x00, "fmul s0, s1, v2.s[3]" },
    { 0x5fa29020u, 0x00000000u, { 138, 148, 149, 3 }, 0, { 0x000000007fc00000ull, 0x0000000000000000ull }, 0x01, "fmul s0, s1, v2.s[1]" },
    { 0x5fc29820u, 0x00000000u, { 9, 150, 151, 3 }, 0, { 0xc025000000000000ull, 0x0000000000000000ull }, 0x00, "fmul d0, d1, v2.d[1]" },
    { 0x5fd39020u, 0x00000000u, { 9, 152, 151, 153 }, 0, { 0x7ff8000000000000ull, 0x0000000000000000ull }, 0x01, "fmul d0, d1, v19.d[0]" },
    { 0x4f821020u, 0x00000000u, { 0, 1, 133, 3 }, 0, { 0x7f80000040800000ull, 0x7fc123457fc12345ull }, 0x01, "fmla v0.4s, v1.4s, v2.s[0]" },
    { 0x4fa21820u, 0x00000000u, { 0, 134, 135, 3 }, 0, { 0x7fc000007f800000ull, 0x7f8000007fc00000ull }, 0x01, "fmla v0.4s, v1.4s, v2.s[3]" },
    { 0x0fa21020u, 0x00000000u, { 0, 136, 137, 3 }, 0, { 0xffc54321ffc54321ull, 0x0000000000000000ull }, 0x00, "fmla v0.2s, v1.2s, v2.s[1]" },
    { 0x4f821820u, 0x00000000u, { 138, 139, 140, 3 }, 0, { 0x7fc12345ffc00777ull, 0xffc00777ffc00777ull }, 0x01, "fmla v0.4s, v1.4s, v2.s[2]" },
    { 0x4fc21820u, 0x00000000u, { 9, 141, 99, 3 }, 0, { 0x3ff0000000000000ull, 0x7ff8000000000000ull }, 0x01, "fmla v0.2d, v1.2d, v2.d[1]" },
    { 0x4fc21020u, 0x00000000u, { 142, 143, 144, 3 }, 0, { 0x7ff8000000012345ull, 0x400c000000000000ull }, 0x01, "fmla v0.2d, v1.2d, v2.d[0]" },
    { 0x4fb21020u, 0x00000000u, { 0, 145, 133, 3 }, 0, { 0x4118000040b00000ull, 0x418c000041580000ull }, 0x00, "fmla v0.4s, v1.4s, v18.s[1]" },
    { 0x4fa31863u, 0x00000000u, { 15, 3, 3, 145 }, 3, { 0x415c000041040000ull, 0x41c60000419a0000ull }, 0x00, "fmla v3.4s, v3.4s, v3.s[3]" },
    { 0x5fa21820u, 0x00000000u, { 0, 146, 147, 3 }, 0, { 0x00000000c0d00000ull, 0x0000000000000000ull }, 0x00, "fmla s0, s1, v2.s[3]" },
    { 0x5fa21020u, 0x00000000u, { 138, 148, 149, 3 }, 0, { 0x000000007fc00000ull, 0x0000000000000000ull }, 0x01, "fmla s0, s1, v2.s[1]" },
    { 0x5fc21820u, 0x00000000u, { 9, 150, 151, 3 }, 0, { 0xc023000000000000ull, 0x0000000000000000ull }, 0x00, "fmla d0, d1, v2.d[1]" },
    { 0x5fd31020u, 0x00000000u, { 9, 152, 151, 153 }, 0, { 0x7ff8000000000000ull, 0x0000000000000000ull }, 0x01, "fmla d0, d1, v19.d[0]" },
    { 0x4f825020u, 0x00000000u, { 0, 1, 133, 3 }, 0, { 0xff800000c0000000ull, 0xffc12345ffc12345ull }, 0x01, "fmls v0.4s, v1.4s, v2.s[0]" },
    { 0x4fa25820u, 0x00000000u, { 0, 134, 135, 3 }, 0, { 0x7fc00000ff800000ull, 0xff8000007fc00000ull }, 0x01, "fmls v0.4s, v1.4s, v2.s[3]" },
    { 0x0fa25020u, 0x00000000u, { 0, 136, 137, 3 }, 0, { 0xffc54321ffc54321ull, 0x0000000000000000ull }, 0x00, "fmls v0.2s, v1.2s, v2.s[1]" },
    { 0x4f825820u, 0x00000000u, { 138, 139, 140, 3 }, 0, { 0xffc12345ffc00777ull, 0xffc00777ffc00777ull }, 0x01, "fmls v0.4s, v1.4s, v2.s[2]" },
    { 0x4fc25820u, 0x00000000u, { 9, 141, 99, 3 }, 0, { 0x3ff0000000000000ull, 0x7ff8000000000000ull }, 0x01, "fmls v0.2d, v1.2d, v2.d[1]" },
    { 0x4fc25020u, 0x00000000u, { 142, 143, 144, 3 }, 0, { 0xfff8000000012345ull, 0x3fe0000000000000ull }, 0x01, "fmls v0.2d, v1.2d, v2.d[0]" },
    { 0x4fb25020u, 0x00000000u, { 0, 145, 133, 3 }, 0, { 0xc0b00000c0600000ull, 0xc1180000c0f00000ull }, 0x00, "fmls v0.4s, v1.4s, v18.s[1]" },
    { 0x4fa35863u, 0x00000000u, { 15, 3, 3, 145 }, 3, { 0xc10c0000c0a80000ull, 0xc17c0000c1440000ull }, 0x00, "fmls v3.4s, v3.4s, v3.s[3]" },
    { 0x5fa25820u, 0x00000000u, { 0, 146, 147, 3 }, 0, { 0x0000000041080000ull, 0x0000000000000000ull }, 0x00, "fmls s0, s1, v2.s[3]" },
    { 0x5fa25020u, 0x00000000u, { 138, 148, 149, 3 }, 0, { 0x000000007fc00000ull, 0x0000000000000000ull }, 0x01, "fmls s0, s1, v2.s[1]" },
    { 0x5fc25820u, 0x00000000u, { 9, 150, 151, 3 }, 0, { 0x4027000000000000ull, 0x0000000000000000ull }, 0x00, "fmls d0, d1, v2.d[1]" },
    { 0x5fd35020u, 0x00000000u, { 9, 152, 151, 153 }, 0, { 0x7ff8000000000000ull, 0x0000000000000000ull }, 0x01, "fmls d0, d1, v19.d[0]" },
    { 0x6f829020u, 0x00000000u, { 0, 1, 133, 3 }, 0, { 0x7f80000040400000ull, 0x7fc123457fc12345ull }, 0x01, "fmulx v0.4s, v1.4s, v2.s[0]" },
    { 0x6fa29820u, 0x00000000u, { 0, 134, 135, 3 }, 0, { 0x400000007f800000ull, 0x7f800000c0000000ull }, 0x00, "fmulx v0.4s, v1.4s, v2.s[3]" },
    { 0x2fa29020u, 0x00000000u, { 0, 136, 137, 3 }, 0, { 0xffc54321ffc54321ull, 0x0000000000000000ull }, 0x00, "fmulx v0.2s, v1.2s, v2.s[1]" },
    { 0x6f829820u, 0x00000000u, { 138, 139, 140, 3 }, 0, { 0x7fc12345ffc00777ull, 0xffc00777ffc00777ull }, 0x01, "fmulx v0.4s, v1.4s, v2.s[2]" },
    { 0x6fc29820u, 0x00000000u, { 9, 141, 99, 3 }, 0, { 0x0000000000000000ull, 0x4000000000000000ull }, 0x00, "fmulx v0.2d, v1.2d, v2.d[1]" },
    { 0x6fc29020u, 0x00000000u, { 142, 143, 144, 3 }, 0, { 0x7ff8000000012345ull, 0x3ff8000000000000ull }, 0x01, "fmulx v0.2d, v1.2d, v2.d[0]" },
    { 0x6fb29020u, 0x00000000u, { 0, 145, 133, 3 }, 0, { 0x40f0000040900000ull, 0x4158000041280000ull }, 0x00, "fmulx v0.4s, v1.4s, v18.s[1]" },
    { 0x6fa39863u, 0x00000000u, { 15, 3, 3, 145 }, 3, { 0x4134000040d80000ull, 0x41a20000417c0000ull }, 0x00, "fmulx v3.4s, v3.4s, v3.s[3]" },
    { 0x7fa29820u, 0x00000000u, { 0, 146, 147, 3 }, 0, { 0x00000000c0f00000ull, 0x0000000000000000ull }, 0x00, "fmulx s0, s1, v2.s[3]" },
    { 0x7fa29020u, 0x00000000u, { 138, 148, 149, 3 }, 0, { 0x0000000040000000ull, 0x0000000000000000ull }, 0x00, "fmulx s0, s1, v2.s[1]" },
    { 0x7fc29820u, 0x00000000u, { 9, 150, 151, 3 }, 0, { 0xc025000000000000ull, 0x0000000000000000ull }, 0x00, "fmulx d0, d1, v2.d[1]" },
    { 0x7fd39020u, 0x00000000u, { 9, 152, 151, 153 }, 0, { 0x4000000000000000ull, 0x0000000000000000ull }, 0x00, "fmulx d0, d1, v19.d[0]" },
    { 0x4fa21020u, 0x00000000u, { 154, 24, 155, 3 }, 0, { 0x40000000337ffffeull, 0x000000001e3ce507ull }, 0x10, "fmla v0.4s, v1.4s, v2.s[1]" },
    { 0x4f3fe420u, 0x00000000u, { 15, 73, 3, 3 }, 0, { 0xce800000bf000000ull, 0x4b0000004e800000ull }, 0x10, "scvtf v0.4s, v1.4s, #1" },
    { 0x2f3fe420u, 0x00000000u, { 15, 156, 3, 3 }, 0, { 0x4e0080004f000000ull, 0x0000000000000000ull }, 0x10, "ucvtf v0.2s, v1.2s, #1" },
    { 0x4f3ffc20u, 0x00000000u, { 15, 157, 3, 3 }, 0, { 0xfffffffd00000003ull, 0x0000000077359400ull }, 0x11, "fcvtzs v0.4s, v1.4s, #1" },
    { 0x6f3ffc20u, 0x00000000u, { 15, 158, 3, 3 }, 0, { 0x0000000000000003ull, 0x0000000177359400ull }, 0x11, "fcvtzu v0.4s, v1.4s, #1" },
    { 0x5f3fe420u, 0x00000000u, { 15, 77, 3, 3 }, 0, { 0x00000000ce800000ull, 0x0000000000000000ull }, 0x10, "scvtf s0, s1, #1" },
    { 0x7f3ffc20u, 0x00000000u, { 15, 159, 3, 3 }, 0, { 0x0000000000000001ull, 0x0000000000000000ull }, 0x10, "fcvtzu s0, s1, #1" },
    { 0x4f30e420u, 0x00000000u, { 15, 73, 3, 3 }, 0, { 0xc7000000b7800000ull, 0x4380000047000000ull }, 0x10, "scvtf v0.4s, v1.4s, #16" },
    { 0x2f30e420u, 0x00000000u, { 15, 156, 3, 3 }, 0, { 0x4680800047800000ull, 0x0000000000000000ull }, 0x10, "ucvtf v0.2s, v1.2s, #16" },
    { 0x4f30fc20u, 0x00000000u, { 15, 157, 3, 3 }, 0, { 0xfffe400000018000ull, 0x000000007fffffffull }, 0x01, "fcvtzs v0.4s, v1.4s, #16" },
    { 0x6f30fc20u, 0x00000000u, { 15, 158, 3, 3 }, 0, { 0x0000000000018000ull, 0x0000ffbeffffffffull }, 0x11, "fcvtzu v0.4s, v1.4s, #16" },
    { 0x5f30e420u, 0x00000000u, { 15, 77, 3, 3 }, 0, { 0x00000000c7000000ull, 0x0000000000000000ull }, 0x10, "scvtf s0, s1, #16" },
    { 0x7f30fc20u, 0x00000000u, { 15, 159, 3, 3 }, 0, { 0x000000000000c000ull, 0x0000000000000000ull }, 0x00, "fcvtzu s0, s1, #16" },
    { 0x4f21e420u, 0x00000000u, { 15, 73, 3, 3 }, 0, { 0xbf800000b0000000ull, 0x3c0000003f800000ull }, 0x10, "scvtf v0.4s, v1.4s, #31" },
    { 0x2f21e420u, 0x00000000u, { 15, 156, 3, 3 }, 0, { 0x3f00800040000000ull, 0x0000000000000000ull }, 0x10, "ucvtf v0.2s, v1.2s, #31" },
    { 0x4f21fc20u, 0x00000000u, { 15, 157, 3, 3 }, 0, { 0x800000007fffffffull, 0x000000007fffffffull }, 0x01, "fcvtzs v0.4s, v1.4s, #31" },
    { 0x6f21fc20u, 0x00000000u, { 15, 158, 3, 3 }, 0, { 0x00000000c0000000ull, 0x7fdf3b80ffffffffull }, 0x01, "fcvtzu v0.4s, v1.4s, #31" },
    { 0x5f21e420u, 0x00000000u, { 15, 77, 3, 3 }, 0, { 0x00000000bf800000ull, 0x0000000000000000ull }, 0x10, "scvtf s0, s1, #31" },
    { 0x7f21fc20u, 0x00000000u, { 15, 159, 3, 3 }, 0, { 0x0000000060000000ull, 0x0000000000000000ull }, 0x00, "fcvtzu s0, s1, #31" },
    { 0x4f20e420u, 0x00000000u, { 15, 73, 3, 3 }, 0, { 0xbf000000af800000ull, 0x3b8000003f000000ull }, 0x10, "scvtf v0.4s, v1.4s, #32" },
    { 0x2f20e420u, 0x00000000u, { 15, 156, 3, 3 }, 0, { 0x3e8080003f800000ull, 0x0000000000000000ull }, 0x10, "ucvtf v0.2s, v1.2s, #32" },
    { 0x4f20fc20u, 0x00000000u, { 15, 157, 3, 3 }, 0, { 0x800000007fffffffull, 0x000000007fffffffull }, 0x01, "fcvtzs v0.4s, v1.4s, #32" },
    { 0x6f20fc20u, 0x00000000u, { 15, 158, 3, 3 }, 0, { 0x00000000ffffffffull, 0xffbe7700ffffffffull }, 0x01, "fcvtzu v0.4s, v1.4s, #32" },
    { 0x5f20e420u, 0x00000000u, { 15, 77, 3, 3 }, 0, { 0x00000000bf000000ull, 0x0000000000000000ull }, 0x10, "scvtf s0, s1, #32" },
    { 0x7f20fc20u, 0x00000000u, { 15, 159, 3, 3 }, 0, { 0x00000000c0000000ull, 0x0000000000000000ull }, 0x00, "fcvtzu s0, s1, #32" },
    { 0x4f7fe420u, 0x00000000u, { 15, 160, 3, 3 }, 0, { 0xbfe0000000000000ull, 0xc3d0000000000000ull }, 0x00, "scvtf v0.2d, v1.2d, #1" },
    { 0x6f7fe420u, 0x00000000u, { 15, 161, 3, 3 }, 0, { 0x43e0000000000000ull, 0x4320000000000003ull }, 0x10, "ucvtf v0.2d, v1.2d, #1" },
    { 0x4f7ffc20u, 0x00000000u, { 15, 162, 3, 3 }, 0, { 0xfffffffffffffffdull, 0x0000000000000001ull }, 0x10, "fcvtzs v0.2d, v1.2d, #1" },
    { 0x6f7ffc20u, 0x00000000u, { 15, 141, 3, 3 }, 0, { 0x0000000000000003ull, 0xffffffffffffffffull }, 0x01, "fcvtzu v0.2d, v1.2d, #1" },
    { 0x5f7ffc20u, 0x00000000u, { 15, 163, 3, 3 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x10, "fcvtzs d0, d1, #1" },
    { 0x7f7fe420u, 0x00400000u, { 15, 164, 3, 3 }, 0, { 0x43d0000000000001ull, 0x0000000000000000ull }, 0x10, "ucvtf d0, d1, #1" },
    { 0x4f60e420u, 0x00000000u, { 15, 160, 3, 3 }, 0, { 0xbdf0000000000000ull, 0xc1e0000000000000ull }, 0x00, "scvtf v0.2d, v1.2d, #32" },
    { 0x6f60e420u, 0x00000000u, { 15, 161, 3, 3 }, 0, { 0x41f0000000000000ull, 0x4130000000000003ull }, 0x10, "ucvtf v0.2d, v1.2d, #32" },
    { 0x4f60fc20u, 0x00000000u, { 15, 162, 3, 3 }, 0, { 0xfffffffe80000000ull, 0x00000000c0000000ull }, 0x00, "fcvtzs v0.2d, v1.2d, #32" },
    { 0x6f60fc20u, 0x00000000u, { 15, 141, 3, 3 }, 0, { 0x0000000180000000ull, 0xffffffffffffffffull }, 0x01, "fcvtzu v0.2d, v1.2d, #32" },
    { 0x5f60fc20u, 0x00000000u, { 15, 163, 3, 3 }, 0, { 0xffffffffc0000000ull, 0x0000000000000000ull }, 0x00, "fcvtzs d0, d1, #32" },
    { 0x7f60e420u, 0x00400000u, { 15, 164, 3, 3 }, 0, { 0x41e0000000000001ull, 0x0000000000000000ull }, 0x10, "ucvtf d0, d1, #32" },
    { 0x4f4ce420u, 0x00000000u, { 15, 160, 3, 3 }, 0, { 0xbcb0000000000000ull, 0xc0a0000000000000ull }, 0x00, "scvtf v0.2d, v1.2d, #52" },
    { 0x6f4ce420u, 0x00000000u, { 15, 161, 3, 3 }, 0, { 0x40b0000000000000ull, 0x3ff0000000000003ull }, 0x10, "ucvtf v0.2d, v1.2d, #52" },
    { 0x4f4cfc20u, 0x00000000u, { 15, 162, 3, 3 }, 0, { 0xffe8000000000000ull, 0x000c000000000000ull }, 0x00, "fcvtzs v0.2d, v1.2d, #52" },
    { 0x6f4cfc20u, 0x00000000u, { 15, 141, 3, 3 }, 0, { 0x0018000000000000ull, 0xffffffffffffffffull }, 0x01, "fcvtzu v0.2d, v1.2d, #52" },
    { 0x5f4cfc20u, 0x00000000u, { 15, 163, 3, 3 }, 0, { 0xfffc000000000000ull, 0x0000000000000000ull }, 0x00, "fcvtzs d0, d1, #52" },
    { 0x7f4ce420u, 0x00400000u, { 15, 164, 3, 3 }, 0, { 0x40a0000000000001ull, 0x0000000000000000ull }, 0x10, "ucvtf d0, d1, #52" },
    { 0x4f41e420u, 0x00000000u, { 15, 160, 3, 3 }, 0, { 0xbc00000000000000ull, 0xbff0000000000000ull }, 0x00, "scvtf v0.2d, v1.2d, #63" },
    { 0x6f41e420u, 0x00000000u, { 15, 161, 3, 3 }, 0, { 0x4000000000000000ull, 0x3f40000000000003ull }, 0x10, "ucvtf v0.2d, v1.2d, #63" },
    { 0x4f41fc20u, 0x00000000u, { 15, 162, 3, 3 }, 0, { 0x8000000000000000ull, 0x6000000000000000ull }, 0x01, "fcvtzs v0.2d, v1.2d, #63" },
    { 0x6f41fc20u, 0x00000000u, { 15, 141, 3, 3 }, 0, { 0xc000000000000000ull, 0xffffffffffffffffull }, 0x01, "fcvtzu v0.2d, v1.2d, #63" },
    { 0x5f41fc20u, 0x00000000u, { 15, 163, 3, 3 }, 0, { 0xe000000000000000ull, 0x0000000000000000ull }, 0x00, "fcvtzs d0, d1, #63" },
    { 0x7f41e420u, 0x00400000u, { 15, 164, 3, 3 }, 0, { 0x3ff0000000000001ull, 0x0000000000000000ull }, 0x10, "ucvtf d0, d1, #63" },
    { 0x4f40e420u, 0x00000000u, { 15, 160, 3, 3 }, 0, { 0xbbf0000000000000ull, 0xbfe0000000000000ull }, 0x00, "scvtf v0.2d, v1.2d, #64" },
    { 0x6f40e420u, 0x00000000u, { 15, 161, 3, 3 }, 0, { 0x3ff0000000000000ull, 0x3f30000000000003ull }, 0x10, "ucvtf v0.2d, v1.2d, #64" },
    { 0x4f40fc20u, 0x00000000u, { 15, 162, 3, 3 }, 0, { 0x8000000000000000ull, 0x7fffffffffffffffull }, 0x01, "fcvtzs v0.2d, v1.2d, #64" },
    { 0x6f40fc20u, 0x00000000u, { 15, 141, 3, 3 }, 0, { 0xffffffffffffffffull, 0xffffffffffffffffull }, 0x01, "fcvtzu v0.2d, v1.2d, #64" },
    { 0x5f40fc20u, 0x00000000u, { 15, 163, 3, 3 }, 0, { 0xc000000000000000ull, 0x0000000000000000ull }, 0x00, "fcvtzs d0, d1, #64" },
    { 0x7f40e420u, 0x00400000u, { 15, 164, 3, 3 }, 0, { 0x3fe0000000000001ull, 0x0000000000000000ull }, 0x10, "ucvtf d0, d1, #64" },
    { 0x5f74e422u, 0x00000000u, { 165, 166, 167, 168 }, 2, { 0x430b480000000000ull, 0x0000000000000000ull }, 0x00, "scvtf d2, d1, #12 (sweep)" },
    { 0x5f79e400u, 0x04000000u, { 169, 170, 171, 172 }, 0, { 0x435ff800000c0000ull, 0x0000000000000000ull }, 0x10, "scvtf d0, d0, #7 (sweep)" },
    { 0x0f2ffc22u, 0x03000000u, { 173, 174, 175, 176 }, 2, { 0x000000087fffffffull, 0x0000000000000000ull }, 0x01, "fcvtzs v2.2s, v1.2s, #17 (sweep)" },
    { 0x7f30e400u, 0x00800000u, { 177, 178, 179, 180 }, 0, { 0x00000000474b40a7ull, 0x0000000000000000ull }, 0x10, "ucvtf s0, s0, #16 (sweep)" },
    { 0x7e70d802u, 0x00000000u, { 181, 182, 183, 184 }, 2, { 0x41f0000000000000ull, 0x0000000000000000ull }, 0x10, "faddp d2, v0.2d (sweep)" },
    { 0x4f24e462u, 0x00800000u, { 185, 186, 187, 188 }, 2, { 0x40ffffffb2000000ull, 0x409effff408effe0ull }, 0x10, "scvtf v2.4s, v3.4s, #28 (sweep)" },
    { 0x2f24fc21u, 0x00000000u, { 189, 190, 191, 192 }, 1, { 0xffffffff00004000ull, 0x0000000000000000ull }, 0x01, "fcvtzu v1.2s, v1.2s, #28 (sweep)" },
    { 0x4f32e421u, 0x00c00000u, { 193, 194, 195, 196 }, 1, { 0xc8000000c4000000ull, 0x47fd0000c7f02995ull }, 0x10, "scvtf v1.4s, v1.4s, #14 (sweep)" },
    { 0x2f2afc01u, 0x00000000u, { 197, 198, 199, 200 }, 1, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x11, "fcvtzu v1.2s, v0.2s, #22 (sweep)" },
    { 0x4f26e440u, 0x00000000u, { 201, 202, 203, 204 }, 0, { 0xc1f3d3dd42000000ull, 0xc1db32c73d800000ull }, 0x10, "scvtf v0.4s, v2.4s, #26 (sweep)" },
    { 0x6f2ee420u, 0x04000000u, { 205, 206, 207, 208 }, 0, { 0x4640400046000000ull, 0x467f800046000000ull }, 0x00, "ucvtf v0.4s, v1.4s, #18 (sweep)" },
    { 0x7f6ce461u, 0x03000000u, { 209, 210, 211, 212 }, 1, { 0x3eb0000000000000ull, 0x0000000000000000ull }, 0x00, "ucvtf d1, d3, #20 (sweep)" },
    { 0x5f49e462u, 0x06000000u, { 213, 214, 215, 216 }, 2, { 0x406002487ed5110bull, 0x0000000000000000ull }, 0x10, "scvtf d2, d3, #55 (sweep)" },
    { 0x5fc05021u, 0x00c00000u, { 217, 218, 219, 220 }, 1, { 0x47dfffffffffffffull, 0x0000000000000000ull }, 0x10, "fmls d1, d1, v0.d[0] (sweep)" },
    { 0x4ea3cc40u, 0x01000000u, { 221, 222, 223, 224 }, 0, { 0xc7ffff007fc00000ull, 0x3fc00001e77ff000ull }, 0x91, "fmls v0.4s, v2.4s, v3.4s (sweep)" },
    { 0x5f30e441u, 0x06000000u, { 225, 226, 227, 228 }, 1, { 0x0000000046de5c8bull, 0x0000000000000000ull }, 0x10, "scvtf s1, s2, #16 (sweep)" },
    { 0x2e21ec20u, 0x00400000u, { 229, 230, 231, 232 }, 0, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x00, "facge v0.2s, v1.2s, v1.2s (sweep)" },
    { 0x4f55e462u, 0x06000000u, { 233, 234, 235, 236 }, 2, { 0xc11ffe0000000000ull, 0x412ffc0000000000ull }, 0x10, "scvtf v2.2d, v3.2d, #43 (sweep)" },
    { 0x6f37e460u, 0x03000000u, { 237, 238, 239, 240 }, 0, { 0x470000004a6adc40ull, 0x4700000048d51680ull }, 0x10, "ucvtf v0.4s, v3.4s, #9 (sweep)" },
    { 0x4f39e443u, 0x03000000u, { 241, 242, 243, 244 }, 3, { 0x3cc000004ace0000ull, 0x4b1f000048000000ull }, 0x10, "scvtf v3.4s, v2.4s, #7 (sweep)" },
    { 0x4f50fc41u, 0x03000000u, { 245, 246, 247, 248 }, 1, { 0x0000000000000000ull, 0x7fffffffffffffffull }, 0x01, "fcvtzs v1.2d, v2.2d, #48 (sweep)" },
    { 0x4f6efc62u, 0x00800000u, { 249, 250, 251, 252 }, 2, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x10, "fcvtzs v2.2d, v3.2d, #18 (sweep)" },
    { 0x5f911063u, 0x02000000u, { 253, 254, 255, 256 }, 3, { 0x000000004effffffull, 0x0000000000000000ull }, 0x10, "fmla s3, s3, v17.s[0] (sweep)" },
    { 0x7f24e461u, 0x00400000u, { 257, 258, 259, 260 }, 1, { 0x0000000041800000ull, 0x0000000000000000ull }, 0x10, "ucvtf s1, s3, #28 (sweep)" },
    { 0x4f66fc43u, 0x00000000u, { 261, 262, 263, 264 }, 3, { 0x0000000000000000ull, 0x0000000004000000ull }, 0x10, "fcvtzs v3.2d, v2.2d, #26 (sweep)" },
    { 0x7f37fc62u, 0x00c00000u, { 265, 266, 267, 268 }, 2, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcvtzu s2, s3, #9 (sweep)" },
    { 0x4e216820u, 0x06000000u, { 269, 270, 271, 272 }, 0, { 0x3eaaaaab00000001ull, 0x00007bff0000c200ull }, 0x18, "fcvtn2 v0.8h, v1.4s (sweep)" },
    { 0x7e61c841u, 0x00000000u, { 273, 274, 275, 276 }, 1, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtau d1, d2 (sweep)" },
    { 0x4e61fc60u, 0x00000000u, { 277, 278, 279, 280 }, 0, { 0x3ff7fffff8000000ull, 0x4000000000000000ull }, 0x10, "frecps v0.2d, v3.2d, v1.2d (sweep)" },
    { 0x4f62e402u, 0x00400000u, { 281, 282, 283, 284 }, 2, { 0x0000000000000000ull, 0x41fffc0000000000ull }, 0x10, "scvtf v2.2d, v0.2d, #30 (sweep)" },
    { 0x7f39fc60u, 0x00000000u, { 285, 286, 287, 288 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x10, "fcvtzu s0, s3, #7 (sweep)" },
    { 0x4f7ae401u, 0x00c00000u, { 289, 290, 291, 292 }, 1, { 0x42e0000000000000ull, 0x42dfffffffffffffull }, 0x10, "scvtf v1.2d, v0.2d, #6 (sweep)" },
    { 0x7f3bfc42u, 0x00000000u, { 293, 294, 295, 296 }, 2, { 0x0000000000000040ull, 0x0000000000000000ull }, 0x00, "fcvtzu s2, s2, #5 (sweep)" },
    { 0x6e616820u, 0x00000000u, { 297, 298, 299, 300 }, 0, { 0x0010000000000000ull, 0x3f80000080000001ull }, 0x18, "fcvtxn2 v0.4s, v1.2d (sweep)" },
    { 0x5f5fe462u, 0x06000000u, { 301, 302, 303, 304 }, 2, { 0x4130000000000000ull, 0x0000000000000000ull }, 0x10, "scvtf d2, d3, #33 (sweep)" },
    { 0x2f34fc01u, 0x03000000u, { 305, 306, 307, 308 }, 1, { 0xffffffff00000000ull, 0x0000000000000000ull }, 0x11, "fcvtzu v1.2s, v0.2s, #12 (sweep)" },
    { 0x5f4ee462u, 0x00400000u, { 309, 310, 311, 312 }, 2, { 0xbce0000000000000ull, 0x0000000000000000ull }, 0x00, "scvtf d2, d3, #50 (sweep)" },
    { 0x6f23fc61u, 0x00000000u, { 313, 314, 315, 316 }, 1, { 0x1000000000000000ull, 0xffffffffffffffffull }, 0x01, "fcvtzu v1.4s, v3.4s, #29 (sweep)" },
    { 0x4f75fc03u, 0x00400000u, { 317, 318, 319, 320 }, 3, { 0x000003fffffff800ull, 0x0000000000000000ull }, 0x01, "fcvtzs v3.2d, v0.2d, #11 (sweep)" },
    { 0x5f60fc62u, 0x06000000u, { 321, 322, 323, 324 }, 2, { 0x0000000100000080ull, 0x0000000000000000ull }, 0x00, "fcvtzs d2, d3, #32 (sweep)" },
    { 0x4f24fc22u, 0x06000000u, { 325, 326, 327, 328 }, 2, { 0x3243f6c0d0000000ull, 0x8000000000000010ull }, 0x01, "fcvtzs v2.4s, v1.4s, #28 (sweep)" },
    { 0x0f27fc22u, 0x00000000u, { 329, 330, 331, 332 }, 2, { 0x7fffffff7fffffffull, 0x0000000000000000ull }, 0x01, "fcvtzs v2.2s, v1.2s, #25 (sweep)" },
    { 0x5fd09023u, 0x00000000u, { 333, 334, 335, 336 }, 3, { 0xfff8000000000001ull, 0x0000000000000000ull }, 0x01, "fmul d3, d1, v16.d[0] (sweep)" },
    { 0x4f5efc41u, 0x00000000u, { 337, 338, 339, 340 }, 1, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzs v1.2d, v2.2d, #34 (sweep)" },
    { 0x6f35e441u, 0x04000000u, { 341, 342, 343, 344 }, 1, { 0x49587043498d68b6ull, 0x3a000000491f0000ull }, 0x10, "ucvtf v1.4s, v2.4s, #11 (sweep)" },
    { 0x7f59fc61u, 0x00400000u, { 345, 346, 345, 347 }, 1, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtzu d1, d3, #39 (sweep)" },
    { 0x6f42e440u, 0x04000000u, { 348, 349, 350, 351 }, 0, { 0x3fec080000100000ull, 0x3ff0f80000000000ull }, 0x00, "ucvtf v0.2d, v2.2d, #62 (sweep)" },
    { 0x6f3dfc62u, 0x00400000u, { 352, 353, 354, 355 }, 2, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x11, "fcvtzu v2.4s, v3.4s, #3 (sweep)" },
    { 0x7f66e421u, 0x06000000u, { 356, 357, 358, 359 }, 1, { 0x423207426e346d3aull, 0x0000000000000000ull }, 0x10, "ucvtf d1, d1, #26 (sweep)" },
    { 0x6f48fc00u, 0x02000000u, { 360, 361, 362, 363 }, 0, { 0x0100000000000000ull, 0x0000000000000000ull }, 0x10, "fcvtzu v0.2d, v0.2d, #56 (sweep)" },
    { 0x7f35fc43u, 0x06000000u, { 364, 365, 366, 367 }, 3, { 0x0000000000000800ull, 0x0000000000000000ull }, 0x00, "fcvtzu s3, s2, #11 (sweep)" },
    { 0x0e616821u, 0x00000000u, { 368, 369, 370, 371 }, 1, { 0x8000000000000000ull, 0x0000000000000000ull }, 0x18, "fcvtn v1.2s, v1.2d (sweep)" },
    { 0x7f7ffc60u, 0x00000000u, { 372, 373, 374, 375 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x10, "fcvtzu d0, d3, #1 (sweep)" },
    { 0x7f76e461u, 0x00000000u, { 376, 377, 378, 379 }, 1, { 0x4331fbfffffc0000ull, 0x0000000000000000ull }, 0x00, "ucvtf d1, d3, #10 (sweep)" },
    { 0x7f56fc42u, 0x06000000u, { 380, 381, 382, 383 }, 2, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzu d2, d2, #42 (sweep)" },
    { 0x6f48e460u, 0x00400000u, { 384, 385, 386, 387 }, 0, { 0x4060000000000000ull, 0x4070000000000000ull }, 0x10, "ucvtf v0.2d, v3.2d, #56 (sweep)" },
    { 0x5f5afc63u, 0x00000000u, { 388, 389, 390, 391 }, 3, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtzs d3, d3, #38 (sweep)" },
    { 0x4f7cfc41u, 0x00c00000u, { 392, 393, 394, 395 }, 1, { 0x0000000000000000ull, 0x00000000001c55a9ull }, 0x11, "fcvtzs v1.2d, v2.2d, #4 (sweep)" },
    { 0x4f52e420u, 0x00800000u, { 396, 397, 398, 399 }, 0, { 0x40d23456789abcdeull, 0xbd10000000000000ull }, 0x10, "scvtf v0.2d, v1.2d, #46 (sweep)" },
    { 0x7f4de440u, 0x04000000u, { 400, 401, 402, 403 }, 0, { 0x40b83c0000000000ull, 0x0000000000000000ull }, 0x00, "ucvtf d0, d2, #51 (sweep)" },
    { 0x6f56e441u, 0x02000000u, { 404, 405, 406, 407 }, 1, { 0x414fff00000000a8ull, 0x4150000000000000ull }, 0x10, "ucvtf v1.2d, v2.2d, #42 (sweep)" },
    { 0x7f43fc60u, 0x00400000u, { 408, 409, 410, 411 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x10, "fcvtzu d0, d3, #61 (sweep)" },
    { 0x6f919062u, 0x00000000u, { 412, 413, 414, 415 }, 2, { 0x1971c8bb213e1519ull, 0x00000000bff2053cull }, 0x18, "fmulx v2.4s, v3.4s, v17.s[0] (sweep)" },
    { 0x0ea0e841u, 0x00c00000u, { 416, 417, 418, 419 }, 1, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "fcmlt v1.2s, v2.2s, #0.0 (sweep)" },
    { 0x5f62e441u, 0x06000000u, { 420, 421, 422, 423 }, 1, { 0x41eff80000000000ull, 0x0000000000000000ull }, 0x00, "scvtf d1, d2, #30 (sweep)" },
    { 0x5f4ce463u, 0x01000000u, { 424, 425, 426, 427 }, 3, { 0xc08e100000000000ull, 0x0000000000000000ull }, 0x00, "scvtf d3, d3, #52 (sweep)" },
    { 0x5f815043u, 0x06000000u, { 428, 429, 430, 431 }, 3, { 0x00000000a398c41cull, 0x0000000000000000ull }, 0x10, "fmls s3, s2, v1.s[0] (sweep)" },
    { 0x4f38fc40u, 0x00000000u, { 432, 433, 434, 435 }, 0, { 0x8000000080000000ull, 0x000000807fffffffull }, 0x01, "fcvtzs v0.4s, v2.4s, #8 (sweep)" },
    { 0x7f48e462u, 0x00800000u, { 436, 290, 437, 438 }, 2, { 0x40323456789abcdeull, 0x0000000000000000ull }, 0x10, "ucvtf d2, d3, #56 (sweep)" },
    { 0x0f21fc43u, 0x01000000u, { 439, 440, 441, 442 }, 3, { 0x7fffffff00000000ull, 0x0000000000000000ull }, 0x11, "fcvtzs v3.2s, v2.2s, #31 (sweep)" },
    { 0x2f26e442u, 0x02000000u, { 443, 444, 445, 446 }, 2, { 0x41ff000042800000ull, 0x0000000000000000ull }, 0x10, "ucvtf v2.2s, v2.2s, #26 (sweep)" },
    { 0x5f2afc03u, 0x00000000u, { 447, 448, 449, 450 }, 3, { 0x0000000000000100ull, 0x0000000000000000ull }, 0x00, "fcvtzs s3, s0, #22 (sweep)" },
    { 0x4f7de401u, 0x00400000u, { 451, 452, 453, 454 }, 1, { 0x43a2cc94a1f8cd2cull, 0x0000000000000000ull }, 0x10, "scvtf v1.2d, v0.2d, #3 (sweep)" },
    { 0x5f4afc00u, 0x00000000u, { 455, 456, 457, 458 }, 0, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x01, "fcvtzs d0, d0, #54 (sweep)" },
    { 0x6f73fc42u, 0x02000000u, { 459, 460, 461, 462 }, 2, { 0xffffffffffffffffull, 0x00001fffffffe000ull }, 0x01, "fcvtzu v2.2d, v2.2d, #13 (sweep)" },
    { 0x4f45fc63u, 0x06000000u, { 463, 464, 465, 379 }, 3, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x11, "fcvtzs v3.2d, v3.2d, #59 (sweep)" },
    { 0x2f31fc01u, 0x00400000u, { 466, 467, 468, 469 }, 1, { 0x0000000200000000ull, 0x0000000000000000ull }, 0x01, "fcvtzu v1.2s, v0.2s, #15 (sweep)" },
    { 0x5fa29003u, 0x00000000u, { 470, 471, 472, 473 }, 3, { 0x0000000040400000ull, 0x0000000000000000ull }, 0x00, "fmul s3, s0, v2.s[1] (sweep)" },
    { 0x4f62fc21u, 0x03000000u, { 474, 475, 476, 477 }, 1, { 0x7fffffffffffffffull, 0x0000000000000000ull }, 0x81, "fcvtzs v1.2d, v1.2d, #30 (sweep)" },
    { 0x4ee1d802u, 0x02000000u, { 478, 479, 480, 481 }, 2, { 0xadb4800000000000ull, 0x3fe5500000000000ull }, 0x00, "frecpe v2.2d, v0.2d (sweep)" },
    { 0x4e61c441u, 0x00000000u, { 482, 483, 484, 485 }, 1, { 0x0000000000000001ull, 0x4000000000000000ull }, 0x00, "fmaxnm v1.2d, v2.2d, v1.2d (sweep)" },
    { 0x4f64e441u, 0x00400000u, { 486, 487, 488, 489 }, 1, { 0xc220000000000000ull, 0x41f23456789abcdfull }, 0x10, "scvtf v1.2d, v2.2d, #28 (sweep)" },
    { 0x2ea0d821u, 0x00400000u, { 490, 491, 492, 493 }, 1, { 0xffffffffffffffffull, 0x0000000000000000ull }, 0x00, "fcmle v1.2s, v1.2s, #0.0 (sweep)" },
    { 0x6f33e441u, 0x00000000u, { 494, 495, 496, 497 }, 1, { 0x4711a2b448c02000ull, 0x44ffffff48c02000ull }, 0x10, "ucvtf v1.4s, v2.4s, #13 (sweep)" },
    { 0x7f34fc21u, 0x00800000u, { 498, 499, 500, 501 }, 1, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x01, "fcvtzu s1, s1, #12 (sweep)" },
    { 0x5f32fc40u, 0x02000000u, { 502, 503, 504, 505 }, 0, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x10, "fcvtzs s0, s2, #14 (sweep)" },
    { 0x4f939803u, 0x00000000u, { 506, 507, 508, 509 }, 3, { 0x7fc0000000400000ull, 0x3f00000033000000ull }, 0x00, "fmul v3.4s, v0.4s, v19.s[2] (sweep)" },
    { 0x0fb31042u, 0x00000000u, { 510, 511, 512, 513 }, 2, { 0x5faaaaabffc54321ull, 0x0000000000000000ull }, 0x10, "fmla v2.2s, v2.2s, v19.s[1] (sweep)" },
    { 0x4f74e421u, 0x04000000u, { 514, 515, 516, 517 }, 1, { 0x4310000000000000ull, 0x0000000000000000ull }, 0x00, "scvtf v1.2d, v1.2d, #12 (sweep)" },
    { 0x4f42fc23u, 0x01000000u, { 518, 519, 520, 521 }, 3, { 0x0000000000000000ull, 0x7fffffffffffffffull }, 0x01, "fcvtzs v3.2d, v1.2d, #62 (sweep)" },
    { 0x7f65e443u, 0x01000000u, { 522, 523, 524, 525 }, 3, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "ucvtf d3, d2, #27 (sweep)" },
    { 0x5ea1b863u, 0x00c00000u, { 526, 527, 528, 529 }, 3, { 0x000000007fffffffull, 0x0000000000000000ull }, 0x01, "fcvtzs s3, s3 (sweep)" },
    { 0x6f6fe402u, 0x00000000u, { 530, 213, 531, 171 }, 2, { 0x42d0000000000000ull, 0x42dfcdd154852370ull }, 0x10, "ucvtf v2.2d, v0.2d, #17 (sweep)" },
    { 0x4f49fc23u, 0x01000000u, { 532, 533, 534, 535 }, 3, { 0x0000000000000000ull, 0x7fffffffffffffffull }, 0x01, "fcvtzs v3.2d, v1.2d, #55 (sweep)" },
    { 0x0f835840u, 0x00800000u, { 536, 537, 538, 539 }, 0, { 0x40486eff408c0000ull, 0x0000000000000000ull }, 0x10, "fmls v0.2s, v2.2s, v3.s[2] (sweep)" },
    { 0x5e21d841u, 0x00000000u, { 540, 541, 542, 543 }, 1, { 0x00000000cb000001ull, 0x0000000000000000ull }, 0x00, "scvtf s1, s2 (sweep)" },
    { 0x6ee3ec62u, 0x00400000u, { 544, 545, 546, 547 }, 2, { 0x0000000000000000ull, 0x0000000000000000ull }, 0x00, "facgt v2.2d, v3.2d, v3.2d (sweep)" },
    { 0x7e30d841u, 0x00000000u, { 548, 549, 550, 551 }, 1, { 0x00000000ff7fffffull, 0x0000000000000000ull }, 0x10, "faddp s1, v2.2s (sweep)" },
    { 0x7ea1b860u, 0x00800000u, { 552, 553, 554, 555 }, 0, { 0x00000000ffffffffull, 0x0000000000000000ull }, 0x01, "fcvtzu s0, s3 (sweep)" },
    { 0x4e618823u, 0x04000000u, { 556, 557, 558, 559 }, 3, { 0x4008000000000000ull, 0x3ff0000000000000ull }, 0x00, "frintn v3.2d, v1.2d (sweep)" },
};

/* Encodings qemu-aarch64 -cpu cortex-a57 rejects (reserved sizes, v8.2+ FP16, unallocated). */
static const uint32_t undefs[] = {
    0x0e60cc41u, 0x0e61d823u, 0x0e61f820u, 0x0e62dc03u, 0x0ee1d860u, 0x0ee1fc20u,
    0x0ee2f403u, 0x0f10e401u, 0x0f12fc20u, 0x0f43fc22u, 0x0f4fe422u, 0x0f67e443u,
    0x0f79fc61u, 0x0fc15043u, 0x0fc39023u, 0x0fd09862u, 0x0fe09042u, 0x0fe31023u,
    0x0fe31861u, 0x0ff25040u, 0x2e21cc02u, 0x2e60fc42u, 0x2e619842u, 0x2e61a822u,
    0x2ea3fc23u, 0x2eb0e822u, 0x2ee0f801u, 0x2ee19802u, 0x2ee1b803u, 0x2ef0d843u,
    0x2f17fc63u, 0x2f1ce422u, 0x2f43fc62u, 0x2f53e403u, 0x2f6fe402u, 0x2f75fc62u,
    0x2f82d800u, 0x2f911002u, 0x2f935862u, 0x2f93d061u, 0x2fd3d821u, 0x2fe11061u,
    0x2fe15022u, 0x2ff0d022u, 0x2ff29002u, 0x2ff39821u, 0x4e20ec03u, 0x4e21e862u,
    0x4ee1c842u, 0x4ee3dc00u, 0x4f13e420u, 0x4f1efc20u, 0x5e218801u, 0x5e219841u,
    0x5e23cc02u, 0x5e23d443u, 0x5e61c422u, 0x5e61cc03u, 0x5e62d402u, 0x5ea1e803u,
    0x5ea2f423u, 0x5ee18800u, 0x5ee1c403u, 0x5f17fc61u, 0x5f1be461u, 0x5fe01821u,
    0x5fe05821u, 0x5ff09800u, 0x6e21f823u, 0x6e30d803u, 0x6e61e820u, 0x6e61f800u,
    0x6ea1cc02u, 0x6ea1e823u, 0x6eb0d840u, 0x6ee0e821u, 0x6ee1c842u, 0x6ee1fc01u,
    0x6f0ce461u, 0x6f15fc02u, 0x6f821002u, 0x6f835042u, 0x6f835863u, 0x6f91d043u,
    0x6fb05063u, 0x6fb0d001u, 0x6fb21040u, 0x6fc15003u, 0x6fd1d843u, 0x6fd21841u,
    0x6fe31801u, 0x6ff11061u, 0x6ff25022u, 0x6ff25862u, 0x7e219803u, 0x7e21d442u,
    0x7e30e840u, 0x7e60cc43u, 0x7e62fc02u, 0x7e70e821u, 0x7ea0f822u, 0x7ea18841u,
    0x7ea1fc03u, 0x7ea2c463u, 0x7ea2dc61u, 0x7eb0e802u, 0x7ef0d842u, 0x7f10e463u,
    0x7f1cfc21u, 0x7f801043u, 0x7f801823u, 0x7f83d863u, 0x7fa05861u, 0x7fa1d823u,
    0x7fc35861u, 0x7fc3d801u, 0x7fe05820u, 0x7fe0d023u, 0x7fe39040u, 0x7ff11062u,
};

static void run_case(const FCase *t)
{
    CPUState *c = harness_cpu();
    for (unsigned r = 0; r < 4; r++) {
        memcpy(&c->v[r], pool[t->in[r]], 16);
        memcpy(&c->v[16 + r], pool[t->in[r]], 16);
    }
    c->fp.fpcr = t->fpcr;
    c->fp.fpsr = 0;
    const uint32_t code[] = { t->insn, BRK0 };
    ck_assert_msg(harness_run(c, code, 2) == EXC_BRK, "%s: did not run", t->text);
    ck_assert_msg(c->v[t->rd].d[0] == t->out[0] && c->v[t->rd].d[1] == t->out[1],
                  "%s (fpcr %08x): v%u = %016llx:%016llx, want %016llx:%016llx", t->text, t->fpcr,
                  t->rd, (unsigned long long)c->v[t->rd].d[1], (unsigned long long)c->v[t->rd].d[0],
                  (unsigned long long)t->out[1], (unsigned long long)t->out[0]);
    ck_assert_msg(c->fp.fpsr == t->fpsr, "%s (fpcr %08x): fpsr %08x, want %08x", t->text, t->fpcr,
                  c->fp.fpsr, t->fpsr);
    for (unsigned r = 0; r < 4; r++)
        if (r != t->rd)
            ck_assert_msg(!memcmp(&c->v[r], pool[t->in[r]], 16),
                          "%s: v%u clobbered", t->text, r);
}

START_TEST(simd_fp_case)
{
    run_case(&cases[_i]);
}
END_TEST

START_TEST(simd_fp_undef)
{
    CPUState *c = harness_cpu();
    const uint32_t code[] = { undefs[_i], BRK0 };
    ck_assert_msg(harness_run(c, code, 2) == EXC_UDEF, "%08x should be UNDEFINED", undefs[_i]);
    ck_assert_uint_eq(c->pc, HARNESS_CODE);
    ck_assert_uint_eq(c->syndrome, undefs[_i]);
}
END_TEST

/* A block of several FP ops: results chain through registers. */
START_TEST(simd_fp_sequence)
{
    CPUState *c = harness_cpu();
    for (int i = 0; i < 4; i++) {
        c->v[1].s[i] = 0x3f800000u + ((uint32_t)i << 23); /* 1, 2, 4, 8 */
        c->v[2].s[i] = 0x40000000u;                       /* 2 */
    }
    const uint32_t code[] = {
        0x4e22d420u, /* fadd v0.4s, v1.4s, v2.4s   -> 3 4 6 10 */
        0x6e20d403u, /* faddp v3.4s, v0.4s, v0.4s  -> 7 16 7 16 */
        0x6e30c864u, /* fmaxnmv s4, v3.4s          -> 16 */
        0x5f849025u, /* fmul s5, s1, v4.s[0]       -> 16 */
        BRK0,
    };
    ck_assert_int_eq(harness_run(c, code, 5), EXC_BRK);
    ck_assert_uint_eq(c->v[0].s[3], 0x41200000u);
    ck_assert_uint_eq(c->v[3].s[1], 0x41800000u);
    ck_assert_uint_eq(c->v[3].s[2], 0x40e00000u);
    ck_assert_uint_eq(c->v[4].s[0], 0x41800000u);
    ck_assert_uint_eq(c->v[4].s[1], 0);
    ck_assert_uint_eq(c->v[5].s[0], 0x41800000u);
    ck_assert_uint_eq(c->v[5].d[1], 0);
    ck_assert_uint_eq(c->fp.fpsr, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("simd_fp");
    TCase *tc = tcase_create("simd_fp");
    tcase_add_loop_test(tc, simd_fp_case, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_loop_test(tc, simd_fp_undef, 0, (int)(sizeof undefs / sizeof undefs[0]));
    tcase_add_test(tc, simd_fp_sequence);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

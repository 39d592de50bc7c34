# tests/unit/test_gpu_image.c: image load as Mesa's bi_emit_image_load emits it on Bifrost:
# LD_ATTR_TEX.u32.v4 (no DTSEL_IMM: the primary attribute table) of texel (gid.x, gid.y,
# z = u3.lo) of attribute u3.hi into r4-r7, then STORE.i128 of them to out[gid.y * u2.lo + gid.x]
# (16 bytes at u0).
clause_0: flow=nbtb sr=4 msg=attribute
{
    *NOP
    +MKVEC.v2i16 t1, r60, r61
    *NOP
    +LD_ATTR_TEX.u32.v4 t1, t1, u3.lo, u3.hi, @r4
}
clause_1: sr=4 msg=store
{
    *IMUL.i32 t0, r61, u2.lo
    +IADD.s32 t1, t, r60
    *LSHIFT_OR.i32 t0, t1, #0, #0x4
    +NOP
    *IADDC.i32 t0, t0, u0.lo, #0
    +STORE.i128 t, u0.hi, @r4
}

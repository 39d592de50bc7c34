# SEG_ADD test shader for tests/unit/test_bifrost_exec.c: r5/r6 = the 64-bit address of TLS offset
# r7 (this lane's thread-local storage), r8/r9 = that of WLS offset r7.
clause_0:
{
    *SEG_ADD.tl r5, r7
    +NOP
    *NOP
    +SEG_ADD.tl r6, r7
    *SEG_ADD.wls r8, r7
    +NOP
    *NOP
    +SEG_ADD.wls r9, r7
}

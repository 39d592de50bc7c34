# tests/unit/test_gpu_mali.c: a shader that never ends (JUMP to itself): the job ends only when
# the driver stops it.
clause_0: flow=nbtb_uncond
{
    *NOP
    +JUMP pc+0
}

# Workgroup set-up test kernel for tests/unit/test_bifrost_exec.c: every warp starts, waits at the
# barrier, and the first one released faults (no clause after it), leaving every warp as it was
# set up (preloads) in its slot.
clause_0: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}

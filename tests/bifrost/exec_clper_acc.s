# CLPER with lane_op accumulate, whose semantics are not established: the executor must refuse it
# (tests/unit/test_bifrost_exec.c).
clause_0:
{
    *NOP
    +CLPER.i32.accumulate.subgroup8.zero r10, r0, r1
}

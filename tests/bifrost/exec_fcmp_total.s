# FCMP.v2f16 with cmpf total, whose semantics are not established: the executor must refuse it
# (tests/unit/test_bifrost_exec.c), not compare as false.
clause_0:
{
    *FCMP.v2f16.total r2, r0, r1
    +NOP
}

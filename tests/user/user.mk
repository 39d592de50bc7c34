# malibu-user program tests: tests/user/*.{S,c} cross-compiled (static, dynamic), run under
# malibu-user and qemu-aarch64 -cpu cortex-a57; stdout and exit status must match.
#
#   make user-test           the gated tests must pass; the rest are reported as pending
#   make user-test-all       every test must pass
#   python3 tests/user/run_tests.py --malibu build/malibu-user NAME   one program, with details
#
# USER_GATE lists the tests that pass today; add a test here once the instruction families it
# needs (see PROGRAMS in run_tests.py) have landed.  nolibc/asm programs need int branch mem sys;
# C programs with glibc need int branch mem fp simd sys.
USER_GATE ?= asm_hello-nostdlib asm_sigill-nostdlib nl_signals-nolibc nl_threads-nolibc nl_efault-nolibc nl_sigrace-nolibc \
             hello-static hello-dynamic hello-static-pie segv-static segv-dynamic misc_sys-static \
             misc_sys-dynamic argv_env-static argv_env-dynamic fileio-static fileio-dynamic \
             signals-static signals-dynamic fork_wait-static fork_wait-dynamic abort-static abort-dynamic \
             exec_self-static exec_self-dynamic threads-static threads-dynamic \
             system_sh-static system_sh-dynamic sysv_ipc-static sysv_ipc-dynamic \
             sigbus-static sigbus-dynamic segv_flags-static segv_flags-dynamic \
             exec_opts-static exec_opts-dynamic near_base-static indirect-static indirect-dynamic \
             flags_exit-static flags_exit-dynamic

USER_TEST = $(PYTHON) tests/user/run_tests.py --malibu $(B)/malibu-user --builddir $(B)/tests/user

.PHONY: user-test user-test-all
TEST_TARGETS += user-test
SAN_TEST_TARGETS += user-test

user-test: $(B)/malibu-user
	@echo "== malibu-user program tests (gate: $(USER_GATE))"
	$(USER_TEST) --gate "$(USER_GATE)"

user-test-all: $(B)/malibu-user
	$(USER_TEST) --gate "$(foreach p,$(shell $(PYTHON) -c 'import sys; sys.path.insert(0,"tests/user"); import run_tests as r; print(" ".join("%s-%s" % (n, k) for n, v in r.PROGRAMS.items() for k in v[1]))'),$(p))"

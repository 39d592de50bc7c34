/* Forced into every unit test program (the -include in tests/unit/unit.mk): Check's assertions
 * without a record of each one that passes.  Every ck_assert_* expands to ck_assert_msg, which in
 * Check 0.15 sends the file and line of each passing assertion down the runner's message pipe (a
 * malloc, a write(2) and a free), so that a test that later crashes is reported "after" the last
 * one that passed.  Tests that assert per lane, register or element made millions of those
 * (test_bifrost_exec 1.3 M write calls), and the sanitized pass spent most of its time there:
 * test_simd_native took 58.5 s under ASan with them and 23.1 s without.  A failing assertion is
 * reported as before (file, line, expression and message); a crash is located by the sanitizer's
 * backtrace or a core dump instead of by the last assertion that passed. */
#ifndef MALIBU_CHECK_QUIET_H
#define MALIBU_CHECK_QUIET_H

/* Included before a test's own lines, so a feature macro there would come after the system
 * headers check.h pulls in: every unit test gets the GNU extensions (O_DIRECT, memmem). */
#define _GNU_SOURCE
#include <check.h>

#undef ck_assert_msg
#define ck_assert_msg(expr, ...)                                                                         \
    do {                                                                                                 \
        if (!(expr))                                                                                     \
            _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", ##__VA_ARGS__);        \
    } while (0)

#endif

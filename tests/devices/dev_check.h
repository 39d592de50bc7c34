/* Shared bits for the device unit tests (tests/unit/test_dev_*.c). */
#ifndef MALIBU_TESTS_DEV_CHECK_H
#define MALIBU_TESTS_DEV_CHECK_H

#include <check.h>
#include <stdint.h>
#include <time.h>

#include "../../devices/bus.h"

static inline uint64_t dev_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Hostile guest: n random accesses (any offset in [0, span + 64), any size 1..16, any value)
 * straight to a device's callbacks (sizes the bus would reject included). */
static inline void dev_fuzz(const MmioOps *ops, void *opaque, uint64_t span, unsigned n,
                            uint64_t seed)
{
    uint64_t s = seed | 1;
    static const unsigned sizes[] = { 1, 2, 4, 8, 3, 16, 0 };
    for (unsigned i = 0; i < n; i++) {
        uint64_t off = dev_rand(&s) % (span + 64);
        if (dev_rand(&s) & 1)
            off &= ~3ull; /* favour register-aligned offsets */
        unsigned size = sizes[dev_rand(&s) % 7];
        uint64_t v = dev_rand(&s);
        if (dev_rand(&s) & 1)
            ops->write(opaque, off, v, size);
        else
            (void)ops->read(opaque, off, size);
    }
}

static inline void dev_sleep_ms(unsigned ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static inline int dev_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

#endif

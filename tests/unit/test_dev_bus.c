/* devices/bus: RAM/ROM/MMIO map, soft-TLB lookup, bus errors, DMA helpers. */
#include <string.h>
#include "../devices/dev_check.h"

typedef struct Probe {
    uint64_t last_off, last_val;
    unsigned last_size, reads, writes;
} Probe;

static uint64_t probe_read(void *o, uint64_t off, unsigned size)
{
    Probe *p = o;
    p->reads++;
    p->last_off = off;
    p->last_size = size;
    return 0x1122334455667788ull;
}

static void probe_write(void *o, uint64_t off, uint64_t v, unsigned size)
{
    Probe *p = o;
    p->writes++;
    p->last_off = off;
    p->last_val = v;
    p->last_size = size;
}

static const MmioOps probe_ops = { "probe", probe_read, probe_write };

static Bus *make_bus(Probe *p)
{
    Bus *b = bus_new();
    ck_assert_ptr_nonnull(bus_add_ram(b, "ram", 0x80000000, 0x100000, false));
    ck_assert_ptr_nonnull(bus_add_ram(b, "rom", 0x0, 0x10000, true));
    ck_assert(bus_add_mmio(b, 0x1C000000, 0x1000, &probe_ops, p));
    bus_freeze(b);
    return b;
}

START_TEST(overlaps_rejected)
{
    Probe p = { 0 };
    Bus *b = bus_new();
    ck_assert_ptr_nonnull(bus_add_ram(b, "ram", 0x80000000, 0x100000, false));
    ck_assert_ptr_null(bus_add_ram(b, "ram2", 0x800FF000, 0x2000, false));
    ck_assert_ptr_null(bus_add_ram(b, "odd", 0x90000800, 0x1000, false)); /* not page aligned */
    ck_assert(!bus_add_mmio(b, 0x80080000, 0x1000, &probe_ops, &p));
    ck_assert(bus_add_mmio(b, 0x80100000, 0x1000, &probe_ops, &p));
    ck_assert(!bus_add_mmio(b, 0xFFFFFFFFFFFFF000ull, 0x2000, &probe_ops, &p)); /* wraps */
    bus_free(b);
}
END_TEST

START_TEST(ram_fast_path)
{
    Probe p = { 0 };
    Bus *b = make_bus(&p);
    uint8_t *h = bus_ram_ptr(b, 0x80000000, true);
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_eq(bus_ram_ptr(b, 0x80001234, false), h + 0x1234);
    ck_assert_ptr_null(bus_ram_ptr(b, 0x80100000, false));   /* past the end */
    ck_assert_ptr_null(bus_ram_ptr(b, 0x1C000000, false));   /* MMIO */
    ck_assert_ptr_nonnull(bus_ram_ptr(b, 0x100, false));     /* ROM readable */
    ck_assert_ptr_null(bus_ram_ptr(b, 0x100, true));         /* ROM not writable */
    uint64_t v;
    ck_assert_int_eq(bus_write(b, 0x80000010, 0xdeadbeefcafef00dull, 8), BUS_OK);
    ck_assert_int_eq(bus_read(b, 0x80000010, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xcafef00d);
    ck_assert_uint_eq(h[0x10], 0x0d);
    ck_assert_int_eq(bus_read(b, 0x80000011, 8, &v), BUS_OK); /* unaligned RAM is fine */
    ck_assert_int_eq(bus_read(b, 0x800FFFFC, 8, &v), BUS_ERROR); /* crosses the end */
    ck_assert_int_eq(bus_write(b, 0x10, 1, 4), BUS_ERROR);      /* ROM */
    uint64_t base, size;
    bool ro;
    ck_assert(bus_ram_region(b, 0, &base, &size, &ro));
    ck_assert_uint_eq(base, 0);
    ck_assert(ro);
    ck_assert(bus_ram_region(b, 1, &base, &size, &ro));
    ck_assert_uint_eq(base, 0x80000000);
    ck_assert(!bus_ram_region(b, 2, &base, &size, &ro));
    bus_free(b);
}
END_TEST

START_TEST(mmio_dispatch_and_errors)
{
    Probe p = { 0 };
    Bus *b = make_bus(&p);
    uint64_t v;
    static const unsigned sizes[] = { 1, 2, 4, 8 };
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(bus_read(b, 0x1C000010, sizes[i], &v), BUS_OK);
        ck_assert_uint_eq(p.last_off, 0x10);
        ck_assert_uint_eq(p.last_size, sizes[i]);
        ck_assert_uint_eq(v, sizes[i] == 8 ? 0x1122334455667788ull
                                           : 0x1122334455667788ull & ((1ull << (8 * sizes[i])) - 1));
        ck_assert_int_eq(bus_write(b, 0x1C000ff8, 0xffffffffffffffffull, sizes[i]), BUS_OK);
        ck_assert_uint_eq(p.last_val, sizes[i] == 8 ? ~0ull : (1ull << (8 * sizes[i])) - 1);
    }
    unsigned before = p.reads + p.writes;
    ck_assert_int_eq(bus_read(b, 0x1C000002, 4, &v), BUS_ERROR);  /* unaligned MMIO */
    ck_assert_int_eq(bus_read(b, 0x1C000000, 3, &v), BUS_ERROR);  /* bad size */
    ck_assert_int_eq(bus_read(b, 0x1C000000, 16, &v), BUS_ERROR);
    ck_assert_int_eq(bus_read(b, 0x1C001000, 4, &v), BUS_ERROR);  /* unassigned */
    ck_assert_int_eq(bus_write(b, 0x40000000, 0, 4), BUS_ERROR);
    ck_assert_int_eq(bus_read(b, 0xFFFFFFFFFFFFFFF8ull, 8, &v), BUS_ERROR);
    ck_assert_uint_eq(v, 0);
    ck_assert_uint_eq(p.reads + p.writes, before); /* no callback for rejected accesses */
    bus_free(b);
}
END_TEST

START_TEST(dma_and_load)
{
    Probe p = { 0 };
    Bus *b = make_bus(&p);
    uint8_t buf[64], out[64];
    for (int i = 0; i < 64; i++)
        buf[i] = (uint8_t)i;
    ck_assert_int_eq(bus_dma_write(b, 0x80000100, buf, sizeof buf), BUS_OK);
    ck_assert_int_eq(bus_dma_read(b, 0x80000100, out, sizeof out), BUS_OK);
    ck_assert_mem_eq(buf, out, 64);
    ck_assert_int_eq(bus_dma_write(b, 0x800FFFF0, buf, 64), BUS_ERROR); /* crosses end */
    ck_assert_int_eq(bus_dma_write(b, 0x0, buf, 64), BUS_ERROR);        /* ROM */
    ck_assert_int_eq(bus_load(b, 0x0, buf, 64), BUS_OK);                /* firmware load */
    ck_assert_int_eq(bus_dma_read(b, 0x0, out, 64), BUS_OK);
    ck_assert_mem_eq(buf, out, 64);
    ck_assert_int_eq(bus_dma_read(b, 0x1C000000, out, 4), BUS_ERROR);   /* not RAM */
    bus_free(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_bus");
    TCase *tc = tcase_create("bus");
    tcase_add_test(tc, overlaps_rejected);
    tcase_add_test(tc, ram_fast_path);
    tcase_add_test(tc, mmio_dispatch_and_errors);
    tcase_add_test(tc, dma_and_load);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}

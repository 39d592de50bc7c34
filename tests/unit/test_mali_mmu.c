/* devices/mali: GPU MMU: Mali-LPAE walks (4 KiB pages, 2 MiB blocks), invalid descriptors at
 * each level, permissions (read-only, execute-never), page-table bus faults, output-size faults,
 * identity / disabled address spaces, the TLB and the AS commands that invalidate it, fault
 * registers and the MMU interrupt, hostile tables. */
#include "mali_harness.h"

static uint32_t tr(unsigned as, uint64_t va, unsigned access, uint64_t *pa, bool *bus)
{
    pthread_mutex_lock(&h.m->lock);
    uint32_t r = mali_as_translate(h.m, as, va, access, pa, bus);
    pthread_mutex_unlock(&h.m->lock);
    return r;
}

START_TEST(walk_valid)
{
    h_setup();
    h_driver_init();
    uint64_t page = h_alloc_page(), pa;
    bool bus;
    h_map(1, 0x12345000, page, H_PTE_RW);
    h_map_block(1, 0x40000000, H_RAM_BASE, H_PTE_RW); /* 2 MiB block */
    h_as_enable(1);
    ck_assert_uint_eq(tr(1, 0x12345678, MALI_ACCESS_READ, &pa, &bus), 0);
    ck_assert_uint_eq(pa, page + 0x678);
    ck_assert_uint_eq(tr(1, 0x12345FFF, MALI_ACCESS_WRITE, &pa, &bus), 0);
    ck_assert_uint_eq(pa, page + 0xFFF);
    ck_assert_uint_eq(tr(1, 0x12345000, MALI_ACCESS_EXECUTE, &pa, &bus), 0);
    ck_assert_uint_eq(tr(1, 0x12345000, MALI_ACCESS_ATOMIC, &pa, &bus), 0);
    ck_assert_uint_eq(tr(1, 0x401ABCDE, MALI_ACCESS_READ, &pa, &bus), 0);
    ck_assert_uint_eq(pa, H_RAM_BASE + 0x1ABCDE);
    /* the same VA in another AS is not mapped there */
    h_as_enable(2);
    ck_assert_uint_eq(tr(2, 0x12345678, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(0));
    ck_assert(!bus);
    ck_assert_uint_eq(rd(ASR(1, AS_TRANSTAB_LO)) & 7, 7);
    ck_assert_uint_eq(rd(ASR(1, AS_MEMATTR_LO)), 0x00888D88);
    ck_assert_uint_eq(rd(ASR(1, AS_STATUS)), 0);
    h_teardown();
}
END_TEST

START_TEST(walk_invalid)
{
    h_setup();
    uint64_t page = h_alloc_page(), pa;
    bool bus;
    h_map(0, 0x02000000, page, H_PTE_RW);
    h_as_enable(0);
    /* holes at each level */
    ck_assert_uint_eq(tr(0, 0x800000000000ull - 4096, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(0));
    ck_assert_uint_eq(tr(0, 0x4002000000ull, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(1));
    ck_assert_uint_eq(tr(0, 0x40000000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(1));
    ck_assert_uint_eq(tr(0, 0x02200000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(2));
    ck_assert_uint_eq(tr(0, 0x02001000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(3));
    /* CPU-style page descriptor (type 3) at level 3 is not a Mali leaf; type 2 is invalid */
    *h_pte_slot(0, 0x02002000, 3) = page | 3 | PTE_READ | PTE_WRITE;
    *h_pte_slot(0, 0x02003000, 3) = page | 2 | PTE_READ | PTE_WRITE;
    ck_assert_uint_eq(tr(0, 0x02002000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(3));
    ck_assert_uint_eq(tr(0, 0x02003000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(3));
    /* a level-0 leaf (512 GiB block) does not exist */
    h_wr64(h.root[0] + 8 * 5, H_RAM_BASE | H_PTE_RW);
    ck_assert_uint_eq(tr(0, 5ull << 39, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(0));
    /* VA beyond 48 bits */
    ck_assert_uint_eq(tr(0, 1ull << 48, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(0));
    /* table pointer outside RAM: bus fault on the walk */
    h_wr64(h.root[0] + 8 * 7, 0x40000000ull | 3);
    ck_assert_uint_eq(tr(0, 7ull << 39, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSTAB_BUS_FAULT(1));
    ck_assert(bus);
    /* output address beyond the 40-bit PA space */
    *h_pte_slot(0, 0x02004000, 3) = (1ull << 41) | H_PTE_RW;
    ck_assert_uint_eq(tr(0, 0x02004000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_ADDR_SIZE_FAULT_OUT(3));
    /* AS numbers beyond AS_PRESENT */
    ck_assert_uint_eq(tr(9, 0x02000000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(0));
    h_teardown();
}
END_TEST

START_TEST(walk_permissions)
{
    h_setup();
    uint64_t page = h_alloc_page(), pa;
    bool bus;
    h_map(3, 0x03000000, page, H_PTE_RO);
    h_map(3, 0x03001000, page, H_PTE_RW | H_PTE_NOEXEC);
    h_map(3, 0x03002000, page, PTE_TYPE_LEAF | PTE_WRITE); /* write-only */
    h_map_block(3, 0x03200000, H_RAM_BASE, H_PTE_RO);
    h_as_enable(3);
    ck_assert_uint_eq(tr(3, 0x03000000, MALI_ACCESS_READ, &pa, &bus), 0);
    ck_assert_uint_eq(tr(3, 0x03000000, MALI_ACCESS_WRITE, &pa, &bus), MALI_EXC_PERM_FAULT(3));
    ck_assert_uint_eq(tr(3, 0x03000000, MALI_ACCESS_ATOMIC, &pa, &bus), MALI_EXC_PERM_FAULT(3));
    ck_assert_uint_eq(tr(3, 0x03000000, MALI_ACCESS_EXECUTE, &pa, &bus), 0);
    ck_assert_uint_eq(tr(3, 0x03001000, MALI_ACCESS_WRITE, &pa, &bus), 0);
    ck_assert_uint_eq(tr(3, 0x03001000, MALI_ACCESS_EXECUTE, &pa, &bus), MALI_EXC_PERM_FAULT(3));
    ck_assert_uint_eq(tr(3, 0x03002000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_PERM_FAULT(3));
    ck_assert_uint_eq(tr(3, 0x03002000, MALI_ACCESS_WRITE, &pa, &bus), 0);
    ck_assert_uint_eq(tr(3, 0x03210000, MALI_ACCESS_WRITE, &pa, &bus), MALI_EXC_PERM_FAULT(2));
    /* from the TLB the same answers */
    ck_assert_uint_eq(tr(3, 0x03001008, MALI_ACCESS_EXECUTE, &pa, &bus), MALI_EXC_PERM_FAULT(3));
    ck_assert_uint_eq(tr(3, 0x03210000, MALI_ACCESS_WRITE, &pa, &bus), MALI_EXC_PERM_FAULT(2));
    h_teardown();
}
END_TEST

START_TEST(modes_identity_and_disabled)
{
    h_setup();
    uint64_t pa;
    bool bus;
    /* reset: AS unconfigured */
    ck_assert_uint_eq(tr(0, 0x1000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(0));
    wr(ASR(0, AS_TRANSTAB_LO), AS_TRANSTAB_ADRMODE_IDENTITY);
    ck_assert_uint_eq(tr(0, 0x1000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(0));
    wr(ASR(0, AS_COMMAND), AS_CMD_UPDATE); /* only UPDATE latches it */
    ck_assert_uint_eq(tr(0, H_RAM_BASE + 0x10, MALI_ACCESS_WRITE, &pa, &bus), 0);
    ck_assert_uint_eq(pa, H_RAM_BASE + 0x10);
    /* TRANSCFG: identity / unmapped override; AArch64 formats are not supported */
    wr(ASR(0, AS_TRANSTAB_LO), 0);
    wr(ASR(0, AS_TRANSCFG_LO), 2);
    wr(ASR(0, AS_COMMAND), AS_CMD_UPDATE);
    ck_assert_uint_eq(tr(0, 0x2000, MALI_ACCESS_READ, &pa, &bus), 0);
    wr(ASR(0, AS_TRANSCFG_LO), 6);
    wr(ASR(0, AS_COMMAND), AS_CMD_UPDATE);
    ck_assert_uint_ne(tr(0, 0x2000, MALI_ACCESS_READ, &pa, &bus), 0);
    wr(ASR(0, AS_TRANSCFG_LO), 0);
    /* enabled then disabled the way panfrost does */
    uint64_t page = h_alloc_page();
    h_map(0, 0x5000000, page, H_PTE_RW);
    h_as_enable(0);
    ck_assert_uint_eq(tr(0, 0x5000000, MALI_ACCESS_READ, &pa, &bus), 0);
    h_as_disable(0);
    ck_assert_uint_eq(tr(0, 0x5000000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(0));
    h_teardown();
}
END_TEST

START_TEST(tlb_and_as_commands)
{
    h_setup();
    h_driver_init();
    uint64_t p1 = h_alloc_page(), p2 = h_alloc_page(), pa;
    bool bus;
    h_map(4, 0x06000000, p1, H_PTE_RW);
    h_map(4, 0x06101000, p1, H_PTE_RW);
    h_as_enable(4);
    ck_assert_uint_eq(tr(4, 0x06000000, MALI_ACCESS_READ, &pa, &bus), 0);
    ck_assert_uint_eq(pa, p1);
    ck_assert_uint_eq(tr(4, 0x06101000, MALI_ACCESS_READ, &pa, &bus), 0);
    uint64_t walks = h.m->as[4].walks;
    /* page-table edits are not seen until a flush: the TLB answers */
    h_map(4, 0x06000000, p2, H_PTE_RW);
    h_map(4, 0x06101000, p2, H_PTE_RW);
    ck_assert_uint_eq(tr(4, 0x06000000, MALI_ACCESS_READ, &pa, &bus), 0);
    ck_assert_uint_eq(pa, p1);
    ck_assert_uint_eq(h.m->as[4].walks, walks);
    /* LOCK alone changes nothing; FLUSH_PT invalidates the locked 32 KiB region only */
    h_flush_range(4, 0x06000000, 4096);
    ck_assert_uint_eq(rd(ASR(4, AS_STATUS)), 0);
    ck_assert_uint_eq(tr(4, 0x06000000, MALI_ACCESS_READ, &pa, &bus), 0);
    ck_assert_uint_eq(pa, p2);
    ck_assert_uint_eq(tr(4, 0x06101000, MALI_ACCESS_READ, &pa, &bus), 0);
    ck_assert_uint_eq(pa, p1);
    /* FLUSH_MEM without a lock: everything */
    wr(ASR(4, AS_COMMAND), AS_CMD_FLUSH_MEM);
    ck_assert_uint_eq(tr(4, 0x06101000, MALI_ACCESS_READ, &pa, &bus), 0);
    ck_assert_uint_eq(pa, p2);
    /* unmap + UPDATE */
    h_unmap(4, 0x06101000);
    ck_assert_uint_eq(tr(4, 0x06101000, MALI_ACCESS_READ, &pa, &bus), 0);
    wr(ASR(4, AS_COMMAND), AS_CMD_UPDATE);
    ck_assert_uint_eq(tr(4, 0x06101000, MALI_ACCESS_READ, &pa, &bus), MALI_EXC_TRANSLATION_FAULT(3));
    /* LOCKADDR register round trip, UNLOCK, NOP, unknown commands */
    wr(ASR(4, AS_LOCKADDR_LO), 0x06000000 | 14);
    wr(ASR(4, AS_LOCKADDR_HI), 0);
    ck_assert_uint_eq(rd(ASR(4, AS_LOCKADDR_LO)), 0x06000000 | 14);
    wr(ASR(4, AS_COMMAND), AS_CMD_LOCK);
    ck_assert(h.m->as[4].locked);
    ck_assert_uint_eq(h.m->as[4].lock_size, 32768);
    wr(ASR(4, AS_COMMAND), AS_CMD_UNLOCK);
    ck_assert(!h.m->as[4].locked);
    wr(ASR(4, AS_COMMAND), AS_CMD_NOP);
    wr(ASR(4, AS_COMMAND), 0xFF);
    ck_assert_uint_eq(rd(ASR(4, AS_STATUS)), 0);
    h_teardown();
}
END_TEST

START_TEST(mmu_irq_registers)
{
    h_setup();
    h_driver_init();
    ck_assert_uint_eq(rd(MMU_IRQ_MASK), ~0u);
    ck_assert(!h_line(H_INTID_MMU));
    /* a fault as the job manager reports it */
    h_map_arena(5);
    h_as_enable(5);
    h_write_value(H_VA_BASE, 1, 0, 0, 0, 0x7000000, WRITE_VALUE_IMM32, 1);
    h_submit(1, H_VA_BASE, 5, false);
    ck_assert(h_wait_stalled(1));
    ck_assert_uint_eq(rd(MMU_IRQ_RAWSTAT), 1u << 5);
    ck_assert_uint_eq(rd(MMU_IRQ_STATUS), 1u << 5);
    ck_assert(h_line(H_INTID_MMU));
    ck_assert_uint_eq(rd(ASR(5, AS_FAULTSTATUS)), MALI_EXC_TRANSLATION_FAULT(2) | MALI_ACCESS_WRITE << 8);
    ck_assert_uint_eq(rd(ASR(5, AS_FAULTADDRESS_LO)), 0x7000000);
    ck_assert_uint_eq(rd(ASR(5, AS_FAULTADDRESS_HI)), 0);
    /* hard handler masks, thread clears */
    wr(MMU_IRQ_MASK, 0);
    ck_assert(!h_line(H_INTID_MMU));
    wr(MMU_IRQ_CLEAR, 0x10001u << 5);
    wr(MMU_IRQ_MASK, ~0u);
    ck_assert(!h_line(H_INTID_MMU));
    /* unhandled: the driver disables the AS and the job dies */
    h_as_disable(5);
    uint32_t raw = h_wait(JOB_IRQ_RAWSTAT, 1u << 17);
    ck_assert_uint_eq(raw, 1u << 17);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_TRANSLATION_FAULT(2));
    h_teardown();
}
END_TEST

START_TEST(hostile_tables)
{
    h_setup();
    uint64_t s = 0xfeed, pa;
    bool bus;
    /* random garbage as page tables, random TRANSTAB/TRANSCFG and VAs: answers only */
    for (unsigned i = 0; i < 512 * 64; i++)
        h_wr64(H_RAM_BASE + 0x200000 + 8 * i, (dev_rand(&s) & ~0xFFFFFF0000000000ull) |
                                                  ((dev_rand(&s) & 1) ? (H_RAM_BASE + 0x200000 + (dev_rand(&s) % 64) * 4096) : 0));
    for (unsigned i = 0; i < 20000; i++) {
        unsigned as = (unsigned)(dev_rand(&s) % 10);
        if (as < 8 && dev_rand(&s) % 8 == 0) {
            uint64_t t = (dev_rand(&s) & 1) ? (H_RAM_BASE + 0x200000 + (dev_rand(&s) % 64) * 4096) | 3
                                            : dev_rand(&s);
            wr(ASR(as, AS_TRANSTAB_LO), (uint32_t)t);
            wr(ASR(as, AS_TRANSTAB_HI), (uint32_t)(t >> 32));
            if (dev_rand(&s) % 4 == 0)
                wr(ASR(as, AS_TRANSCFG_LO), (uint32_t)dev_rand(&s));
            wr(ASR(as, AS_COMMAND), (uint32_t)(dev_rand(&s) % 6));
        }
        uint64_t va = (dev_rand(&s) & 1) ? dev_rand(&s) : dev_rand(&s) & 0xFFFFFFFFFFFFull;
        uint32_t r = tr(as, va, (unsigned)(dev_rand(&s) & 3), &pa, &bus);
        if (r == 0)
            ck_assert_uint_lt(pa, 1ull << 40);
        else
            ck_assert_uint_ge(r, 0xC0);
    }
    h_teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mali_mmu");
    TCase *tc = tcase_create("mmu");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, walk_valid);
    tcase_add_test(tc, walk_invalid);
    tcase_add_test(tc, walk_permissions);
    tcase_add_test(tc, modes_identity_and_disabled);
    tcase_add_test(tc, tlb_and_as_commands);
    tcase_add_test(tc, mmu_irq_registers);
    tcase_add_test(tc, hostile_tables);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}

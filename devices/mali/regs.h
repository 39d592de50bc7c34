/* Mali Bifrost (job-manager GPUs: G71/G72/G52) register map, bits and exception codes, as used
 * by Linux 6.12 panfrost.  Facts: /work/shared/reference/mali-bifrost-interface.md (§2, §6).
 * Offsets are bytes from the GPU MMIO base; every register is 32 bits. */
#ifndef MALIBU_MALI_REGS_H
#define MALIBU_MALI_REGS_H

#include "mali_formats.h"   /* exception codes (enum mali_exc) */

/* ---- GPU control block ---------------------------------------------------------------------- */
#define GPU_ID 0x000
#define GPU_L2_FEATURES 0x004
#define GPU_CORE_FEATURES 0x008
#define GPU_TILER_FEATURES 0x00C
#define GPU_MEM_FEATURES 0x010
#define GPU_MMU_FEATURES 0x014
#define GPU_AS_PRESENT 0x018
#define GPU_JS_PRESENT 0x01C
#define GPU_IRQ_RAWSTAT 0x020
#define GPU_IRQ_CLEAR 0x024
#define GPU_IRQ_MASK 0x028
#define GPU_IRQ_STATUS 0x02C
#define GPU_COMMAND 0x030
#define GPU_STATUS 0x034
#define GPU_LATEST_FLUSH_ID 0x038
#define GPU_FAULT_STATUS 0x03C
#define GPU_FAULT_ADDRESS_LO 0x040
#define GPU_FAULT_ADDRESS_HI 0x044
#define GPU_AFBC_FEATURES 0x04C
#define GPU_PWR_KEY 0x050
#define GPU_PWR_OVERRIDE0 0x054
#define GPU_PWR_OVERRIDE1 0x058
#define GPU_PRFCNT_BASE_LO 0x060
#define GPU_PRFCNT_BASE_HI 0x064
#define GPU_PRFCNT_CONFIG 0x068
#define GPU_PRFCNT_JM_EN 0x06C
#define GPU_PRFCNT_SHADER_EN 0x070
#define GPU_PRFCNT_TILER_EN 0x074
#define GPU_PRFCNT_MMU_L2_EN 0x07C
#define GPU_CYCLE_COUNT_LO 0x090
#define GPU_CYCLE_COUNT_HI 0x094
#define GPU_TIMESTAMP_LO 0x098
#define GPU_TIMESTAMP_HI 0x09C
#define GPU_THREAD_MAX_THREADS 0x0A0
#define GPU_THREAD_MAX_WORKGROUP_SIZE 0x0A4
#define GPU_THREAD_MAX_BARRIER_SIZE 0x0A8
#define GPU_THREAD_FEATURES 0x0AC
#define GPU_TEXTURE_FEATURES(n) (0x0B0 + 4 * (n))
#define GPU_JS_FEATURES(n) (0x0C0 + 4 * (n))
#define GPU_SHADER_PRESENT_LO 0x100
#define GPU_SHADER_PRESENT_HI 0x104
#define GPU_TILER_PRESENT_LO 0x110
#define GPU_TILER_PRESENT_HI 0x114
#define GPU_L2_PRESENT_LO 0x120
#define GPU_L2_PRESENT_HI 0x124
/* power domains: base + 0x10 * domain (0 shader, 1 tiler, 2 l2), LO word at +0, HI at +4 */
#define GPU_PWR_READY 0x140
#define GPU_PWR_PWRON 0x180
#define GPU_PWR_PWROFF 0x1C0
#define GPU_PWR_PWRTRANS 0x200
#define GPU_PWR_ACTIVE 0x240
#define GPU_SHADER_READY_LO 0x140
#define GPU_TILER_READY_LO 0x150
#define GPU_L2_READY_LO 0x160
#define GPU_SHADER_PWRON_LO 0x180
#define GPU_TILER_PWRON_LO 0x190
#define GPU_L2_PWRON_LO 0x1A0
#define GPU_SHADER_PWROFF_LO 0x1C0
#define GPU_TILER_PWROFF_LO 0x1D0
#define GPU_L2_PWROFF_LO 0x1E0
#define GPU_SHADER_PWRTRANS_LO 0x200
#define GPU_TILER_PWRTRANS_LO 0x210
#define GPU_L2_PWRTRANS_LO 0x220
#define GPU_COHERENCY_FEATURES 0x300
#define GPU_COHERENCY_ENABLE 0x304
#define GPU_THREAD_TLS_ALLOC 0x310
#define GPU_STACK_PRESENT_LO 0xE00
#define GPU_STACK_PRESENT_HI 0xE04
#define GPU_JM_CONFIG 0xF00
#define GPU_SHADER_CONFIG 0xF04
#define GPU_TILER_CONFIG 0xF08
#define GPU_L2_MMU_CONFIG 0xF0C

#define GPU_IRQ_FAULT (1u << 0)
#define GPU_IRQ_MULTIPLE_FAULT (1u << 7)
#define GPU_IRQ_RESET_COMPLETED (1u << 8)
#define GPU_IRQ_POWER_CHANGED_SINGLE (1u << 9)
#define GPU_IRQ_POWER_CHANGED_ALL (1u << 10)
#define GPU_IRQ_PRFCNT_SAMPLE_COMPLETED (1u << 16)
#define GPU_IRQ_CLEAN_CACHES_COMPLETED (1u << 17)
#define GPU_IRQ_ALL 0x00030781u

#define GPU_CMD_NOP 0
#define GPU_CMD_SOFT_RESET 1
#define GPU_CMD_HARD_RESET 2
#define GPU_CMD_PRFCNT_CLEAR 3
#define GPU_CMD_PRFCNT_SAMPLE 4
#define GPU_CMD_CYCLE_COUNT_START 5
#define GPU_CMD_CYCLE_COUNT_STOP 6
#define GPU_CMD_CLEAN_CACHES 7
#define GPU_CMD_CLEAN_INV_CACHES 8

#define GPU_STATUS_PRFCNT_ACTIVE (1u << 2)

/* ---- job control block ---------------------------------------------------------------------- */
#define JOB_IRQ_RAWSTAT 0x1000
#define JOB_IRQ_CLEAR 0x1004
#define JOB_IRQ_MASK 0x1008
#define JOB_IRQ_STATUS 0x100C
#define JOB_IRQ_JS_STATE 0x1010
#define JOB_IRQ_THROTTLE 0x1014
#define JS_BASE 0x1800
#define JS_STRIDE 0x80
#define JS_NUM 3
#define JS_HEAD_LO 0x00
#define JS_HEAD_HI 0x04
#define JS_TAIL_LO 0x08
#define JS_TAIL_HI 0x0C
#define JS_AFFINITY_LO 0x10
#define JS_AFFINITY_HI 0x14
#define JS_CONFIG 0x18
#define JS_XAFFINITY 0x1C
#define JS_COMMAND 0x20
#define JS_STATUS 0x24
#define JS_HEAD_NEXT_LO 0x40
#define JS_HEAD_NEXT_HI 0x44
#define JS_AFFINITY_NEXT_LO 0x50
#define JS_AFFINITY_NEXT_HI 0x54
#define JS_CONFIG_NEXT 0x58
#define JS_XAFFINITY_NEXT 0x5C
#define JS_COMMAND_NEXT 0x60
#define JS_FLUSH_ID_NEXT 0x70

#define JS_CMD_NOP 0
#define JS_CMD_START 1
#define JS_CMD_SOFT_STOP 2
#define JS_CMD_HARD_STOP 3
#define JS_CMD_SOFT_STOP_0 4
#define JS_CMD_HARD_STOP_0 5
#define JS_CMD_SOFT_STOP_1 6
#define JS_CMD_HARD_STOP_1 7

#define JS_CONFIG_AS_MASK 0xFu
#define JS_CONFIG_START_FLUSH_CLEAN (1u << 8)
#define JS_CONFIG_START_FLUSH_INV (1u << 9)
#define JS_CONFIG_START_MMU (1u << 10)
#define JS_CONFIG_JOB_CHAIN_FLAG (1u << 11)
#define JS_CONFIG_END_FLUSH_CLEAN (1u << 12)
#define JS_CONFIG_END_FLUSH_INV (1u << 13)
#define JS_CONFIG_ENABLE_FLUSH_REDUCTION (1u << 14)
#define JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK (1u << 15)

/* ---- MMU block ------------------------------------------------------------------------------ */
#define MMU_IRQ_RAWSTAT 0x2000
#define MMU_IRQ_CLEAR 0x2004
#define MMU_IRQ_MASK 0x2008
#define MMU_IRQ_STATUS 0x200C
#define AS_BASE 0x2400
#define AS_STRIDE 0x40
#define AS_NUM 8
#define AS_TRANSTAB_LO 0x00
#define AS_TRANSTAB_HI 0x04
#define AS_MEMATTR_LO 0x08
#define AS_MEMATTR_HI 0x0C
#define AS_LOCKADDR_LO 0x10
#define AS_LOCKADDR_HI 0x14
#define AS_COMMAND 0x18
#define AS_FAULTSTATUS 0x1C
#define AS_FAULTADDRESS_LO 0x20
#define AS_FAULTADDRESS_HI 0x24
#define AS_STATUS 0x28
#define AS_TRANSCFG_LO 0x30
#define AS_TRANSCFG_HI 0x34
#define AS_FAULTEXTRA_LO 0x38
#define AS_FAULTEXTRA_HI 0x3C

#define AS_CMD_NOP 0
#define AS_CMD_UPDATE 1
#define AS_CMD_LOCK 2
#define AS_CMD_UNLOCK 3
#define AS_CMD_FLUSH_PT 4
#define AS_CMD_FLUSH_MEM 5

/* AS_TRANSTAB (Mali LPAE "legacy" mode) */
#define AS_TRANSTAB_ADRMODE_MASK 0x3u
#define AS_TRANSTAB_ADRMODE_UNMAPPED 1u
#define AS_TRANSTAB_ADRMODE_IDENTITY 2u
#define AS_TRANSTAB_ADRMODE_TABLE 3u
#define AS_TRANSTAB_ADDR_MASK 0x0000FFFFFFFFF000ull
/* AS_TRANSCFG ADRMODE [3:0]: 0 = legacy (TRANSTAB decides), 1 unmapped, 2 identity */
#define AS_TRANSCFG_ADRMODE_MASK 0xFu

/* FAULTSTATUS access type [9:8] */
#define MALI_ACCESS_ATOMIC 0u
#define MALI_ACCESS_EXECUTE 1u
#define MALI_ACCESS_READ 2u
#define MALI_ACCESS_WRITE 3u

/* Mali-LPAE descriptors (io-pgtable ARM_MALI_LPAE) */
#define PTE_TYPE_MASK 0x3ull
#define PTE_TYPE_TABLE 0x3ull /* levels 0-2 */
#define PTE_TYPE_LEAF 0x1ull  /* any level >= 1 (block at 1/2, page at 3) */
#define PTE_READ (1ull << 6)
#define PTE_WRITE (1ull << 7)
#define PTE_XN (3ull << 53)
#define PTE_ADDR_MASK 0x0000FFFFFFFFF000ull

/* ---- exception codes (JS_STATUS, job header status, FAULTSTATUS[7:0]) -------------------------
 * MALI_EXC_OK, MALI_EXC_DONE, ... MALI_EXC_DATA_INVALID_FAULT: enum mali_exc in mali_formats.h
 * (generated from isa/mali/bifrost.fmt); the faults with a page-table level: */
#define MALI_EXC_TRANSLATION_FAULT(level) (MALI_EXC_TRANSLATION_FAULT_LEVEL_0 + (level))
#define MALI_EXC_PERM_FAULT(level) (MALI_EXC_PERMISSION_FAULT_LEVEL_0 + (level))
#define MALI_EXC_TRANSTAB_BUS_FAULT(level) (MALI_EXC_TRANSTAB_BUS_FAULT_LEVEL_0 + (level))
#define MALI_EXC_ADDR_SIZE_FAULT_OUT(level) (MALI_EXC_ADDRESS_SIZE_FAULT_OUT_LEVEL_0 + (level))

/* ---- job descriptors (v6/v7 genxml) ----------------------------------------------------------- */
#define JOB_HEADER_SIZE 32
#define JOB_TYPE_NOT_STARTED 0
#define JOB_TYPE_NULL 1
#define JOB_TYPE_WRITE_VALUE 2
#define JOB_TYPE_CACHE_FLUSH 3
#define JOB_TYPE_COMPUTE 4
#define JOB_TYPE_VERTEX 5
#define JOB_TYPE_GEOMETRY 6
#define JOB_TYPE_TILER 7
#define JOB_TYPE_FUSED 8
#define JOB_TYPE_FRAGMENT 9
#define JOB_TYPE_INDEXED_VERTEX 10

#define WRITE_VALUE_CYCLE_COUNTER 1
#define WRITE_VALUE_SYSTEM_TIMESTAMP 2
#define WRITE_VALUE_ZERO 3
#define WRITE_VALUE_IMM8 4
#define WRITE_VALUE_IMM16 5
#define WRITE_VALUE_IMM32 6
#define WRITE_VALUE_IMM64 7

#endif

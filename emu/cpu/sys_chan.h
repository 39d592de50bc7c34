/* The guest-to-emulator channel's instruction (docs/guest-channel.md): a reserved A64 encoding
 * that the full-system translator turns into a call of the machine's channel function, in the
 * manner of gem5's m5ops.  Any EL may execute it; arguments in x0..x3, the result in x0.
 *
 *   31      24 23     16 15      8 7       0
 *   0010 0000  0100 1101 0100 1100  op (8 bits)      = SYS_CHAN_BASE | op
 *
 * Bits 31 = 0 and 28:25 = 0000 put it in the "reserved" encoding group, where only UDF
 * (bits 31:16 = 0) is allocated: the encoding is UNDEFINED on every Armv8 CPU, so a program
 * that runs it elsewhere without looking first gets SIGILL, not silent misbehaviour. */
#ifndef MALIBU_SYS_CHAN_H
#define MALIBU_SYS_CHAN_H

#include <stdbool.h>
#include <stdint.h>

#define SYS_CHAN_BASE 0x204D4C00u   /* "ML" in bits 23:8 */
#define SYS_CHAN_MASK 0xFFFFFF00u

struct SysCPU;
struct DisasCtx;
/* The machine's channel (emu/system/guest_channel.c): op = the encoding's low 8 bits, a = x0..x3
 * as the instruction saw them; returns the new x0.  NULL: the encoding stays UNDEFINED. */
typedef uint64_t (*SysChanFn)(struct SysCPU *s, unsigned op, const uint64_t a[4]);
extern SysChanFn sys_chan_call;

/* Translate insn if it is the channel's encoding (and a channel is installed). */
bool sys_chan_translate(struct DisasCtx *d, uint32_t insn);

#endif

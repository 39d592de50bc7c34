#!/usr/bin/env python3
"""Seed inputs for fuzz_gdb: packet streams as gdb-multiarch sends them (attach, registers,
memory, breakpoints, watchpoints, vCont, monitor, target description), one file each.

    gdb_seeds.py OUTDIR
"""
import os
import sys


def packet(payload):
    return b"$" + payload + b"#" + b"%02x" % (sum(payload) & 0xff)


SESSIONS = {
    "attach": [b"qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;xmlRegisters=aarch64",
               b"vMustReplyEmpty", b"Hg0", b"qXfer:features:read:target.xml:0,ffb", b"qTStatus",
               b"?", b"qfThreadInfo", b"qsThreadInfo", b"qAttached", b"Hc-1", b"qC", b"g"],
    "memory": [b"m10000,40", b"M10000,4:01020304", b"X10010,4:" + bytes([0x7d, 0x5d, 0x41, 0x42, 0x43]),
               b"m1fff0,20", b"p20", b"P1f=0011223344556677", b"G" + b"00" * 268],
    "points": [b"Z0,10000,4", b"Z1,10004,4", b"Z2,10008,8", b"Z3,10010,4", b"Z4,10020,1",
               b"z0,10000,4", b"z2,10008,8", b"vCont?", b"vCont;s:1;c", b"vCont;c", b"s", b"c"],
    "monitor": [b"qRcmd,68656c70", b"qRcmd,746c62", b"qThreadExtraInfo,2", b"T2", b"Hg2", b"D"],
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, packets in SESSIONS.items():
        with open(os.path.join(out, name + ".bin"), "wb") as f:
            f.write(b"+".join(packet(p) for p in packets) + b"\x03")


main()

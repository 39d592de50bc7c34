#!/usr/bin/env python3
"""GDB stub test (make gdb-test): Debian's gdb-multiarch against Debian's kernel on build/malibu.

Boots IMAGE, $(IMAGE_OUT)/Image (nokaslr), with the busybox initramfs and --gdb 0, then:
1. Raw protocol: malformed packets (bad checksum, bad hex, oversized, unknown commands, a NUL,
   random bytes) get NAKs / error replies and malibu keeps running; Ctrl-C (0x03) stops a
   running machine with SIGINT; detaching lets it run on (the guest shell still answers).
2. gdb-multiarch in batch mode: attaches, breaks on vfs_read (address from the guest's
   /proc/kallsyms) when count == 12345, while the guest runs `dd bs=12345 count=1`; checks the
   PC and x2 (the count the command passed), x/i, a stepi (PC + 4), a write watchpoint on
   jiffies (old -> new value), then continues to the guest's power-off: gdb reports the exit and
   malibu exits with 0.

usage: gdb_test.py MALIBU IMAGE INITRAMFS [LOGDIR]
"""
import os
import random
import re
import select
import socket
import subprocess
import sys
import time

MALIBU, IMAGE, INITRD = sys.argv[1:4]
LOGDIR = sys.argv[4] if len(sys.argv) > 4 else "."
TIMEOUT = float(os.environ.get("BOOT_TIMEOUT", "300"))
GDB = os.environ.get("GDB", "gdb-multiarch")
PROMPT = b"~ # "
failures = []
EXTRA_ARGS = os.environ.get("GDB_TEST_ARGS", "").split()
# vCPUs are the stub's threads 1..N (--smp N in GDB_TEST_ARGS)
NCPUS = int(EXTRA_ARGS[EXTRA_ARGS.index("--smp") + 1]) if "--smp" in EXTRA_ARGS else 1
THREADS = "m" + ",".join("%x" % (i + 1) for i in range(NCPUS))


def fail(msg):
    print("FAIL: " + msg, flush=True)
    failures.append(msg)


class Guest:
    def __init__(self):
        cmd = [MALIBU, "--kernel", IMAGE, "--initrd", INITRD, "--gdb", "0",
               "--append", "console=ttyAMA0 panic=-1 nokaslr"] + EXTRA_ARGS
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.out = b""
        self.pos = 0

    def _read(self, timeout):
        r, _, _ = select.select([self.p.stdout], [], [], timeout)
        if r:
            data = os.read(self.p.stdout.fileno(), 65536)
            self.out += data
            return bool(data)
        return False

    def expect(self, pattern, timeout):
        rx = re.compile(pattern)
        deadline = time.time() + timeout
        while True:
            m = rx.search(self.out, self.pos)
            if m:
                self.pos = m.end()
                return m
            left = deadline - time.time()
            if left <= 0 or (self.p.poll() is not None and not self._read(0)):
                return None
            self._read(min(left, 0.5))

    def send(self, text):
        self.p.stdin.write(text.encode())
        self.p.stdin.flush()

    def run(self, command, timeout=120):
        self.pos = len(self.out)
        self.send(command + "\n")
        m = self.expect(re.escape(PROMPT), timeout)
        if not m:
            fail("no prompt after %r" % command)
            return ""
        return self.out[self.pos - len(m.group(0)) - 0:m.start()].decode(errors="replace") if False else \
            self.out[:m.start()].decode(errors="replace").split(command, 1)[-1]


def csum(payload):
    return "%02x" % (sum(payload.encode("latin-1")) & 0xff)


def packet(payload):
    return ("$%s#%s" % (payload, csum(payload))).encode("latin-1")


class Raw:
    """A minimal client: send bytes, collect what comes back."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""

    def recv_until(self, pattern, timeout=10):
        rx = re.compile(pattern, re.S)
        deadline = time.time() + timeout
        while not rx.search(self.buf):
            left = deadline - time.time()
            if left <= 0:
                return None
            self.s.settimeout(left)
            try:
                data = self.s.recv(65536)
            except socket.timeout:
                return None
            if not data:
                return None
            self.buf += data
        m = rx.search(self.buf)
        self.buf = self.buf[m.end():]
        return m

    def drain(self):
        """Read until the stub has been quiet for a moment; forget it all."""
        self.s.settimeout(0.5)
        try:
            while self.s.recv(65536):
                pass
        except socket.timeout:
            pass
        self.buf = b""

    def ask(self, payload, raw=None):
        """Send a packet (or raw bytes); return the reply payload (None: none)."""
        self.s.sendall(raw if raw is not None else packet(payload))
        m = self.recv_until(rb"\$([^#]*)#[0-9a-f]{2}")
        return m.group(1).decode("latin-1") if m else None


def raw_protocol(port, guest):
    r = Raw(port)
    checks = [
        ("g", None, lambda x: x is not None and len(x) > 1000 and re.fullmatch("[0-9a-f]+", x)),
        ("qSupported:multiprocess+", None, lambda x: x and "PacketSize=" in x),
        ("m zz,4", None, lambda x: x == "E01"),
        ("m" + "f" * 20 + ",4", None, lambda x: x == "E01"),
        ("m0,ffffffff", None, lambda x: x == "E01"),
        ("m10,8", None, lambda x: x and x.startswith("E")),
        ("p9999", None, lambda x: x == "E01"),
        ("P0=12", None, lambda x: x == "E01"),
        ("M0,4:zz", None, lambda x: x == "E01"),
        ("X0,10:ab", None, lambda x: x == "E01"),
        ("Z9,0,4", None, lambda x: x == ""),
        ("Z0,", None, lambda x: x == "E01"),
        ("vCont;x", None, lambda x: x == "E01"),
        ("vCont;c:99", None, lambda x: x == "E01"),
        ("Hg99", None, lambda x: x == "E01"),
        ("qRcmd,7", None, lambda x: x == "E01"),
        ("qXfer:features:read:target.xml:0,ffff", None, lambda x: x and x[0] == "l" and "aarch64.core" in x),
        ("qXfer:features:read:other.xml:0,10", None, lambda x: x and x.startswith("E")),
        ("qfThreadInfo", None, lambda x: x == THREADS),
        ("?", None, lambda x: x and x.startswith("T")),
        ("yzzz", None, lambda x: x == ""),
        ("\x00g", None, lambda x: x == "E01"),
    ]
    for payload, raw, ok in checks:
        got = r.ask(payload, raw)
        if not ok(got):
            fail("raw packet %r: reply %r" % (payload[:40], got))
    # Framing errors: bad checksum, oversized packet, a packet cut by a new one -> NAK ('-')
    for bad in [b"$g#00", b"$" + b"m" * 40000 + b"#00", b"$g$g#67"]:
        r.s.sendall(bad)
        if not r.recv_until(rb"-"):
            fail("no NAK for a malformed frame %r" % bad[:20])
    r.buf = b""
    # Random packets of the commands that neither resume, write nor end the machine, random
    # bytes, then the stub still answers.
    rnd = random.Random(17)
    for _ in range(300):
        n = rnd.randrange(0, 200)
        body = rnd.choice("gpmHTqz?") + "".join(chr(rnd.randrange(32, 127)) for _ in range(n))
        r.s.sendall(packet(body.replace("$", "").replace("#", "")))
    r.s.sendall(b"\x00\xff}}}##$$$" + bytes(rnd.randrange(256) for _ in range(3000)))
    r.drain()
    got = r.ask("qfThreadInfo")
    if got != THREADS:
        fail("the stub does not answer after random input (got %r)" % got)
    # Ctrl-C stops a running machine with SIGINT.
    r.s.sendall(packet("c"))
    time.sleep(1.0)
    r.buf = b""
    r.s.sendall(b"\x03")
    m = r.recv_until(rb"\$(T02[^#]*)#", timeout=20)
    if not m:
        fail("Ctrl-C: no T02 stop reply")
    got = r.ask("D")
    if got != "OK":
        fail("detach: %r" % got)
    r.s.close()
    out = guest.run("echo still-alive")
    if "still-alive" not in out:
        fail("guest did not run on after detach: %r" % out)
    print("raw protocol: %d checks done" % (len(checks) + 5), flush=True)


def gdb_session(port, guest, vfs_read, jiffies):
    script = os.path.join(LOGDIR, "gdb_test.gdb")
    with open(script, "w") as f:
        f.write("""set pagination off
set confirm off
target remote 127.0.0.1:%d
echo MARK-attached\\n
break *%#x if $x2 == 12345
echo MARK-run-dd\\n
continue
printf "PC=%%#lx X2=%%lu\\n", $pc, $x2
info registers x0 x1 x2 sp pc cpsr sctlr_el1 ttbr1_el1
x/2i $pc
stepi
printf "STEP-PC=%%#lx\\n", $pc
delete
hbreak *%#x
continue
printf "HBREAK-PC=%%#lx\\n", $pc
delete
monitor gpu
monitor xp 0x80000038 4
monitor tlb
watch *(unsigned long *)%#x
continue
printf "WATCH-PC=%%#lx\\n", $pc
delete
monitor translate %#x
echo MARK-poweroff\\n
continue
""" % (port, vfs_read, vfs_read + 8, jiffies, vfs_read))
    g = subprocess.Popen([GDB, "-nx", "-batch", "-x", script], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    out = b""
    sent = set()
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        r, _, _ = select.select([g.stdout, guest.p.stdout], [], [], 0.5)
        if guest.p.stdout in r:
            guest._read(0)
        if g.stdout in r:
            data = os.read(g.stdout.fileno(), 65536)
            if not data:
                break
            out += data
        if b"MARK-run-dd" in out and "dd" not in sent:
            sent.add("dd")
            guest.send("dd if=/dev/zero of=/dev/null bs=12345 count=1\n")
        if b"MARK-poweroff" in out and "off" not in sent:
            sent.add("off")
            guest.send("exit\n")
    try:
        g.wait(timeout=30)
    except subprocess.TimeoutExpired:
        g.kill()
        fail("gdb did not finish")
    text = out.decode(errors="replace")
    with open(os.path.join(LOGDIR, "gdb_test.gdb.log"), "w") as f:
        f.write(text)
    print(text, flush=True)
    m = re.search(r"PC=(0x[0-9a-f]+) X2=(\d+)", text)
    if not m or int(m.group(1), 16) != vfs_read or int(m.group(2)) != 12345:
        fail("breakpoint: expected PC=%#x X2=12345, got %r" % (vfs_read, m and m.group(0)))
    m = re.search(r"STEP-PC=(0x[0-9a-f]+)", text)
    if not m or int(m.group(1), 16) != vfs_read + 4:
        fail("stepi: expected PC=%#x" % (vfs_read + 4))
    m = re.search(r"HBREAK-PC=(0x[0-9a-f]+)", text)
    if not m or int(m.group(1), 16) != vfs_read + 8:
        fail("hbreak (Z1): expected PC=%#x" % (vfs_read + 8))
    if not re.search(r"g71: GPU_IRQ_RAWSTAT [0-9a-f]{8}", text) or "job slot 2: HEAD" not in text:
        fail("monitor gpu: no job slots")
    if not re.search(r"0080000038: 41 52 4d 64", text):
        fail("monitor xp: the Image header's magic (ARM\\x64) at PA 0x80000038 not shown")
    if not re.search(r"\d+ valid entries", text):
        fail("monitor tlb: no entry count")
    m = re.search(r"Old value = (\d+)\s+New value = (\d+)", text)
    if not m or int(m.group(2)) <= int(m.group(1)):
        fail("watchpoint on jiffies: no old/new value")
    if "WATCH-PC=0xffff8000" not in text:
        fail("watchpoint: PC not in the kernel")
    if not re.search(r"EL1: 0x[0-9a-f]+ -> PA 0x[0-9a-f]+, r-x", text):
        fail("monitor translate: kernel text not r-x at EL1")
    if "exited normally" not in text:
        fail("gdb did not see the guest exit normally")


def main():
    guest = Guest()
    try:
        m = guest.expect(rb"gdb: listening on 127\.0\.0\.1:(\d+)", 30)
        if not m:
            fail("no 'listening' line")
            return
        port = int(m.group(1))
        if not guest.expect(re.escape(PROMPT), TIMEOUT):
            fail("no shell prompt")
            return
        out = guest.run("echo 0 > /proc/sys/kernel/kptr_restrict; grep -E ' (vfs_read|jiffies)$' /proc/kallsyms")
        syms = dict((name, int(addr, 16)) for addr, _, name in re.findall(r"([0-9a-f]{16}) (\w) (\w+)", out))
        if "vfs_read" not in syms or "jiffies" not in syms:
            fail("kallsyms: %r" % out)
            return
        print("kallsyms: vfs_read %#x, jiffies %#x" % (syms["vfs_read"], syms["jiffies"]), flush=True)
        raw_protocol(port, guest)
        gdb_session(port, guest, syms["vfs_read"], syms["jiffies"])
        try:
            status = guest.p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            fail("malibu did not exit after the power-off")
            return
        if status != 0:
            fail("malibu exit status %d" % status)
    finally:
        if guest.p.poll() is None:
            guest.p.kill()
        guest._read(0)
        with open(os.path.join(LOGDIR, "gdb_test.console.log"), "wb") as f:
            f.write(guest.out)


main()
if failures:
    print("gdb test: %d failure(s)" % len(failures))
    sys.exit(1)
print("gdb test: OK")

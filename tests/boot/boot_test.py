#!/usr/bin/env python3
"""Boot test for build/malibu: Debian's unmodified arm64 kernel (IMAGE: the Image of
$(IMAGE_OUT), the IMAGE_STACK's image directory) with the busybox initramfs.

1. Interactive: boot to the busybox shell, type commands on the console (stdin of malibu), check
   their output, `exit` (the init script powers off: PSCI SYSTEM_OFF) -> malibu exits with 0.
   The kernel log must have no WARN/BUG/Oops/unhandled-fault/undefined-instruction messages and
   the timer, GIC, UART and RTC must probe cleanly.
   malibu runs with --debug sysreg: no system register or system instruction the kernel uses
   at EL1 may be unknown (EL0 MRS of ID registers is UNDEFINED on purpose: the kernel emulates it).
2. Terminal: the same boot on a pseudo-terminal (raw mode console), a command, then the quit key
   sequence Ctrl-A x -> malibu exits with 0.
3. Panic: malibu.run triggers a kernel panic (sysrq c); with panic=-1 the kernel resets at once and
   malibu exits with a non-zero status (82) after the panic message.

usage: boot_test.py MALIBU IMAGE INITRAMFS [LOGDIR]
"""
import os
import re
import select
import subprocess
import sys
import time

MALIBU, IMAGE, INITRD = sys.argv[1:4]
LOGDIR = sys.argv[4] if len(sys.argv) > 4 else "."
BOOT_TIMEOUT = float(os.environ.get("BOOT_TIMEOUT", "300"))
PROMPT = b"~ # "
failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


class Guest:
    def __init__(self, append=None, extra=()):
        cmd = [MALIBU, "--kernel", IMAGE, "--initrd", INITRD] + list(extra)
        if append is not None:
            cmd += ["--append", append]
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.out = b""

    def expect(self, pattern, timeout):
        """Read until pattern (bytes regex) matches the output after the current position."""
        rx = re.compile(pattern)
        deadline = time.time() + timeout
        while True:
            m = rx.search(self.out, self.pos if hasattr(self, "pos") else 0)
            if m:
                self.pos = m.end()
                return m
            left = deadline - time.time()
            if left <= 0 or self.p.poll() is not None and not self._read(0):
                return None
            self._read(min(left, 1.0))

    def _read(self, timeout):
        r, _, _ = select.select([self.p.stdout], [], [], timeout)
        if r:
            data = os.read(self.p.stdout.fileno(), 65536)
            self.out += data
            return bool(data)
        return False

    def send(self, text):
        self.p.stdin.write(text.encode())
        self.p.stdin.flush()

    def run(self, command, timeout=120):
        """Type a command, return its output (between the echoed line and the next prompt)."""
        start = len(self.out)
        self.pos = start
        self.send(command + "\n")
        m = self.expect(re.escape(PROMPT), timeout)
        if not m:
            fail("no prompt after %r" % command)
            return ""
        text = self.out[start:m.start()].decode(errors="replace").replace("\r", "")
        lines = text.split("\n")
        if lines and command in lines[0]:
            lines = lines[1:]
        return "\n".join(lines).strip()

    def wait(self, timeout):
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None
        finally:
            while self._read(0):
                pass


def check_log(log):
    bad = [r"WARNING:", r"\bBUG[: ]", r"Oops", r"Internal error", r"Unable to handle",
           r"[Uu]nhandled", r"undefined instruction", r"Unknown", r"Call trace:", r"cut here",
           r"kernel BUG", r"segfault", r"Kernel panic"]
    for pat in bad:
        for line in log.splitlines():
            if re.search(pat, line):
                fail("kernel log: %s" % line.strip())
                break
    probes = {
        "timer": r"arch_timer: cp15 timer(?:\(s\))? running at 100\.00MHz \(virt\)",
        "clocksource": r"clocksource: Switched to clocksource arch_sys_counter",
        "GIC": r"Root IRQ handler: gic_handle_irq",
        "UART": r"ttyAMA0 (?:at )?MMIO:? ?0x0*7ff80000 .* is a PL011",
        "RTC": r"rtc-pl031 1c170000\.rtc: registered as rtc0",
    }
    for name, pat in probes.items():
        if not re.search(pat, log):
            fail("%s did not probe (no /%s/ in the kernel log)" % (name, pat))


def interactive():
    g = Guest(extra=["--debug", "sysreg"])
    t0 = time.time()
    if not g.expect(rb"MALIBU_BOOT_OK", BOOT_TIMEOUT) or not g.expect(re.escape(PROMPT), 60):
        fail("no shell prompt within %ds" % BOOT_TIMEOUT)
        g.p.kill()
        g.wait(10)
        open(os.path.join(LOGDIR, "boot-interactive.log"), "wb").write(g.out)
        return
    print("shell prompt after %.1f s" % (time.time() - t0))
    checks = [
        ("echo $((6 * 7))", r"^42$"),
        ("uname -sm", r"^Linux aarch64$"),
        ("grep -c processor /proc/cpuinfo", r"^1$"),
        ("grep CPU.part /proc/cpuinfo", r"0xd07"),
        ("echo hello | md5sum", r"^b1946ac92492d2347c6235b4d2611184  -$"),
        ("i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; echo $i", r"^2000$"),
        ("dd if=/dev/zero bs=1024 count=4096 2>/dev/null | md5sum",
         r"^b5cfa9d6c8febd618f91ac2843d50a1c  -$"),
        ("cat /sys/class/rtc/rtc0/name", r"rtc-pl031"),
        ("date +%Y", r"^20\d\d$"),
        ("sleep 1; echo slept", r"^slept$"),
        ("grep -E 'GIC|arch_timer|uart-pl011' /proc/interrupts | wc -l", r"^[3-9]$"),
        ("ls /bin/busybox && echo ok", r"ok$"),
    ]
    for cmd, want in checks:
        got = g.run(cmd)
        if not re.search(want, got, re.M):
            fail("%r printed %r, expected /%s/" % (cmd, got, want))
        else:
            print("ok: %s -> %s" % (cmd, got.splitlines()[-1] if got else ""))
    dmesg = g.run("dmesg", timeout=60)
    g.send("exit\n")
    rc = g.wait(60)
    open(os.path.join(LOGDIR, "boot-interactive.log"), "wb").write(g.out)
    if rc != 0:
        fail("malibu exit status %r after exit/poweroff, expected 0" % rc)
    if b"MALIBU_EXIT=0" not in g.out:
        fail("no MALIBU_EXIT=0 from the init script")
    check_log(dmesg)
    for line in g.out.decode(errors="replace").splitlines():
        if re.match(r"malibu: (MRS|MSR) of unknown|malibu: unknown SYS", line) and "at EL0" not in line:
            fail("emulator: " + line.strip())
    print("interactive boot: malibu exit status %r" % rc)


def terminal():
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execv(MALIBU, [MALIBU, "--kernel", IMAGE, "--initrd", INITRD])
        finally:
            os._exit(127)
    out = b""
    deadline = time.time() + BOOT_TIMEOUT
    state = 0
    status = None
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 1.0)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                break
            out += data
        if state == 0 and PROMPT in out:
            os.write(fd, b"echo pty-$((40+2))\r")
            state = 1
        elif state == 1 and b"pty-42" in out.split(b"echo pty-", 1)[-1]:
            os.write(fd, b"\x01x")  # Ctrl-A x
            state = 2
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(st)
            break
    if status is None:
        try:
            done, st = os.waitpid(pid, 0 if state == 2 else os.WNOHANG)
            status = os.waitstatus_to_exitcode(st) if done else None
        except ChildProcessError:
            pass
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    os.close(fd)
    open(os.path.join(LOGDIR, "boot-terminal.log"), "wb").write(out)
    if state < 2:
        fail("terminal run: no prompt or no command output (state %d)" % state)
    elif status != 0:
        fail("terminal run: Ctrl-A x gave exit status %r, expected 0" % status)
    else:
        print("terminal run: command ran on the pty, Ctrl-A x quit with status 0")


def panic():
    g = Guest(append="console=ttyAMA0 panic=-1 malibu.run=\"echo c > /proc/sysrq-trigger\"")
    rc = g.wait(BOOT_TIMEOUT)
    open(os.path.join(LOGDIR, "boot-panic.log"), "wb").write(g.out)
    if b"Kernel panic" not in g.out:
        fail("panic run: no 'Kernel panic' message")
    if rc in (None, 0):
        fail("panic run: malibu exit status %r, expected non-zero" % rc)
    else:
        print("panic run: kernel panicked, malibu exit status %d" % rc)


interactive()
terminal()
panic()
if failures:
    print("boot test: %d failure(s)" % len(failures))
    sys.exit(1)
print("boot test: passed")

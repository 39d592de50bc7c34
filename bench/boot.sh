#!/bin/sh
# Full-system benchmark: Debian's linux-image-6.12 + the busybox initramfs (make initramfs) booted
# to the init script's marker, then a fixed workload (md5sum of 64 MB from /dev/zero, a
# 200,000-iteration busybox sh loop), in build/malibu and in qemu-system-aarch64 -M virt
# -cpu cortex-a57 (TCG) in the same run.  Times are host wall-clock seconds, taken when each
# marker appears on the console, plus the CPU time (user+sys) of each emulator process for the whole
# run (the better figure on a loaded machine).  Prints both and the ratio (malibu / qemu; < 1 =
# malibu faster).
#
# usage: bench/boot.sh [MALIBU]        (default build/malibu; RUNS=n repeats, best time kept)
set -eu
MALIBU=${1:-build/malibu}
IMAGE=${IMAGE:-guest-images/out/Image}
INITRD=${INITRD:-guest-images/out/initramfs-busybox.cpio.gz}
RUNS=${RUNS:-1}
QEMU=${QEMU:-qemu-system-aarch64}

for f in "$MALIBU" "$IMAGE" "$INITRD"; do
    [ -e "$f" ] || { echo "bench/boot.sh: missing $f (make BUILD=... build/malibu; make initramfs)" >&2; exit 1; }
done
command -v "$QEMU" >/dev/null || { echo "bench/boot.sh: $QEMU not found (apt-get install qemu-system-arm)" >&2; exit 1; }

WORK='echo BENCH_START; dd if=/dev/zero bs=1048576 count=64 2>/dev/null | md5sum; echo BENCH_MD5_DONE; i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo BENCH_LOOP_DONE $i'
B64=$(printf '%s' "$WORK" | base64 -w0)
APPEND="console=ttyAMA0 panic=-1 malibu.run64=$B64"

python3 - "$MALIBU" "$QEMU" "$IMAGE" "$INITRD" "$APPEND" "$RUNS" <<'EOF'
import os, resource, select, subprocess, sys, time
malibu, qemu, image, initrd, append, runs = sys.argv[1:7]
markers = [b"\nMALIBU_BOOT_OK", b"\nBENCH_START", b"\nBENCH_MD5_DONE", b"\nBENCH_LOOP_DONE 200000"]
md5_zero64 = b"7f614da9329cd3aebf59b91aadc30bf0"

def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def run(cmd):
    c0 = cpu_children()
    t0 = time.time()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out, seen = b"", {}
    while p.poll() is None or select.select([p.stdout], [], [], 0)[0]:
        r, _, _ = select.select([p.stdout], [], [], 1.0)
        if r:
            d = os.read(p.stdout.fileno(), 65536)
            if not d:
                break
            out += d
            for m in markers:
                if m not in seen and m in out:
                    seen[m] = time.time() - t0
        if time.time() - t0 > 1800:
            p.kill()
            break
    p.wait()
    if len(seen) != len(markers) or md5_zero64 not in out:
        sys.stdout.write(out.decode(errors="replace")[-3000:])
        sys.exit("bench/boot.sh: %s did not complete the workload" % cmd[0])
    boot = seen[markers[0]]
    md5 = seen[markers[2]] - seen[markers[1]]
    loop = seen[markers[3]] - seen[markers[2]]
    return boot, md5, loop, time.time() - t0, cpu_children() - c0

cmds = {
    "malibu": [malibu, "--kernel", image, "--initrd", initrd, "--append", append],
    "qemu": [qemu, "-M", "virt", "-cpu", "cortex-a57", "-m", "1G", "-nographic", "-no-reboot",
             "-kernel", image, "-initrd", initrd, "-append", append],
}
best = {}
for i in range(int(runs)):
    for name, cmd in cmds.items():
        r = run(cmd)
        best[name] = tuple(min(a, b) for a, b in zip(best[name], r)) if name in best else r
print("%-22s %10s %10s %8s" % ("seconds", "malibu", "qemu", "ratio"))
for i, what in enumerate(["boot to init marker", "md5sum 64 MB", "sh loop 200000", "total (to poweroff)",
                          "total CPU (user+sys)"]):
    m, q = best["malibu"][i], best["qemu"][i]
    print("%-22s %10.2f %10.2f %8.2f" % (what, m, q, m / q if q else 0))
EOF

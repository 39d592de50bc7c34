#!/bin/sh
# Full-system benchmark: Debian's linux-image-6.12 + the busybox initramfs (make initramfs) booted
# to the init script's marker, then a fixed workload (md5sum of 64 MB from /dev/zero, a
# 200,000-iteration busybox sh loop), in build/malibu and in qemu-system-aarch64 -M virt
# -cpu cortex-a57 (TCG) in the same run.  Times are host wall-clock seconds, taken when each
# marker appears on the console, plus the CPU time (user+sys) of each emulator process for the whole
# run (the better figure on a loaded machine).  Prints both and the ratio (malibu / qemu; < 1 =
# malibu faster).
#
# SMP line (SMP=4 by default, SMP=0 skips it): the same kernel with N vCPUs in build/malibu
# (--smp N in both --smp-mode rr and threads) and qemu-system-aarch64 -smp N with MTTCG
# (-accel tcg,thread=multi: one host thread per vCPU): boot to the init marker, then N
# `dd if=/dev/zero bs=1M count=64 | md5sum` pipelines at once.  The host's CPU count is printed.
#
# usage: bench/boot.sh [MALIBU]        (default build/malibu; RUNS=n repeats, best time kept)
#   IMAGE, INITRD: the kernel and initramfs (default: those of IMAGE_STACK / IMAGE_OUT)
set -eu
MALIBU=${1:-build/malibu}
. "$(dirname "$0")/image_dir.sh"
IMAGE=${IMAGE:-$IMAGE_DIR/Image}
INITRD=${INITRD:-$IMAGE_DIR/initramfs-busybox.cpio.gz}
RUNS=${RUNS:-1}
QEMU=${QEMU:-qemu-system-aarch64}
SMP=${SMP:-4}

for f in "$MALIBU" "$IMAGE" "$INITRD"; do
    [ -e "$f" ] || { echo "bench/boot.sh: missing $f (make BUILD=... build/malibu; make initramfs)" >&2; exit 1; }
done
command -v "$QEMU" >/dev/null || { echo "bench/boot.sh: $QEMU not found (apt-get install qemu-system-arm)" >&2; exit 1; }

WORK='echo BENCH_START; dd if=/dev/zero bs=1048576 count=64 2>/dev/null | md5sum; echo BENCH_MD5_DONE; i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo BENCH_LOOP_DONE $i'
B64=$(printf '%s' "$WORK" | base64 -w0)
APPEND="console=ttyAMA0 panic=-1 malibu.run64=$B64"

PYTHONPATH=bench python3 - "$MALIBU" "$QEMU" "$IMAGE" "$INITRD" "$APPEND" "$RUNS" <<'EOF'
import sys
from race import run, table
malibu, qemu, image, initrd, append, runs = sys.argv[1:7]
markers = [b"\nMALIBU_BOOT_OK", b"\nBENCH_START", b"\nBENCH_MD5_DONE", b"\nBENCH_LOOP_DONE 200000"]
md5_zero64 = b"7f614da9329cd3aebf59b91aadc30bf0"

def measure(cmd):
    seen, out, wall, cpu = run(cmd, markers, must_contain=md5_zero64)
    return (seen[markers[0]], seen[markers[2]] - seen[markers[1]], seen[markers[3]] - seen[markers[2]],
            wall, cpu)

cmds = {
    "malibu": [malibu, "--kernel", image, "--initrd", initrd, "--append", append],
    "qemu": [qemu, "-M", "virt", "-cpu", "cortex-a57", "-m", "1G", "-nographic", "-no-reboot", "-nic", "none",
             "-kernel", image, "-initrd", initrd, "-append", append],
}
best = {}
for i in range(int(runs)):
    for name, cmd in cmds.items():
        r = measure(cmd)
        best[name] = tuple(min(a, b) for a, b in zip(best[name], r)) if name in best else r
table([(what, lambda r, i=i: r[i]) for i, what in enumerate(
    ["boot to init marker", "md5sum 64 MB", "sh loop 200000", "total (to poweroff)", "total CPU (user+sys)"])],
      best)
EOF

[ "$SMP" -gt 1 ] || exit 0
PAR="echo BENCH_START; i=0; while [ \$i -lt $SMP ]; do (dd if=/dev/zero bs=1048576 count=64 2>/dev/null | md5sum) & i=\$((i+1)); done; wait; echo BENCH_PAR_DONE"
B64=$(printf '%s' "$PAR" | base64 -w0)
APPEND="console=ttyAMA0 panic=-1 malibu.run64=$B64"
echo
echo "SMP: $SMP vCPUs, $SMP md5sum pipelines at once; host: $(nproc) CPUs"
PYTHONPATH=bench python3 - "$MALIBU" "$QEMU" "$IMAGE" "$INITRD" "$APPEND" "$RUNS" "$SMP" <<'EOF'
import sys
from race import run, table_n
malibu, qemu, image, initrd, append, runs, smp = sys.argv[1:8]
markers = [b"\nMALIBU_BOOT_OK", b"\nBENCH_START", b"\nBENCH_PAR_DONE"]
md5_zero64 = b"7f614da9329cd3aebf59b91aadc30bf0"

def measure(cmd):
    seen, out, wall, cpu = run(cmd, markers, must_contain=md5_zero64)
    if out.count(md5_zero64) != int(smp):
        sys.exit("%s: %d of %s md5sums" % (cmd[0], out.count(md5_zero64), smp))
    return (seen[markers[0]], seen[markers[2]] - seen[markers[1]], wall, cpu)

mal = [malibu, "--smp", smp, "--kernel", image, "--initrd", initrd, "--append", append]
cmds = {
    "malibu rr": mal + ["--smp-mode", "rr"],
    "malibu threads": mal + ["--smp-mode", "threads"],
    "qemu": [qemu, "-M", "virt", "-cpu", "cortex-a57", "-m", "1G", "-smp", smp, "-accel", "tcg,thread=multi",
             "-nographic", "-no-reboot", "-nic", "none", "-kernel", image, "-initrd", initrd, "-append", append],
}
best = {}
for i in range(int(runs)):
    for name, cmd in cmds.items():
        r = measure(cmd)
        best[name] = tuple(min(a, b) for a, b in zip(best[name], r)) if name in best else r
table_n([(what, lambda r, i=i: r[i]) for i, what in enumerate(
    ["boot to init marker", "%s md5sum 64 MB at once" % smp, "total (to poweroff)", "total CPU (user+sys)"])],
        best, list(cmds), "qemu")
EOF

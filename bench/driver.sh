#!/bin/sh
# Full-system benchmark heavy on the guest's driver stack: the Debian guest image (make image)
# runs rusticl's clinfo and then the vecadd OpenCL sample on llvmpipe (its first clBuildProgram
# compiles the kernel with LLVM inside the guest), in build/malibu (--gpu none, so both emulators
# run the same CPU-only stack) and in qemu-system-aarch64 -M virt -cpu cortex-a57 with the same
# kernel, initrd and root disk (snapshot), in the same run.  Wall seconds at console markers and
# the CPU time of each emulator process; ratio = malibu / qemu (< 1: malibu faster).
#
# usage: bench/driver.sh [MALIBU]    (default build/malibu; RUNS=n keeps the best of n)
#   PROFILE=1 also records `perf record` of the malibu run and prints its top symbols
#   (native back-end code shows as unnamed addresses: "[JIT]").
set -eu
MALIBU=${1:-build/malibu}
. "$(dirname "$0")/image_dir.sh"
OUT=${OUT:-$IMAGE_DIR}
RUNS=${RUNS:-1}
QEMU=${QEMU:-qemu-system-aarch64}
for f in "$MALIBU" "$OUT/Image" "$OUT/initrd.img" "$OUT/rootfs.ext4"; do
    [ -e "$f" ] || { echo "bench/driver.sh: missing $f (make build/malibu image)" >&2; exit 1; }
done
command -v "$QEMU" >/dev/null || { echo "bench/driver.sh: $QEMU not found (apt-get install qemu-system-arm)" >&2; exit 1; }

WORK='echo DRV_START; clinfo -l; echo DRV_CLINFO_DONE; vecadd; echo DRV_VECADD_DONE'
B64=$(printf '%s' "$WORK" | base64 -w0)

PYTHONPATH=bench python3 - "$MALIBU" "$QEMU" "$OUT" "$B64" "$RUNS" "${PROFILE:-0}" <<'EOF'
import os, subprocess, sys
from race import run, table
malibu, qemu, out, b64, runs, profile = sys.argv[1:7]
markers = [b"\nDRV_START", b"\nDRV_CLINFO_DONE", b"\nDRV_VECADD_DONE"]

def measure(cmd):
    seen, log, wall, cpu = run(cmd, markers, must_contain=b"vecadd: PASS")
    return (seen[markers[0]], seen[markers[1]] - seen[markers[0]], seen[markers[2]] - seen[markers[1]],
            wall, cpu)

append = "console=ttyAMA0 panic=-1 quiet malibu.loglevel=3 malibu.run64=" + b64
cmds = {
    "malibu": [malibu, "--gpu", "none", "--kernel", out + "/Image", "--initrd", out + "/initrd.img",
               "--disk", out + "/rootfs.ext4", "--append", append],
    "qemu": [qemu, "-M", "virt", "-cpu", "cortex-a57", "-m", "1G", "-nographic", "-no-reboot", "-nic", "none",
             "-kernel", out + "/Image", "-initrd", out + "/initrd.img", "-append", append,
             "-drive", "if=none,file=%s/rootfs.ext4,format=raw,id=hd,snapshot=on" % out,
             "-device", "virtio-blk-device,drive=hd"],
}
best = {}
for i in range(int(runs)):
    for name, cmd in cmds.items():
        r = measure(cmd)
        best[name] = tuple(min(a, b) for a, b in zip(best[name], r)) if name in best else r
table([(what, lambda r, i=i: r[i]) for i, what in enumerate(
    ["boot to command", "clinfo (rusticl init)", "vecadd (build + run)", "total (to poweroff)",
     "total CPU (user+sys)"])], best)
if profile == "1":
    data = "build/bench/driver.perf.data"
    os.makedirs("build/bench", exist_ok=True)
    subprocess.run(["perf", "record", "-q", "-F", "2000", "-o", data, "--"] + cmds["malibu"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    def report(sort):
        rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", sort],
                             capture_output=True, text=True).stdout
        for line in rep.splitlines():
            f = line.split(None, 1)
            if len(f) == 2 and f[0].endswith("%") and not line.startswith("#"):
                yield float(f[0][:-1]), f[1].strip()
    print("\nprofile of the malibu run (perf record; % of samples)")
    print("  by object: " + ", ".join("%s %.1f%%" % (name.split()[0], pct) for pct, name in report("dso")
                                       if pct >= 0.5))
    print("  top functions (generated code excluded):")
    top = [(pct, name[4:]) for pct, name in report("sym") if not name[4:].startswith("0x")]
    for pct, name in top[:15]:
        print("  %5.1f%%  %s" % (pct, name))
EOF

#!/bin/sh
# Checkpoints: what a resumed run saves against a cold boot to the same point (docs/checkpoint.md).
#
#   save:  boot the guest image, run clinfo (rusticl and panfrost initialised once), then
#          `malibu checkpoint` writes the board to a file and malibu exits (--checkpoint-exit)
#   cold:  the same boot and clinfo, then vecadd: seconds from the start to vecadd's PASS
#   load:  --checkpoint-load FILE --run vecadd: seconds from the start to vecadd's PASS
#
# Prints the seconds of each (wall and CPU), the ratio load / cold, and the file's size per GiB
# of guest RAM.  Host wall-clock seconds (bench/race.py), the best of RUNS (default 1).
#
# usage: bench/checkpoint.sh [MALIBU]      (default build/malibu)
#   MODEL (default g52), MEM (default 2G), IMAGE_STACK / IMAGE_OUT: the guest image (bench/image_dir.sh)
set -eu
MALIBU=${1:-build/malibu}
. "$(dirname "$0")/image_dir.sh"
MODEL=${MODEL:-g52}
MEM=${MEM:-2G}
RUNS=${RUNS:-1}
for f in "$MALIBU" "$IMAGE_DIR/Image" "$IMAGE_DIR/rootfs.ext4"; do
    [ -e "$f" ] || { echo "bench/checkpoint.sh: missing $f (make; make image)" >&2; exit 1; }
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

PYTHONPATH=bench python3 - "$MALIBU" "$IMAGE_DIR" "$MODEL" "$MEM" "$RUNS" "$WORK/board.ck" <<'PY'
import os
import sys
from race import run
malibu, image, model, mem, runs, ck = sys.argv[1:7]
base = [malibu, "-m", mem, "--image", image, "--gpu", model, "--display", "none"]
pass_marker = b"vecadd: PASS"

def best(cmd, markers, must=b""):
    r = None
    for _ in range(int(runs)):
        seen, out, wall, cpu = run(cmd, markers, must_contain=must)
        m = (seen, wall, cpu)
        r = m if r is None or wall < r[1] else r
    return r

save = best(base + ["--checkpoint-save", ck, "--checkpoint-exit", "--run", "clinfo >/dev/null; malibu checkpoint"], [])
size = os.path.getsize(ck)
cold = best(base + ["--run", "clinfo >/dev/null; echo CKPT_POINT; vecadd"], [b"CKPT_POINT", pass_marker])
load = best(base + ["--checkpoint-load", ck, "--run", "vecadd"], [pass_marker])
gib = {"K": 1 / (1 << 20), "M": 1 / 1024, "G": 1, "T": 1024}.get(mem[-1].upper(), 1 / 1024) * float(mem.rstrip("KkMmGgTt"))

print("%-40s %10s %10s %8s" % ("seconds (%s, -m %s)" % (model, mem), "cold", "load", "ratio"))
print("%-40s %10.2f %10s %8s" % ("boot + clinfo (to the checkpoint)", cold[0][b"CKPT_POINT"], "-", "-"))
print("%-40s %10.2f %10.2f %8.2f" % ("start to vecadd's PASS", cold[0][pass_marker], load[0][pass_marker],
                                     load[0][pass_marker] / cold[0][pass_marker]))
print("%-40s %10.2f %10.2f %8.2f" % ("total wall", cold[1], load[1], load[1] / cold[1]))
print("%-40s %10.2f %10.2f %8.2f" % ("total CPU (user+sys)", cold[2], load[2], load[2] / cold[2]))
print("%-40s %10.2f" % ("save run: wall (boot + clinfo + save)", save[1]))
print("checkpoint file: %.1f MiB, %.1f MiB per GiB of guest RAM" % (size / 2**20, size / 2**20 / gib))
PY

#!/bin/bash
# A/B of two build/malibu binaries by counts instead of seconds: host instructions, data
# accesses and simulated cache misses under Valgrind's cachegrind, with guest time from the
# instruction count (--clock icount), so both runs execute exactly the same guest instructions
# and every figure is the same in every run.  For changes to the CPU's code generation and
# soft TLB that the CPU seconds of a shared host cannot resolve (its runs of one binary spread
# by 20-50 %; bench/RESULTS.md).  Counts are not time: a miss costs more than an instruction,
# and cachegrind models one cache level plus the host's last level, no prefetcher.
#
#   bench/cpu-count.sh BASE NEW
#       BASE, NEW  two build/malibu binaries (say, one built from a worktree at the base commit)
#   env: WORK=boot  Debian's kernel and the busybox initramfs booted to its shell, one echo
#                   (default; about 1.4 G guest instructions, 6-8 minutes)
#        WORK=bench bench/boot.sh's workload too (md5sum of 64 MB, a 200,000-round sh loop:
#                   5.6 G guest instructions, about 30 minutes)
#        IMAGE, INITRD as bench/boot.sh; OUT (default build/bench/count)
#
# Both runs go at once (one host thread each under Valgrind).  Prints per counter BASE, NEW
# and NEW/BASE (< 1: NEW does less), for the whole process and for generated code alone
# (cachegrind's "???": code without symbols, which in malibu is the translated blocks).
# Fails when a run does not reach the end of the workload or the two guest instruction
# counts differ.
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { sed -n '2,21p' "$0" >&2; exit 2; }
BASE=$1 NEW=$2
WORK=${WORK:-boot}
OUT=${OUT:-build/bench/count}
. bench/image_dir.sh
IMAGE=${IMAGE:-$IMAGE_DIR/Image}
INITRD=${INITRD:-$IMAGE_DIR/initramfs-busybox.cpio.gz}
command -v valgrind >/dev/null || { echo "cpu-count.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
command -v cg_annotate >/dev/null || { echo "cpu-count.sh: cg_annotate not found (apt-get install valgrind)" >&2; exit 1; }
for f in "$BASE" "$NEW" "$IMAGE" "$INITRD"; do
    [ -e "$f" ] || { echo "cpu-count.sh: missing $f" >&2; exit 1; }
done
case $WORK in
boot) CMD='echo COUNT_DONE' ;;
bench) CMD='dd if=/dev/zero bs=1048576 count=64 2>/dev/null | md5sum; i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo COUNT_DONE $i' ;;
*) echo "cpu-count.sh: WORK is boot or bench" >&2; exit 2 ;;
esac
B64=$(printf '%s' "$CMD" | base64 -w0)
mkdir -p "$OUT"

run() { # name binary
    valgrind --tool=cachegrind --cache-sim=yes --smc-check=all-non-file \
        --cachegrind-out-file="$OUT/$1.cg" "$2" --clock icount --kernel "$IMAGE" --initrd "$INITRD" \
        --append "console=ttyAMA0 panic=-1 malibu.run64=$B64" --debug stats >"$OUT/$1.log" 2>&1
}
run base "$BASE" & pb=$!
run new "$NEW" & pn=$!
rcb=0 rcn=0
wait $pb || rcb=$?
wait $pn || rcn=$?
for n in base new; do
    grep -aq '^COUNT_DONE' "$OUT/$n.log" ||
        { tail -n 20 "$OUT/$n.log" >&2; echo "cpu-count.sh: the $n run did not finish its workload" >&2; exit 1; }
done
[ $rcb = 0 ] && [ $rcn = 0 ] || { echo "cpu-count.sh: exit status base $rcb, new $rcn" >&2; exit 1; }
ib=$(grep -ao 'malibu: [0-9]* insns' "$OUT/base.log" | awk '{print $2}')
in=$(grep -ao 'malibu: [0-9]* insns' "$OUT/new.log" | awk '{print $2}')
[ -n "$ib" ] && [ "$ib" = "$in" ] ||
    { echo "cpu-count.sh: guest instruction counts differ: base $ib, new $in" >&2; exit 1; }

echo "workload: $WORK, $ib guest instructions in each run (--clock icount)"
python3 - "$OUT/base.cg" "$OUT/new.cg" <<'EOF'
import subprocess, sys

def counts(path):
    """{'total': {event: n}, 'generated': {event: n}} from cg_annotate's summary lines."""
    out = subprocess.run(["cg_annotate", "--auto=no", path], capture_output=True, text=True, check=True).stdout
    events, res = None, {}
    for line in out.splitlines():
        if line.startswith("Events shown:"):
            events = line.split(":", 1)[1].split()
        if events is None:
            continue
        parts = line.split()
        nums = []
        for p in parts:
            if p.replace(",", "").isdigit():
                nums.append(int(p.replace(",", "")))
        if len(nums) < len(events):
            continue
        if line.rstrip().endswith("PROGRAM TOTALS"):
            res["total"] = dict(zip(events, nums))
        elif line.rstrip().endswith("???:???") and "generated" not in res:
            res["generated"] = dict(zip(events, nums))
    return res

b, n = counts(sys.argv[1]), counts(sys.argv[2])
rows = [("host instructions", ["Ir"]), ("data reads", ["Dr"]), ("data writes", ["Dw"]),
        ("D1 misses (read + write)", ["D1mr", "D1mw"]), ("last-level misses (data)", ["DLmr", "DLmw"]),
        ("I1 misses", ["I1mr"])]
print("%-38s %16s %16s %9s" % ("counter", "base", "new", "new/base"))
for part in ("total", "generated"):
    if part not in b or part not in n:
        continue
    for label, evs in rows:
        vb = sum(b[part][e] for e in evs)
        vn = sum(n[part][e] for e in evs)
        print("%-38s %16d %16d %9.4f" % (part + ": " + label, vb, vn, vn / vb if vb else 0))
EOF

#!/bin/sh
# LSE's effect on SMP guests (issue 40 item 3): the guest image booted with --smp 4 under
# --cpu a57 (Armv8.0: guest atomics are LDXR/STXR loops) and --cpu max (FEAT_LSE: the kernel
# patches in LSE atomics, libgcc's outline atomics pick LDADDAL / CASAL), in --smp-mode threads
# and rr, runs alternated (a57 threads, max threads, a57 rr, max rr, then again).  Each run:
#   1. tests/smp/atomic_bench.c: 4 threads on shared counters (add, cas, mutex phases);
#   2. kernel-heavy: 4 `dd if=/dev/zero bs=1M count=64 | md5sum` pipelines at once.
# Printed per run: the guest's wall seconds for each phase (its CLOCK_MONOTONIC; /proc/uptime
# for the pipelines), the emulator's host CPU seconds (user+sys) and wall seconds for the whole
# run, the CPU seconds of a boot-only run (--run true) of the same core and mode right after it,
# and their difference, the workload's host CPU seconds (on this shared machine CPU seconds are
# the figure to compare).
#
# usage: bench/smp-atomics.sh [MALIBU]   (default build/malibu; RUNS=n rounds, default 3;
#        ITERS=n atomic_bench iterations per thread, default 40000000; IMAGE: the guest image
#        directory, default that of IMAGE_STACK / IMAGE_OUT, bench/image_dir.sh)
set -eu
MALIBU=${1:-build/malibu}
RUNS=${RUNS:-3}
ITERS=${ITERS:-40000000}
if [ -z "${IMAGE:-}" ]; then
    . "$(dirname "$0")/image_dir.sh"
    IMAGE=$IMAGE_DIR
fi
SHARE=${SHARE:-build/bench/smp-atomics} # atomic_bench, logs
mkdir -p "$SHARE"
aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -static -pthread -o "$SHARE/atomic_bench" tests/smp/atomic_bench.c
for f in "$MALIBU" "$IMAGE"; do
    [ -e "$f" ] || { echo "bench/smp-atomics.sh: missing $f" >&2; exit 1; }
done
# the guest's busybox date has no %N: /proc/uptime (10 ms) times the pipelines
GUEST="/mnt/host/atomic_bench 4 $ITERS; read t0 x </proc/uptime; i=0; while [ \$i -lt 4 ]; do \
(dd if=/dev/zero bs=1048576 count=64 2>/dev/null | md5sum) & i=\$((i+1)); done; wait; \
read t1 x </proc/uptime; echo \"dd_md5: 4 pipelines \$(echo \"\$t1 - \$t0\" | bc) s\""
printf '%-5s %-8s %4s %7s %7s %7s %7s %8s %8s %8s %8s\n' cpu mode run add_s cas_s mutex_s ddmd5_s cpu_s boot_cpu work_cpu wall_s
boot_cpu() { # cpu mode -> host CPU seconds of a boot to the --run prompt
    /usr/bin/time -f '%U %S' -o "$SHARE/time.boot" "$MALIBU" --cpu $1 --smp 4 --smp-mode $2 -m 2G \
        --image "$IMAGE" --display none --run true >/dev/null 2>&1 || true
    read -r bu bs <"$SHARE/time.boot"
    echo "$bu + $bs" | bc
}
run=1
while [ $run -le "$RUNS" ]; do
    for mode in threads rr; do
        for cpu in a57 max; do
            log=$SHARE/run-$cpu-$mode-$run.log
            /usr/bin/time -f '%U %S %e' -o "$SHARE/time" "$MALIBU" --cpu $cpu --smp 4 --smp-mode $mode -m 2G \
                --image "$IMAGE" --display none --share "$SHARE,ro" --run "$GUEST" >"$log" 2>&1 || true
            tr -d '\r' <"$log" >"$log.txt"
            grep -q '^atomic_bench: PASS' "$log.txt" || { echo "run $cpu $mode $run: no PASS (log $log.txt)" >&2; exit 1; }
            [ "$(grep -c '^7f614da9329cd3aebf59b91aadc30bf0' "$log.txt")" -eq 4 ] ||
                { echo "run $cpu $mode $run: not 4 right md5sums (log $log.txt)" >&2; exit 1; }
            ph() { sed -n "s/^atomic_bench: $1 .* \([0-9.]*\) s\$/\1/p" "$log.txt"; }
            dd=$(sed -n 's/^dd_md5: 4 pipelines \([0-9.]*\) s$/\1/p' "$log.txt")
            read -r u s e <"$SHARE/time"
            total=$(echo "$u + $s" | bc)
            boot=$(boot_cpu $cpu $mode)
            printf '%-5s %-8s %4d %7s %7s %7s %7s %8.2f %8.2f %8.2f %8.2f\n' $cpu $mode $run "$(ph add)" "$(ph cas)" \
                "$(ph mutex)" "${dd:-?}" "$total" "$boot" "$(echo "$total - $boot" | bc)" "$e"
        done
    done
    run=$((run + 1))
done

#!/bin/sh
# make pmu-test (tests/pmu/pmu.mk): one boot of the guest image checks the vCPU's PMUv3
# (emu/cpu/sys_pmu.c) as Linux's arm_pmuv3 driver and perf events use it:
#   - the driver probes it ("hw perfevents: enabled with armv8_cortex_a57 PMU driver, 7 ... counters");
#   - tests/pmu/pmu_count.c counts user instructions and cycles around a loop of 2N instructions:
#     exactly 2N each (one cycle per instruction);
#   - sampling: the instruction counter overflowing every P instructions raises the PMU interrupt
#     (PPI 23, "arm-pmu" in /proc/interrupts) 2N/P times, give or take one.  The vCPU finds an
#     overflow at its next return to the run loop, at worst the guest's next timer tick: measured,
#     10-22 M instructions of this loop apart (250 Hz), so P is ten times that, else two overflows
#     within one tick raise one interrupt (P = 20 M lost 1-3 of 10 on a loaded host).
#   sh tests/pmu/pmu_test.sh MALIBU IMAGE_DIR SHARE_DIR
set -u
malibu=$1 image=$2 share=$3
log=$share/../pmu.log
n=50000000 sn=1000000000 period=200000000
expect_irqs=$(( 2 * sn / period ))
start=$(date +%s)
timeout 600 "$malibu" -m 1G --image "$image" --display none --share "$share,ro" --run "
dmesg | grep 'hw perfevents'
echo pmu-irqs-before \$(grep arm-pmu /proc/interrupts)
/mnt/host/pmu_count count $n
/mnt/host/pmu_count sample $sn $period
echo pmu-irqs-after \$(grep arm-pmu /proc/interrupts)" >"$log.raw" 2>&1
status=$?
tr -d '\r' <"$log.raw" >"$log"
echo "pmu-test: guest run ${status}, $(( $(date +%s) - start )) s; log $log"
fail=0
check() { # pattern description
    if ! grep -qE "$1" "$log"; then echo "pmu-test: missing: $2"; fail=1; fi
}
check 'hw perfevents: enabled with armv8_cortex_a57 PMU driver, 7 \(0,8000003f\) counters available' \
    "the arm_pmuv3 driver probing 6 event counters + the cycle counter"
check "^pmu_count: n=$n .* loop insns=$(( 2 * n )) cycles=$(( 2 * n )) " "exact instruction and cycle counts of the loop"
check '^pmu_count: OK' "pmu_count count: OK"
grep -E '^pmu_count|hw perfevents|^pmu-irqs' "$log" | sed 's/^/  /'
before=$(sed -n 's/^pmu-irqs-before 15: *\([0-9]*\) .*/\1/p' "$log")
after=$(sed -n 's/^pmu-irqs-after 15: *\([0-9]*\) .*/\1/p' "$log")
if [ -z "$before" ] || [ -z "$after" ]; then
    echo "pmu-test: no arm-pmu line in /proc/interrupts"
    fail=1
else
    irqs=$(( after - before ))
    echo "pmu-test: $irqs PMU interrupts for $(( 2 * sn )) instructions at period $period (expected $expect_irqs +- 1)"
    if [ $irqs -lt $(( expect_irqs - 1 )) ] || [ $irqs -gt $(( expect_irqs + 1 )) ]; then
        echo "pmu-test: wrong number of overflow interrupts"
        fail=1
    fi
fi
[ "$status" -eq 0 ] || { echo "pmu-test: guest exit status $status"; fail=1; }
[ $fail -eq 0 ] && echo "pmu-test: ok"
exit $fail

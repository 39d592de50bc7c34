#!/bin/sh
# make smp-test (tests/smp/smp.mk): boots the guest image with --smp 4 in the given --smp-mode and
# checks: 4 CPUs online, two rounds of CPU off/on for every secondary through sysfs, the pthread
# stress program (tests/smp/smp_stress.c) passes, and a clean kernel log (no RCU stalls, no
# CPU bring-up or IPI failures, no warnings or oopses) that is there: the guest's dmesg between
# its begin and end markers, starting at the kernel's banner.
#   sh tests/smp/smp_test.sh MALIBU IMAGE_DIR SHARE_DIR MODE ITERATIONS
set -u
malibu=$1 image=$2 share=$3 mode=$4 iters=$5
log=$share/../smp-$mode.log
cp tests/smp/smp_guest.sh "$share/smp_guest.sh"
start=$(date +%s)
timeout 900 "$malibu" --image "$image" --smp 4 --smp-mode "$mode" --share "$share,ro" \
    --run "sh /mnt/host/smp_guest.sh $iters" >"$log.raw" 2>&1
status=$?
tr -d '\r' <"$log.raw" >"$log" # the console's CRLF
echo "smp-test ($mode): guest run ${status}, $(( $(date +%s) - start )) s; log $log"
fail=0
check() { # pattern description
    if ! grep -qE "$1" "$log"; then echo "smp-test ($mode): missing: $2"; fail=1; fi
}
check '^smp-guest: nproc 4' "nproc 4"
check '^smp-guest: online 0-3' "CPUs 0-3 online at boot"
check '^smp-guest: round 1 offline: online 0$' "CPUs 1-3 offline (round 1)"
check '^smp-guest: round 2 online: online 0-3$' "CPUs 1-3 back online (round 2)"
check 'smp: Brought up 1 node, 4 CPUs' "kernel brought up 4 CPUs"
check '^smp_stress: PASS' "stress program PASS"
grep -E '^smp_stress: |^smp-guest: ' "$log" | sed "s/^/  /"
check '^smp-guest: dmesg begin$' "the kernel log's start marker"
check '^smp-guest: dmesg end$' "the kernel log's end marker"
sed -n '/^smp-guest: dmesg begin$/,/^smp-guest: dmesg end$/p' "$log" >"$log.dmesg"
# an empty or foreign log between the markers would pass the clean-log check below
grep -q 'Linux version' "$log.dmesg" || { echo "smp-test ($mode): no kernel log (no 'Linux version') between the markers"; fail=1; }
if grep -nE 'WARNING:|\bBUG[: ]|Oops|Internal error|Unable to handle|[Uu]nhandled|undefined instruction|Call trace:|cut here|segfault|Kernel panic|rcu.*(stall|detected)|[Ff]ailed to (boot|online|offline)|CPU[0-9]+: failed|IPI|timed out|soft lockup|hung_task' "$log.dmesg"; then
    echo "smp-test ($mode): kernel log is not clean (lines above)"
    fail=1
fi
[ "$status" -eq 0 ] || { echo "smp-test ($mode): guest exit status $status"; fail=1; }
[ $fail -eq 0 ] && echo "smp-test ($mode): ok"
exit $fail

#!/bin/sh
# Guest side of tests/piglit/piglit_test.sh (copied into the --share directory, run as
# `sh /mnt/host/piglit_guest.sh LIST STREAM...`): runs the tests of LIST (lines "NAME<TAB>COMMAND",
# COMMAND relative to piglit's bin/, run from piglit's directory as piglit's own runner does).
# Each STREAM, DEVICE or DEVICE/K/N, runs on the rusticl driver DEVICE (panfrost, llvmpipe) alone,
# so that piglit's per-device tests see one device: the whole list, or its tests K, K+N, K+2N...
# The streams run at once (one per vCPU with --smp).  Kernel-log errors during a panfrost test
# are that test's when a boot has one panfrost stream (llvmpipe does not touch the GPU).
# Console, per test: "PIGLIT_RESULT DEVICE RESULT SECONDS NAME", RESULT being piglit's own verdict
# (pass, fail, skip, warn) or, without one, crash (the runner died), timeout (over 300 s) or
# notinstalled (the runner is not in the image); a failure's last lines as "PIGLIT_LOG DEVICE
# NAME: LINE"; "PIGLIT_KLOG panfrost N NAME" when N panfrost errors, GPU faults, job timeouts or
# oopses reached the kernel log during a panfrost test; "PIGLIT_DONE STREAM" after a stream's
# last test; at the end "PIGLIT_DMESG_BAD N", the kernel log's total of those.
set -u
list=$1
shift
P=/usr/lib/aarch64-linux-gnu/piglit
cd $P || { echo "PIGLIT_ERROR no piglit in the image"; exit 1; }
tab=$(printf '\t')

# panfrost errors, GPU faults, job timeouts and oopses in the kernel log so far
klog_bad() { dmesg | grep -ciE 'panfrost.*(error|fault)|timeout|oops|bug'; }

run_test() {   # DEVICE LOG NAME COMMAND...
    d=$1 log=$2 name=$3
    shift 3
    if [ ! -x "bin/$1" ]; then
        echo "PIGLIT_RESULT $d notinstalled 0 $name"
        return
    fi
    start=$(date +%s)
    [ "$d" = panfrost ] && k0=$(klog_bad)
    RUSTICL_ENABLE=$d timeout 300 "bin/$@" </dev/null >$log 2>&1
    status=$?
    secs=$(($(date +%s) - start))
    if [ "$d" = panfrost ]; then
        k=$(($(klog_bad) - k0))
        [ $k -eq 0 ] || echo "PIGLIT_KLOG $d $k $name"
    fi
    r=$(sed -n 's/^PIGLIT: {"result": "\([a-z]*\)".*/\1/p' $log | tail -n 1)
    if [ -z "$r" ]; then
        case $status in 124|143) r=timeout ;; *) r=crash ;; esac
    fi
    echo "PIGLIT_RESULT $d $r $secs $name"
    # why a test did not pass, for the report (bounded)
    [ "$r" = pass ] || [ "$r" = skip ] || grep -v '^PIGLIT' $log | tail -n 5 | sed "s/^/PIGLIT_LOG $d $name: /"
}

stream() {   # DEVICE[/K/N] INDEX
    d=${1%%/*} k=0 n=1
    case $1 in */*/*) k=$(echo "$1" | cut -d/ -f2); n=$(echo "$1" | cut -d/ -f3) ;; esac
    i=0
    while IFS="$tab" read -r name cmd; do
        [ $((i % n)) -eq "$k" ] && run_test "$d" "/tmp/piglit-$2.log" "$name" $cmd
        i=$((i + 1))
    done <"$list"
    echo "PIGLIT_DONE $1"
}

j=0
for s in "$@"; do
    stream "$s" $j &
    j=$((j + 1))
done
wait
echo "PIGLIT_DMESG_BAD $(klog_bad)"

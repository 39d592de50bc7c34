#!/bin/sh
# Guest side of tests/mali/apps_test.sh and bench/gpu.sh (copied into the --share directory, run
# as `sh /mnt/host/apps_guest.sh DEVICES APP...`): runs every OpenCL sample APP (NAME or
# NAME:ARG,ARG...) on every rusticl driver in DEVICES (panfrost, llvmpipe), each writing the values
# it checked to /tmp/apps/DRIVER (-o) and its output to /tmp/apps/DRIVER/NAME.log, then puts a tar
# of /tmp/apps (plus dmesg) on the raw output disk (--disk FILE,write-through) for the host.
# Console: "APPS_RESULT DRIVER NAME status=N LAST-LINE" per run, "APPS_SAVED vdX" at the end.
set -u
o=/tmp/apps
devs=$1
shift
for d in $devs; do
    mkdir -p $o/$d
    case $d in panfrost) sel=Mali ;; *) sel=$d ;; esac
    for spec in "$@"; do
        n=${spec%%:*}
        args=""
        [ "$n" = "$spec" ] || args=$(echo "${spec#*:}" | tr , ' ')
        # a hung GPU job must not hang the boot: the driver's own timeout and this one
        RUSTICL_ENABLE=$d timeout 600 $n -d "$sel" -o $o/$d $args >$o/$d/$n.log 2>&1
        echo "APPS_RESULT $d $n status=$? $(tail -n 1 $o/$d/$n.log)"
    done
done
dmesg >$o/dmesg.txt
# raw tar on the output disk (no file system to mount): not vda (root), not the share (its serial
# is malibu-share); sync writes the block device's cache out
for b in /sys/block/vd*; do
    [ "${b##*/}" != vda ] && [ "$(cat $b/serial 2>/dev/null)" != malibu-share ] || continue
    tar -cf /dev/${b##*/} -C $o . && sync && echo "APPS_SAVED ${b##*/}"
    break
done

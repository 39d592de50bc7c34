#!/bin/sh
# Guest side of tests/piglit/piglit_test.sh (copied into the --share directory, run as
# `PIGLIT_SUITE=cl|gles sh /mnt/host/piglit_guest.sh LIST STREAM...`): runs the tests of LIST
# (lines "NAME<TAB>COMMAND", COMMAND relative to piglit's bin/, run from piglit's directory as
# piglit's own runner does).  Each STREAM, DEVICE or DEVICE/K/N, runs on DEVICE (panfrost or
# llvmpipe) alone: the whole list, or its tests K, K+N, K+2N...  The streams run at once (one per
# vCPU with --smp).  How a test is put on its device:
#   cl    RUSTICL_ENABLE=DEVICE, so that piglit's per-device tests see one device;
#   gles  PIGLIT_PLATFORM=surfaceless_egl (EGL on the render node, no window system); llvmpipe:
#         LIBGL_ALWAYS_SOFTWARE=1; panfrost: PAN_MESA_DEBUG=sync (Mesa waits for every job and
#         aborts on a faulted one).  Mesa's surfaceless platform falls back to llvmpipe when the
#         GPU's driver does not load, so each stream first checks with eglinfo that its device
#         is the one it names ("PIGLIT_DEVICE DEVICE RENDERER"); a stream on the wrong device
#         runs no test ("PIGLIT_ERROR ...").
# Kernel-log errors during a panfrost test are that test's when a boot has one panfrost stream
# (llvmpipe does not touch the GPU).
# Console, per test: "PIGLIT_RESULT DEVICE RESULT SECONDS NAME", RESULT being piglit's own verdict
# (pass, fail, skip, warn) or, without one, crash (the runner died), timeout (over
# PIGLIT_TIMEOUT seconds, default 300) or
# notinstalled (the runner is not in the image); a failure's last lines as "PIGLIT_LOG DEVICE
# NAME: LINE"; "PIGLIT_KLOG panfrost N NAME" (and up to 3 of those lines as "PIGLIT_LOG panfrost
# NAME: kernel: LINE") when N panfrost errors, GPU faults, job timeouts or
# oopses reached the kernel log during a panfrost test; "PIGLIT_JOBERR panfrost N NAME" when
# Mesa reported N faulted jobs (PAN_MESA_DEBUG=sync's "Incomplete job or timeout");
# "PIGLIT_DONE STREAM" after a stream's last test; at the end "PIGLIT_DMESG_BAD N", the kernel
# log's total of those.
set -u
list=$1
shift
P=/usr/lib/aarch64-linux-gnu/piglit
cd $P || { echo "PIGLIT_ERROR no piglit in the image"; exit 1; }
tab=$(printf '\t')
suite=${PIGLIT_SUITE:-cl}
limit=${PIGLIT_TIMEOUT:-300}
case $suite in
cl) ;;
gles) export PIGLIT_PLATFORM=surfaceless_egl PIGLIT_SOURCE_DIR=$P ;;
*) echo "PIGLIT_ERROR PIGLIT_SUITE=$suite: cl or gles"; exit 1 ;;
esac

# the environment that puts a program on DEVICE
dev_env() {
    case $suite/$1 in
    cl/*) echo "RUSTICL_ENABLE=$1" ;;
    gles/llvmpipe) echo "LIBGL_ALWAYS_SOFTWARE=1" ;;
    gles/panfrost) echo "PAN_MESA_DEBUG=sync" ;;
    *) echo "PIGLIT_UNKNOWN_DEVICE=$1" ;;
    esac
}

# gles: the renderer Mesa's surfaceless platform gives DEVICE's environment must be DEVICE's
check_device() {   # DEVICE
    [ $suite = gles ] || return 0
    c_r=$(env $(dev_env $1) eglinfo -p surfaceless 2>&1 | sed -n 's/^OpenGL ES profile renderer: //p' | head -n 1)
    echo "PIGLIT_DEVICE $1 ${c_r:-none}"
    case $1/$c_r in
    panfrost/*Panfrost*|llvmpipe/llvmpipe*) return 0 ;;
    esac
    echo "PIGLIT_ERROR $1: eglinfo -p surfaceless gives the renderer '${c_r:-none}', not $1's: no test runs"
    return 1
}

# panfrost errors, GPU faults, job timeouts and oopses in the kernel log so far
klog_re='panfrost.*(error|fault)|timeout|oops|bug'
klog_bad() { dmesg | grep -ciE "$klog_re"; }

# (sh has no local variables: run_test's names start with t_, stream's with s_)
run_test() {   # DEVICE LOG NAME COMMAND...
    t_dev=$1 t_log=$2 t_name=$3
    shift 3
    if [ ! -x "bin/$1" ]; then
        echo "PIGLIT_RESULT $t_dev notinstalled 0 $t_name"
        return
    fi
    t_start=$(date +%s)
    [ "$t_dev" = panfrost ] && t_klog=$(klog_bad)
    env $(dev_env $t_dev) timeout $limit "bin/$@" </dev/null >$t_log 2>&1
    t_status=$?
    t_secs=$(($(date +%s) - t_start))
    if [ "$t_dev" = panfrost ]; then
        t_klog=$(($(klog_bad) - t_klog))
        if [ $t_klog -gt 0 ]; then
            echo "PIGLIT_KLOG $t_dev $t_klog $t_name"
            # which lines (the last ones that matched; the report shows up to 3)
            dmesg | grep -iE "$klog_re" | tail -n $t_klog | head -n 3 |
                sed "s/^/PIGLIT_LOG $t_dev $t_name: kernel: /"
        fi
        t_jerr=$(grep -c 'Incomplete job or timeout' $t_log)
        [ "$t_jerr" -eq 0 ] || echo "PIGLIT_JOBERR $t_dev $t_jerr $t_name"
    fi
    t_r=$(sed -n 's/^PIGLIT: {"result": "\([a-z]*\)".*/\1/p' $t_log | tail -n 1)
    if [ -z "$t_r" ]; then
        case $t_status in 124|143) t_r=timeout ;; *) t_r=crash ;; esac
    fi
    echo "PIGLIT_RESULT $t_dev $t_r $t_secs $t_name"
    # why a test did not pass, for the report (bounded)
    [ "$t_r" = pass ] || [ "$t_r" = skip ] ||
        grep -v '^PIGLIT' $t_log | tail -n 5 | sed "s/^/PIGLIT_LOG $t_dev $t_name: /"
}

stream() {   # DEVICE[/K/N] INDEX
    s_dev=${1%%/*} s_k=0 s_n=1 s_i=0
    case $1 in */*/*) s_k=$(echo "$1" | cut -d/ -f2); s_n=$(echo "$1" | cut -d/ -f3) ;; esac
    check_device $s_dev || { echo "PIGLIT_DONE $1"; return; }
    while IFS="$tab" read -r s_name s_cmd; do
        [ $((s_i % s_n)) -eq "$s_k" ] && run_test "$s_dev" "/tmp/piglit-$2.log" "$s_name" $s_cmd
        s_i=$((s_i + 1))
    done <"$list"
    echo "PIGLIT_DONE $1"
}

# PIGLIT_SERIAL=1: the streams one after another.  A CPU kept busy by an llvmpipe stream lets
# guest time run at the host's pace while a slow GPU job runs (--gpu-time model stops it only
# while every CPU waits), so a GLES job that takes long in host time would reach panfrost's
# 500 ms job timeout; alone, the panfrost stream's CPU waits on each job (PAN_MESA_DEBUG=sync).
j=0
for s in "$@"; do
    if [ "${PIGLIT_SERIAL:-0}" = 1 ]; then
        stream "$s" $j
    else
        stream "$s" $j &
    fi
    j=$((j + 1))
done
wait
echo "PIGLIT_DMESG_BAD $(klog_bad)"

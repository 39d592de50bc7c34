#!/bin/sh
# mali-apps-test: the 13 OpenCL samples of guest-images/apps (installed in the guest image) on
# Debian's panfrost + Mesa's rusticl on the emulated Mali, per GPU model and per --gpu-threads
# count, one boot each running every sample (tests/mali/apps_guest.sh).  Each sample checks its
# results against its own CPU computation (PASS/FAIL) and writes the values it checked (-o); the
# first boot also runs every sample on rusticl's llvmpipe (the guest CPU) as the reference.
# tests/mali/apps_verdict.py then requires, per sample: PASS everywhere, panfrost's values equal
# to llvmpipe's (bit-exact, or within the built-in's ULP bound: apps_compare.py), identical
# values for every --gpu-threads count of a model, and a kernel log without panfrost errors or
# job timeouts.  Samples in MALI_APPS_KNOWN_FAIL are reported loudly but do not fail the test.
#
# The boots run MALI_APPS_JOBS at a time (default 2, one per host core of a 2-core machine).
#
# usage: apps_test.sh MALIBU WORKDIR [MODELS] [THREAD-COUNTS]      (default "g71 g52" "1 2")
# MALI_APPS: the samples, NAME or NAME:ARG,ARG (sizes); default: every sample at its default
# size.  MALI_APPS_IMAGE (required): the guest image directory, $(IMAGE_OUT) of the stack under
# test (mk/image.mk).  Jobs that take longer in host time than panfrost's 500 ms job timeout are fine: while
# the guest CPU waits on the GPU, guest time advances by the GPU's modelled time (--gpu-time
# model, devices/gtimer.h); a job timeout in the kernel log fails the test.
set -u
malibu=$1
work=$2
models=${3:-g71 g52}
threads=${4:-1 2}
apps=${MALI_APPS:-vecadd saxpy sgemm_naive sgemm_tiled reduce scan sobel histogram \
bitonic_sort transpose bfs math_builtins image_convert}
known=${MALI_APPS_KNOWN_FAIL-}
img=${MALI_APPS_IMAGE:?MALI_APPS_IMAGE: the guest image directory, \$(IMAGE_OUT)}
here=$(dirname "$0")
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "mali-apps-test: $f missing (make image)"; exit 1; }
done
rm -rf "$work"
mkdir -p "$work/share"
cp "$here/apps_guest.sh" "$work/share/"
runs=""
ref=""
# JOBS boots at once (MALI_APPS_JOBS, default 2: one per host core; each boot is one vCPU), in
# groups: the messages of a group come when its last boot ends
jobs=${MALI_APPS_JOBS:-2}
running=0
boot() {   # RUN MODEL THREADS DEVICES
    dir=$work/$1
    truncate -s 64M "$dir/disk.img"   # sparse; the guest writes a tar at its start
    start=$(date +%s)
    timeout 900 "$malibu" --image $img --gpu "$2" --gpu-threads "$3" --share "$work/share" \
        --disk "$dir/disk.img,write-through" \
        --run "sh /mnt/host/apps_guest.sh '$4' $apps" </dev/null >"$dir/console.log" 2>&1
    echo $? >"$dir/status"
    tar -xf "$dir/disk.img" -C "$dir/out" 2>/dev/null
    rm -f "$dir/disk.img"
    echo "mali-apps-test: $2, --gpu-threads $3, $4: boot + samples in $(($(date +%s) - start)) s"
}
for m in $models; do
    for t in $threads; do
        run=$m-t$t
        mkdir -p "$work/$run/out"
        devs=panfrost
        [ -n "$ref" ] || { devs="panfrost llvmpipe"; ref=$run/out/llvmpipe; }
        boot "$run" "$m" "$t" "$devs" &
        runs="$runs $run"
        running=$((running + 1))
        [ $running -lt "$jobs" ] || { wait; running=0; }
    done
done
wait
exec python3 "$here/apps_verdict.py" "$work" --runs "$runs" --threads "$threads" --ref "$ref" \
    --apps "$apps" --known-fail "$known"

#!/bin/sh
# mali-stack-test: the trixie-backports stack (IMAGE_STACK=backports: Linux 7.3 with panfrost 1.6,
# Mesa 26.1) on the emulated GPU, once per model: panfrost 1.6 probes and the kernel log has no
# error or warning, clinfo lists the Mali device, vecadd and saxpy pass, the profiling sample
# passes on a profiling queue (CL_PROFILING_COMMAND_* ordered, CPU and GPU clocks agree, 4x the
# work takes 2.5x..6x the modelled time), the extensions sample passes (Mesa 26.1's rusticl
# extensions on panfrost: fp16, extended bit ops, integer dot products, kernel clock, 3D image
# writes, depth images, 10:10:10:2 images, priority hints, each checked against the CPU).
# clpeak (kernel latency among its figures) is mali-clpeak-test's (tests/mali/clpeak_test.sh).
# usage: stack_test.sh MALIBU [MODELS] [IMAGE_DIR]    (default "g71 g52" guest-images/out-backports)
set -u
malibu=$1
models=${2:-g71 g52}
img=${3:-guest-images/out-backports}
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "mali-stack-test: $f missing (make image IMAGE_STACK=backports)"; exit 1; }
done
script='dmesg | grep -E "panfrost|\[drm\]"
RUSTICL_ENABLE=panfrost clinfo -l
RUSTICL_ENABLE=panfrost vecadd | tail -2
RUSTICL_ENABLE=panfrost saxpy | tail -1
RUSTICL_ENABLE=panfrost profiling; echo "profiling-status: $?"
RUSTICL_ENABLE=panfrost extensions | grep -E "cl_khr|extensions: [A-Z]|checked"
echo "bad-log-lines: $(dmesg | grep -ciE "error|warn|bug|oops|unhandled|unknown|timeout")"'
fail=0
for m in $models; do
    name=$(echo "$m" | tr g G)
    start=$(date +%s)
    out=$(timeout 600 "$malibu" --image "$img" --gpu "$m" --run "$script" </dev/null 2>&1)
    status=$?
    bad=""
    [ $status -eq 0 ] || bad="$bad exit-status=$status"
    for want in "Initialized panfrost 1.6.0" "panfrost 2d000000.gpu: mali-$m id" \
                "Device #0: Mali-$name" "vecadd: PASS" "source=profiling" "saxpy: PASS" \
                "profiling: PASS" "profiling-status: 0" "extensions: 8 extensions checked, 0 failed" \
                "extensions: PASS" "bad-log-lines: 0"; do
        echo "$out" | grep -qF "$want" || bad="$bad missing:'$want'"
    done
    if [ -z "$bad" ]; then
        echo "mali-stack-test: $m: panfrost 1.6 probe, clinfo, vecadd, saxpy, profiling ($(echo "$out" |
            sed -n 's/^profiling: time \(.*\) (want.*/\1/p')), 8 extensions, clean log: ok ($(($(date +%s) - start)) s)"
    else
        echo "mali-stack-test: $m FAILED:$bad"
        echo "$out" | tail -40
        fail=1
    fi
done
exit $fail

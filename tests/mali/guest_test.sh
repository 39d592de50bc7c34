#!/bin/sh
# mali-guest-test: Debian's unmodified panfrost driver and Mesa's rusticl on the emulated GPU,
# once per model: the probe names the model and the kernel log has no error or warning, the render
# node exists, `RUSTICL_ENABLE=panfrost clinfo` lists the Mali device, and the GPU runtime-suspends
# when idle, resumes for an OpenCL job (vecadd, checked against the CPU) and suspends again; the
# profiling sample reports SKIP (status 77): panfrost 1.2 (Linux 6.12) gives Mesa no timestamps,
# so rusticl offers no profiling queues (tests/mali/stack_test.sh runs it on the newer stack).
# On g52 also a kernel that never ends (gpu_hang): panfrost's job timeout fires (with the guest
# clock advancing by the GPU's modelled time while the CPU waits: ~20 s of host time), the GPU is
# reset, and vecadd passes again afterwards.
# usage: guest_test.sh MALIBU [MODELS]
set -u
malibu=$1
models=${2:-g71 g52}
img=guest-images/out
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "mali-guest-test: $f missing (make image)"; exit 1; }
done
script='p=/sys/bus/platform/devices/2d000000.gpu/power
dmesg | grep panfrost
ls /dev/dri
RUSTICL_ENABLE=panfrost clinfo -l
sleep 1; echo "runtime-idle: $(cat $p/runtime_status)"
RUSTICL_ENABLE=panfrost vecadd | tail -1
RUSTICL_ENABLE=panfrost profiling >/tmp/profiling.log; echo "profiling-status: $?"; tail -2 /tmp/profiling.log
sleep 1; echo "runtime-after: $(cat $p/runtime_status)"
echo "bad-log-lines: $(dmesg | grep -ciE "error|warn|bug|oops|unhandled|unknown")"'
hang='
RUSTICL_ENABLE=panfrost gpu_hang
echo "timeouts: $(dmesg | grep -c "gpu sched timeout")"
RUSTICL_ENABLE=panfrost vecadd | tail -1 | sed "s/^/after-hang /"'
fail=0
for m in $models; do
    name=$(echo "$m" | tr g G)
    s=$script
    wants=""
    if [ "$m" = g52 ]; then
        s="$script$hang"
        wants="timeouts: 1|after-hang vecadd: PASS"
    fi
    out=$(timeout 900 "$malibu" --image $img --gpu "$m" --run "$s" </dev/null 2>&1)
    status=$?
    bad=""
    [ $status -eq 0 ] || bad="$bad exit-status=$status"
    for want in "panfrost 2d000000.gpu: mali-$m id" "renderD128" "Device #0: Mali-$name (Panfrost)" \
                "runtime-idle: suspended" "vecadd: PASS" "runtime-after: suspended" "bad-log-lines: 0" \
                "profiling: SKIP" "profiling-status: 77"; do
        echo "$out" | grep -qF "$want" || bad="$bad missing:'$want'"
    done
    old_ifs=$IFS
    IFS='|'
    for want in $wants; do
        echo "$out" | grep -qF "$want" || bad="$bad missing:'$want'"
    done
    IFS=$old_ifs
    if [ -z "$bad" ]; then
        echo "mali-guest-test: $m: probe, render node, clinfo, runtime suspend/resume around vecadd, clean log${wants:+, hung kernel timed out and the GPU recovered}: ok"
    else
        echo "mali-guest-test: $m FAILED:$bad"
        echo "$out" | tail -30
        fail=1
    fi
done
exit $fail

#!/bin/sh
# mali-guest-test: Debian's unmodified panfrost driver and Mesa's rusticl on the emulated GPU, in
# one guest image (either stack), once per model: the probe names the model, the kernel log has no
# error or warning, the render node exists, `RUSTICL_ENABLE=panfrost clinfo` lists the Mali device,
# the GPU runtime-suspends when idle, resumes for OpenCL jobs (vecadd and saxpy, checked against
# the CPU) and suspends again.  What the stack's kernel and Mesa offer is checked too:
#   backports (Linux 7.3, panfrost 1.6, Mesa 26.1): the profiling sample passes on a profiling
#     queue (CL_PROFILING_COMMAND_* ordered, CPU and GPU clocks agree, 4x the work takes 2.5x..6x
#     the modelled time) and the extensions sample passes (fp16, extended bit ops, integer dot
#     products, kernel clock, 3D image writes, depth images, 10:10:10:2 images, priority hints,
#     each checked against the CPU);
#   stable (Linux 6.12, panfrost 1.2, Mesa 25.0): the profiling sample reports SKIP (status 77):
#     panfrost 1.2 gives Mesa no timestamps, so rusticl offers no profiling queues.
# With HANG=g52 (the default image's run) also, on g52: a one-work-item job of 4 M turns (~50 ms
# of modelled time, ~1.5 s of host time) beside a process that spins on the CPU runs to its end
# without a job timeout (the guest clock's lead limit, devices/gtimer.h: without it guest time
# runs at host pace through the job, because the CPU never idles, and panfrost stops the job at
# 500 ms: measured, 2796202 of 4000000 turns); and a kernel that never ends (gpu_hang):
# panfrost's job timeout fires (with the guest clock advancing by the GPU's modelled time while the
# CPU waits: ~20 s of host time), the GPU is reset, and vecadd passes again afterwards.
# usage: guest_test.sh MALIBU MODELS IMAGE_DIR    (MODELS e.g. "g71 g52"; IMAGE_DIR: $(IMAGE_OUT))
set -u
malibu=$1
models=${2:-g71 g52}
img=${3:?usage: guest_test.sh MALIBU MODELS IMAGE_DIR}
hang_models=${HANG-g52}
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4 $img/.image-config; do
    [ -e "$f" ] || { echo "mali-guest-test: $f missing (make image)"; exit 1; }
done
# the stack the image was built from: the first line of its .image-config, "stack NAME lock ..."
stack=$(sed -n '1s/^stack \([a-z]*\) .*/\1/p' $img/.image-config)
case $stack in
backports)
    stack_wants="Initialized panfrost 1.6.0|profiling: PASS|profiling-status: 0|extensions: 8 extensions checked, 0 failed|extensions: PASS"
    stack_says="panfrost 1.6, profiling queue, 8 extensions" ;;
stable)
    stack_wants="Initialized panfrost 1.2.0|profiling: SKIP|profiling-status: 77"
    stack_says="panfrost 1.2, no profiling queue (SKIP)" ;;
*) echo "mali-guest-test: $img/.image-config names no known stack"; exit 1 ;;
esac
script='p=/sys/bus/platform/devices/2d000000.gpu/power
dmesg | grep -E "panfrost|\[drm\]"
ls /dev/dri
RUSTICL_ENABLE=panfrost clinfo -l
sleep 1; echo "runtime-idle: $(cat $p/runtime_status)"
RUSTICL_ENABLE=panfrost vecadd | tail -1
RUSTICL_ENABLE=panfrost saxpy | tail -1
RUSTICL_ENABLE=panfrost profiling >/tmp/profiling.log; echo "profiling-status: $?"; grep -E "^profiling: (time|SKIP|PASS|FAIL)" /tmp/profiling.log
RUSTICL_ENABLE=panfrost extensions | grep -E "cl_khr|extensions: [A-Z]|checked"
sleep 1; echo "runtime-after: $(cat $p/runtime_status)"
echo "bad-log-lines: $(dmesg | grep -ciE "error|warn|bug|oops|unhandled|unknown|timeout")"'
hang='
sh -c "while :; do :; done" & spin=$!
RUSTICL_ENABLE=panfrost gpu_hang 4000000 | tail -1 | sed "s/^/busy-cpu /"
kill $spin
echo "busy-timeouts: $(dmesg | grep -c "gpu sched timeout")"
RUSTICL_ENABLE=panfrost gpu_hang
echo "timeouts: $(dmesg | grep -c "gpu sched timeout")"
RUSTICL_ENABLE=panfrost vecadd | tail -1 | sed "s/^/after-hang /"'
fail=0
for m in $models; do
    name=$(echo "$m" | tr g G)
    start=$(date +%s)
    s=$script
    wants="panfrost 2d000000.gpu: mali-$m id|renderD128|Device #0: Mali-$name|runtime-idle: suspended|vecadd: PASS|saxpy: PASS|runtime-after: suspended|bad-log-lines: 0|$stack_wants"
    hung=""
    case " $hang_models " in *" $m "*)
        s="$script$hang"
        wants="$wants|busy-cpu gpu_hang: 4000000 of 4000000 turns: PASS|busy-timeouts: 0|timeouts: 1|after-hang vecadd: PASS"
        hung=", a long job beside a spinning CPU passed, hung kernel timed out and the GPU recovered" ;;
    esac
    out=$(timeout 900 "$malibu" --image "$img" --gpu "$m" --run "$s" </dev/null 2>&1)
    status=$?
    bad=""
    [ $status -eq 0 ] || bad="$bad exit-status=$status"
    old_ifs=$IFS
    IFS='|'
    for want in $wants; do
        echo "$out" | grep -qF "$want" || bad="$bad missing:'$want'"
    done
    IFS=$old_ifs
    if [ -z "$bad" ]; then
        prof=$(echo "$out" | sed -n 's/^profiling: time \(.*\) (want.*/ (\1)/p')
        echo "mali-guest-test: $stack $m: probe, render node, clinfo, runtime suspend/resume around vecadd and saxpy, $stack_says$prof, clean log$hung: ok ($(($(date +%s) - start)) s)"
    else
        echo "mali-guest-test: $stack $m FAILED:$bad"
        echo "$out" | tail -40
        fail=1
    fi
done
exit $fail

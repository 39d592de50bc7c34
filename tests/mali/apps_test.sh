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
# MALI_APPS_STATS=1 (mali-apps-test in `make test`) makes the same boots compare the GPU back ends:
# each writes a --stats report; a boot with 1 thread runs --gpu-backend interp (the reference),
# the others the jit (with MALI_APPS_SSE=yes, on g71 one more boot, MODEL-t2sse, runs jit-sse,
# the SSE code, where the host's jit is AVX2), and tests/mali/stats_compare.py requires every
# report's shader-core counts
# (kernels and their clauses, CFG edges, divergence, shader jobs, totals) to equal the reference's.
# A host without compiled code (not x86-64 with SSE4.1 + SSSE3) has nothing to compare: the test
# fails, naming the missing CPU features; without AVX2 + FMA the jit boots run the SSE code, and it
# says so.  HOST_CPU_FLAGS: the host's CPU flags (default: /proc/cpuinfo's), to check that verdict.
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
stats=${MALI_APPS_STATS:-}
avx2=no
if [ -n "$stats" ]; then
    flags=${HOST_CPU_FLAGS-$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)}
    has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
    if [ "$(uname -m)" != x86_64 ] || ! has sse4_1 || ! has ssse3; then
        echo "mali-apps-test: FAIL: the host ($(uname -m)) lacks x86-64 SSE4.1 + SSSE3, which the GPU jit needs: no back ends to compare"
        exit 1
    fi
    has avx2 && has fma && avx2=yes
    [ $avx2 = yes ] || echo "mali-apps-test: the host lacks AVX2 + FMA: the jit boots run the SSE code only"
fi
runs=""
ref=""
# JOBS boots at once (MALI_APPS_JOBS, default 2: one per host core; each boot is one vCPU), in
# groups: the messages of a group come when its last boot ends
jobs=${MALI_APPS_JOBS:-2}
running=0
boot() {   # RUN MODEL THREADS DEVICES [BACKEND]
    dir=$work/$1
    truncate -s 64M "$dir/disk.img"   # sparse; the guest writes a tar at its start
    opts=""
    [ -z "$stats" ] || opts="--stats $dir/stats.json --gpu-backend $5"
    start=$(date +%s)
    timeout 900 "$malibu" --image $img --gpu "$2" --gpu-threads "$3" $opts --share "$work/share" \
        --disk "$dir/disk.img,write-through" \
        --run "sh /mnt/host/apps_guest.sh '$4' $apps" </dev/null >"$dir/console.log" 2>&1
    echo $? >"$dir/status"
    tar -xf "$dir/disk.img" -C "$dir/out" 2>/dev/null
    rm -f "$dir/disk.img"
    echo "mali-apps-test: $2, --gpu-threads $3${5:+, --gpu-backend $5}, $4: boot + samples in $(($(date +%s) - start)) s"
}
for m in $models; do
    specs=""
    for t in $threads; do
        be=jit
        [ "$t" != 1 ] || be=interp
        specs="$specs $t:$be:$m-t$t"
    done
    [ -z "$stats" ] || [ "${MALI_APPS_SSE:-no}" != yes ] || [ $m != g71 ] || [ $avx2 != yes ] ||
        specs="$specs 2:jit-sse:$m-t2sse"
    for spec in $specs; do
        t=${spec%%:*} rest=${spec#*:}
        be=${rest%%:*} run=${rest#*:}
        mkdir -p "$work/$run/out"
        devs=panfrost
        [ -n "$ref" ] || { devs="panfrost llvmpipe"; ref=$run/out/llvmpipe; }
        boot "$run" "$m" "$t" "$devs" ${stats:+$be} &
        runs="$runs $run"
        running=$((running + 1))
        [ $running -lt "$jobs" ] || { wait; running=0; }
    done
done
wait
python3 "$here/apps_verdict.py" "$work" --runs "$runs" --threads "$threads" --ref "$ref" \
    --apps "$apps" --known-fail "$known"
rc=$?
[ -n "$stats" ] || exit $rc
# the back ends' counts: per model, every boot against the model's interp boot (MODEL-t1)
names=$(for s in $apps; do printf '%s ' "${s%%:*}"; done)
for m in $models; do
    for run in $runs; do
        case $run in $m-t1 | $m-t*-*) continue ;; $m-t*) ;; *) continue ;; esac
        python3 "$here/stats_compare.py" --apps "$names" "$work/$m-t1" "$work/$run" || rc=1
    done
done
[ $rc = 0 ] && echo "mali-apps-test: --stats: every boot's counts equal its model's interp boot's"
exit $rc

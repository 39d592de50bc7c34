#!/bin/sh
# mali-stats-test: --stats counts of the GPU back ends against each other on real guest programs.
# Per GPU model (g71: 4-lane warps, g52: 8-lane warps) one boot runs the OpenCL samples of
# guest-images/apps with --gpu-backend interp --gpu-threads 1 (the reference) and one with
# --gpu-backend jit --gpu-threads 2 (on g71 one more with jit-sse, the SSE code, where the host's
# jit is AVX2); tests/mali/stats_compare.py then requires the reports' shader-core counts
# (kernels and their clauses, CFG edges, divergence, shader jobs, totals) to be identical to the
# reference's, and each sample to have passed its own check in every boot.  A host without
# compiled code (not x86-64 with SSE4.1 + SSSE3) has nothing to compare: the test fails, naming
# the missing CPU features; without AVX2 + FMA the jit boots run the SSE code, and it says so.
#
# usage: stats_backends.sh MALIBU WORKDIR IMAGE_DIR [MODELS]   (IMAGE_DIR: $(IMAGE_OUT); MODELS
#        default "g71 g52")
# HOST_CPU_FLAGS: the host's CPU flags (default: /proc/cpuinfo's), to check the test's verdict for
# a host without AVX2 or SSE4.1
# MALI_STATS_APPS: the samples, NAME or NAME:ARG,ARG (default: all 13 at their default sizes, and
# sgemm_naive 256, whose loop clauses run often enough per host thread to fill compiled code's
# records: bx_count)
set -u
malibu=$1
work=$2
img=${3:?usage: stats_backends.sh MALIBU WORKDIR IMAGE_DIR [MODELS]}
models=${4:-g71 g52}
apps=${MALI_STATS_APPS:-vecadd saxpy sgemm_naive sgemm_tiled reduce scan sobel histogram \
bitonic_sort transpose bfs math_builtins image_convert sgemm_naive:256}
here=$(dirname "$0")
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "mali-stats-test: $f missing (make image)"; exit 1; }
done
rm -rf "$work"
mkdir -p "$work"
cmd="for s in $apps; do n=\${s%%:*}; a=\$(echo \${s#\$n} | tr ,: '  '); RUSTICL_ENABLE=panfrost timeout 600 \$n -d Mali \$a >/tmp/out 2>&1; echo \"STATS_APP \$s status=\$? \$(tail -n 1 /tmp/out)\"; done"
flags=${HOST_CPU_FLAGS-$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)}
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
avx2=no
sse=no
[ "$(uname -m)" = x86_64 ] && has avx2 && has fma && avx2=yes
[ "$(uname -m)" = x86_64 ] && has sse4_1 && has ssse3 && sse=yes
if [ $sse = no ]; then
    echo "mali-stats-test: FAIL: the host ($(uname -m)) lacks x86-64 SSE4.1 + SSSE3, which the GPU jit needs: nothing to compare"
    exit 1
fi
[ $avx2 = yes ] || echo "mali-stats-test: the host lacks AVX2 + FMA: the jit boots run the SSE code only"
rc=0
for m in $models; do
    runs="interp:1 jit:2"
    [ $m = g71 ] && [ $avx2 = yes ] && [ $sse = yes ] && runs="$runs jit-sse:2"
    # two boots at once (one vCPU each, one per core of a 2-core host): the counts do not depend
    # on host load or threads, which is what this test checks
    running=0
    for run in $runs; do
        be=${run%:*}
        t=${run#*:}
        tag=$m-$be-t$t
        (
            start=$(date +%s)
            timeout 900 "$malibu" --image $img --gpu "$m" --gpu-backend "$be" --gpu-threads "$t" \
                --stats "$work/$tag.json" --run "$cmd" </dev/null >"$work/$tag.log" 2>&1
            echo "mali-stats-test: $m, --gpu-backend $be --gpu-threads $t: boot + samples in $(($(date +%s) - start)) s"
        ) &
        running=$((running + 1))
        [ $running -lt 2 ] || { wait; running=0; }
    done
    wait
    for run in $runs; do
        [ $run = interp:1 ] || python3 "$here/stats_compare.py" --apps "$apps" "$work/$m-interp-t1" \
            "$work/$m-${run%:*}-t${run#*:}" || rc=1
    done
done
[ $rc = 0 ] && echo "mali-stats-test: ok"
exit $rc

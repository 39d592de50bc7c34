#!/bin/sh
# mali-clpeak-test: Debian's clpeak (a benchmark nobody here wrote, sized for real GPUs) runs to
# the end on the emulated Mali with the default (backports) stack (profiling-capable rusticl), per model:
# global memory bandwidth, single-precision compute and kernel launch latency, its float variant
# of each (clpeak -tn float; the full run is ~30x the work).  The guest has 2 GiB of RAM
# (CLPEAK_RAM): clpeak's bandwidth test allocates 1.5x rusticl's maximum allocation, which is half
# the RAM (1.5 GiB of 2); with 1 GiB the guest cannot hold its buffers ("Tests skipped").
#
# Checks, per model:
#   * clpeak exits 0 and prints every selected figure (no "Tests skipped", no CL error);
#   * compute: GFLOPS between 50% and 100% of the modelled peak, cores x execution engines x
#     warp lanes x 2 (an FMA) x the model's 500 MHz clock (G71 MP4: 48, G52 MP2: 32): clpeak's
#     time is guest time, which follows the modelled GPU time (--gpu-time model);
#   * bandwidth: between 1 GB/s and the issue-rate ceiling, one 4-byte load per lane in every
#     tuple of every engine (cores x engines x lanes x 4 B x 500 MHz: G71 96, G52 64 GB/s):
#     without the timing plug-in (--timing) memory costs nothing beyond its issue slots, so the
#     figure follows the share of load tuples in clpeak's kernels (docs/gpu.md);
#   * latency: 1 us .. 100 ms;
#   * the kernel log has no panfrost error, fault or job timeout.
#
# usage: clpeak_test.sh MALIBU MODELS IMAGE_DIR    (MODELS e.g. "g71 g52"; IMAGE_DIR: $(IMAGE_OUT))
# CLPEAK_TESTS: the clpeak test options (default: --global-bandwidth --compute-sp --kernel-latency);
# a figure is checked when its test ran.
set -u
malibu=$1
models=${2:-g71 g52}
img=${3:?usage: clpeak_test.sh MALIBU MODELS IMAGE_DIR}
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "mali-clpeak-test: $f missing (make image)"; exit 1; }
done
tests=${CLPEAK_TESTS:---global-bandwidth --compute-sp --kernel-latency}
script='RUSTICL_ENABLE=panfrost clpeak '"$tests"' -tn float
echo "clpeak-status: $?"
echo "bad-log-lines: $(dmesg | grep -ciE "panfrost.*(error|fault)|timeout|oops|bug")"'
fail=0
for m in $models; do
    case $m in
        g71) peak=48; bw_ceiling=96 ;;     # 4 cores x 3 engines x 4 lanes x 2 (FMA) or 4 B x 0.5 GHz
        g52) peak=32; bw_ceiling=64 ;;     # 2 cores x 2 engines x 8 lanes x 2 (FMA) or 4 B x 0.5 GHz
        *) echo "mali-clpeak-test: no modelled peak for $m"; exit 1 ;;
    esac
    start=$(date +%s)
    out=$(timeout 1500 "$malibu" -m "${CLPEAK_RAM:-2G}" --image "$img" --gpu "$m" --run "$script" </dev/null 2>&1)
    status=$?
    bad=""
    [ $status -eq 0 ] || bad="$bad exit-status=$status"
    for want in "clpeak-status: 0" "bad-log-lines: 0"; do
        echo "$out" | grep -qF "$want" || bad="$bad missing:'$want'"
    done
    echo "$out" | grep -qE "Tests skipped|CL_[A-Z_]+ *\(-?[0-9]+\)|^clCreate|^clEnqueue" && bad="$bad clpeak-error"
    # the figure after "float   :" in each section, in clpeak's order: bandwidth, compute
    bw=$(echo "$out" | sed -n '/Global memory bandwidth/,/Single-precision/s/^ *float *: *\([0-9.]*\).*/\1/p' | head -1)
    gf=$(echo "$out" | sed -n '/Single-precision compute/,$s/^ *float *: *\([0-9.]*\).*/\1/p' | head -1)
    lat=$(echo "$out" | sed -n 's/.*Kernel launch latency : *\([0-9.]*\) us.*/\1/p' | head -1)
    case $tests in *--global-bandwidth*)
        [ -n "$bw" ] && awk -v v="$bw" -v c="$bw_ceiling" 'BEGIN { exit !(v >= 1 && v <= c) }' ||
            bad="$bad bandwidth:'$bw'(ceiling $bw_ceiling)" ;;
    esac
    case $tests in *--compute-sp*)
        [ -n "$gf" ] && awk -v v="$gf" -v p="$peak" 'BEGIN { exit !(v >= 0.5 * p && v <= p) }' ||
            bad="$bad compute:'$gf'(peak $peak)" ;;
    esac
    case $tests in *--kernel-latency*)
        [ -n "$lat" ] && awk -v l="$lat" 'BEGIN { exit !(l >= 1 && l <= 100000) }' || bad="$bad latency:'$lat'" ;;
    esac
    if [ -z "$bad" ]; then
        echo "mali-clpeak-test: $m: global bandwidth (float) ${bw:--} GB/s (ceiling $bw_ceiling), compute (float) ${gf:--} GFLOPS" \
             "(modelled peak $peak), kernel latency ${lat:--} us: ok ($(($(date +%s) - start)) s)"
    else
        echo "mali-clpeak-test: $m FAILED:$bad"
        echo "$out" | grep -v "^gpu: job" | tail -30
        fail=1
    fi
done
exit $fail

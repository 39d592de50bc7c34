#!/bin/sh
# Overhead of the timing plug-in (--timing, docs/timing.md): the OpenCL samples of guest-images/apps
# in one boot with timing off and one with --timing preset=MODEL, same --gpu-threads.  Per sample:
#   engine ms     the shader-core engine's host time for the sample's jobs (MALIBU_GPU_LOG=1 lines)
#   model ms      the modelled GPU time of those jobs (issue time; with timing: + memory stall)
#   kernel ms     the sample's guest-visible kernel time ("time kernel=ALL ns=")
# and the engine-time ratio on / off.
# usage: bench/timing.sh [MALIBU] [IMAGE_DIR] [MODEL] [THREADS] [SAMPLES...]
#   (IMAGE_DIR default: that of IMAGE_STACK / IMAGE_OUT)
set -u
malibu=${1:-build/malibu}
. "$(dirname "$0")/image_dir.sh"
img=${2:-$IMAGE_DIR}
model=${3:-g71}
threads=${4:-2}
[ $# -ge 4 ] && shift 4 || set --
samples=${*:-vecadd saxpy sgemm_naive sgemm_tiled reduce scan sobel histogram bitonic_sort transpose bfs math_builtins image_convert}
script=""
for s in $samples; do script="$script echo \"@@ $s\"; $s | tail -3;"; done
# LOGS=DIR: tabulate DIR/off.log and DIR/on.log of an earlier run instead of running
tmp=${LOGS:-$(mktemp -d)}
for mode in off on; do
    [ -n "${LOGS:-}" ] && break
    opt=""
    [ $mode = on ] && opt="--timing preset=$model"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    MALIBU_GPU_LOG=1 timeout 1800 "$malibu" --image "$img" --gpu "$model" --gpu-threads "$threads" $opt \
        --run "$script" </dev/null >"$tmp/$mode.log" 2>&1
    echo "$mode: boot + samples $(echo "$(date +%s.%N) - $start" | bc) s" >&2
done
awk -v OFS=' | ' '
    { sub(/\r$/, "") }
    FNR == 1 { mode = (FILENAME ~ /off.log$/) ? "off" : "on" }
    /@@ / { s = $2; for (i = 1; i <= NF; i++) if ($i == "@@") s = $(i + 1); if (!(s in seen)) { seen[s] = 1; order[n++] = s } }
    /^gpu: job / { for (i = 1; i <= NF; i++) { if ($(i + 1) == "ms" && $(i - 1) ~ /lane-instructions,/) eng[mode, s] += $i;
                                               if ($i == "modelled") mod[mode, s] += $(i + 1) } }
    /time kernel=ALL ns=/ { for (i = 1; i <= NF; i++) if ($i ~ /^ns=/) { v = $i; sub("ns=", "", v); ker[mode, s] = v / 1e6 } }
    /: (PASS|FAIL|SKIP)$/ { st[mode, s] = $NF }
    END {
        print "| sample | engine ms off | engine ms on | on / off | model ms off | model ms on | kernel ms off | kernel ms on | status off / on |"
        print "|---|---|---|---|---|---|---|---|---|"
        for (k = 0; k < n; k++) { x = order[k]
            r = 0; if (eng["off", x] > 0) r = eng["on", x] / eng["off", x]
            printf "| %s | %.1f | %.1f | %.2f | %.3f | %.3f | %.1f | %.1f | %s / %s |\n", x, eng["off", x], eng["on", x],
                   r, mod["off", x], mod["on", x], ker["off", x], ker["on", x], st["off", x], st["on", x]
            to += eng["off", x]; tn += eng["on", x] }
        r = 0; if (to > 0) r = tn / to
        printf "| all | %.1f | %.1f | %.2f | | | | | |\n", to, tn, r
    }' "$tmp/off.log" "$tmp/on.log"
echo "logs: $tmp" >&2

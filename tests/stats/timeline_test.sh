#!/bin/sh
# timeline-test (tests/stats/stats.mk): --timeline on a guest running two OpenCL samples (vecadd,
# sgemm_tiled) on the emulated G52, twice at once, with --gpu-threads 1 and 2, each also with
# --stats, under the kernel-naming layer (guest-images/apps/libcl_malibu_names.c): the report
# and the timeline name the jobs vecadd and sgemm_tiled.  Checks (tests/stats/check_timeline.py): the file is trace-event JSON whose events nest
# per track, begins precede ends, durations are >= 0 and timestamps never go back per track;
# its GPU jobs per clock view equal the report's (in all and per type), its JOB interrupts the
# report's, its compute jobs are named after the report's kernels; and the two runs' GPU jobs
# are the same job for job (names, types, workgroups, status, modelled time: nothing depends on
# the host threads).  Then malibu-report --timeline draws it and headless Chromium loads the
# page (check_timeline_html.py): the kernel names are in both timeline SVGs of the DOM and the
# screenshot shows the timeline's colours.
#
# Usage: timeline_test.sh MALIBU MALIBU_REPORT WORKDIR IMAGE_DIR
set -u
malibu=$1 report=$2 work=$3 img=$4
here=$(dirname "$0")
command -v chromium >/dev/null 2>&1 ||
    { echo "timeline-test: FAIL: chromium not installed (Debian package chromium, tools/host-packages)"; exit 1; }
[ -f "$img/rootfs.ext4" ] || { echo "timeline-test: FAIL: no guest image in $img (make image)"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
start=$(date +%s)
boot() {   # NAME GPU_THREADS
    timeout 600 "$malibu" -m 2G --image "$img" --gpu g52 --display none --gpu-threads "$2" \
        --timeline "$work/$1.json" --stats "$work/$1.stats.json" \
        --run 'for s in vecadd sgemm_tiled; do OPENCL_LAYERS=/usr/local/lib/libcl_malibu_names.so RUSTICL_ENABLE=panfrost $s -d Mali >/tmp/$s.log 2>&1; echo "TL_RESULT $s $? $(tail -n 1 /tmp/$s.log)"; done' \
        </dev/null >"$work/$1.log" 2>"$work/$1.err"
    echo $? >"$work/$1.status"
}
boot t1 1 &
boot t2 2 &
wait
echo "timeline-test: two boots in $(($(date +%s) - start)) s"
rc=0
for r in t1 t2; do
    if [ "$(cat "$work/$r.status")" != 0 ] || [ "$(grep -c 'TL_RESULT .* 0 .*PASS' "$work/$r.log")" != 2 ]; then
        echo "timeline-test: FAIL: $r: exit status $(cat "$work/$r.status"), samples:"
        grep TL_RESULT "$work/$r.log"
        tail -n 5 "$work/$r.err"
        rc=1
        continue
    fi
    grep '^timeline: ' "$work/$r.err" | grep -q ' 0 dropped' ||
        { echo "timeline-test: FAIL: $r: no 'timeline: ... 0 dropped' line on stderr"; rc=1; }
    python3 "$here/check_timeline.py" "$work/$r.json" --stats "$work/$r.stats.json" || rc=1
done
[ $rc = 0 ] || exit 1
# the kernels by their real names (the layer and the guest channel), not shader@VA
for k in vecadd sgemm_tiled; do
    python3 -c 'import json, sys; sys.exit(sys.argv[2] not in [k["name"] for k in json.load(open(sys.argv[1]))["gpu"]["kernels"]])' \
        "$work/t2.stats.json" $k || { echo "timeline-test: FAIL: no kernel named $k in the report"; rc=1; }
done
python3 "$here/check_timeline.py" "$work/t2.json" --same-gpu "$work/t1.json" || rc=1
"$report" "$work/t2.stats.json" -o "$work/report" --timeline "$work/t2.json" >/dev/null || rc=1
python3 "$here/check_timeline_html.py" "$work/report/index.html" --stats "$work/t2.stats.json" \
    --png "$work/timeline.png" || rc=1
echo "timeline-test: $([ $rc = 0 ] && echo ok || echo FAIL) in $(($(date +%s) - start)) s"
exit $rc

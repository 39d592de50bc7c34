#!/bin/sh
# roi-test: the guest channel, kernel names and regions in --stats reports (docs/guest-channel.md,
# emu/stats/SCHEMA.md "roi"), on G52 with the guest image:
#   1. roi_kernels under the naming layer, with --timing (three named kernels launched 1, 2 and 5 times in two
#      nested regions, one more outside them), then the malibu command from the shell:
#      tests/stats/check_roi.py kernels, and malibu-report's page of it; its --timeline: GPU jobs
#      named by kernel, the regions and annotations (check_roi.py timeline)
#   2. (Debian's clpeak, unmodified, under the layer: mali-clpeak-test runs it, check_roi.py clpeak)
#   3. malibu_fuzz (hostile calls): its PASS, malibu's exit 0, one log line, check_roi.py fuzz;
#      again with --backend portable
#   4. the same binaries off malibu (malibu-user: no device tree): "no channel", nothing done
# usage: roi_test.sh MALIBU MALIBU_USER IMAGE_DIR WORKDIR ROOTFS_TREE (the image's unpacked rootfs)
set -u
malibu=$1 muser=$2 img=$3 work=$4 root=$5
here=$(dirname "$0")
for f in "$malibu" "$muser" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "roi-test: FAIL: $f missing (make image)"; exit 1; }
done
mkdir -p "$work"
layer="OPENCL_LAYERS=/usr/local/lib/libcl_malibu_names.so RUSTICL_ENABLE=panfrost"
fail=0
run() { # NAME TIMEOUT SCRIPT [OPTIONS]: boots the image with --stats $work/NAME.json; output in $work/NAME.log
    name=$1 t=$2 script=$3
    shift 3
    start=$(date +%s)
    timeout "$t" "$malibu" -m 2G --image "$img" --gpu g52 --display none --stats "$work/$name.json" "$@" \
        --run "$script" </dev/null >"$work/$name.log" 2>"$work/$name.err"
    status=$?
    echo "roi-test: $name: exit $status in $(($(date +%s) - start)) s"
    return $status
}
expect_line() { # NAME TEXT: the guest printed TEXT (a whole line, CRLF console)
    tr -d '\r' <"$work/$1.log" | grep -qxF "$2" || { echo "roi-test: FAIL: $1: no line '$2'"; sed 's/^/   | /' "$work/$1.log" | tail -20; fail=1; }
}

run kernels 600 "$layer roi_kernels && malibu probe && malibu roi-begin shell && malibu annotate hello from sh && malibu roi-end && malibu stats-dump shell-end" --timing preset=g52 \
    --timeline "$work/kernels-timeline.json" || fail=1
expect_line kernels "roi_kernels: PASS"
expect_line kernels "malibu channel: version 1 (instruction 0x204d4c00 | op)"
python3 "$here/check_roi.py" kernels "$work/kernels.json" || fail=1
python3 "$here/check_roi.py" timeline "$work/kernels.json" "$work/kernels-timeline.json" || fail=1
# malibu-report's page: the names table with a row per launch, the regions nested
"$(dirname "$malibu")/malibu-report" "$work/kernels.json" -o "$work/kernels-report" >/dev/null || fail=1
page=$work/kernels-report/index.html
for want in '<h2>Kernels by name (6)</h2>' '<td>roi_five</td><td>5</td>' 'Region 1: outer / inner</h3>' \
            'Dump 0: after-outer</h3>' 'roi_twice launch 2'; do
    grep -qF "$want" "$page" || { echo "roi-test: FAIL: $page lacks '$want'"; fail=1; }
done
n=$(grep -c '<tr class="launch">' "$page")
[ "$n" = 10 ] || { echo "roi-test: FAIL: $page has $n launch rows, want 10"; fail=1; }

run fuzz 600 "malibu_fuzz 36 20000" || fail=1
expect_line fuzz "malibu_fuzz: PASS"
n=$(grep -c "guest channel" "$work/fuzz.err")
[ "$n" = 1 ] || { echo "roi-test: FAIL: fuzz: $n log lines from the channel, want 1"; fail=1; }
python3 "$here/check_roi.py" fuzz "$work/fuzz.json" || fail=1

# the channel from the portable back end too (the native one ran above)
run fuzz-portable 600 "malibu_fuzz 37 20000" --backend portable || fail=1
expect_line fuzz-portable "malibu_fuzz: PASS"
python3 "$here/check_roi.py" fuzz "$work/fuzz-portable.json" || fail=1

# off malibu: the same binaries under malibu-user (no device tree) do nothing and say so

for cmd in "malibu probe" "malibu_fuzz"; do
    out=$("$muser" -L "$root" "$root/usr/local/bin/"$cmd 2>&1)
    status=$?
    if [ $status -ne 2 ] || ! echo "$out" | grep -q "no malibu channel here"; then
        echo "roi-test: FAIL: off malibu, '$cmd' exited $status: $out"; fail=1
    else
        echo "roi-test: off malibu, '$cmd': exit 2, \"$(echo "$out" | head -1 | cut -c1-60)...\""
    fi
done
[ $fail = 0 ] && echo "roi-test: PASS" || echo "roi-test: FAIL"
exit $fail

#!/bin/sh
# piglit-cl-test / piglit-cl-full-test: piglit's OpenCL suite (Debian's piglit package: the runners,
# their libraries and the tests/cl and generated_tests/cl trees are in the guest image; PART_PATHS
# in guest-images/build.py) on the emulated Mali, per model, against rusticl's llvmpipe in the same
# image.  One boot per model, with 2 vCPUs, runs two streams of tests at once
# (tests/piglit/piglit_guest.sh): the whole list on panfrost, and a share of it on llvmpipe (the
# I-th of N models runs tests I, I+N, ...; llvmpipe does not depend on the GPU model), so each
# boot has one panfrost stream and kernel-log errors belong to the panfrost test that was running.
# tests/piglit/piglit_compare.py gives the verdict: a test that passes on llvmpipe and is not
# skipped on the Mali passes on the Mali and leaves no panfrost error, GPU fault or job timeout in
# the kernel log, unless tests/piglit/known-differences.txt names it with its cause; a listed test
# that no longer differs fails too.
#
# usage: piglit_test.sh MALIBU WORKDIR IMAGE_DIR MODELS SAMPLE
#   SAMPLE N: every Nth test of the profile's 711, in the profile's order (1: all of them)
# The piglit .deb (for the test list, tests/piglit/piglit_list.py) is the one the image was built
# from: guest-images/fetch list part (GUEST_STACK/GUEST_LOCK as for the image, from make).
set -u
malibu=$1
work=$2
img=$3
models=$4
sample=$5
here=$(dirname "$0")
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "piglit-cl: $f missing (make image)"; exit 1; }
done
deb=$(python3 guest-images/fetch list part | grep '/piglit_') || {
    echo "piglit-cl: no piglit .deb in the cache (make image)"; exit 1; }
rm -rf "$work"
mkdir -p "$work/share"
cp "$here/piglit_guest.sh" "$work/share/"
python3 "$here/piglit_list.py" "$deb" --sample "$sample" >"$work/share/list" || exit 1
n=$(wc -l <"$work/share/list")
nmodels=$(echo $models | wc -w)
i=0
runs=""
fail=0
for m in $models; do
    devs="panfrost llvmpipe/$i/$nmodels"
    start=$(date +%s)
    # 2 GiB: room for the buffers of the largest tests; the limit covers the full suite
    timeout 14400 "$malibu" -m 2G --smp 2 --image "$img" --gpu "$m" --share "$work/share" \
        --run "sh /mnt/host/piglit_guest.sh /mnt/host/list $devs" </dev/null >"$work/$m.log" 2>&1
    status=$?
    echo "piglit-cl: $m ($devs): $n tests, boot and run in $(($(date +%s) - start)) s, exit status $status"
    [ $status -eq 0 ] || fail=1
    runs="$runs --run $m=$work/$m.log"
    i=$((i + 1))
done
python3 "$here/piglit_compare.py" $runs --known "$here/known-differences.txt" --list "$work/share/list" || fail=1
exit $fail

#!/bin/sh
# piglit-cl-test / piglit-cl-full-test (SUITE cl) and piglit-gles-test / piglit-gles-full-test
# (SUITE gles): a piglit suite of Debian's piglit package (the runners, their libraries and the
# test trees are in the guest image; PART_PATHS in guest-images/build.py) on the emulated Mali,
# per model, against llvmpipe in the same image (rusticl's for cl, Mesa's GLES for gles).  One
# boot per model, with 2 vCPUs, runs two streams of tests (tests/piglit/piglit_guest.sh): the
# whole list on panfrost, and a share of it on llvmpipe (the I-th of N models runs tests I,
# I+N, ...; llvmpipe does not depend on the GPU model), so each boot has one panfrost stream and
# kernel-log errors belong to the panfrost test that was running.  cl: the boots one after
# another, each running its streams at once.  gles: the boots at once, each running its streams
# one after another (PIGLIT_SERIAL=1: a guest CPU busy with llvmpipe while a GPU job runs would
# let guest time pass at the host's pace, up to panfrost's job timeout).  gles: before the streams, the
# boot checks that eglinfo -p surfaceless names each device, and runs our sample scene on both
# devices (tests/piglit/gles_scene_guest.sh: test malibu@gles_scene, its images compared by
# tests/piglit/gles_scene_compare.py).
# tests/piglit/piglit_compare.py gives the verdict: a test that passes on llvmpipe and is not
# skipped on the Mali passes on the Mali and leaves no panfrost error, GPU fault or job timeout in
# the kernel log (gles: and no job Mesa found faulted, PAN_MESA_DEBUG=sync), unless
# tests/piglit/known-differences.txt (gles: known-differences-gles.txt) names it with its cause;
# a listed test that no longer differs fails too.  gles on g52: a test absent from
# tests/piglit/real-g52-fails-gles.txt (Mesa CI's expectations on a real G52) must not fail.
#
# PIGLIT_SPLIT=1 (the samples of `make test`): the models share the panfrost list too (the I-th of
# N runs tests I, I+N, ...), so the sample's tests each run once, on one model.
# usage: piglit_test.sh MALIBU WORKDIR IMAGE_DIR MODELS SAMPLE [SUITE]
#   SAMPLE N: every Nth test of the suite's list (cl: the profile's 711; gles: 272 + the scene),
#   in the profiles' order (1: all of them); SUITE: cl (default) or gles
# The piglit .deb (for the test list, tests/piglit/piglit_list.py) is the one the image was built
# from: guest-images/fetch list part (GUEST_STACK/GUEST_LOCK as for the image, from make).
set -u
malibu=$1
work=$2
img=$3
models=$4
sample=$5
suite=${6:-cl}
here=$(dirname "$0")
tag=piglit-$suite
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "$tag: $f missing (make image)"; exit 1; }
done
deb=$(python3 guest-images/fetch list part | grep '/piglit_') || {
    echo "$tag: no piglit .deb in the cache (make image)"; exit 1; }
rm -rf "$work"
mkdir -p "$work/share"
cp "$here/piglit_guest.sh" "$here/gles_scene_guest.sh" "$work/share/"
not_sampled=""
[ "$suite" = gles ] && not_sampled="--not-sampled $here/not-sampled-gles.txt"
python3 "$here/piglit_list.py" "$deb" --suite "$suite" --sample "$sample" $not_sampled >"$work/share/list" || exit 1
known=$here/known-differences.txt
scene=""
compare_args=""
limit=300
if [ "$suite" = gles ]; then
    known=$here/known-differences-gles.txt
    scene="sh /mnt/host/gles_scene_guest.sh panfrost llvmpipe; "
    # per test: oes_texture_view@rendering-formats took 839 s on llvmpipe, and
    # arb_blend_func_extended-fbo-extended-blend-explicit_gles3 377 s, with three boots sharing
    # 2 host cores
    limit=1800
    compare_args="--renderer --real-fails g52=$here/real-g52-fails-gles.txt --sets $work"
fi
n=$(wc -l <"$work/share/list")
nmodels=$(echo $models | wc -w)
i=0
runs=""
fail=0
serial=0
[ "$suite" = gles ] && serial=1
split=${PIGLIT_SPLIT:-0}
[ "$split" = 1 ] && compare_args="$compare_args --split"
boot() {   # MODEL DEVICES
    start=$(date +%s)
    # 2 GiB: room for the buffers of the largest tests; the limit covers the full suite
    timeout 14400 "$malibu" -m 2G --smp 2 --image "$img" --gpu "$1" --share "$work/share" \
        --run "${scene}PIGLIT_SERIAL=$serial PIGLIT_SUITE=$suite PIGLIT_TIMEOUT=$limit sh /mnt/host/piglit_guest.sh /mnt/host/list $2" \
        </dev/null >"$work/$1.log" 2>"$work/$1.err"   # (malibu's own lines apart: a "gpu:" report
                                                     # written mid-line would cut a result line)
    status=$?
    echo "$status" >"$work/$1.status"
    echo "$tag: $1 ($2): $n tests, boot and run in $(($(date +%s) - start)) s, exit status $status"
}
for m in $models; do
    mali=panfrost
    [ "$split" = 1 ] && mali=panfrost/$i/$nmodels
    if [ $serial = 1 ]; then
        boot $m "$mali llvmpipe/$i/$nmodels" &
    else
        boot $m "$mali llvmpipe/$i/$nmodels"
    fi
    runs="$runs --run $m=$work/$m.log"
    i=$((i + 1))
done
wait
for m in $models; do
    [ "$(cat "$work/$m.status" 2>/dev/null)" = 0 ] || fail=1
done
python3 "$here/piglit_compare.py" $runs --known "$known" --list "$work/share/list" --name $tag \
    $compare_args || fail=1
if [ "$suite" = gles ]; then
    python3 "$here/gles_scene_compare.py" $runs --out "$work/scene" || fail=1
    echo "$tag: sets of passing tests: $work/*.pass; console logs: $work/MODEL.log"
fi
exit $fail

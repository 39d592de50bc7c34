#!/bin/sh
# Guest side of the sample scene in piglit-gles-test (tests/piglit/piglit_test.sh copies it into
# the --share directory): `sh /mnt/host/gles_scene_guest.sh DEVICE...` runs guest-images/apps/
# gles_scene on each DEVICE (panfrost: PAN_MESA_DEBUG=sync; llvmpipe) one after the other, and
# reports it in piglit_guest.sh's protocol as the test malibu@gles_scene ("PIGLIT_RESULT DEVICE
# RESULT SECONDS malibu@gles_scene": pass, fail, crash or timeout; PIGLIT_LOG, PIGLIT_KLOG and
# PIGLIT_JOBERR as there), so that piglit_compare.py applies the same rule to it.  The read-back
# image and the mask of the pixels GL makes exact go to the console gzipped and base64-encoded,
# each line "SCENE_DATA DEVICE.ppm|mask.pgm BASE64" (tests/piglit/gles_scene_compare.py).
set -u
klog_bad() { dmesg | grep -ciE 'panfrost.*(error|fault)|timeout|oops|bug'; }

dump() {   # FILE TAG
    [ -s "$1" ] && gzip -c "$1" | base64 | sed "s/^/SCENE_DATA $2 /"
}

for dev in "$@"; do
    env=   # the device is chosen by -d (EGL device platform)
    [ $dev = panfrost ] && env=PAN_MESA_DEBUG=sync
    log=/tmp/gles_scene-$dev.log
    rm -f /tmp/scene-$dev.ppm /tmp/scene-mask.pgm
    start=$(date +%s)
    [ $dev = panfrost ] && k=$(klog_bad)
    env $env timeout 300 gles_scene -d $dev -o /tmp/scene-$dev.ppm -m /tmp/scene-mask.pgm \
        </dev/null >$log 2>&1
    status=$?
    secs=$(($(date +%s) - start))
    if [ $dev = panfrost ]; then
        k=$(($(klog_bad) - k))
        [ $k -eq 0 ] || echo "PIGLIT_KLOG $dev $k malibu@gles_scene"
        j=$(grep -c 'Incomplete job or timeout' $log)
        [ "$j" -eq 0 ] || echo "PIGLIT_JOBERR $dev $j malibu@gles_scene"
    fi
    case $status in
    0) r=pass ;;
    1) r=fail ;;
    124|143) r=timeout ;;
    *) r=crash ;;
    esac
    echo "PIGLIT_RESULT $dev $r $secs malibu@gles_scene"
    sed "s/^/PIGLIT_LOG $dev malibu@gles_scene: /" $log
    dump /tmp/scene-$dev.ppm $dev.ppm
    dump /tmp/scene-mask.pgm mask.pgm
done

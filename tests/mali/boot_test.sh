#!/bin/sh
# mali-boot-test: boot the guest image's initrd (with panfrost.ko) in build/malibu, once per GPU
# model, with guest-images/apps/panfrost_ioctl_test.c (static) appended as a second cpio, and
# check that every check of the program passes under the unmodified panfrost driver, and that the
# MMU fault it provokes gets malibu's decoded report (emu/system/gpu_trace.c) on the console.
# A missing image file or host tool fails the test, naming it.
# usage: boot_test.sh MALIBU WORKDIR IMAGE_DIR [MODELS]    (IMAGE_DIR: $(IMAGE_OUT))
set -eu
malibu=$1
dir=$2
img=${3:?usage: boot_test.sh MALIBU WORKDIR IMAGE_DIR [MODELS]}
models=${4:-g71 g72 g52}
cc=${MALI_CROSS_CC:-aarch64-linux-gnu-gcc}
for f in "$malibu" $img/Image $img/initrd.img; do
    [ -e "$f" ] || { echo "mali-boot-test: FAIL: $f missing (make image / make $malibu)"; exit 1; }
done
for t in "$cc" cpio gzip timeout; do
    command -v "$t" >/dev/null 2>&1 || { echo "mali-boot-test: FAIL: $t not installed (tools/host-packages)"; exit 1; }
done
mkdir -p "$dir/root/bin"
"$cc" -O2 -static -Wall -Wextra -Werror -o "$dir/root/bin/panfrost_ioctl_test" \
    guest-images/apps/panfrost_ioctl_test.c
(cd "$dir/root" && find bin | cpio -o -H newc --owner 0:0 2>/dev/null) | gzip -9 >"$dir/extra.cpio.gz"
cat $img/initrd.img "$dir/extra.cpio.gz" >"$dir/initrd.img"
fail=0
for m in $models; do
    log="$dir/console-$m.log"
    timeout 600 "$malibu" --gpu "$m" --kernel $img/Image --initrd "$dir/initrd.img" \
        --append 'console=ttyAMA0 malibu.noroot malibu.run="/bin/panfrost_ioctl_test -v"' \
        </dev/null >"$log" 2>&1 || true
    # the program's write to unmapped GPU VA 0xf0000000 gets malibu's decoded fault report
    report=$(sed -n '/^gpu: GPU MMU fault: .*job 0x[0-9a-f]*$/,/^gpu:   the failing job, decoded:$/p' "$log" |
             grep -c -e 'on a write at GPU VA 0xf0000000$' -e 'level 1: entry 3 at PA .* (invalid)$' \
                     -e '64-bit word at byte 0 = 0xf0000000 points into the faulting page' -e 'immediate = 0xbad$')
    if grep -q '^MALIBU_EXIT=0' "$log" && grep -q '^PASS (0 failures)' "$log" && [ "$report" = 4 ]; then
        echo "mali-boot-test: $m: $(grep -c '^PASS' "$log") checks passed, GPU fault report decoded ($log)"
    else
        echo "mali-boot-test: $m FAILED ($log):"
        grep -e '^FAIL' -e panfrost -e MALIBU_ "$log" | tail -30
        fail=1
    fi
done
exit $fail

#!/bin/sh
# Our GLES shader tests (tests/gfx/gles/*.shader_test: textureGather, ...) in the guest on each
# MODEL against llvmpipe: every test must pass on llvmpipe (else the test itself is wrong) and on
# the Mali.  Usage: gles_test.sh MALIBU IMAGE_DIR "MODELS"
set -u
malibu=$1 image=$2 models=$3
dir=$(dirname "$0")/gles
fail=0
for m in $models; do
    out=$("$malibu" -m 2G --image "$image" --gpu "$m" --display none --share "$dir" --run 'sh /mnt/host/guest.sh' 2>/dev/null |
          tr -d '\r' | grep '^GLES-TEST ')
    for t in "$dir"/*.shader_test; do
        n=$(basename "$t" .shader_test)
        soft=$(echo "$out" | awk -v n="$n" '$2 == n && $3 == "llvmpipe" { print $4 }')
        mali=$(echo "$out" | awk -v n="$n" '$2 == n && $3 == "mali" { print $4 }')
        echo "gles-test: $m: $n: llvmpipe ${soft:-not run}, Mali ${mali:-not run}"
        if [ "$soft" != pass ] || [ "$mali" != pass ]; then
            echo "gles-test: FAIL: $m: $n"
            fail=1
        fi
    done
done
exit $fail

#!/bin/sh
# virtio-boot-test: boot guest-images' initrd in build/malibu with
#   /dev/vda  rootfs.ext4 (default copy-on-write: the file must not change)
#   /dev/vdb  a scratch image, write-through (guest data must land in the file)
#   /dev/vdc  --share of a host directory (ext4 made with mke2fs -d; mounted at /mnt/host by the guest init)
# then a second boot killed with SIGTERM and one killed with SIGKILL while the guest writes:
# rootfs.ext4 unchanged, data flushed to the write-through disk kept, no temp file left behind.
# usage: boot_test.sh MALIBU WORKDIR IMAGE_DIR   (IMAGE_DIR: $(IMAGE_OUT); fails when build/malibu
#        or an image file is missing)
set -eu
malibu=$1
work=$2
out=${3:?usage: boot_test.sh MALIBU WORKDIR IMAGE_DIR}
for f in "$malibu" "$out/Image" "$out/initrd.img" "$out/rootfs.ext4"; do
    [ -e "$f" ] || { echo "virtio-boot-test: FAIL: $f missing (make image)"; exit 1; }
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
rm -rf "$work/share" "$work/tmp" "$work/wt.img"
mkdir -p "$work/share" "$work/tmp"
token="tok$$x$(date +%s)"
echo "$token" >"$work/share/token.txt"
truncate -s 8M "$work/wt.img"
root_sum=$(sha256sum <"$out/rootfs.ext4")
root_mtime=$(stat -c %Y "$out/rootfs.ext4")
append="console=ttyAMA0 panic=-1 malibu.skipmod=panfrost"
emu="$malibu --kernel {kernel} --initrd {initrd} --disk {rootfs} --disk $work/wt.img,write-through --share $work/share --append {append}"
fail=0
check() { # DESCRIPTION COMMAND...
    d=$1; shift
    if "$@"; then echo "virtio-boot-test: ok: $d"; else echo "virtio-boot-test: FAILED: $d"; fail=1; fi
}

# ---- 1. a normal run -------------------------------------------------------------------------
cmd="cat /sys/block/vda/serial; echo; cat /sys/block/vdb/serial; echo; cat /sys/block/vdc/serial; echo
grep -q '^/dev/vdc /mnt/host ext4 ' /proc/mounts && cat /mnt/host/token.txt
echo guest-was-here >/mnt/host/new.txt && echo rootfs-write >/root/virtio-boot-test && sync
printf 'WT1-%s' $token | dd of=/dev/vdb bs=512 seek=1 conv=fsync 2>/dev/null
time dd if=/dev/vda of=/dev/null bs=1M count=64"
start=$(date +%s)
if TMPDIR="$work/tmp" python3 guest-images/tools/boot.py --image initrd --timeout 900 --append "$append" \
        --emulator "$emu" -- "$cmd" >"$work/boot1.log" 2>&1; then
    echo "virtio-boot-test: guest run ok ($(( $(date +%s) - start )) s)"
else
    echo "virtio-boot-test: FAILED: guest run (log: $work/boot1.log)"; tail -30 "$work/boot1.log"; fail=1
fi
check "serials malibu-vda, malibu-vdb, malibu-share" \
    sh -c "grep -q '^malibu-vda' '$work/boot1.log' && grep -q '^malibu-vdb' '$work/boot1.log' && grep -q '^malibu-share' '$work/boot1.log'"
check "--share contents readable at /mnt/host" grep -q "^$token" "$work/boot1.log"
check "--share is copy-on-write (host dir unchanged)" test ! -e "$work/share/new.txt"
check "write-through data in the file" sh -c "dd if='$work/wt.img' bs=512 skip=1 count=1 2>/dev/null | grep -q 'WT1-$token'"
grep -a "^real" "$work/boot1.log" | sed 's/^/virtio-boot-test: guest read of 64 MiB from vda: /' || true

# ---- 2./3. killed while writing -----------------------------------------------------------------
for sig in TERM KILL; do
    cmd="printf 'WT-$sig-%s' $token | dd of=/dev/vdb bs=512 seek=2 conv=fsync 2>/dev/null; echo WT_FLUSHED
i=0; while :; do dd if=/dev/zero of=/root/fill bs=1M count=8 2>/dev/null; sync; i=\$((i+1)); echo WROTE \$i; done"
    log="$work/kill-$sig.log"
    TMPDIR="$work/tmp" python3 guest-images/tools/boot.py --image initrd --timeout 900 --append "$append" \
        --emulator "$emu" -- "$cmd" >"$log" 2>&1 &
    bp=$!
    n=0
    while ! grep -q "WROTE 2" "$log" 2>/dev/null; do
        n=$((n + 1))
        if [ $n -gt 900 ] || ! kill -0 $bp 2>/dev/null; then echo "virtio-boot-test: FAILED: guest did not start writing ($log)"; fail=1; break; fi
        sleep 1
    done
    pid=$(pgrep -n -f "wt.img,write-through" -P $bp || true)
    if [ -n "$pid" ]; then kill -$sig "$pid"; fi
    sleep 2
    kill -KILL "$pid" 2>/dev/null || true
    wait $bp 2>/dev/null || true
    check "SIG$sig: data flushed before the kill is in the write-through file" \
        sh -c "dd if='$work/wt.img' bs=512 skip=2 count=1 2>/dev/null | grep -q 'WT-$sig-$token'"
    check "SIG$sig: no temp file left in TMPDIR" sh -c "[ -z \"\$(ls -A '$work/tmp')\" ]"
done

check "rootfs.ext4 mtime unchanged" test "$(stat -c %Y "$out/rootfs.ext4")" = "$root_mtime"
check "rootfs.ext4 contents unchanged (sha256)" test "$(sha256sum <"$out/rootfs.ext4")" = "$root_sum"
exit $fail

#!/bin/sh
# mali-hashcat-test: Debian's hashcat (a password cracker nobody here wrote, with its own OpenCL
# kernels and self-test) on the emulated Mali, per model, on the default stack with 2 GiB of guest
# RAM: a brute-force attack (-a 3, mask ?l?l?l?d?d?d) on the MD5 (-m 0) of a known password must
# crack it (exit status 0, the password in the outfile), then `hashcat -b -m 0` must print a speed.
#
# hashcat runs with the OpenCL layer guest-images/apps/libcl_kernel_wg_bound.c (OPENCL_LAYERS):
# Mesa's rusticl reports a kernel's CL_KERNEL_WORK_GROUP_SIZE of 384 on panfrost (G71 and G52:
# pan_compute_max_thread_count over the GPU's THREAD_MAX_WORKGROUP_SIZE, 384 as on the real
# chips) above the device's own maximum of 256, and refuses hashcat's launches of that size with
# CL_INVALID_WORK_ITEM_SIZE, as it would on a real board.  The layer reports the bound the OpenCL
# spec implies; the test requires its log line, so a Mesa that fixes the bound fails this test
# until the layer goes.  hashcat's optimized kernels (-O) compile in about a third of the time.
#
# usage: hashcat_test.sh MALIBU MODELS IMAGE_DIR [BENCH_MODELS]
#   BENCH_MODELS: the models that also run the benchmark (default: all of MODELS; none: no model)
set -u
malibu=$1
models=$2
img=$3
bench_models=${4:-$models}
for f in "$malibu" $img/Image $img/initrd.img $img/rootfs.ext4; do
    [ -e "$f" ] || { echo "mali-hashcat-test: $f missing (make image)"; exit 1; }
done
password=mal042
hash=$(printf %s "$password" | md5sum | cut -d' ' -f1)
script='cd /root
export RUSTICL_ENABLE=panfrost OPENCL_LAYERS=/usr/local/lib/libcl_kernel_wg_bound.so
hashcat -O -m 0 -a 3 --potfile-disable --quiet --outfile /tmp/cracked --outfile-format 2 '"$hash"' "?l?l?l?d?d?d"
echo "hashcat-crack-status: $?"
echo "hashcat-cracked: $(cat /tmp/cracked)"
if [ "$BENCH" = 1 ]; then hashcat -b -m 0 --machine-readable; echo "hashcat-bench-status: $?"; fi
echo "bad-log-lines: $(dmesg | grep -ciE "panfrost.*(error|fault)|timeout|oops|bug")"'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the models' boots run at once (one vCPU each; the speed is modelled GPU time, host load does not
# enter it), then each is checked
for m in $models; do
    (
        start=$(date +%s)
        bench=0
        case " $bench_models " in *" $m "*) bench=1 ;; esac
        timeout 1200 "$malibu" -m 2G --image "$img" --gpu "$m" --run "BENCH=$bench; $script" </dev/null >"$work/$m.log" 2>&1
        echo "$? $(($(date +%s) - start))" >"$work/$m.status"
    ) &
done
wait
fail=0
for m in $models; do
    read -r status secs <"$work/$m.status"
    out=$(tr -d '\r' <"$work/$m.log")   # the console's CRLF
    bad=""
    [ "$status" -eq 0 ] || bad="$bad exit-status=$status"
    wants="hashcat-crack-status: 0|hashcat-cracked: $password|bad-log-lines: 0|cl_kernel_wg_bound: kernel"
    case " $bench_models " in *" $m "*) wants="$wants|hashcat-bench-status: 0" ;; esac
    IFS='|'
    for want in $wants; do
        echo "$out" | grep -qF "$want" || bad="$bad missing:'$want'"
    done
    unset IFS
    # --machine-readable benchmark line: DEVICE:HASH-MODE:...:MS:SPEED (hashes/s)
    speed=$(echo "$out" | awk -F: '$2 == "0" && $6 ~ /^[0-9.]+$/ && $6 > 0 { print $6; exit }')
    case " $bench_models " in
    *" $m "*) [ -n "$speed" ] || bad="$bad no-speed"; speed="benchmark -m 0: $speed H/s" ;;
    *) speed="no benchmark (BENCH_MODELS)" ;;
    esac
    if [ -z "$bad" ]; then
        echo "mali-hashcat-test: $m: cracked MD5 $hash = $password; $speed: ok ($secs s)"
    else
        echo "mali-hashcat-test: $m FAILED:$bad"
        echo "$out" | grep -v "^gpu: job" | tail -30
        fail=1
    fi
done
exit $fail

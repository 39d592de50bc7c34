# Runs in the guest (build/malibu --smp 4 ... --run 'sh /mnt/host/smp_guest.sh ITERATIONS'):
# CPUs online, CPU off/on cycles through sysfs, the stress program, then the kernel log.
iters=${1:-200000}
echo "smp-guest: nproc $(nproc)"
echo "smp-guest: online $(cat /sys/devices/system/cpu/online)"
n=$(nproc)
for round in 1 2; do
    c=1
    while [ $c -lt $n ]; do
        echo 0 > /sys/devices/system/cpu/cpu$c/online || echo "smp-guest: cpu$c offline FAILED"
        c=$((c + 1))
    done
    echo "smp-guest: round $round offline: online $(cat /sys/devices/system/cpu/online)"
    c=1
    while [ $c -lt $n ]; do
        echo 1 > /sys/devices/system/cpu/cpu$c/online || echo "smp-guest: cpu$c online FAILED"
        c=$((c + 1))
    done
    echo "smp-guest: round $round online: online $(cat /sys/devices/system/cpu/online)"
done
/mnt/host/smp_stress "$n" "$iters"
status=$?
echo "smp-guest: dmesg begin"
dmesg
echo "smp-guest: dmesg end"
exit $status

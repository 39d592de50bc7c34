#!/bin/sh
# devices-test: the board's DTB decompiled with dtc, the boot stub assembled and compared.
# usage: check.sh DEVTOOL WORKDIR
# A missing host tool (dtc, the arm64 binutils) fails the test, naming it.
set -eu
tool=$1
dir=$2
mkdir -p "$dir"
fail=0
for t in dtc fdtget aarch64-linux-gnu-as aarch64-linux-gnu-objcopy; do
    command -v $t >/dev/null 2>&1 || { echo "devices-test: FAIL: $t not installed (tools/host-packages)"; exit 1; }
done

# 1. DTB: generated for 2 CPUs, 3 GiB (two banks), with a command line; decompiled with dtc.
"$tool" dtb --smp 2 -m 3G --append "console=ttyAMA0 earlycon" --dump-dtb "$dir/board.dtb"
dtc -I dtb -O dts -o "$dir/board.dts" "$dir/board.dtb" 2>"$dir/dtc.log" || { cat "$dir/dtc.log"; exit 1; }
# dtc < 1.6.? prints string lists as "a\0b", newer ones as "a", "b": compare the latter
sed 's/\\0/", "/g' "$dir/board.dts" >"$dir/board.norm.dts"
for want in 'compatible = "arm,gic-400"' 'compatible = "arm,pl011", "arm,primecell"' \
            'compatible = "arm,pl031", "arm,primecell"' 'compatible = "arm,psci-1.0", "arm,psci-0.2"' \
            'method = "hvc"' 'compatible = "arm,armv8-timer"' 'enable-method = "psci"' \
            'bootargs = "console=ttyAMA0 earlycon"' 'stdout-path = "serial0:115200n8"' \
            'serial0 = "/serial@7ff80000"' 'cpu@1 {' 'memory@80000000 {' \
            'reg = <0x00 0x80000000 0x00 0x80000000 0x08 0x80000000 0x00 0x40000000>' \
            'interrupts = <0x01 0x0d 0x308 0x01 0x0e 0x308 0x01 0x0b 0x308 0x01 0x0a 0x308>' \
            'interrupts = <0x00 0x53 0x04>' 'clock-names = "uartclk", "apb_pclk"'; do
    if ! grep -qF "$want" "$dir/board.norm.dts"; then
        echo "devices-test: DTS lacks: $want"; fail=1
    fi
done
# dtc warnings other than the usual unit-address notes are failures
if grep -v -e 'unit_address_vs_reg' -e 'simple_bus_reg' -e '^$' "$dir/dtc.log" | grep -q .; then
    echo "devices-test: dtc warnings:"; cat "$dir/dtc.log"; fail=1
fi
# the guest channel's encoding (docs/guest-channel.md); dtc shows these 4 bytes as the string " ML"
[ "$(fdtget -t x "$dir/board.dtb" /chosen malibu,channel 2>&1)" = 204d4c00 ] ||
    { echo "devices-test: /chosen/malibu,channel is not <0x204d4c00>"; fail=1; }
echo "devices-test: DTB ok ($dir/board.dts)"

# 2. Boot stub: firmware/boot_stub.S assembled must equal the words emitted by boot_stub_build.
aarch64-linux-gnu-as -o "$dir/boot_stub.o" firmware/boot_stub.S
aarch64-linux-gnu-objcopy -O binary -j .text "$dir/boot_stub.o" "$dir/boot_stub.bin"
"$tool" stub >"$dir/boot_stub_c.bin"
if cmp "$dir/boot_stub.bin" "$dir/boot_stub_c.bin"; then
    echo "devices-test: boot stub ok"
else
    echo "devices-test: boot stub differs from firmware/boot_stub.S"; fail=1
fi
exit $fail

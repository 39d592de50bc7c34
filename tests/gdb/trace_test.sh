#!/bin/sh
# Capstone traces (make trace-test): known blocks in --trace in_asm / exec output.
#   1. malibu-user runs tests/user/asm_hello.S: the block at _start is disassembled (adr x1,
#      svc #0), runs once (exec), and only blocks inside --trace-range are traced.
#   2. malibu boots tests/boot/hello.bin: malibu's boot stub at 0 is disassembled (msr daifset,
#      br x4); --debug exc shows the SVC the test program takes, disassembled.
# usage: trace_test.sh MALIBU MALIBU_USER HELLO_BIN WORKDIR
set -u
MALIBU=$1 MALIBU_USER=$2 HELLO_BIN=$3 W=$4
fail=0
no() { echo "FAIL: $*"; fail=1; }
mkdir -p "$W"

aarch64-linux-gnu-as -o "$W/asm_hello.o" tests/user/asm_hello.S &&
aarch64-linux-gnu-ld -o "$W/asm_hello" "$W/asm_hello.o" || { echo "FAIL: cannot build asm_hello"; exit 1; }
start=$(aarch64-linux-gnu-nm "$W/asm_hello" | awk '$3 == "_start" { print $1 }')
out=$("$MALIBU_USER" --trace in_asm,exec --trace-file "$W/user.trace" "$W/asm_hello"); st=$?
[ "$st" = 7 ] || no "malibu-user exit status $st (expected 7)"
[ "$out" = "hello from asm" ] || no "malibu-user output '$out'"
grep -q "^IN: 0x$start (5 insns)" "$W/user.trace" || no "no 5-instruction block at _start (0x$start)"
grep -Eq "^  0x$start:  d2800020  movz? x0, #(0x)?1$" "$W/user.trace" || no "first instruction of _start"
grep -Eq "^  0x[0-9a-f]+:  d4000001  svc #0$" "$W/user.trace" || no "svc #0 not disassembled"
grep -Eq "^  0x[0-9a-f]+:  [0-9a-f]{8}  adr x1, #0x[0-9a-f]+$" "$W/user.trace" || no "adr x1 not disassembled"
[ "$(grep -c "^Trace: 0x$start " "$W/user.trace")" = 1 ] || no "_start's block not executed exactly once"
# a range that excludes _start's block: only the exit block is left
"$MALIBU_USER" --trace exec --trace-range "0x$(printf %x $((0x$start + 20)))-0xffffffff" --trace-file "$W/range.trace" "$W/asm_hello" >/dev/null
grep -q "^Trace: 0x$start " "$W/range.trace" && no "--trace-range did not filter _start's block"
grep -q "^Trace: " "$W/range.trace" || no "--trace-range: no block at all"

timeout 60 "$MALIBU" --kernel "$HELLO_BIN" --trace in_asm --trace-range 0x0-0xfff --trace-file "$W/sys.trace" \
    --debug exc > "$W/sys.out" 2>&1 || no "malibu hello.bin exit status $?"
grep -q "^IN: 0x0000000000000000 (7 insns)" "$W/sys.trace" || no "boot stub block not traced"
grep -q "d5034fdf  msr daifset, #0xf" "$W/sys.trace" || no "msr daifset not disassembled"
grep -q "d61f0080  br x4" "$W/sys.trace" || no "br x4 not disassembled"
grep -q "^IN: 0x0000000080" "$W/sys.trace" && no "--trace-range let a kernel block through"
grep -Eq "exception vec=0 esr=0x56.* insn 0x[0-9a-f]+: d4000841 svc #0x42" "$W/sys.out" || no "--debug exc: SVC not disassembled"
[ $fail = 0 ] && echo "trace test: OK"
exit $fail

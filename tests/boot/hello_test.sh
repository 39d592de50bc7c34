#!/bin/sh
# usage: hello_test.sh MALIBU hello.bin -- runs the bare-metal smoke test and checks its output.
set -u
out=$(timeout 20 "$1" --kernel "$2" </dev/null 2>&1)
rc=$?
expected='hello: mmu off
hello: mmu on
hello: svc
hello: after svc
hello: after undef, EL4'
if [ "$rc" != 0 ] || [ "$out" != "$expected" ]; then
    echo "FAIL: bare-metal test (exit status $rc); output:"
    echo "$out"
    exit 1
fi
echo "bare-metal test: passed"

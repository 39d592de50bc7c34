#!/bin/sh
# usage: order_test.sh MALIBU smp_order.bin -- the bare-metal SMP order test (smp_order.S) twice in
# --smp-mode rr: both runs must print the same turn order and log hash (reproducible
# interleaving), the CPUs must have taken turns, and no ticket may be lost (4 x 20000); then once
# in --smp-mode threads, where only the ticket count is checked.
set -u
run() { timeout 60 "$1" --kernel "$2" --smp 4 --smp-mode "$3" </dev/null 2>&1 | tr -d '\r'; }
a=$(run "$1" "$2" rr) b=$(run "$1" "$2" rr) t=$(run "$1" "$2" threads)
fail=0
for out in "$a" "$t"; do
    if ! printf '%s\n' "$out" | grep -qx 'tickets: 0000000000013880'; then
        echo "FAIL: smp order test: tickets lost or run failed:"; printf '%s\n' "$out"; fail=1
    fi
done
if [ "$a" != "$b" ]; then
    echo "FAIL: smp order test: two --smp-mode rr runs differ:"; printf '%s\n--\n%s\n' "$a" "$b"; fail=1
fi
order=$(printf '%s\n' "$a" | sed -n 's/^order: //p')
for c in 0 1 2 3; do
    case $order in *$c*) ;; *) echo "FAIL: smp order test: CPU $c never ran: $order"; fail=1 ;; esac
done
[ ${#order} -ge 8 ] || { echo "FAIL: smp order test: CPUs did not take turns: $order"; fail=1; }
[ $fail -eq 0 ] && echo "smp order test: passed (rr: ${#order} turns, reproducible; threads: no lost ticket)"
exit $fail

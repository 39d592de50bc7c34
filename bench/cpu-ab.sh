#!/bin/bash
# A/B of two malibu-user binaries, with qemu-aarch64 as the peer, in alternated rounds.
#
#   bench/cpu-ab.sh BASE NEW [WORKLOADS...]
#       BASE, NEW  two malibu-user binaries (say, one built from a worktree at the base commit)
#       WORKLOADS  any of bench/cpu-user-workloads.sh's: xz xz3 python sha256 sqlite
#                  (default: xz3 python sha256 sqlite)
#   env: ROUNDS=n (default 5), QEMU=no (leave the peer out), BENCH_DIR (default build/bench)
#
# Each round runs qemu, BASE and NEW once each, in an order that rotates from round to round,
# so that a host whose speed drifts during the run (other jobs) weighs on all three alike.
# Prints per workload the median and the minimum CPU seconds (user+sys) of each, NEW/BASE of
# the medians (< 1: NEW is faster), the median of the rounds' own NEW/BASE ratios with the
# number of rounds NEW was faster in (the two ran minutes apart at most within a round, so
# this follows a drifting host better than the medians do), and qemu/NEW of the medians (the
# ratio bench/cpu-user.sh prints).  Every run's output is checked to be identical to the first
# one's.
set -u
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
BASE=$1 NEW=$2
shift 2
WORKLOADS=${*:-xz3 python sha256 sqlite}
ROUNDS=${ROUNDS:-5}
QEMU=${QEMU:-yes}
BENCH_DIR=${BENCH_DIR:-build/bench}
for b in "$BASE" "$NEW"; do
    [ -x "$b" ] || { echo "cpu-ab.sh: $b is not an executable" >&2; exit 2; }
done
. bench/cpu-user-workloads.sh

# run_once RUNNER... : prints "cpu md5"
run_once() {
    local sum u s
    sum=$(env -i PATH=/usr/bin:/bin LC_ALL=C HOME=/tmp PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0 \
          /usr/bin/time -f "%U %S" -o "$BENCH_DIR/ab-time.out" "$@" 2>/dev/null | md5sum | cut -d' ' -f1)
    read -r u s < <(tail -n1 "$BENCH_DIR/ab-time.out")
    echo "$(echo "$u + $s" | bc) $sum"
}

# median DECIMALS : the median of the numbers on stdin, one a line
median() {
    sort -g | awk -v d="$1" '{ v[NR] = $1 } END {
        printf "%." d "f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# stats "t1 t2 ..." : prints "median min"
stats() {
    local v
    v=$(tr ' ' '\n' <<<"$1" | grep .)
    echo "$(median 2 <<<"$v") $(sort -g <<<"$v" | awk 'NR == 1 { printf "%.2f", $1 }')"
}

# pairs "b1 b2 ..." "n1 n2 ..." : prints "median-of-ni/bi faster/rounds"
pairs() {
    local r
    r=$(paste <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) | awk '{ print $2 / $1 }')
    echo "$(median 3 <<<"$r") $(awk '$1 < 1' <<<"$r" | wc -l)/$(wc -l <<<"$r")"
}

printf '%-8s %6s  %-13s %-13s %-13s %8s %10s %8s  %s\n' workload rounds "qemu med/min" "base med/min" \
    "new med/min" new/base "pairs" qemu/new notes
for w in $WORKLOADS; do
    c=$(cmd_for "$w") || exit 2
    declare -A times=([qemu]="" [base]="" [new]="")
    ref="" note=""
    runners=(base new)
    [ "$QEMU" = yes ] && runners=(qemu base new)
    n=${#runners[@]}
    for ((r = 0; r < ROUNDS; r++)); do
        for ((k = 0; k < n; k++)); do
            who=${runners[(k + r) % n]}
            case $who in
            qemu) line=$(run_once qemu-aarch64 -cpu cortex-a57 -L "$SYSROOT" $c) ;;
            base) line=$(run_once "$BASE" --sysroot "$SYSROOT" $c) ;;
            new) line=$(run_once "$NEW" --sysroot "$SYSROOT" $c) ;;
            esac
            times[$who]+="${line%% *} "
            [ -n "$ref" ] || ref=${line#* }
            [ "${line#* }" = "$ref" ] || note="OUTPUT DIFFERS ($who, round $r)"
        done
    done
    read -r bm bn < <(stats "${times[base]}")
    read -r nm nn < <(stats "${times[new]}")
    qm=- qn=- qr=-
    if [ "$QEMU" = yes ]; then
        read -r qm qn < <(stats "${times[qemu]}")
        qr=$(echo "scale=2; $qm / $nm" | bc)
    fi
    read -r pm pf < <(pairs "${times[base]}" "${times[new]}")
    printf '%-8s %6s  %-13s %-13s %-13s %8s %10s %8s  %s\n' "$w" "$ROUNDS" "$qm/$qn" "$bm/$bn" "$nm/$nn" \
        "$(echo "scale=3; $nm / $bm" | bc)" "$pm $pf" "$qr" "$note"
    unset times
done

#!/bin/bash
# CPU benchmark, user mode: malibu-user vs qemu-aarch64 on the same Debian arm64 binaries.
#
#   bench/cpu-user.sh [MALIBU] [WORKLOADS...]
#       MALIBU     default build/malibu-user
#       WORKLOADS  any of: xz python sha256 sqlite (default all)
#   env: REPS=n (best of n rounds, qemu and malibu alternated; default 1), BENCH_DIR (default
#        build/bench), NATIVE=no (leave the native peer out)
#
# Prints: workload, malibu time, qemu time, ratio = qemu_time / malibu_time (malibu speed
# relative to qemu; > 1 means malibu is faster), then the native peer: the same Debian package
# version built for the host (guest-images/fetch host) and its time, and malibu's time as a
# multiple of it (how much the emulation costs; the ceiling of the ratio to qemu is qemu's
# multiple of native).  Times are CPU seconds (user+sys) of the
# emulator process, which is robust against other load on a shared machine; wall seconds
# are printed too, and with REPS > 1 each emulator's slowest round (how far the host's phases
# moved it: xz, which waits on memory, by up to two to one on a shared 2-vCPU VM, bench/
# RESULTS.md [cpu44]).  Each workload's output is checked to be identical under all three.
set -u
cd "$(dirname "$0")/.."
MALIBU=${1:-build/malibu-user}
shift || true
WORKLOADS=${*:-xz python sha256 sqlite}
REPS=${REPS:-1}
BENCH_DIR=${BENCH_DIR:-build/bench}
NATIVE=${NATIVE:-yes}
[ -x "$MALIBU" ] || { echo "cpu-user.sh: $MALIBU not built (make $MALIBU)" >&2; exit 2; }
. bench/cpu-user-workloads.sh
if [ "$NATIVE" != no ]; then
    native_setup || exit 1
fi

# run RUNNER... : one run, prints "cpu wall md5" (CPU seconds user+sys, wall seconds, md5 of stdout)
run_once() {
    local line u s e
    line=$(env -i PATH=/usr/bin:/bin LC_ALL=C HOME=/tmp PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0 \
           /usr/bin/time -f "%U %S %e" -o "$BENCH_DIR/time.out" "$@" 2>/dev/null | md5sum | cut -d' ' -f1)
    read -r u s e < <(tail -n1 "$BENCH_DIR/time.out")
    echo "$(echo "$u + $s" | bc) $e $line"
}

# lower BEST RUN : of two "cpu wall md5" lines (BEST may be empty), the one with less CPU time
lower() {
    if [ -z "$1" ] || [ "$(echo "${2%% *} < ${1%% *}" | bc)" = 1 ]; then echo "$2"; else echo "$1"; fi
}

# higher WORST CPU : the larger of two CPU times (WORST may be empty)
higher() {
    if [ -z "$1" ] || [ "$(echo "$2 > $1" | bc)" = 1 ]; then echo "$2"; else echo "$1"; fi
}

printf '%-10s %12s %12s %8s %12s %9s  %s\n' workload "malibu(s)" "qemu(s)" ratio "native(s)" \
    "x native" "notes"
for w in $WORKLOADS; do
    c=$(cmd_for "$w") || exit 2
    # The peer emulates the CPU we model: qemu's default "max" CPU would also emulate PAuth
    # (software QARMA on every PACIASP/AUTIASP in Debian's binaries) and look much slower.
    # The two alternate (qemu first in even rounds, malibu in odd ones), each keeping its best
    # round: this host's slow and fast phases last minutes, and REPS runs of one emulator in a
    # row could fall in another phase than the other's.  The native run comes last in even
    # rounds and first in odd ones, malibu always between.
    qemu=(qemu-aarch64 -cpu cortex-a57 -L "$SYSROOT" $c)
    malibu=("$MALIBU" --sysroot "$SYSROOT" $c)
    native=()
    [ "$NATIVE" != no ] && native=($(native_cmd_for "$w"))
    q="" m="" n="" qmax="" mmax="" nmax=""
    for ((round = 0; round < REPS; round++)); do
        for who in $( ((round % 2 == 0)) && echo "qemu malibu native" || echo "native malibu qemu"); do
            case $who in
            qemu)
                r=$(run_once "${qemu[@]}")
                q=$(lower "$q" "$r") qmax=$(higher "$qmax" "${r%% *}") ;;
            malibu)
                r=$(run_once "${malibu[@]}")
                m=$(lower "$m" "$r") mmax=$(higher "$mmax" "${r%% *}") ;;
            native)
                [ "$NATIVE" = no ] && continue
                r=$(run_once "${native[@]}")
                n=$(lower "$n" "$r") nmax=$(higher "$nmax" "${r%% *}") ;;
            esac
        done
    done
    read -r qc qw qsum <<< "$q"
    read -r mc mw msum <<< "$m"
    nc=- times=-
    note="wall malibu ${mw}s qemu ${qw}s"
    if [ -n "$n" ]; then
        read -r nc nw nsum <<< "$n"
        times=$(echo "scale=2; $mc / $nc" | bc 2>/dev/null || echo "-")
        note="$note native ${nw}s"
        [ "$nsum" = "$msum" ] || note="$note; NATIVE OUTPUT DIFFERS"
    fi
    ((REPS > 1)) && note="$note; slowest round malibu ${mmax}s qemu ${qmax}s${nmax:+ native ${nmax}s}"
    [ "$qsum" = "$msum" ] || note="$note; OUTPUT DIFFERS"
    ratio=$(echo "scale=2; $qc / $mc" | bc 2>/dev/null || echo "-")
    printf '%-10s %12s %12s %8s %12s %9s  %s\n' "$w" "$mc" "$qc" "$ratio" "$nc" "$times" "$note"
done

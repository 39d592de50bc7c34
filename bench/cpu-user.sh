#!/bin/bash
# CPU benchmark, user mode: malibu-user vs qemu-aarch64 on the same Debian arm64 binaries.
#
#   bench/cpu-user.sh [MALIBU] [WORKLOADS...]
#       MALIBU     default build/malibu-user
#       WORKLOADS  any of: xz python sha256 sqlite (default all)
#   env: REPS=n (best of n, default 1), BENCH_DIR (default build/bench)
#
# Prints: workload, malibu time, qemu time, ratio = qemu_time / malibu_time (malibu speed
# relative to qemu; > 1 means malibu is faster).  Times are CPU seconds (user+sys) of the
# emulator process, which is robust against other load on a shared machine; wall seconds
# are printed too.  Each workload's output is checked to be identical under both.
set -u
cd "$(dirname "$0")/.."
MALIBU=${1:-build/malibu-user}
shift || true
WORKLOADS=${*:-xz python sha256 sqlite}
REPS=${REPS:-1}
BENCH_DIR=${BENCH_DIR:-build/bench}
CACHE=guest-images/cache/debian-arm64
SYSROOT=$CACHE/sysroot
mkdir -p "$BENCH_DIR"
for t in /usr/bin/time bc qemu-aarch64 python3; do
    command -v $t >/dev/null || { echo "cpu-user.sh: needs $t (apt-get install time bc qemu-user python3)" >&2; exit 2; }
done
[ -x "$MALIBU" ] || { echo "cpu-user.sh: $MALIBU not built (make $MALIBU)" >&2; exit 2; }

sh tests/debian/fetch.sh "$CACHE" >&2 || { echo "cannot fetch the Debian sysroot" >&2; exit 1; }
SYSROOT=$(cd "$SYSROOT" && pwd)
[ -f "$BENCH_DIR/text16m" ] || python3 bench/inputs/gen_data.py text 16777216 "$BENCH_DIR/text16m"
[ -f "$BENCH_DIR/bin64m" ] || python3 bench/inputs/gen_data.py binary 67108864 "$BENCH_DIR/bin64m"
cat > "$BENCH_DIR/bench.sql" <<'SQL'
create table t(id integer primary key, a int, b text, c real);
with recursive s(i) as (select 1 union all select i + 1 from s where i < 100000)
  insert into t(a, b, c) select (i * 7919) % 10007, 'k' || (i % 5000), i * 0.5 from s;
create index ta on t(a);
select count(*), sum(c), count(distinct b) from t;
select a % 100 as g, count(*), avg(c), max(b) from t group by g order by 3 desc limit 5;
select count(*) from t x join t y on x.a = y.a and x.id < y.id where x.id % 50 = 0;
SQL

cmd_for() {  # workload -> guest command line (paths inside the sysroot are host paths)
    case $1 in
    xz) echo "$SYSROOT/usr/bin/xz -9 -T1 -c $BENCH_DIR/text16m" ;;
    python) echo "$SYSROOT/usr/bin/python3 bench/inputs/compute.py 1" ;;
    sha256) echo "$SYSROOT/usr/bin/busybox sha256sum $BENCH_DIR/bin64m $BENCH_DIR/bin64m $BENCH_DIR/bin64m $BENCH_DIR/bin64m" ;;
    sqlite) echo "$SYSROOT/usr/bin/sqlite3 :memory: -init $BENCH_DIR/bench.sql .quit" ;;
    *) echo "unknown workload $1" >&2; exit 2 ;;
    esac
}

# run RUNNER... : prints "cpu wall md5" of the best (lowest CPU) of REPS runs
measure() {
    local best="" line
    for ((r = 0; r < REPS; r++)); do
        line=$(env -i PATH=/usr/bin:/bin LC_ALL=C HOME=/tmp PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0 \
               /usr/bin/time -f "%U %S %e" -o "$BENCH_DIR/time.out" "$@" 2>/dev/null | md5sum | cut -d' ' -f1)
        read -r u s e < <(tail -n1 "$BENCH_DIR/time.out")
        local cpu
        cpu=$(echo "$u + $s" | bc)
        if [ -z "$best" ] || [ "$(echo "$cpu < ${best%% *}" | bc)" = 1 ]; then
            best="$cpu $e $line"
        fi
    done
    echo "$best"
}

printf '%-10s %12s %12s %8s  %s\n' workload "malibu(s)" "qemu(s)" ratio "notes"
for w in $WORKLOADS; do
    c=$(cmd_for "$w") || exit 2
    # The peer emulates the CPU we model: qemu's default "max" CPU would also emulate PAuth
    # (software QARMA on every PACIASP/AUTIASP in Debian's binaries) and look much slower.
    read -r qc qw qsum < <(measure qemu-aarch64 -cpu cortex-a57 -L "$SYSROOT" $c)
    read -r mc mw msum < <(measure "$MALIBU" --sysroot "$SYSROOT" $c)
    note="wall malibu ${mw}s qemu ${qw}s"
    [ "$qsum" = "$msum" ] || note="$note; OUTPUT DIFFERS"
    ratio=$(echo "scale=2; $qc / $mc" | bc 2>/dev/null || echo "-")
    printf '%-10s %12s %12s %8s  %s\n' "$w" "$mc" "$qc" "$ratio" "$note"
done

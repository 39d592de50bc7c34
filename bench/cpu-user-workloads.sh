# Sourced by bench/cpu-user.sh and bench/cpu-ab.sh: the Debian sysroot, the workloads' inputs
# and cmd_for (workload -> guest command line).  Needs BENCH_DIR; sets SYSROOT.
CACHE=guest-images/cache/debian-arm64
SYSROOT=$CACHE/sysroot
mkdir -p "$BENCH_DIR"
for t in /usr/bin/time bc qemu-aarch64 python3; do
    command -v $t >/dev/null || { echo "$0: needs $t (apt-get install time bc qemu-user python3)" >&2; exit 2; }
done

sh tests/debian/fetch.sh "$CACHE" >&2 || { echo "cannot fetch the Debian sysroot" >&2; exit 1; }
SYSROOT=$(cd "$SYSROOT" && pwd)
[ -f "$BENCH_DIR/text16m" ] || python3 bench/inputs/gen_data.py text 16777216 "$BENCH_DIR/text16m"
[ -f "$BENCH_DIR/text3m" ] || head -c 3145728 "$BENCH_DIR/text16m" > "$BENCH_DIR/text3m"
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
    xz3) echo "$SYSROOT/usr/bin/xz -9 -T1 -c $BENCH_DIR/text3m" ;;   # xz on a 3 MiB cut, for A/B rounds
    python) echo "$SYSROOT/usr/bin/python3 bench/inputs/compute.py 1" ;;
    sha256) echo "$SYSROOT/usr/bin/busybox sha256sum $BENCH_DIR/bin64m $BENCH_DIR/bin64m $BENCH_DIR/bin64m $BENCH_DIR/bin64m" ;;
    sqlite) echo "$SYSROOT/usr/bin/sqlite3 :memory: -init $BENCH_DIR/bench.sql .quit" ;;
    *) echo "unknown workload $1" >&2; exit 2 ;;
    esac
}

# native_setup: the native peer, the same Debian packages built for the host's architecture
# (`guest-images/fetch host debtest`: the lock's versions), unpacked into $BENCH_DIR/native-ARCH
# and run through their own loader and libraries, so that the host's older glibc does not
# matter.  Sets NATIVE_ROOT, NATIVE_LD, NATIVE_LIBS.
native_setup() {
    local arch debs stamp f
    arch=$(dpkg --print-architecture) || return 1
    debs=$(python3 guest-images/fetch host debtest) || {
        echo "cannot fetch the $arch builds of the workloads (NATIVE=no leaves the native peer out)" >&2
        return 1; }
    NATIVE_ROOT=$BENCH_DIR/native-$arch
    stamp=$( (echo "$debs" | sed 's#.*/##'; declare -f native_setup) | md5sum | cut -d' ' -f1)
    if [ "$(cat "$NATIVE_ROOT/.stamp" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$NATIVE_ROOT"
        mkdir -p "$NATIVE_ROOT"
        for f in $debs; do
            dpkg-deb -x "$f" "$NATIVE_ROOT" || return 1
        done
        ln -sf python3.13 "$NATIVE_ROOT/usr/bin/python3"
        echo "$stamp" > "$NATIVE_ROOT/.stamp"
    fi
    NATIVE_ROOT=$(cd "$NATIVE_ROOT" && pwd)
    NATIVE_LD=$(ls "$NATIVE_ROOT"/usr/lib*/ld-linux*.so.* 2>/dev/null | head -n1)
    NATIVE_LIBS=$(dirname "$(ls "$NATIVE_ROOT"/usr/lib/*/libc.so.6 2>/dev/null | head -n1)")
    [ -x "$NATIVE_LD" ] && [ -d "$NATIVE_LIBS" ] || {
        echo "no loader or libc in $NATIVE_ROOT" >&2; return 1; }
    # as fetch.sh does for the guest: the modules the benchmark imports, byte-compiled once
    if [ ! -f "$NATIVE_ROOT/.pyc" ]; then
        local L=$NATIVE_ROOT/usr/lib/python3.13
        "$NATIVE_LD" --library-path "$NATIVE_LIBS" "$NATIVE_ROOT/usr/bin/python3.13" -m compileall \
            -q -l "$L" "$L/encodings" "$L/json" "$L/re" "$L/collections" "$L/importlib" >/dev/null &&
            touch "$NATIVE_ROOT/.pyc"
    fi
}

native_cmd_for() {  # workload -> the host command line of the same program (after native_setup)
    local c
    c=$(cmd_for "$1") || return 1
    echo "$NATIVE_LD --library-path $NATIVE_LIBS $NATIVE_ROOT${c#"$SYSROOT"}"
}

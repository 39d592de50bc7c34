#!/usr/bin/env python3
"""Run Debian arm64 binaries (busybox, xz, sqlite3, python3.13) under qemu-aarch64 -L SYSROOT
and malibu-user --sysroot SYSROOT; compare stdout and exit status.

    debtest.py --sysroot DIR --malibu build/malibu-user --workdir DIR [--gate "busybox xz"] [--only AREA]

Cases are named AREA/NAME.  Only mismatches in gated areas fail the run; the others are
printed as "skipped: ... not in the gate".
"""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(ROOT, 'bench', 'inputs', 'gen_data.py')
COMPUTE = os.path.join(ROOT, 'bench', 'inputs', 'compute.py')
TIMEOUT = 600

SQL = r"""
create table t(id integer primary key, name text, v real, k int);
with recursive c(i) as (select 1 union all select i + 1 from c where i < 3000)
  insert into t(name, v, k) select 'n' || (i * 7919 % 1000), i * 1.25 / 7.0, i % 17 from c;
create index tk on t(k);
select count(*), sum(v), avg(v), min(name), max(name) from t;
select k, count(*), round(sum(v), 6), group_concat(id % 10, '') from t group by k order by k limit 8;
select printf('%.15g %e %08.3f', v, v * 1e10, v) from t where id in (1, 2, 3, 999, 2999);
select a.k, b.name from t a join t b on a.id = b.id * 3 where a.k = 5 order by a.id limit 5;
select hex(zeroblob(3)), quote(x'00ff'), upper('abc'), length('héllo'), instr('hello', 'll');
select json_object('a', 1, 'b', json_array(1.5, 'x', null)), json_extract('{"x":[1,2,{"y":3}]}', '$.x[2].y');
select total(v) filter (where k > 8), row_number() over (order by v desc) as r from t limit 3;
select 9223372036854775807 + 0, -9223372036854775808, 1e308 * 10, 5 / 2, 5 / 2.0, 7 % -3, cast('12abc' as int);
with recursive fib(a, b, n) as (select 0, 1, 0 union all select b, a + b, n + 1 from fib where n < 80)
  select max(b), count(*) from fib;
select name, sum(k) from t group by name having sum(k) > 50 order by 2 desc, 1 limit 5;
pragma integrity_check;
"""

# Shell scripts use builtins only: qemu-aarch64 runs a guest's execve() of an external command
# on the host (no binfmt_misc here), so pipelines would compare host tools, not the emulation.
BB_SCRIPT = r"""
set -e
i=0; s=0
while [ $i -lt 3000 ]; do s=$((s + i * i % 7 + (i << 3) / 5 - (s >> 9))); i=$((i + 1)); done
echo "loop $s"
x="Hello World"; echo "$x ${#x} ${x%World} ${x#Hello} ${x/World/There} ${x:3:4}"
case "$x" in Hello*) echo matched;; esac
f() { local a=$1; echo "f:$((a * 3))"; return 4; }
f 14 || echo "status $?"
printf '%05d|%-6s|%x|%o|%c|%s\n' 42 ab 255 8 Z "$(f 3 || true)"
set -- one two three; echo "$# $2 $*"; shift; echo "$@"
n=0; for w in a b c d e f g; do n=$((n + 1)); [ $n -gt 4 ] && break; done; echo "n=$n"
while read -r a b rest; do echo "[$b|$a]"; done < small.txt | { c=0; while read -r l; do c=$((c+1)); done; echo "lines $c"; }
test 5 -gt 3 && [ "abc" != "abd" ] && echo tests-ok
echo $(( 0x7fffffffffffffff + 1 )) $(( -7 / 2 )) $(( -7 % 3 )) $(( 1 << 62 ))
"""

AWK_PROG = r"""
{ n++; w += NF; for (i = 2; i <= NF; i++) { c[$i]++; if ($i ~ /^[0-9]+$/) { s += $i; k++ } } }
END {
  printf "%d lines %d words %d numbers sum %d avg %.6f\n", n, w, k, s, s / k
  m = 0; for (x in c) if (c[x] > m || (c[x] == m && x < mk)) { m = c[x]; mk = x }
  print "most", mk, m
  printf "%.10g %.3e %d %s %5.2f%%\n", s / 7, s * 1e5 / 3, int(-3.9), substr("emulator", 3, 4), 100 * k / n
  print toupper("abc") tolower("XyZ"), length("hello"), index("foobar", "bar"), 7 % 3, 1e300 * 1e300
  split("a:b:c", arr, ":"); print arr[3], sprintf("%c%c", 72, 105), 0.1 + 0.2 == 0.3
}
"""


def cases(work):
    bb = '/usr/bin/busybox'
    cs = []

    def add(name, argv, stdin=None):
        cs.append((name, argv, stdin))

    add('busybox/sh-script', [bb, 'sh', '-c', BB_SCRIPT])
    add('busybox/sh-exit', [bb, 'sh', '-c', 'echo before; exit 7'])
    add('busybox/sort-n', [bb, 'sort', '-n', '-k', '1,1', '-r', 'text.txt'])
    add('busybox/sort-k', [bb, 'sort', '-k', '3', '-t', ' ', '-s', 'small.txt'])
    add('busybox/uniq', [bb, 'uniq', '-c', 'words.txt'])
    add('busybox/cut', [bb, 'cut', '-d', ' ', '-f', '2,4-5', 'small.txt'])
    add('busybox/md5sum', [bb, 'md5sum', 'text.txt', 'data.bin'])
    add('busybox/sha1sum', [bb, 'sha1sum', 'text.txt', 'data.bin'])
    add('busybox/sha256sum', [bb, 'sha256sum', 'text.txt', 'data.bin'])
    add('busybox/sha512sum', [bb, 'sha512sum', 'data.bin'])
    add('busybox/awk', [bb, 'awk', AWK_PROG, 'small.txt'])
    add('busybox/sed', [bb, 'sed', '-n', '-e', 's/\\([a-z]*\\) \\([a-z]*\\)/\\2 \\1/g', '-e', '/tango/p', 'small.txt'])
    add('busybox/grep-c', [bb, 'grep', '-c', '-E', 'alpha|zulu', 'text.txt'])
    add('busybox/grep-n', [bb, 'grep', '-n', '-i', '-w', 'XRAY', 'small.txt'])
    add('busybox/wc', [bb, 'wc', 'text.txt', 'data.bin'])
    add('busybox/tr', [bb, 'tr', '-d', 'aeiou'], 'small.txt')
    add('busybox/od', [bb, 'od', '-A', 'x', '-t', 'x1', '-N', '4096', 'data.bin'])
    add('busybox/gzip', [bb, 'gzip', '-9', '-c', 'text.txt'])
    add('busybox/gunzip', [bb, 'gzip', '-d', '-c', 'ref.gz'])
    add('busybox/bzip2', [bb, 'bzip2', '-c', 'small.txt'])
    add('busybox/base64', [bb, 'base64', 'small.txt'])
    add('busybox/dc', [bb, 'dc', '-e', '2 64 ^ 1 - p 3 k 10 3 / p 17 v p'])
    add('busybox/factor', [bb, 'factor', '1234567890123', '600851475143', '4294967291'])
    add('busybox/expr', [bb, 'expr', '7', '*', '6', '+', '100', '/', '7'])
    add('xz/compress', ['/usr/bin/xz', '-9', '-T1', '-c', 'text.txt'])
    add('xz/compress-e', ['/usr/bin/xz', '-6e', '-T1', '-c', 'data.bin'])
    add('xz/decompress', ['/usr/bin/xz', '-d', '-c', 'ref.xz'])
    add('xz/test-list', ['/usr/bin/xz', '-t', '-v', '-v', '-l', 'ref.xz'])
    add('xz/stdin', ['/usr/bin/xz', '-3', '-T1', '--check=sha256'], 'text.txt')
    add('sqlite/queries', ['/usr/bin/sqlite3', ':memory:'], 'q.sql')
    add('sqlite/csv', ['/usr/bin/sqlite3', '-csv', '-header', ':memory:',
                       'select 1 as a, 2.5 as b, \'x,y\' as c union all select 2, null, \'q"\''])
    add('python/c', ['/usr/bin/python3', '-c', 'import sys; print(sum(i * i for i in range(10**5)), 2**200 % 97, '
                     '1/3, sys.version_info[:2], [x for x in range(20) if x % 3])'])
    add('python/exit', ['/usr/bin/python3', '-c', 'import sys; print("bye"); sys.exit(5)'])
    add('python/compute', ['/usr/bin/python3', COMPUTE, '0.1'])
    return cs


def prepare_inputs(work, sysroot):
    os.makedirs(work, exist_ok=True)
    for kind, size, name in [('text', 120000, 'text.txt'), ('text', 40000, 'small.txt'), ('binary', 200000, 'data.bin')]:
        p = os.path.join(work, name)
        if not os.path.exists(p) or os.path.getsize(p) != size:
            subprocess.run([sys.executable, GEN, kind, str(size), p], check=True)
    with open(os.path.join(work, 'q.sql'), 'w') as f:
        f.write(SQL)
    words = os.path.join(work, 'words.txt')
    with open(os.path.join(work, 'small.txt')) as f:
        ws = sorted(w for line in f for w in line.split()[1:])
    with open(words, 'w') as f:
        f.write('\n'.join(ws) + '\n')
    gz = os.path.join(work, 'ref.gz')
    if not os.path.exists(gz):
        with open(gz, 'wb') as f:
            subprocess.run(['qemu-aarch64', os.path.join(sysroot, 'usr/bin/busybox'), 'gzip', '-c',
                            os.path.join(work, 'text.txt')], stdout=f, check=True)
    ref = os.path.join(work, 'ref.xz')
    if not os.path.exists(ref):
        with open(ref, 'wb') as f:
            subprocess.run(['qemu-aarch64', '-L', sysroot, os.path.join(sysroot, 'usr/bin/xz'), '-9', '-T1', '-c',
                            os.path.join(work, 'text.txt')], stdout=f, check=True)


def run(runner, sysroot, work, argv, stdin):
    exe = os.path.join(sysroot, argv[0].lstrip('/'))
    env = {'PATH': '/usr/bin:/bin', 'LC_ALL': 'C', 'HOME': '/tmp', 'TZ': 'UTC',
           'PYTHONDONTWRITEBYTECODE': '1', 'PYTHONHASHSEED': '0'}
    fin = open(os.path.join(work, stdin), 'rb') if stdin else subprocess.DEVNULL
    t = time.time()
    try:
        p = subprocess.run(runner + [exe] + argv[1:], cwd=work, env=env, stdin=fin,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr, time.time() - t
    except subprocess.TimeoutExpired as e:
        return 'timeout', e.stdout or b'', e.stderr or b'', time.time() - t
    finally:
        if stdin:
            fin.close()


def show_diff(a, b):
    try:
        la, lb = a.decode().splitlines(), b.decode().splitlines()
        d = list(difflib.unified_diff(la, lb, 'qemu', 'malibu', lineterm='', n=1))
        return '\n'.join('      ' + x for x in d[:30])
    except UnicodeDecodeError:
        n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        return '      binary output: qemu %d bytes, malibu %d bytes, first difference at offset %d' % (len(a), len(b), n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sysroot', required=True)
    ap.add_argument('--malibu', default='build/malibu-user')
    ap.add_argument('--workdir', default='build/tests/debian')
    ap.add_argument('--gate', default='')
    ap.add_argument('--only', default='', help='areas or case names to run (default all)')
    a = ap.parse_args()
    sysroot = os.path.abspath(a.sysroot)
    work = os.path.abspath(a.workdir)
    gate = a.gate.replace(',', ' ').split()
    only = a.only.replace(',', ' ').split()
    qemu = ['qemu-aarch64', '-cpu', 'cortex-a57', '-L', sysroot]  # the CPU malibu models (same HWCAPs)
    malibu = a.malibu.split()
    if os.sep in malibu[0]:
        malibu[0] = os.path.abspath(malibu[0])  # the cases run in the work directory
    malibu += ['--sysroot', sysroot]
    prepare_inputs(work, sysroot)

    def gated(name):
        return name in gate or name.split('/')[0] in gate or 'all' in gate

    # Can malibu-user run the static busybox at all?
    full = shutil.which(malibu[0]) is not None
    if full:
        rc, out, err, _ = run(malibu, sysroot, work, ['/usr/bin/busybox', 'echo', 'probe'], None)
        if rc != 0 or out != b'probe\n':
            full = False
            print('skipped: malibu-user comparison: it cannot run busybox-static yet (status %s: %s)' %
                  (rc, err.decode(errors='replace').strip()[-200:]))
            if gate:
                print('FAILED: gated areas cannot run')
                sys.exit(1)
    fails, skipped, harness = [], [], []
    for name, argv, stdin in cases(work):
        if only and name not in only and name.split('/')[0] not in only:
            continue
        rq, oq, eq, tq = run(qemu, sysroot, work, argv, stdin)
        if rq == 'timeout' or (rq != 0 and not oq):
            print('HARNESS ERROR %s: qemu status %s: %s' % (name, rq, eq.decode(errors='replace')[-500:]))
            harness.append(name)
            continue
        if not full:
            print('qemu ok   %-22s (status %s, %d bytes, %.1fs)' % (name, rq, len(oq), tq))
            continue
        rm, om, em, tm = run(malibu, sysroot, work, argv, stdin)
        if rm == rq and om == oq:
            print('ok        %-22s (status %s, %d bytes, qemu %.1fs, malibu %.1fs)' % (name, rq, len(oq), tq, tm))
            continue
        tag = 'FAIL' if gated(name) else 'mismatch'
        print('%-9s %-22s status qemu %s malibu %s; stdout %s' % (
            tag, name, rq, rm, 'same' if om == oq else 'differs (%d vs %d bytes)' % (len(oq), len(om))))
        if om != oq:
            print(show_diff(oq, om))
        if em:
            print('      malibu stderr: ' + em.decode(errors='replace').strip()[-400:].replace('\n', '\n      '))
        (fails if gated(name) else skipped).append(name)
    for name in skipped:
        print('skipped: %s mismatches but is not in the gate (DEBIAN_GATE)' % name)
    if fails or harness:
        print('FAILED: %s' % ' '.join(fails + harness))
        sys.exit(1)
    print('debian tests: %s' % ('all compared cases match in gated areas' if full else 'qemu reference runs ok'))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""A/B of two build/malibu binaries on issue 40's clinfo figure: the guest image booted and
`clinfo -l` run (G52), binaries alternated A B, B A, ... so that the host's slow and fast phases
fall on both; CPU seconds (user + sys) of each run, medians, and the median of the per-pair
ratios NEW / BASE (< 1: NEW is faster), which this host's drift moves least.

    bench/clinfo-ab.py BASE NEW [ROUNDS]      (ROUNDS default 6)
    env: IMAGE_DIR (default guest-images/out), RUN (default 'clinfo -l'), MEM (default 2G)

Fails when a run does not list both devices (Mali and llvmpipe) or exits non-zero."""
import os
import resource
import subprocess
import sys


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def one(binary, image, run, mem):
    c0 = cpu_children()
    p = subprocess.run([binary, '-m', mem, '--image', image, '--gpu', 'g52', '--display', 'none',
                        '--run', run], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    cpu = cpu_children() - c0
    if p.returncode != 0 or (run == 'clinfo -l' and p.stdout.count(b'Device #') != 2):
        sys.stdout.write(p.stdout.decode(errors='replace')[-2000:])
        sys.exit('clinfo-ab: %s: status %d, %d devices listed' % (binary, p.returncode,
                                                                  p.stdout.count(b'Device #')))
    return cpu


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    base, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) == 4 else 6
    image = os.environ.get('IMAGE_DIR', 'guest-images/out')
    run = os.environ.get('RUN', 'clinfo -l')
    mem = os.environ.get('MEM', '2G')
    for f in (base, new, os.path.join(image, 'rootfs.ext4')):
        if not os.path.exists(f):
            sys.exit('clinfo-ab: missing %s' % f)
    times = {base: [], new: []}
    print('%-6s %10s %10s %8s' % ('round', 'base (s)', 'new (s)', 'new/base'))
    for r in range(rounds):
        for b in ((base, new) if r % 2 == 0 else (new, base)):
            times[b].append(one(b, image, run, mem))
        print('%-6d %10.2f %10.2f %8.3f' % (r + 1, times[base][-1], times[new][-1],
                                            times[new][-1] / times[base][-1]), flush=True)
    ratios = [n / b for b, n in zip(times[base], times[new])]
    print('%-6s %10.2f %10.2f %8.3f   (medians; the ratio is the median of the pairs)' % (
        'median', median(times[base]), median(times[new]), median(ratios)))


if __name__ == '__main__':
    main()

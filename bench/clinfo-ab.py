#!/usr/bin/env python3
"""A/B of two build/malibu binaries on issue 40's clinfo figure: the guest image booted and
`clinfo -l` run (G52), binaries alternated A B, B A, ... so that the host's slow and fast phases
fall on both; CPU seconds (user + sys) of each run, medians, and the median of the per-pair
ratios NEW / BASE (< 1: NEW is faster), which this host's drift moves least.

    bench/clinfo-ab.py BASE NEW [ROUNDS]      (ROUNDS default 6)
    env: IMAGE_DIR (default guest-images/out), RUN (default 'clinfo -l'), MEM (default 2G)

Fails when a run does not list both devices (Mali and llvmpipe) or exits non-zero."""
import os
import subprocess
import sys

from ab import ab, args, cpu_children


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


def main():
    image = os.environ.get('IMAGE_DIR', 'guest-images/out')
    run = os.environ.get('RUN', 'clinfo -l')
    mem = os.environ.get('MEM', '2G')
    base, new, rounds = args(__doc__, 'clinfo-ab', (os.path.join(image, 'rootfs.ext4'),))
    ab(base, new, rounds, lambda b: one(b, image, run, mem))


if __name__ == '__main__':
    main()

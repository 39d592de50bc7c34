#!/usr/bin/env python3
"""A/B of two build/malibu binaries on bench/boot.sh's workload: Debian's kernel and the busybox
initramfs booted, md5sum of 64 MB from /dev/zero, then a busybox sh loop of LOOP rounds (more
than boot.sh's 200,000 by default, so that the loop, all of it generated code, weighs most);
binaries alternated A B, B A, ...; CPU seconds (user + sys) of each run, medians, and the median
of the per-pair ratios NEW / BASE (< 1: NEW is faster).

    bench/boot-ab.py BASE NEW [ROUNDS]      (ROUNDS default 6)
    env: IMAGE_DIR (default guest-images/out: its Image and initramfs-busybox.cpio.gz),
         LOOP (default 400000)

Fails when a run does not print the md5 of the zeros and the loop's end, or exits non-zero."""
import base64
import os
import subprocess
import sys

from ab import ab, args, cpu_children

MD5_ZERO64 = b'7f614da9329cd3aebf59b91aadc30bf0'


def one(binary, image, initrd, loop):
    work = ('echo BENCH_START; dd if=/dev/zero bs=1048576 count=64 2>/dev/null | md5sum; '
            'i=0; while [ $i -lt %d ]; do i=$((i+1)); done; echo BENCH_LOOP_DONE $i' % loop)
    append = 'console=ttyAMA0 panic=-1 malibu.run64=' + base64.b64encode(work.encode()).decode()
    c0 = cpu_children()
    p = subprocess.run([binary, '--kernel', image, '--initrd', initrd, '--append', append],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    cpu = cpu_children() - c0
    done = ('BENCH_LOOP_DONE %d' % loop).encode()
    if p.returncode != 0 or MD5_ZERO64 not in p.stdout or done not in p.stdout:
        sys.stdout.write(p.stdout.decode(errors='replace')[-2000:])
        sys.exit('boot-ab: %s: status %d, md5 %s, loop %s' % (
            binary, p.returncode, MD5_ZERO64 in p.stdout, done in p.stdout))
    return cpu


def main():
    image_dir = os.environ.get('IMAGE_DIR', 'guest-images/out')
    image = os.path.join(image_dir, 'Image')
    initrd = os.path.join(image_dir, 'initramfs-busybox.cpio.gz')
    loop = int(os.environ.get('LOOP', '400000'))
    base, new, rounds = args(__doc__, 'boot-ab', (image, initrd), ' (make build/malibu; make initramfs)')
    ab(base, new, rounds, lambda b: one(b, image, initrd, loop))


if __name__ == '__main__':
    main()

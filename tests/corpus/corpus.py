#!/usr/bin/env python3
"""Run the corpus binaries under qemu-aarch64 and malibu-user; stdout and exit status must match.

    corpus.py --malibu build/malibu-user [--malibu "build/malibu-user OPTIONS"]... [--gate "..."] BINARY...
Each --malibu command (default build/malibu-user) runs every binary against the one qemu run.
Binaries are named NAME-OPT-LINK (e.g. neon-O3-dynamic); dynamic ones run with
-L /usr/aarch64-linux-gnu (qemu) / --sysroot /usr/aarch64-linux-gnu (malibu-user).
The gate lists names, NAME-OPT-LINK variants, or LINK kinds ("static"); "all" gates everything.
"""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import time

SYSROOT = '/usr/aarch64-linux-gnu'


def run(cmd, timeout=300):
    t = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           env={'PATH': '/usr/bin:/bin', 'LC_ALL': 'C'})
        return p.returncode, p.stdout, p.stderr, time.time() - t
    except subprocess.TimeoutExpired as e:
        return 'timeout', e.stdout or b'', e.stderr or b'', time.time() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--malibu', action='append')
    ap.add_argument('--gate', default='')
    ap.add_argument('bins', nargs='+')
    a = ap.parse_args()
    gate = a.gate.replace(',', ' ').split()
    malibus = [m.split() for m in (a.malibu or ['build/malibu-user'])]
    malibu = malibus[0]
    full = shutil.which(malibu[0]) is not None
    if full:
        statics = [b for b in a.bins if b.endswith('-static')]
        probe = next((b for b in statics if 'strings-O0' in b), statics[0])
        rc, out, err, _ = run(malibu + [probe])
        rq, oq, _, _ = run(['qemu-aarch64', '-cpu', 'cortex-a57', probe])
        if rc != 0 or not out:
            full = False
            print('skipped: malibu-user comparison: it cannot run %s yet (status %s: %s)' % (
                os.path.basename(probe), rc, err.decode(errors='replace').strip()[-200:]))
            if gate:
                print('FAILED: gated programs cannot run')
                sys.exit(1)
    fails, skipped, harness = [], [], []
    for b in a.bins:
        name = os.path.basename(b)
        base, opt, link = name.rsplit('-', 2)
        dyn = link == 'dynamic'
        rq, oq, eq, tq = run(['qemu-aarch64', '-cpu', 'cortex-a57'] + (['-L', SYSROOT] if dyn else []) + [b])
        if rq == 'timeout' or rq < 0:
            print('HARNESS ERROR %s: qemu status %s %s' % (name, rq, eq.decode(errors='replace')[-300:]))
            harness.append(name)
            continue
        if not full:
            print('qemu ok   %-24s (status %s, %d bytes, %.1fs)' % (name, rq, len(oq), tq))
            continue
        for malibu in malibus:
            # several commands: each result names the options it ran with
            shown = name + (' [%s]' % ' '.join(malibu[1:]) if len(malibus) > 1 and len(malibu) > 1 else '')
            rm, om, em, tm = run(malibu + (['--sysroot', SYSROOT] if dyn else []) + [b], timeout=max(30, 40 * tq))
            if (rm, om) == (rq, oq):
                print('ok        %-24s (status %s, %d bytes, qemu %.1fs, malibu %.1fs)' % (shown, rq, len(oq), tq, tm))
                continue
            gated = 'all' in gate or any(g in (base, name, link, base + '-' + opt) for g in gate)
            print('%-9s %-24s status qemu %s malibu %s; stdout %s' % ('FAIL' if gated else 'mismatch', shown, rq, rm,
                  'same' if om == oq else 'differs'))
            if om != oq:
                d = difflib.unified_diff(oq.decode(errors='replace').splitlines(),
                                         om.decode(errors='replace').splitlines(), 'qemu', 'malibu', lineterm='', n=0)
                print('\n'.join('      ' + x for x in list(d)[:20]))
            if em:
                print('      malibu stderr: ' + em.decode(errors='replace').strip()[-300:].replace('\n', '\n      '))
            (fails if gated else skipped).append(shown)
    for n in skipped:
        print('skipped: %s mismatches but is not in the gate (CORPUS_GATE)' % n)
    if fails or harness:
        print('FAILED: %s' % ' '.join(fails + harness))
        sys.exit(1)


if __name__ == '__main__':
    main()

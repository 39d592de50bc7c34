#!/usr/bin/env python3
"""malibu-user program tests: small AArch64 programs (tests/user/*.S, *.c), cross-compiled
statically and dynamically with aarch64-linux-gnu-gcc, run under malibu-user and under
qemu-aarch64 -cpu cortex-a57 (the oracle); stdout and the exit status must match.  Programs
qemu cannot run (execve of itself without binfmt_misc) compare against NAME.expected instead.

Tests in --gate must pass; the others are run and reported ("pending") without failing, because
they need instruction families that have not landed yet (see NEEDS below).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CC = 'aarch64-linux-gnu-gcc'
SYSROOT = '/usr/aarch64-linux-gnu'
TIMEOUT = 60

# name: (source, link kinds, args, instruction families the program needs)
LIBC = 'int branch mem fp simd'
PROGRAMS = {
    'asm_hello':  ('asm_hello.S',  ['nostdlib'], [], 'int sys'),
    'asm_sigill': ('asm_sigill.S', ['nostdlib'], [], 'int branch mem sys'),
    'nl_signals': ('nl_signals.c', ['nolibc'], [], 'int branch mem sys'),
    'nl_threads': ('nl_threads.c', ['nolibc'], [], 'int branch mem sys'),
    'nl_efault':  ('nl_efault.c',  ['nolibc'], [], 'int branch mem sys'),
    'nl_sigrace': ('nl_sigrace.c', ['nolibc'], [], 'int branch mem sys'),
    'hello':      ('hello.c',      ['static', 'dynamic', 'static-pie'], ['a', 'b c'], LIBC),
    'segv':       ('segv.c',       ['static', 'dynamic'], [], LIBC),
    'threads':    ('threads.c',    ['static', 'dynamic'], [], LIBC),
    'system_sh':  ('system_sh.c',  ['static', 'dynamic'], [], LIBC),
    'sysv_ipc':   ('sysv_ipc.c',   ['static', 'dynamic'], [], LIBC),
    'sigbus':     ('sigbus.c',     ['static', 'dynamic'], [], LIBC),
    'segv_flags': ('segv_flags.c', ['static', 'dynamic'], [], LIBC),
    'near_base':  ('near_base.c',  ['static'], [], LIBC),
    'indirect':   ('indirect.c',   ['static', 'dynamic'], [], LIBC),
    'flags_exit': ('flags_exit.c', ['static', 'dynamic'], [], LIBC),
    'misc_sys':   ('misc_sys.c',   ['static', 'dynamic'], [], LIBC),
    'argv_env':   ('argv_env.c',   ['static', 'dynamic'], ['one', '', 'three four'], LIBC),
    'fileio':     ('fileio.c',     ['static', 'dynamic'], [], LIBC),
    'signals':    ('signals.c',    ['static', 'dynamic'], [], LIBC),
    'fork_wait':  ('fork_wait.c',  ['static', 'dynamic'], [], LIBC),
    'abort':      ('abort.c',      ['static', 'dynamic'], [], LIBC),
    'exec_self':  ('exec_self.c',  ['static', 'dynamic'], [], LIBC),
    'exec_opts':  ('exec_opts.c',  ['static', 'dynamic'], [], LIBC),
}
# malibu-user options a program runs with (after --malibu's own)
MALIBU_OPTS = {'exec_opts': ['--cpu', 'a57', '--huge-pages', 'off']}


def build(name, kind, outdir):
    src, _, _, _ = PROGRAMS[name]
    out = os.path.join(outdir, '%s-%s' % (name, kind))
    srcp = os.path.join(HERE, src)
    deps = [srcp, os.path.join(HERE, 'nolibc.h'), os.path.abspath(__file__)]
    if os.path.exists(out) and os.path.getmtime(out) >= max(os.path.getmtime(d) for d in deps):
        return out
    flags = {'nostdlib': ['-nostdlib', '-static'], 'static': ['-static', '-O2'],
             # C without libc and without FP/SIMD instructions (tests/user/nolibc.h)
             'nolibc': ['-nostdlib', '-static', '-fno-pie', '-no-pie', '-mgeneral-regs-only',
                        '-mno-outline-atomics', '-fno-builtin', '-ffreestanding', '-O2'],
             'dynamic': ['-O2'], 'static-pie': ['-static-pie', '-O2']}[kind]
    subprocess.run([CC] + flags + ['-o', out, srcp], check=True)
    return out


def run(cmd, cwd):
    env = dict(os.environ, MALIBU_TEST_VAR='value with spaces', LC_ALL='C')
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 'timeout', b'', b''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--malibu', default='build/malibu-user')
    ap.add_argument('--qemu', default='qemu-aarch64 -cpu cortex-a57')
    ap.add_argument('--builddir', default='build/tests/user')
    ap.add_argument('--gate', default='', help='tests (name-kind) that must pass')
    ap.add_argument('only', nargs='*', help='run only these tests (name or name-kind)')
    a = ap.parse_args()
    os.makedirs(a.builddir, exist_ok=True)
    malibu = [os.path.abspath(a.malibu.split()[0])] + a.malibu.split()[1:]
    gate = set(a.gate.split())
    failed, passed, pending = [], [], []
    for name, (src, kinds, args, needs) in PROGRAMS.items():
        for kind in kinds:
            tid = '%s-%s' % (name, kind)
            if a.only and name not in a.only and tid not in a.only:
                continue
            exe = os.path.abspath(build(name, kind, a.builddir))
            expected = os.path.join(HERE, name + '.expected')
            with tempfile.TemporaryDirectory(prefix='malibu-user-test-') as tmp:
                if os.path.exists(expected):
                    with open(expected, 'rb') as f:
                        qrc, qout = 0, f.read()
                else:
                    qemu = a.qemu.split() + (['-L', SYSROOT] if kind == 'dynamic' else [])
                    qrc, qout, qerr = run(qemu + [exe] + args, tmp)
                mrc, mout, merr = run(malibu + MALIBU_OPTS.get(name, []) + [exe] + args, tmp)
            ok = qrc == mrc and qout == mout
            if ok:
                passed.append(tid)
                print('PASS %s' % tid)
                continue
            lines = ['%s %s (needs: %s)' % ('FAIL' if tid in gate else 'pending', tid, needs),
                     '    status: expected %s, malibu-user %s' % (qrc, mrc)]
            if qout != mout:
                ql, ml = qout.decode(errors='replace').splitlines(), mout.decode(errors='replace').splitlines()
                for i in range(max(len(ql), len(ml))):
                    q = ql[i] if i < len(ql) else '<none>'
                    m = ml[i] if i < len(ml) else '<none>'
                    if q != m:
                        lines.append('    first stdout difference, line %d:\n      expected:    %s\n      malibu-user: %s' % (i + 1, q, m))
                        break
            if merr:
                lines.append('    malibu-user stderr: %s' % merr.decode(errors='replace').strip()[-600:])
            print('\n'.join(lines))
            (failed if tid in gate else pending).append(tid)
    print('user tests: %d passed, %d failed (gated), %d pending' % (len(passed), len(failed), len(pending)))
    unknown = gate - set(passed) - set(failed)
    if unknown and not a.only:
        print('gate names no test: %s' % ' '.join(sorted(unknown)))
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

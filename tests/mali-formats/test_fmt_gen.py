#!/usr/bin/env python3
"""isa/mali/mali_fmt_gen.py refuses layouts that cannot be right, and generates what it should.

    test_fmt_gen.py OUT_DIR

Each bad description below must stop the generator with its message; the good one must generate
per-arch unpack/pack, aggregate offsets and union printing as documented in bifrost.fmt."""
import os
import subprocess
import sys

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'isa', 'mali', 'mali_fmt_gen.py')
BASE = '''enum format
  187 rgba8_unorm
enum rgb_component_order
  0 rgba
enum mode
  0 a
  1 b
'''

BAD = [
    ('overlap', 'struct s 8 8\n  x 0:0 8 uint\n  y 0:4 8 uint\n', 'fields x and y overlap at bit 4'),
    ('union arms with a common value', 'struct s 8 8\n  m 1:0 1 enum:mode\n  x 0:0 8 uint when=m:0/1\n'
     '  y 0:0 8 uint when=m:1\n', 'fields x and y overlap at bit 0'),
    ('same name twice, not per arch', 'struct s 8 8\n  x 0:0 8 uint\n  x 1:0 8 uint\n', 'field x twice'),
    ('per-arch fields overlapping on v7', 'struct s 8 8\n  x 0:0 8 uint v7\n  y 0:4 8 uint\n',
     'fields x and y overlap at bit 4'),
    ('when= names no field', 'struct s 8 8\n  x 0:0 8 uint when=nope:1\n', 'when= names no other field'),
    ('unknown enum', 'struct s 8 8\n  x 0:0 8 enum:nope\n', 'unknown enum nope'),
    ('past the end', 'struct s 8 8\n  x 1:16 32 uint\n', 'runs past the end of s'),
    ('sections overlap', 'struct s 8 8\n  x 0:0 8 uint\naggregate a 32 8\n  section p s 0\n  section q s 4\n',
     'misaligned or past the end'),
    ('sections overlap (aligned)', 'struct s 8 4\n  x 0:0 8 uint\naggregate a 32 8\n  section p s 0\n'
     '  section q s 4\n', 'sections p and q overlap'),
    ('section past the end', 'struct s 8 8\n  x 0:0 8 uint\naggregate a 8 8\n  section p s 8\n',
     'misaligned or past the end'),
    ('aggregate named as a struct', 'struct s 8 8\n  x 0:0 8 uint\naggregate s 8 8\n  section p s 0\n',
     'aggregate s has the name of a struct'),
    ('log2 with minus1', 'struct s 8 8\n  x 0:0 3 uint log2 minus1\n', 'log2 does not combine'),
]

GOOD = '''struct s 8 8
  m 0:0 1 enum:mode
  x 0:4 4 uint v6
  x 0:4 8 uint v7
  n 0:12 3 uint log2
  sh 1:0 16 hex when=m:0
  ff 1:0 8 uint when=m:1
aggregate a 16 8
  section first s 0
  section second s 8
'''


def run(out, text):
    path = os.path.join(out, 'test.fmt')
    with open(path, 'w') as f:
        f.write(BASE + text)
    return subprocess.run([sys.executable, GEN, out, path], capture_output=True, text=True)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    failed = 0
    for name, text, want in BAD:
        r = run(out, text)
        if r.returncode == 0 or want not in r.stderr:
            print('FAIL %s: exit %d, %r (wanted %r)' % (name, r.returncode, r.stderr.strip(), want))
            failed += 1
    r = run(out, GOOD)
    h = open(os.path.join(out, 'mali_formats.h')).read() if r.returncode == 0 else ''
    p = open(os.path.join(out, 'mali_formats_print.c')).read() if r.returncode == 0 else ''
    for want in ('static inline void mali_s_unpack(const uint8_t *p, struct mali_s *s, unsigned arch)',
                 'static inline void mali_s_pack(uint8_t *p, const struct mali_s *s, unsigned arch)',
                 '#define MALI_A_LENGTH 16', '#define MALI_A_SECTION_SECOND_OFFSET 8',
                 '__builtin_ctzll', 'static const uint32_t used6[2] = { 0x000070f1u, 0x0000ffffu };',
                 'static const uint32_t used7[2] = { 0x00007ff1u, 0x0000ffffu };'):
        if want not in h:
            print('FAIL good description: %r not generated (%s)' % (want, r.stderr.strip()))
            failed += 1
    cc = os.environ.get('CC', 'cc')
    c = subprocess.run([cc, '-std=gnu11', '-fsyntax-only', '-Wall', '-Wextra', '-Werror', '-I', out,
                        os.path.join(out, 'mali_formats_print.c')], capture_output=True, text=True)
    if r.returncode or c.returncode:
        print('FAIL good description does not compile: %s' % c.stderr.strip()[:500])
        failed += 1
    for want in ('if ((s->m == 0))', 'if ((s->m == 1))', 'if (arch < 7)', 'if (arch >= 7)'):
        if want not in p:
            print('FAIL good description: printer lacks %r' % want)
            failed += 1
    print('mali-fmt-gen: %d bad descriptions refused, good one generated%s'
          % (len(BAD), '' if not failed else '; %d FAILED' % failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Checks build/malibu-decode's output for the dumps of tests/unit/test_gpu_mali: the first two
jobs are its vecadd on G71 (v6) and G52 (v7): 256 workgroups of 16 threads, push uniforms a, b, c,
no workgroup memory, the shader of tests/gpu/gpu_vecadd.s.  Every job must decode completely."""
import re
import sys


def sections(text):
    """'== FILE: ...' header -> that dump's lines."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"== (\S+): v(\d) descriptors", line)
        if m:
            cur = out.setdefault(m.group(1).rsplit("/", 1)[-1], [])
        if cur is not None:
            cur.append(line)
    return out


def expect(cond, what, name):
    if not cond:
        sys.exit("check_decode: %s: %s" % (name, what))


def main():
    text = open(sys.argv[1]).read()
    dumps = sections(text)
    expect(len(dumps) >= 2, "fewer than two dumps decoded", sys.argv[1])
    for name, lines in dumps.items():
        body = "\n".join(lines)
        expect(re.search(r"^== 1 job, 0 problems$", body, re.M), "did not decode completely", name)
    for name, arch in (("chain-0.dump", 6), ("chain-1.dump", 7)):
        body = "\n".join(dumps.get(name, []))
        expect(body.startswith("== ") and (" v%d descriptors" % arch) in body, "not a v%d dump" % arch, name)
        for want in ("job header 0 @ ", "  type = compute", "  is_64b = true", "  index = 1",
                     "  compute payload @ ", "(local size 16 x 1 x 1, workgroups 256 x 1 x 1)",
                     "  draw @ ", "    state = 0x", "    push_uniforms = 0x",
                     "    renderer state @ ", "      uniform_count = 3", "      preload_pc = true",
                     "      preload_global_invocation_x = true",
                     "      shader @ ", "LSHIFT_OR.i32", "LOAD.i32", "FADD.f32", "STORE.i32",
                     "    push uniforms @ ", "    local storage @ ", "      wls_instances = 31",
                     "      tls_base_pointer = 0x0"):
            expect(want in body, "no line with %r" % want, name)
        expect(("shader_register_allocation" in body) == (arch >= 7),
               "v7-only field %s" % ("missing" if arch >= 7 else "printed on v6"), name)
        # every field of the job header, by name, once
        for field in ("exception_status", "first_incomplete_task", "fault_pointer", "barrier", "dependency_1",
                      "dependency_2", "next"):
            expect(len(re.findall(r"^  %s = " % field, body, re.M)) == 1, "job header field %s" % field, name)
    print("mali-decode: %d dumps decoded, vecadd on v6 and v7 complete" % len(dumps))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A piglit suite's test list, from the profiles in Debian's piglit package as piglit's own runner
reads them, one "NAME<TAB>COMMAND" line per test for tests/piglit/piglit_guest.sh.

    piglit_list.py DEB [--suite cl|gles] [--sample N] [--offset K] [--not-sampled FILE] > LIST

DEB: the piglit .deb the guest image was built from (guest-images/fetch list part).
  cl    piglit's OpenCL profile (tests/cl.xml.gz): a test of type "cl" runs its command; one of
        type "cl_prog" runs cl-program-tester on its file.
  gles  the GLES tests: the .shader_test files of the shader profile (tests/shader.xml.gz) whose
        [require] section asks for GL ES (the profile's api "gles2", any ES version), run by
        shader_runner_gles2/3 with -auto -fbo; and the tests of the OpenGL profile
        (tests/opengl.xml.gz) whose program is named *_gles2, *_gles3 or oes_* and is built for
        GLES (it links libpiglitutil_gles1/2/3: two oes_* programs are desktop GL builds), with
        the profile's arguments and -auto -fbo.  (piglit's runner leaves -fbo out for the tests
        it does not run concurrently, but its surfaceless_egl platform has no window-system
        framebuffer: without -fbo those tests abort there, on llvmpipe as on the Mali.)
Commands are relative to piglit's bin/ (programs) and piglit's directory (files).  --sample N
keeps every Nth test of the list, starting at the Kth (deterministic: the profiles' order);
with --not-sampled FILE (one test name a line, # comments), a sample (N > 1) leaves out the tests
FILE names and samples the rest."""
import argparse
import ast
import gzip
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "..", "guest-images"))
import elf_deps  # noqa: E402

PIGLIT = "./usr/lib/aarch64-linux-gnu/piglit/"
GLES_PROGRAM = re.compile(r"(_gles[23]$|^oes_)")
GLES_UTIL = re.compile(r"^libpiglitutil_gles[123]\.so")


def extract(deb, members, dest=None):
    """The members' contents (dest None: of the one member, as bytes), or extracted into dest."""
    deb_tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE)
    args = ["tar", "-x"] + (["-O"] if dest is None else ["-C", dest]) + members
    data = subprocess.run(args, stdin=deb_tar.stdout, stdout=subprocess.PIPE, check=True).stdout
    deb_tar.stdout.close()
    if deb_tar.wait() != 0:
        sys.exit("piglit_list: dpkg-deb --fsys-tarfile %s failed" % deb)
    return data


def profile(deb, name):
    data = extract(deb, [PIGLIT + "tests/" + name])
    if not data:
        sys.exit("piglit_list: no %s in %s" % (name, deb))
    root = ET.fromstring(gzip.decompress(data))
    every = list(root.iter("Test"))
    if int(root.get("count", len(every))) != len(every):
        sys.exit("piglit_list: %s says %s tests, has %d" % (name, root.get("count"), len(every)))
    return every


def options(t):
    return {o.get("name"): ast.literal_eval(o.get("value")) for o in t.iter("option")}


def cl_tests(deb):
    for t in profile(deb, "cl.xml.gz"):
        opts, name, kind = options(t), t.get("name"), t.get("type")
        if kind == "cl":
            yield name, opts["command"]
        elif kind == "cl_prog":
            yield name, ["cl-program-tester", opts["filename"]]
        else:
            sys.exit("piglit_list: test %s has type %s, neither cl nor cl_prog" % (name, kind))


def gles_programs(deb, names):
    """The programs of `names` that link a libpiglitutil_gles* (read from their ELF headers)."""
    with tempfile.TemporaryDirectory() as tmp:
        extract(deb, ["--wildcards"] + [PIGLIT + "bin/" + n for n in sorted(names)], tmp)
        out = set()
        for n in names:
            elf = elf_deps.read_elf(os.path.join(tmp, PIGLIT, "bin", n))
            if elf is None:
                sys.exit("piglit_list: bin/%s is not a dynamic ELF program" % n)
            if any(GLES_UTIL.match(lib) for lib in elf.needed):
                out.add(n)
        return out


def gles_tests(deb):
    for t in profile(deb, "shader.xml.gz"):
        opts = options(t)
        if t.get("type") == "shader" and opts.get("api") == "gles2":
            if not re.match(r"shader_runner_gles[23]$", opts["command"][0]):
                sys.exit("piglit_list: %s runs %s" % (t.get("name"), opts["command"][0]))
            yield t.get("name"), opts["command"] + ["-auto", "-fbo"]
    gl = [(t.get("name"), options(t)) for t in profile(deb, "opengl.xml.gz") if t.get("type") == "gl"]
    wanted = [(n, o) for n, o in gl if GLES_PROGRAM.search(o["command"][0])]
    gles = gles_programs(deb, {o["command"][0] for _, o in wanted})
    for name, opts in wanted:
        if opts["command"][0] in gles:
            yield name, opts["command"] + ["-auto", "-fbo"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("deb")
    ap.add_argument("--suite", choices=("cl", "gles"), default="cl")
    ap.add_argument("--sample", type=int, default=1)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--not-sampled")
    a = ap.parse_args()
    every = list(cl_tests(a.deb) if a.suite == "cl" else gles_tests(a.deb))
    if a.not_sampled and a.sample > 1:
        with open(a.not_sampled) as f:
            out = {l.split("#")[0].strip() for l in f} - {""}
        missing = out - {name for name, _ in every}
        if missing:
            sys.exit("piglit_list: %s names tests not in the list: %s" % (a.not_sampled, ", ".join(sorted(missing))))
        every = [t for t in every if t[0] not in out]
    for i, (name, cmd) in enumerate(every):
        # the guest splits COMMAND at white space and NAME ends at the tab
        if any(c.split() != [c] for c in cmd) or "\t" in name or "\n" in name:
            sys.exit("piglit_list: test %s: a command word with white space, or a tab in the name"
                     % name)
        if i % a.sample == a.offset % a.sample:
            print("%s\t%s" % (name, " ".join(cmd)))


if __name__ == "__main__":
    main()

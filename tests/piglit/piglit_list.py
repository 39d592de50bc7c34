#!/usr/bin/env python3
"""The test list of piglit's OpenCL profile (tests/cl.xml.gz in Debian's piglit package, as
piglit's own runner reads it), one "NAME<TAB>COMMAND" line per test for tests/piglit/piglit_guest.sh.

    piglit_list.py DEB [--sample N] [--offset K] > LIST

DEB: the piglit .deb the guest image was built from (guest-images/fetch list part).  A test of
type "cl" runs its command; one of type "cl_prog" runs cl-program-tester on its file, from
piglit's directory.  --sample N keeps every Nth test of the profile, starting at the Kth
(deterministic: the profile's order is the package's)."""
import argparse
import ast
import gzip
import subprocess
import sys
import xml.etree.ElementTree as ET

PROFILE = "./usr/lib/aarch64-linux-gnu/piglit/tests/cl.xml.gz"


def profile(deb):
    deb_tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE)
    data = subprocess.run(["tar", "-xO", PROFILE], stdin=deb_tar.stdout, stdout=subprocess.PIPE,
                          check=True).stdout
    deb_tar.stdout.close()
    if deb_tar.wait() != 0 or not data:
        sys.exit("piglit_list: no %s in %s" % (PROFILE, deb))
    return ET.fromstring(gzip.decompress(data))


def tests(root):
    for t in root.iter("Test"):
        opts = {o.get("name"): ast.literal_eval(o.get("value")) for o in t.iter("option")}
        name, kind = t.get("name"), t.get("type")
        if kind == "cl":
            cmd = opts["command"]
        elif kind == "cl_prog":
            cmd = ["cl-program-tester", opts["filename"]]
        else:
            sys.exit("piglit_list: test %s has type %s, neither cl nor cl_prog" % (name, kind))
        if any(c.split() != [c] for c in cmd) or "\t" in name:
            sys.exit("piglit_list: test %s: a command word or name with white space" % name)
        yield name, " ".join(cmd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("deb")
    ap.add_argument("--sample", type=int, default=1)
    ap.add_argument("--offset", type=int, default=0)
    a = ap.parse_args()
    root = profile(a.deb)
    every = list(tests(root))
    if int(root.get("count", len(every))) != len(every):
        sys.exit("piglit_list: the profile says %s tests, has %d" % (root.get("count"), len(every)))
    for i, (name, cmd) in enumerate(every):
        if i % a.sample == a.offset % a.sample:
            print("%s\t%s" % (name, cmd))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""guest-images/apt_sources.py: the archive guest-images/fetch takes from the host's apt sources
(one-line and deb822 files), and the DEBIAN_MIRROR / DEBIAN_SECURITY_MIRROR overrides.

    tests/image/apt_sources_test.py WORKDIR
"""
import os
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../guest-images"))
import apt_sources  # noqa: E402

checks, failures = [], []


def check(what, got, want):
    checks.append(what)
    ok = got == want
    print("%s: %s%s" % ("ok" if ok else "FAIL", what, "" if ok else "  [got %r, want %r]" % (got, want)))
    if not ok:
        failures.append(what)


ONE_LINE = """\
# deb http://commented.example/debian bookworm main
deb-src http://src.example/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/x.gpg] http://other.example/apt stable main
deb [ arch=amd64,arm64 ] http://mirror.example/debian/ bookworm main contrib   # trailing comment
deb http://mirror.example/debian-security bookworm-security main
"""

DEB822 = """\
# a disabled stanza comes first
Types: deb
URIs: http://disabled.example/debian
Suites: bookworm
Enabled: no

Types: deb-src deb
# http://snapshot.example/archive/debian/20250520T000000Z
URIs: http://proxy.example:3142/debian
 http://second.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://sec.example/security
Suites: bookworm-security
Components: main
"""

OTHER = """\
Types: deb
URIs: https://vendor.example/node_20.x
Suites: nodistro
Components: main
"""


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def main():
    d = os.path.abspath(sys.argv[1])
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    check("one-line: options in brackets, comments, deb-src and other archives skipped",
          apt_sources.find_archives(apt_sources.parse_one_line(ONE_LINE)),
          ("http://mirror.example/debian", "http://mirror.example/debian-security"))
    check("one-line entries parsed", apt_sources.parse_one_line(ONE_LINE)[2],
          ("deb", ["http://mirror.example/debian/"], ["bookworm"]))
    check("deb822: Enabled: no skipped, several types and URIs, continuation lines, comments",
          apt_sources.parse_deb822(DEB822),
          [("deb-src", ["http://proxy.example:3142/debian", "http://second.example/debian"],
            ["bookworm", "bookworm-updates"]),
           ("deb", ["http://proxy.example:3142/debian", "http://second.example/debian"],
            ["bookworm", "bookworm-updates"]),
           ("deb", ["http://sec.example/security"], ["bookworm-security"])])
    check("deb822: security archive found by its suite",
          apt_sources.find_archives(apt_sources.parse_deb822(DEB822)),
          ("http://proxy.example:3142/debian", "http://sec.example/security"))

    one = write(d, "sources.list", ONE_LINE)
    sources = write(d, "debian.sources", DEB822)
    other = write(d, "vendor.sources", OTHER)
    check("host files: the first Debian archive in apt's order wins",
          apt_sources.archives({}, [other, sources, one]),
          ("http://proxy.example:3142/debian", "http://sec.example/security"))
    nosec = write(d, "nosec.list", "deb http://only.example/pub/debian trixie main\n")
    check("without a security entry: the archive's debian-security sibling",
          apt_sources.archives({}, [nosec]),
          ("http://only.example/pub/debian", "http://only.example/pub/debian-security"))
    check("DEBIAN_MIRROR overrides the host, security beside it",
          apt_sources.archives({"DEBIAN_MIRROR": "http://mine.example/debian/"}, [sources]),
          ("http://mine.example/debian", "http://mine.example/debian-security"))
    check("DEBIAN_SECURITY_MIRROR overrides the security archive",
          apt_sources.archives({"DEBIAN_MIRROR": "http://mine.example/d",
                                "DEBIAN_SECURITY_MIRROR": "http://mine.example/s"}, [sources]),
          ("http://mine.example/d", "http://mine.example/s"))
    for what, env, paths in (("no Debian archive in the host's sources", {}, [other]),
                             ("DEBIAN_MIRROR not ending in /debian, no security mirror",
                              {"DEBIAN_MIRROR": "http://mine.example/d"}, [sources])):
        try:
            got = apt_sources.archives(env, paths)
        except SystemExit as e:
            got = "exit: " + str(e)
        check(what + ": stops, naming the variable", "DEBIAN_" in got and got.startswith("exit: "), True)
    print("%d passed, %d failed" % (len(checks) - len(failures), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

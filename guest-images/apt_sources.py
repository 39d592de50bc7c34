"""The Debian archive that guest-images/fetch downloads from: the host's own apt sources, so
that the project names no archive host and a user behind a mirror or proxy gets it for free.

    archives(env, paths)  -> (main URI, security URI), or SystemExit naming what is missing

DEBIAN_MIRROR (the archive holding trixie, -updates, -backports) and DEBIAN_SECURITY_MIRROR
(the one holding trixie-security) override the host's sources.  The security archive is
otherwise the host's security entry, or, with DEBIAN_MIRROR set or without such an entry, the
main archive's sibling `debian-security` directory, as Debian's archive lays them out.

Host sources: one-line `deb [options] URI SUITE COMPONENT...` entries (/etc/apt/sources.list,
sources.list.d/*.list) and deb822 stanzas (sources.list.d/*.sources: Types, URIs, Suites;
`Enabled: no` skipped; `#` comments and continuation lines).  Only `deb` entries count.  An
entry is the Debian archive when its path ends in /debian, the security archive when it ends in
/debian-security or its suites end in -security.
"""
import glob
import os

HOST_SOURCES = ["/etc/apt/sources.list"]
HOST_SOURCES_DIR = "/etc/apt/sources.list.d"


def host_paths():
    """The host's apt source files, in the order apt reads them."""
    return HOST_SOURCES + sorted(glob.glob(os.path.join(HOST_SOURCES_DIR, "*.list")) +
                                 glob.glob(os.path.join(HOST_SOURCES_DIR, "*.sources")))


def parse_one_line(text):
    """[(type, [uri], [suite])] of a one-line-style sources file."""
    out = []
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        words = line.split()
        typ, rest = words[0], words[1:]
        if rest and rest[0].startswith("["):
            # options: "[arch=arm64 signed-by=...]", possibly spread over several words
            while rest and not rest[0].endswith("]"):
                rest = rest[1:]
            rest = rest[1:]
        if len(rest) >= 2:
            out.append((typ, [rest[0]], [rest[1]]))
    return out


def parse_deb822(text):
    """[(type, [uri], [suite])] of a deb822 .sources file, one per type of each stanza."""
    out = []
    for stanza in _stanzas(text):
        if stanza.get("enabled", "yes").strip().lower() == "no":
            continue
        uris, suites = stanza.get("uris", "").split(), stanza.get("suites", "").split()
        for typ in stanza.get("types", "").split():
            out.append((typ, uris, suites))
    return out


def _stanzas(text):
    stanzas, cur, key = [], {}, None
    for line in text.splitlines() + [""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                stanzas.append(cur)
            cur, key = {}, None
        elif line[0] in " \t" and key:
            cur[key] += " " + line.strip()
        elif ":" in line:
            key, val = line.split(":", 1)
            key = key.strip().lower()
            cur[key] = val.strip()
    return stanzas


def parse_file(path, text):
    return parse_deb822(text) if path.endswith(".sources") else parse_one_line(text)


def find_archives(entries):
    """(main URI or None, security URI or None) among parsed entries, first match wins."""
    main = security = None
    for typ, uris, suites in entries:
        if typ != "deb":
            continue
        for uri in uris:
            path = uri.rstrip("/")
            if path.endswith("/debian-security") or any(s.endswith("-security") for s in suites):
                security = security or path
            elif path.endswith("/debian"):
                main = main or path
    return main, security


def archives(env=None, paths=None):
    env = os.environ if env is None else env
    entries = []
    for p in host_paths() if paths is None else paths:
        try:
            with open(p) as f:
                entries += parse_file(p, f.read())
        except OSError:
            continue
    main, security = find_archives(entries)
    main = env.get("DEBIAN_MIRROR") or main
    if not main:
        raise SystemExit("fetch: no Debian archive (a URI ending in /debian) in the host's apt "
                         "sources (%s); set DEBIAN_MIRROR=URI" % ", ".join(host_paths()))
    main = main.rstrip("/")
    security = env.get("DEBIAN_SECURITY_MIRROR") or (None if env.get("DEBIAN_MIRROR") else security)
    if not security:
        security = main[:-len("/debian")] + "/debian-security" if main.endswith("/debian") else None
    if not security:
        raise SystemExit("fetch: DEBIAN_MIRROR=%s does not end in /debian; set "
                         "DEBIAN_SECURITY_MIRROR=URI for trixie-security" % main)
    return main, security.rstrip("/")

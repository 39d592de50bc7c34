#!/usr/bin/env python3
"""make install-test: malibu as a user gets it, installed (tests/install/install.mk).

    install_test.py SRC WORK [--parts docs,image,deb]

SRC: the source tree, already installed with `make install DESTDIR=WORK/root PREFIX=/usr/local`.
  docs   every installed command has a manual page that `man -l` renders without a warning and a
         bash completion; malibu(1) and the completion hold every option of the table (the
         option list of `malibu --help-markdown`, which options-doc-test ties to the table), the
         choices, the GPU models and the --timing keys (each one a key the installed malibu
         accepts); --version prints VERSION, the version of debian/changelog
  image  with PATH = the installed bin/ + /usr/bin:/bin: malibu-image build default, list,
         malibu --image default --gpu g52 --run vecadd (PASS on the Mali), malibu-image remove
         (GUEST_CACHE: the .deb cache to reuse)
  deb    dpkg-buildpackage -us -uc -b on a copy of SRC (no build/, no .git; parallel=2 nocheck
         noopt: -O0, 148-155 s against 236 s at -O2 in make test; beside the image build),
         lintian without errors (warnings printed), the .deb installed with dpkg --root into a
         throwaway root and its malibu --version run
"""
import os
import re
import shutil
import subprocess
import sys
import time

PREFIX = "usr/local"
FAILED = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        FAILED.append(what)
    return ok


def need(*tools):
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        sys.exit("install-test: FAIL: missing host tools %s (make host-deps installs them)" % " ".join(missing))


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def table_options(malibu):
    """[(names, arg)] of the table: '-d, --debug exc,sysreg' -> (['-d', '--debug'], 'exc,sysreg')"""
    out = run([malibu, "--help-markdown"]).stdout
    opts = []
    for head in re.findall(r"^\| `([^`]+)` \|", out, re.M):
        head = head.replace("\\|", "|")
        names, arg = [], None
        for part in head.split(", "):
            words = part.split(" ", 1)
            names.append(words[0])
            if len(words) > 1:
                arg = words[1]
        opts.append((names, arg))
    return opts


def complete(completion, env, line):
    """the words bash's completion offers for `line` (cursor at its end)"""
    script = r'''
source "$1"
COMP_LINE=$2; COMP_POINT=${#COMP_LINE}
# COMP_WORDS as bash splits them: at blanks and at '=' (COMP_WORDBREAKS)
read -r -a raw <<< "$COMP_LINE"; [[ $COMP_LINE == *" " ]] && raw+=("")
COMP_WORDS=()
for y in "${raw[@]}"; do
    while [[ $y == *=* ]]; do COMP_WORDS+=("${y%%=*}" "="); y=${y#*=}; done
    [[ -n $y || ${COMP_WORDS[-1]} != "=" ]] && COMP_WORDS+=("$y")
done
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
spec=$(complete -p "${COMP_WORDS[0]}") || exit 3
fn=${spec#*-F }; fn=${fn%% *}
$fn "${COMP_WORDS[0]}"
printf '%s\n' "${COMPREPLY[@]}"
'''
    r = run(["bash", "--norc", "--noprofile", "-c", script, "complete", completion, line], env=env)
    return r.returncode, r.stdout.split()


def docs(src, work, env):
    root = os.path.join(work, "root")
    bindir = os.path.join(root, PREFIX, "bin")
    mandir = os.path.join(root, PREFIX, "share/man/man1")
    compdir = os.path.join(root, PREFIX, "share/bash-completion/completions")
    malibu = os.path.join(bindir, "malibu")
    cmds = sorted(os.listdir(bindir))
    want = ["malibu", "malibu-decode", "malibu-disasm", "malibu-image", "malibu-report", "malibu-user"]
    if os.path.exists(os.path.join(src, "tools/malibu-sweep")):
        want.append("malibu-sweep")
    check(all(c in cmds for c in want), "installed commands: %s" % " ".join(cmds))
    check(os.path.isfile(os.path.join(root, PREFIX, "share/malibu/guest-images/build.py")),
          "share/malibu/guest-images holds the image build")

    # every command: a page man -l renders without a warning, and a completion
    pages = {}
    for c in cmds:
        page = os.path.join(mandir, c + ".1")
        r = subprocess.run(["man", "--warnings", "-l", page], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=dict(env, LC_ALL="C", MANWIDTH="200", MAN_KEEP_FORMATTING=""))
        pages[c] = r.stdout
        check(r.returncode == 0 and not r.stderr.strip() and "NAME" in r.stdout and c in r.stdout,
              "man -l %s.1 renders (%d lines)%s" % (c, r.stdout.count("\n"), (": " + r.stderr.strip()[:300])
                                                    if r.stderr.strip() else ""))
        r = run([c, "--help"], env=env)
        check(r.returncode == 0 and len(r.stdout) > 40, "%s --help runs from the installed tree" % c)
        comp = os.path.join(compdir, c)
        rc, _ = complete(comp, env, c + " ")
        check(os.path.exists(comp) and rc == 0, "bash completion for %s" % c)

    # malibu(1) and the completion against the table
    completion = os.path.join(compdir, "malibu")
    table = table_options(malibu)
    man_text = re.sub(r"[ \t]+", " ", pages["malibu"])
    _, offered = complete(completion, env, "malibu -")
    missing_man, missing_comp, bad_values = [], [], []
    for names, arg in table:
        head = ", ".join(names) + (" " + arg if arg else "")
        if head not in man_text:
            missing_man.append(head)
        missing_comp += [n for n in names if n not in offered]
        if arg and re.fullmatch(r"[a-z0-9_-]+([|,][a-z0-9_-]+)+", arg):   # choices: a|b, list: a,b
            _, got = complete(completion, env, "malibu %s " % names[-1])
            if got != re.split(r"[|,]", arg):
                bad_values.append("%s: %s, table %s" % (names[-1], " ".join(got), arg))
    check(len(table) > 30 and not missing_man,
          "malibu(1) has the %d options of the table%s" % (len(table), ": lacks " + "; ".join(missing_man)
                                                            if missing_man else ""))
    check(not missing_comp and len(offered) == sum(len(n) for n, _ in table),
          "completion offers the table's %d option names%s" % (len(offered), ": lacks " + " ".join(missing_comp)
                                                               if missing_comp else ""))
    check(not bad_values, "completion offers each option's choices%s" % (": " + "; ".join(bad_values)
                                                                        if bad_values else ""))
    _, gpu = complete(completion, env, "malibu --gpu ")
    _, g5 = complete(completion, env, "malibu --gpu g5")
    _, gpu_eq = complete(completion, env, "malibu --gpu=g5")
    check("g52" in gpu and g5 == ["g52"] and gpu_eq == ["g52"], "completion offers --gpu g52 (%s)" % " ".join(gpu))
    _, keys = complete(completion, env, "malibu --timing ")
    bad = []
    for k in keys:
        r = run([malibu, "--timing", k + "?", "--dump-dtb", os.devnull], env=env)
        if "unknown key" in r.stdout or r.returncode == 0:
            bad.append(k)
    check(len(keys) > 20 and "preset=" in keys and "gpu.l1.size=" in keys and "dram.page=" in keys and not bad,
          "completion offers the %d --timing keys, each one malibu knows%s" % (len(keys), ": not " + " ".join(bad)
                                                                               if bad else ""))
    # the same keys as the configuration --timing help prints (tm_config_print)
    printed = [l.split()[0] + "=" for l in run([malibu, "--timing", "help"], env=env).stdout.splitlines()
               if l.strip() and not l.startswith("#")]
    check(sorted(keys) == sorted(printed), "the --timing keys completed = those of malibu --timing help (%d)%s"
          % (len(printed), "" if sorted(keys) == sorted(printed) else ": " + " ".join(sorted(set(keys) ^ set(printed)))))
    _, tail = complete(completion, env, "malibu --timing preset=g52,gpu.l2.s")
    check(sorted(tail) == ["g52,gpu.l2.seed=", "g52,gpu.l2.size=", "g52,gpu.l2.slices="],
          "completion of a key after KEY=VALUE, (%s)" % " ".join(tail))

    # --version
    version = open(os.path.join(src, "VERSION")).read().strip()
    r = run([malibu, "--version"], env=env)
    check(r.returncode == 0 and r.stdout.startswith("malibu %s" % version) and "SDL" in r.stdout
          and "Capstone" in r.stdout and "GPU back ends" in r.stdout,
          "malibu --version: %s" % r.stdout.strip().replace("\n", " | "))
    deb_version = run(["dpkg-parsechangelog", "-l", os.path.join(src, "debian/changelog"), "-S", "Version"]).stdout.strip()
    check(deb_version == version, "debian/changelog's version %s = VERSION %s" % (deb_version, version))


def start_deb(src, work):
    deb = os.path.join(work, "deb")
    shutil.rmtree(deb, ignore_errors=True)
    os.makedirs(os.path.join(deb, "src"))
    # the sources as a tarball would hold them: no build/, no .git, no guest images
    tar = subprocess.Popen(["tar", "-C", src, "--exclude=./build", "--exclude=./.git", "--exclude=./debian/build-tree",
                            "--exclude=./guest-images/cache", "--exclude=./guest-images/out*", "-cf", "-", "."],
                           stdout=subprocess.PIPE)
    subprocess.run(["tar", "-C", os.path.join(deb, "src"), "-xf", "-"], stdin=tar.stdout, check=True)
    check(tar.wait() == 0, "source copy for dpkg-buildpackage")
    log = open(os.path.join(deb, "build.log"), "w")
    env = dict(os.environ, DEB_BUILD_OPTIONS="parallel=2 nocheck noopt")
    print("install-test: dpkg-buildpackage -us -uc -b (log: %s)" % log.name, flush=True)
    return time.time(), subprocess.Popen(["dpkg-buildpackage", "-us", "-uc", "-b"], cwd=os.path.join(deb, "src"),
                                         stdout=log, stderr=subprocess.STDOUT, env=env)


def finish_deb(src, work, started, proc):
    deb = os.path.join(work, "deb")
    rc = proc.wait()
    if not check(rc == 0, "dpkg-buildpackage -us -uc -b (%.0f s)" % (time.time() - started)):
        print(open(os.path.join(deb, "build.log")).read()[-3000:])
        return
    version = open(os.path.join(src, "VERSION")).read().strip()
    debs = [f for f in os.listdir(deb) if re.fullmatch(r"malibu_%s_[a-z0-9]+\.deb" % re.escape(version), f)]
    changes = [f for f in os.listdir(deb) if f.endswith(".changes")]
    if not check(len(debs) == 1 and len(changes) == 1, "the package: %s" % " ".join(debs)):
        return
    r = run(["lintian", "--no-tag-display-limit", os.path.join(deb, changes[0])])
    tags = [t for t in r.stdout.splitlines() if re.match(r"[EW]: ", t)]
    for t in tags:
        print("  lintian " + t)
    check(r.returncode in (0, 1) and not any(t.startswith("E:") for t in tags),
          "lintian: no errors (%d warnings)" % sum(t.startswith("W:") for t in tags))
    contents = run(["dpkg-deb", "-c", os.path.join(deb, debs[0])]).stdout
    for f in ("usr/bin/malibu", "usr/bin/malibu-image", "usr/share/man/man1/malibu.1.gz",
              "usr/share/bash-completion/completions/malibu", "usr/share/malibu/guest-images/build.py"):
        check("./" + f in contents, "the package holds /" + f)
    # a throwaway root: its own dpkg database; the host's libraries serve the program
    root = os.path.join(deb, "root")
    os.makedirs(os.path.join(root, "var/lib/dpkg/info"))
    os.makedirs(os.path.join(root, "var/lib/dpkg/updates"))
    open(os.path.join(root, "var/lib/dpkg/status"), "w").close()
    r = run(["dpkg", "--root=" + root, "--force-depends", "--force-not-root", "-i", os.path.join(deb, debs[0])])
    check(r.returncode == 0, "dpkg --root %s -i %s%s" % (root, debs[0], "" if r.returncode == 0 else ": " + r.stdout))
    r = run([os.path.join(root, "usr/bin/malibu"), "--version"])
    check(r.returncode == 0 and r.stdout.startswith("malibu %s" % version),
          "the package's malibu --version: %s" % r.stdout.strip().replace("\n", " | "))


def image(work, env):
    bindir = os.path.join(work, "root", PREFIX, "bin")
    t = time.time()
    r = subprocess.run(["malibu-image", "build", "default"], env=env)
    if not check(r.returncode == 0, "malibu-image build default (%.0f s)" % (time.time() - t)):
        return
    r = run(["malibu-image", "list"], env=env)
    check(re.search(r"^default +stack backports", r.stdout, re.M) is not None, "malibu-image list: " + r.stdout.strip())
    t = time.time()
    r = run(["malibu", "-m", "2G", "--image", "default", "--gpu", "g52", "--display", "none",
             "--run", "clinfo -l && RUSTICL_ENABLE=panfrost vecadd"], env=env)
    print(r.stdout.strip())
    check(r.returncode == 0 and "Mali-G52" in r.stdout and re.search(r"^vecadd: PASS", r.stdout, re.M) is not None,
          "malibu --image default --gpu g52 --run vecadd: PASS on the Mali (%.0f s)" % (time.time() - t))
    check(shutil.which("malibu", path=env["PATH"]) == os.path.join(bindir, "malibu"), "the installed malibu ran")
    r = run(["malibu-image", "remove", "default"], env=env)
    check(r.returncode == 0 and not os.path.exists(os.path.join(env["XDG_CACHE_HOME"], "malibu/images/default")),
          "malibu-image remove default")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    parts = sys.argv[4].split(",") if len(sys.argv) > 4 and sys.argv[3] == "--parts" else ["docs", "image", "deb"]
    need("bash", "man", "tar", "dpkg-parsechangelog")
    if "deb" in parts:
        need("dpkg-buildpackage", "dh", "lintian", "dpkg", "dpkg-deb")
    bindir = os.path.join(work, "root", PREFIX, "bin")
    xdg = os.path.join(work, "xdg-cache")
    # a user's environment: only the installed tree and the system's directories
    env = {"PATH": bindir + ":/usr/bin:/bin", "HOME": os.path.join(work, "home"), "XDG_CACHE_HOME": xdg,
           "LANG": "C.UTF-8"}
    if os.environ.get("GUEST_CACHE"):
        env["GUEST_CACHE"] = os.environ["GUEST_CACHE"]
    for v in ("DEBIAN_MIRROR", "DEBIAN_SECURITY_MIRROR", "http_proxy", "https_proxy"):
        if v in os.environ:
            env[v] = os.environ[v]
    os.makedirs(env["HOME"], exist_ok=True)
    t0 = time.time()
    deb = start_deb(src, work) if "deb" in parts else None
    if "docs" in parts:
        docs(src, work, env)
    if "image" in parts:
        image(work, env)
    if deb:
        finish_deb(src, work, *deb)
    print("install-test: %.0f s" % (time.time() - t0))
    if FAILED:
        sys.exit("install-test: FAILED: " + "; ".join(FAILED))
    print("install-test: all passed")


if __name__ == "__main__":
    main()

"""SPEC.toml: read it, check it before anything runs, expand its grid into points.

Every refusal names the spec file, the line and the key.  What malibu itself judges (its
--timing keys, a cache geometry, a --gpu size) is asked of malibu: `--timing help` lists the
keys, and `--dump-dtb /dev/null` with a point's options is a dry run that builds the board
(GPU, timing model) and exits without booting."""
import itertools
import os
import re
import shlex
import shutil
import subprocess
import tomllib

TOP_KEYS = {"name", "malibu", "image", "memory", "clock", "repetitions", "timeout", "share", "args",
            "start", "grid", "params", "timing", "results", "plot"}
GRID_KEYS = {"run", "gpu", "cores", "mhz", "smp"}
RESULT_KEYS = {"kernel", "capture"}
PLOT_KEYS = {"name", "x", "y", "lines", "where", "logx", "logy", "title"}
# what a guest command may start with that is no program of the image
SHELL_WORDS = {"cd", "echo", "export", "for", "do", "done", "if", "then", "else", "fi", "while", "test", "[",
               "true", "false", "exit", "set", "unset", "read", "printf", "wait", "sleep", "case", "esac", "time",
               "ulimit", "umask", "env", "exec", "."}
IMAGE_PATH = ["/usr/local/bin", "/usr/bin", "/usr/sbin", "/usr/local/sbin"]


class SpecError(Exception):
    pass


class Spec:
    """A parsed spec: self.data (the TOML), self.points (list of dicts of parameters)."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        try:
            with open(self.path, "rb") as f:
                raw = f.read()
        except OSError as e:
            raise SpecError("%s: %s" % (path, e.strerror))
        self.lines = raw.decode("utf-8", "replace").splitlines()
        try:
            self.data = tomllib.loads(raw.decode("utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise SpecError("%s: %s" % (path, e))

    # ---- where a key is written: "FILE:LINE: key K: ..." ----------------------------------------
    def line_of(self, table, key):
        """1-based line of `key = ...` inside [table] (table None: the top level), else 0."""
        cur = None
        pat = re.compile(r'^\s*(?:"%s"|\'%s\'|%s)\s*=' % ((re.escape(key),) * 3))
        for i, line in enumerate(self.lines, 1):
            m = re.match(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$", line)
            if m:
                cur = m.group(1).strip()
                continue
            if cur == table and pat.match(line):
                return i
        return 0

    def error(self, table, key, msg):
        line = self.line_of(table, key)
        where = "%s:%d" % (self.path, line) if line else self.path
        name = "%s.%s" % (table, key) if table else key
        return SpecError("%s: key '%s': %s" % (where, name, msg))

    # ---- paths ------------------------------------------------------------------------------------
    def file_key(self, key, default):
        v = self.data.get(key, default)
        if not isinstance(v, str):
            raise self.error(None, key, "a path (string) is expected")
        return v if os.path.isabs(v) else os.path.normpath(os.path.join(self.dir, v))


def expand_values(spec, table, key, v):
    """A value, a list of values, or a range {start, stop, step | mul}: the list of values."""
    if isinstance(v, list):
        if not v:
            raise spec.error(table, key, "an empty list: the grid has no point")
        for x in v:
            if not isinstance(x, (str, int, float)) or isinstance(x, bool):
                raise spec.error(table, key, "values are strings or numbers, got %r" % (x,))
        return v
    if isinstance(v, dict):
        unknown = set(v) - {"start", "stop", "step", "mul"}
        if unknown or "start" not in v or "stop" not in v or ("step" in v) == ("mul" in v):
            raise spec.error(table, key, "a range is {start = A, stop = B, step = S} or {start, stop, mul = M} "
                             "(stop included)")
        a, b = v["start"], v["stop"]
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b, v.get("step", 1), v.get("mul", 2))):
            raise spec.error(table, key, "range bounds and step are integers")
        out = []
        if "step" in v:
            if v["step"] <= 0:
                raise spec.error(table, key, "step must be positive")
            out = list(range(a, b + 1, v["step"]))
        else:
            if v["mul"] < 2 or a <= 0:
                raise spec.error(table, key, "mul >= 2 and start > 0")
            x = a
            while x <= b:
                out.append(x)
                x *= v["mul"]
        if not out:
            raise spec.error(table, key, "the range %d..%d is empty: the grid has no point" % (a, b))
        return out
    if isinstance(v, (str, int, float)) and not isinstance(v, bool):
        return [v]
    raise spec.error(table, key, "a value, a list or a range is expected, got %r" % (v,))


def malibu_timing_keys(malibu):
    """The keys malibu's --timing knows, from malibu itself (`--timing help`)."""
    p = subprocess.run([malibu, "--timing", "help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    keys = set()
    for line in p.stdout.splitlines():
        m = re.match(r"^([a-z0-9_.]+) = ", line)
        if m:
            keys.add(m.group(1))
    if p.returncode or not keys:
        raise SpecError("%s --timing help: no key list (exit %d): %s" % (malibu, p.returncode, p.stdout[-300:]))
    return keys


def image_programs(image):
    """Names of the programs in the image's root filesystem (debugfs, read-only)."""
    names = set()
    rootfs = os.path.join(image, "rootfs.ext4")
    debugfs = shutil.which("debugfs") or next((p for p in ("/usr/sbin/debugfs", "/sbin/debugfs")
                                                if os.access(p, os.X_OK)), None)
    if not debugfs:
        raise SpecError("debugfs (Debian: e2fsprogs) is needed to look for the guest programs in %s" % rootfs)
    for d in IMAGE_PATH:
        p = subprocess.run([debugfs, "-R", "ls " + d, rootfs], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        names.update(p.stdout.split())
    return names


def command_programs(cmd):
    """The program each simple command of a shell line starts with (assignments skipped)."""
    progs = []
    for part in re.split(r"[;&|()\n]+", cmd):
        try:
            words = shlex.split(part)
        except ValueError:
            words = part.split()
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            words = words[1:]
        if words:
            progs.append(words[0])
    return progs


def timing_string(timing):
    return ",".join("%s=%s" % kv for kv in timing)


def load(path, check_malibu=True):
    """The spec at path, checked, with .points expanded; SpecError naming file, line and key."""
    s = Spec(path)
    d = s.data
    for k in d:
        if k not in TOP_KEYS:
            raise s.error(None, k, "unknown key (known: %s)" % ", ".join(sorted(TOP_KEYS)))
    for k in ("grid", "params", "timing", "results"):
        if k in d and not isinstance(d[k], dict):
            raise s.error(None, k, "a table [%s] is expected" % k)
    s.name = d.get("name", os.path.splitext(os.path.basename(path))[0])
    here = os.path.dirname(os.path.abspath(__file__))
    # default: the source tree's build/malibu, or (installed: no build tree) malibu on PATH
    built = os.path.normpath(os.path.join(here, "..", "..", "build", "malibu"))
    s.malibu = s.file_key("malibu", built if os.access(built, os.X_OK) else shutil.which("malibu") or built)
    s.image = s.file_key("image", os.path.join(here, "..", "..", "guest-images", "out"))
    s.memory = str(d.get("memory", "512M"))
    s.clock = d.get("clock", "icount")
    s.share = s.file_key("share", "") if "share" in d else None
    s.args = d.get("args", [])
    if not isinstance(s.args, list) or not all(isinstance(a, str) for a in s.args):
        raise s.error(None, "args", "a list of strings (more malibu options)")
    # start: a guest command each distinct board runs once before `malibu checkpoint`; every point
    # of that board resumes from the checkpoint (docs/checkpoint.md) instead of booting
    s.start = d.get("start")
    if s.start is not None and (not isinstance(s.start, str) or not s.start.strip()):
        raise s.error(None, "start", "a guest command (string) run once before the checkpoint the points resume")
    if s.start is not None and any(a.startswith("--checkpoint") for a in s.args):
        raise s.error(None, "args", "--checkpoint-* options are the sweep's own with 'start'")
    for k, lo in (("repetitions", 1), ("timeout", 1)):
        v = d.get(k, 1 if k == "repetitions" else 600)
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise s.error(None, k, "a whole number >= %d" % lo)
        setattr(s, k, v)
    if check_malibu and not os.access(s.malibu, os.X_OK):
        raise s.error(None, "malibu", "no malibu program at %s (make)" % s.malibu)
    if not os.path.isfile(os.path.join(s.image, "rootfs.ext4")):
        raise s.error(None, "image", "no guest image at %s (make image)" % s.image)
    if s.share is not None and not os.path.isdir(s.share):
        raise s.error(None, "share", "no directory %s" % s.share)

    grid = d.get("grid", {})
    for k in grid:
        if k not in GRID_KEYS:
            raise s.error("grid", k, "unknown key (known: %s; program parameters go to [params])"
                          % ", ".join(sorted(GRID_KEYS)))
    if "run" not in grid:
        raise SpecError("%s: key 'grid.run': missing: the guest command(s) each point runs" % s.path)
    axes = []   # (column name, table, key, values)
    for k in ("run", "gpu", "cores", "mhz", "smp"):
        if k in grid:
            axes.append((k, "grid", k, expand_values(s, "grid", k, grid[k])))
    params = d.get("params", {})
    for k, v in params.items():
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k):
            raise s.error("params", k, "a parameter name is a word (it is used as {%s} in grid.run)" % k)
        axes.append((k, "params", k, expand_values(s, "params", k, v)))
    timing = d.get("timing", {})
    for k, v in timing.items():
        axes.append((k, "timing", k, expand_values(s, "timing", k, v)))
    for v in axes[0][3]:
        if not isinstance(v, str) or not v.strip():
            raise s.error("grid", "run", "guest commands are non-empty strings")
        for name in re.findall(r"\{([^{}]*)\}", v):
            if name not in params:
                raise s.error("grid", "run", "{%s} names no [params] entry" % name)
    s.axes = axes
    s.columns = [a[0] for a in axes] + (["rep"] if s.repetitions > 1 else [])

    # the guest programs exist in the image (or the share), in every command the grid makes
    progs = image_programs(s.image)
    pnames = list(params)
    pvals = [a[3] for a in axes if a[1] == "params"]
    if s.start is not None:
        for p in command_programs(s.start):
            if p not in SHELL_WORDS and not p.startswith("/") and p not in progs:
                raise s.error(None, "start", "no program '%s' in the guest image %s (%s)"
                              % (p, s.image, ":".join(IMAGE_PATH)))
    for tmpl in axes[0][3]:
        for combo in itertools.product(*pvals):
            cmd = tmpl.format(**dict(zip(pnames, combo)))
            for p in command_programs(cmd):
                # the key that wrote it: grid.run, or the [params] entry whose value holds it
                table, key = "grid", "run"
                if p not in tmpl:
                    key = next((k for k, v in zip(pnames, combo) if p in str(v)), "run")
                    table = "params" if key != "run" else "grid"
                if p in SHELL_WORDS:
                    continue
                if p.startswith("/mnt/host/") and s.share is not None:
                    if not os.path.exists(os.path.join(s.share, p[len("/mnt/host/"):])):
                        raise s.error(table, key, "'%s' is not in the share %s" % (p, s.share))
                elif p.startswith("/"):
                    continue   # a path of the image's own: not checked
                elif p not in progs:
                    raise s.error(table, key, "no program '%s' in the guest image %s (%s)"
                                  % (p, s.image, ":".join(IMAGE_PATH)))

    # the timing keys are malibu's
    if timing and check_malibu:
        known = malibu_timing_keys(s.malibu) | {"preset"}
        for k in timing:
            if k not in known:
                raise s.error("timing", k, "malibu's --timing has no such key (malibu --timing help)")

    # the grid
    s.points = []
    for combo in itertools.product(*[a[3] for a in axes]):
        for rep in range(s.repetitions):
            p = {a[0]: v for a, v in zip(axes, combo)}
            if s.repetitions > 1:
                p["rep"] = rep
            s.points.append(p)
    if not s.points:
        raise SpecError("%s: the grid has no point" % s.path)
    if check_malibu:
        dry_run_all(s)
    res = d.get("results", {})
    for k in res:
        if k not in RESULT_KEYS:
            raise s.error("results", k, "unknown key (known: %s)" % ", ".join(sorted(RESULT_KEYS)))
    s.kernel = res.get("kernel")
    s.capture = res.get("capture", {})
    if not isinstance(s.capture, dict):
        raise s.error("results", "capture", "a table NAME = 'regex with one group'")
    for k, rx in s.capture.items():
        try:
            if not isinstance(rx, str) or re.compile(rx).groups != 1:
                raise re.error("not one group")
        except re.error as e:
            raise s.error("results.capture", k, "a regular expression with one group: %s" % e)
    s.plots = d.get("plot", [])
    if isinstance(s.plots, dict):
        s.plots = [s.plots]
    for i, pl in enumerate(s.plots):
        for k in pl:
            if k not in PLOT_KEYS:
                raise s.error("plot", k, "unknown key (known: %s)" % ", ".join(sorted(PLOT_KEYS)))
        for k in ("x", "lines"):
            if k in pl and pl[k] not in s.columns:
                raise s.error("plot", k, "'%s' is not a swept parameter (%s)" % (pl[k], ", ".join(s.columns)))
        where = pl.get("where", {})
        if not isinstance(where, dict) or any(k not in s.columns for k in where):
            raise s.error("plot", "where", "a table of swept parameters and the value each must have (%s)"
                          % ", ".join(s.columns))
        if "x" not in pl or "y" not in pl:
            raise SpecError("%s: [[plot]] %d: x and y are required" % (s.path, i + 1))
    return s


def board_argv(s, p):
    """The options that make point p's board (what a checkpoint of it must share: no --timing)."""
    gpu = str(p.get("gpu", "g71"))
    size = ["%s=%s" % (k, p[k]) for k in ("cores", "mhz") if k in p]
    if size:
        gpu = ",".join([gpu] + size)
    argv = [s.malibu, "-m", s.memory, "--smp", str(p.get("smp", 1)), "--clock", s.clock, "--image", s.image,
            "--display", "none", "--gpu", gpu]
    if p.get("smp", 1) > 1 and s.start is not None:
        argv += ["--smp-mode", "rr"]    # a checkpoint stops every vCPU in one round-robin loop
    if s.share is not None:
        argv += ["--share", s.share + ",ro"]
    return argv + list(s.args)


def start_key(s, p):
    """The name of point p's start checkpoint: one per distinct board (None without 'start')."""
    if s.start is None:
        return None
    import hashlib
    return hashlib.sha1("\0".join(board_argv(s, p)[1:]).encode()).hexdigest()[:12]


def start_argv(s, p, path):
    """The command that boots point p's board, runs 'start' and saves it to path."""
    return board_argv(s, p) + ["--checkpoint-save", path, "--checkpoint-exit",
                               "--run", "%s; malibu checkpoint" % s.start]


def point_argv(s, p, outdir, start_path=None):
    """The exact malibu command line of point p (its stats go to outdir; with start_path it
    resumes that checkpoint, and `malibu checkpoint` in the guest runs the point's command)."""
    argv = board_argv(s, p)
    timing = [(k, p[k]) for k in s.data.get("timing", {})]
    if timing:
        argv += ["--timing", timing_string(timing)]
    if start_path is not None:
        argv += ["--checkpoint-load", start_path]
    if outdir is not None:
        argv += ["--stats", os.path.join(outdir, "stats.json")]
    cmd = p["run"].format(**{k: p[k] for k in s.data.get("params", {})})
    return argv + ["--run", cmd]


def dry_run_all(s):
    """malibu --dump-dtb /dev/null with each distinct board configuration: malibu's own parsers
    judge --gpu and --timing (cache geometry) before anything boots."""
    seen = set()
    for p in s.points:
        argv = point_argv(s, p, None)
        argv = argv[:argv.index("--run")]
        key = tuple(argv)
        if key in seen:
            continue
        seen.add(key)
        r = subprocess.run(argv + ["--dump-dtb", "/dev/null"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode:
            msg = r.stdout.strip().replace("malibu: ", "")
            # the key malibu complains about, the most specific first
            grid = s.data.get("grid", {})
            cands = [("timing", k) for k in s.data.get("timing", {})] + \
                [("grid", k) for k in ("cores", "mhz", "smp", "gpu") if k in grid]
            for table, k in cands:
                if "%s=%s" % (k, p.get(k)) in msg or (table == "timing" and k in msg) or (
                        table == "grid" and "--" + k in msg):
                    raise s.error(table, k, "malibu refuses %s: %s" % (
                        ", ".join("%s=%s" % kv for kv in p.items() if kv[0] != "run"), msg))
            raise SpecError("%s: malibu refuses a point (%s): %s" % (s.path, ", ".join(
                "%s=%s" % kv for kv in p.items() if kv[0] != "run"), msg))

#!/usr/bin/env python3
"""Compare the values two runs of the OpenCL samples checked (guest-images/apps, `-o DIR`).

Each run directory holds MANIFEST ("FILE TYPE N CHECK" per output, written by app_output in
apps/common.c) and the raw FILEs.  Used by tests/mali/apps_test.sh; also usable by hand:

    apps_compare.py [--identical] DIR REF_DIR [SAMPLE...]

Without --identical, DIR's values must agree with REF_DIR's (another device) as the sample's own
check allows two correct devices to differ:
  exact      bit for bit (NaN matches any NaN): integer results, correctly rounded operations
  either     each value is one of two correctly rounded references (WHAT.want1 / WHAT.want2, e.g.
             a*b+c fused or not: OpenCL C's FP_CONTRACT ON lets each compiler choose); a compiler
             chooses once per expression, so each run must match the same reference wherever
             the two differ (all fused or all unfused), possibly not the same one in both runs
  reference  the CPU references themselves: bit for bit (same inputs, same program)
  ulp=B      |x - ref| <= B ulp(ref), the OpenCL bound of the built-in (ulp measured as in
             app_ulp_error: at the reference, never below the smallest normal's).  Each device is
             within B of the exact result (the sample checks that), so two conforming devices
             could differ by up to 2B; B is the stricter agreement this test asks for
  approx     not compared (the sample checked it against its own error bound)
With --identical (same device, other emulator settings) every file must be byte-identical.
Prints one line per sample ("SAMPLE: ok: ..." or "SAMPLE: DIFFERS: ...") and exits 1 when a
sample differs or its outputs are missing on either side.
"""
import array
import math
import os
import sys

TYPECODES = {"u8": "B", "u32": "I", "i32": "i", "f32": "f"}


def read_manifest(d):
    """{file: (type, n, check)} in manifest order; {} when there is no manifest."""
    out = {}
    try:
        with open(os.path.join(d, "MANIFEST")) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 4:
                    out[parts[0]] = (parts[1], int(parts[2]), parts[3])
    except OSError:
        pass
    return out


def load(d, name, typ, n):
    a = array.array(TYPECODES[typ])
    with open(os.path.join(d, name), "rb") as f:
        a.frombytes(f.read())
    if len(a) != n:
        raise ValueError(f"{name}: {len(a)} values, manifest says {n}")
    return a


def ulp_error(got, ref):
    """app_ulp_error of apps/common.c, for two floats."""
    if math.isnan(ref) or math.isnan(got):
        return 0.0 if math.isnan(ref) and math.isnan(got) else math.inf
    if math.isinf(ref) or math.isinf(got):
        return 0.0 if got == ref else math.inf
    r = max(abs(ref), 2.0 ** -126)
    _, e = math.frexp(r)
    return abs(got - ref) / math.ldexp(1.0, e - 24)


def same(x, y, typ):
    return x == y or (typ == "f32" and math.isnan(x) and math.isnan(y))


def sample_of(name):
    return name.split(".", 1)[0]


def compare(d, ref, samples, identical):
    """{sample: (ok, [detail...])}"""
    got_m, ref_m = read_manifest(d), read_manifest(ref)
    res = {}
    for s in samples:
        mine = [f for f in got_m if sample_of(f) == s]
        theirs = [f for f in ref_m if sample_of(f) == s]
        details, ok = [], True
        if not mine or not theirs:
            res[s] = (False, ["no outputs" + ("" if mine else f" in {d}") +
                              ("" if theirs else f" in {ref}")])
            continue
        for f in theirs:
            if f not in got_m:
                ok = False
                details.append(f"{f} missing")
        worst = {}
        exact = 0
        for f in mine:
            what = f[len(s) + 1:-4]
            if f not in ref_m:
                ok = False
                details.append(f"{f} not in the reference")
                continue
            typ, n, check = got_m[f]
            if ref_m[f] != got_m[f]:
                ok = False
                details.append(f"{what}: {got_m[f]} vs {ref_m[f]} in the reference")
                continue
            try:
                if identical:
                    with open(os.path.join(d, f), "rb") as a, open(os.path.join(ref, f), "rb") as b:
                        if a.read() != b.read():
                            ok = False
                            details.append(f"{what}: bytes differ")
                        else:
                            exact += 1
                    continue
                x, y = load(d, f, typ, n), load(ref, f, typ, n)
            except (OSError, ValueError) as e:
                ok = False
                details.append(str(e))
                continue
            if check == "either":
                picks = []
                for run, vals in ((d, x), (ref, y)):
                    try:
                        w1 = load(run, f"{s}.{what}.want1.bin", typ, n)
                        w2 = load(run, f"{s}.{what}.want2.bin", typ, n)
                    except (OSError, ValueError) as e:
                        picks.append(None)
                        details.append(f"{what}: references: {e}")
                        continue
                    split = [i for i in range(n) if not same(w1[i], w2[i], typ)]
                    c1 = sum(1 for i in split if same(vals[i], w1[i], typ))
                    c2 = sum(1 for i in split if same(vals[i], w2[i], typ))
                    neither = sum(1 for i in range(n) if not same(vals[i], w1[i], typ)
                                  and not same(vals[i], w2[i], typ))
                    picks.append((c1, c2, neither, len(split)))
                if None in picks or any(p[2] or (p[0] and p[1]) for p in picks):
                    ok = False
                    details.append(f"{what}: not one reference per run (first/second/neither of "
                                   f"{picks[0] and picks[0][3]} where they differ: "
                                   + ", ".join(str(p and p[:3]) for p in picks) + ")")
                    continue
                name = lambda p: "first" if p[0] else "second" if p[1] else "either"
                details.append(f"{what}: {name(picks[0])} reference wherever the two differ "
                               f"({picks[0][3]} of {n}; other run: {name(picks[1])})")
                exact += name(picks[0]) == name(picks[1])
            elif check in ("exact", "reference"):
                bad = [i for i in range(n) if not same(x[i], y[i], typ)]
                if bad:
                    ok = False
                    i = bad[0]
                    details.append(f"{what}: {len(bad)} of {n} differ ({check}; first [{i}] "
                                   f"{x[i]!r} vs {y[i]!r})")
                else:
                    exact += check == "exact"
            elif check.startswith("ulp="):
                bound = float(check[4:])
                errs = [ulp_error(x[i], y[i]) for i in range(n)]
                m = max(errs) if errs else 0.0
                over = sum(1 for e in errs if not e <= bound)
                worst[what] = (m, bound)
                if over:
                    ok = False
                    i = max(range(n), key=lambda k: errs[k])
                    details.append(f"{what}: {over} of {n} beyond {bound:g} ulp (worst {m:.2f} "
                                   f"at [{i}]: {x[i]!r} vs {y[i]!r})")
        if identical:
            summary = f"{exact} of {len(mine)} outputs byte-identical"
        else:
            parts = [f"{exact} bit-exact"] if exact else []
            if worst:
                w = max(worst, key=lambda k: worst[k][0] / worst[k][1])
                parts.append(f"{len(worst)} within the ulp bound (max {worst[w][0]:.2f} ulp: "
                             f"{w}, bound {worst[w][1]:g})")
            summary = ", ".join(parts)
        res[s] = (ok, ([summary] if summary else []) + details)
    return res


def main(argv):
    identical = "--identical" in argv
    args = [a for a in argv if a != "--identical"]
    if len(args) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    d, ref, samples = args[0], args[1], args[2:]
    if not samples:
        samples = sorted({sample_of(f) for f in read_manifest(ref)})
    bad = 0
    for s, (ok, details) in compare(d, ref, samples, identical).items():
        print(f"{s}: {'ok' if ok else 'DIFFERS'}: " + "; ".join(details))
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

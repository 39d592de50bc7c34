#!/usr/bin/env python3
"""gfx-stats-test's verdict (gfx_stats.sh): each argument is MODEL:PREFIX, one boot's report and
console log (PREFIX.json, PREFIX.log).
The scene (scene.shader_test) on the 250x250 window must give, in its one frame:
  - 4 draws (IDVS), primitives 7 in, 3 culled: 2 off screen, and 1 crossing w = 0 whose visible
    part lies off screen (the tiler bins a primitive crossing w = 0 by the box of its clipped
    part, and culls it when that box is empty), 0 clipped;
  - 16 x 16 tiles, 62500 + 31250 fragments, 62500 pixels shaded: overdraw 1.5, one sample each;
  - quads x 4 = fragments + helper lanes, no early kill (no depth test);
  - position and fragment stages in gpu.stages, fragment thread instructions > 0;
and piglit's own verdict "pass".  Boots of one model must agree on the graphics section and on
gpu.stages whatever their --gpu-threads.
An argument blend:PREFIX is a boot that ran piglit's arb_blend_func_extended-fbo-extended-blend-
pattern_gles3 (dual-source blending: Mesa compiles a blend shader): it must pass, and the report
must have a blend stage with thread instructions, and a kernel of stage blend."""
import json
import sys

W = H = 250
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def expect(name, got, want):
    check(got == want, "%s: %r, expected %r" % (name, got, want))


def main():
    by_model = {}
    for arg in sys.argv[1:]:
        model, prefix = arg.split(":", 1)
        try:
            with open(prefix + ".json") as f:
                rep = json.load(f)
            with open(prefix + ".log", errors="replace") as f:
                log = f.read()
        except (OSError, ValueError) as e:
            failures.append("%s: no report: %s" % (prefix, e))
            continue
        tag = prefix.rsplit("/", 1)[-1]
        check('PIGLIT: {"result": "pass" }' in log, "%s: piglit did not pass" % tag)
        if model == "blend":
            stages = rep["gpu"].get("stages", {})
            check(stages.get("blend", {}).get("thread_instructions", 0) > 0,
                  "%s: no blend-stage instructions (stages %s)" % (tag, sorted(stages)))
            kernels = [k for k in rep["gpu"].get("kernels", []) if k.get("stage") == "blend"]
            check(len(kernels) >= 1, "%s: no kernel of stage blend" % tag)
            continue
        g = rep.get("graphics")
        if g is None:
            failures.append("%s: no graphics section" % tag)
            continue
        expect(tag + " draws", g["draws"], {"indexed_vertex": 4, "tiler": 0})
        expect(tag + " primitives", g["primitives"], {"in": 7, "culled": 3, "clipped": 0, "dropped": 0})
        expect(tag + " frames", len(g["frames"]), 1)
        for fr in g["frames"][:1]:
            expect(tag + " frame size", (fr["width"], fr["height"]), (W, H))
            expect(tag + " tiles", fr["tiles"], ((W + 15) // 16) * ((H + 15) // 16))
            expect(tag + " fragments", fr["fragments"], W * H + W * H // 2)
            expect(tag + " samples", fr["samples"], fr["fragments"])
            expect(tag + " pixels shaded", fr["pixels_shaded"], W * H)
            expect(tag + " overdraw", fr["overdraw"], 1.5)
            expect(tag + " quads x 4", fr["quads"] * 4, fr["fragments"] + fr["helper_lanes"])
            expect(tag + " killed early", fr["killed_early"], 0)
        stages = rep["gpu"].get("stages", {})
        check("position" in stages and "fragment" in stages, "%s: stages %s" % (tag, sorted(stages)))
        check(stages.get("fragment", {}).get("thread_instructions", 0) > 0, "%s: no fragment instructions" % tag)
        by_model.setdefault(model, []).append((tag, g, stages))
    for model, runs in by_model.items():
        ref_tag, ref_g, ref_s = runs[0]
        for tag, g, s in runs[1:]:
            check(g == ref_g, "%s: graphics section differs from %s's" % (tag, ref_tag))
            check(s == ref_s, "%s: gpu.stages differ from %s's" % (tag, ref_tag))
    if failures:
        for f in failures:
            print("gfx-stats-test: FAIL: " + f)
        return 1
    print("gfx-stats-test: PASS (%d scene reports: %s; and the blend-shader run)" % (
        sum(len(r) for r in by_model.values()), ", ".join(t for r in by_model.values() for t, _, _ in r)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

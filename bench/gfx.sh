#!/bin/sh
# Graphics benchmark: a fixed scene drawn by piglit's shader_runner_gles3 in the guest (Debian's
# panfrost + Mesa), on the emulated Mali (G72 and G52) and on llvmpipe in the same guest (the
# peer: Mesa's CPU rasterizer on the emulated Arm CPU).  The scene (written by the guest from
# gfx_scene below) is FRAMES frames of 250x250: each clears, draws DRAWS overlapping rectangles
# textured from a 64x64 RGBW texture (mipmapped, trilinear filter), and reads one pixel back (which ends the
# frame: one FRAGMENT job per frame).  shader_runner's scripts cannot enable GL_BLEND, so the
# scene is not blended; texture coordinates come from gl_FragCoord (a vertex shader writing a
# varying besides the position made panfrost's IDVS job name position buffer 0, which faults on
# malibu at the time of writing).
#
# Per configuration one boot runs the scene once unmeasured (libraries and Mesa's shader cache
# come from disk), then with F1 and then F2 frames; the host timestamps the
# console markers the guest prints around each run, and
#   frames/s     = (F2 - F1) / (host seconds of run 2 - run 1): frames per host-second, without
#                  the start-up and shader compilation both runs share
#   Mlane/s      = lane-instructions per frame x frames/s, the lane-instructions per frame from
#                  one more boot with --stats (gpu.totals.thread_instructions / (1 + F1 + F2): the
#                  counts are exact and the same for any number of host threads)
#   x llvmpipe   = frames/s over llvmpipe's
# The runs must pass (piglit "pass": the probed pixel stays the clear colour).
#
# usage: bench/gfx.sh [--malibu PATH] [--threads N] [--frames F1,F2] [--peer-frames F1,F2]
#                     [--draws D] [--image DIR]
#        (defaults: build/malibu, N = nproc, frames 2,6 on the Mali and 2,26 on llvmpipe, whose
#        frames are far cheaper: the difference must stand out of the host's noise; 8 draws;
#        the image of bench/image_dir.sh).  GFX_CONFIGS="llvmpipe mali-g72 mali-g52" selects.
set -eu
MALIBU=build/malibu
THREADS=$(nproc)
FRAMES=2,6
PEER_FRAMES=2,26
DRAWS=8
IMG=
while [ $# -gt 0 ]; do
    case $1 in
        --malibu) MALIBU=$2; shift 2 ;;
        --threads) THREADS=$2; shift 2 ;;
        --frames) FRAMES=$2; shift 2 ;;
        --peer-frames) PEER_FRAMES=$2; shift 2 ;;
        --draws) DRAWS=$2; shift 2 ;;
        --image) IMG=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "$0: unknown argument $1" >&2; exit 1 ;;
    esac
done
if [ -z "$IMG" ]; then
    . "$(dirname "$0")/image_dir.sh"
    IMG=$IMAGE_DIR
fi
for f in "$MALIBU" "$IMG/Image" "$IMG/initrd.img" "$IMG/rootfs.ext4"; do
    [ -e "$f" ] || { echo "$0: missing $f" >&2; exit 1; }
done
WORK=${WORK:-build/bench/gfx}
mkdir -p "$WORK"
exec python3 - "$MALIBU" "$IMG" "$THREADS" "$FRAMES" "$DRAWS" "$WORK" "$PEER_FRAMES" <<'PYEOF'
import json, os, subprocess, sys, time

malibu, img, threads, frames, draws, work, peer_frames = sys.argv[1:8]
mali_frames = tuple(int(x) for x in frames.split(","))
peer_frames = tuple(int(x) for x in peer_frames.split(","))
f1, f2 = mali_frames
draws = int(draws)

# the guest writes the scene: a shell function, FRAMES DRAWS -> shader_test on stdout
GEN = r'''gfx_scene() {
cat <<'HEAD_EOF'
[require]
GL ES >= 3.0
GLSL ES >= 3.00

[vertex shader passthrough]

[fragment shader]
#version 300 es
precision mediump float;
uniform sampler2D tex;
out vec4 color;
void main() { vec2 tc = gl_FragCoord.xy / 96.0; color = vec4(texture(tex, tc).rgb * 0.75 + vec3(0.25 * tc.x), 1.0); }

[test]
texture rgbw 0 (64, 64)
uniform int tex 0
texparameter 2D min linear_mipmap_linear
texparameter 2D mag linear
clear color 0.0 0.0 0.0 1.0
HEAD_EOF
f=0
while [ $f -lt $1 ]; do
  echo clear
  d=0
  while [ $d -lt $2 ]; do
    echo "draw rect -0.$((9 - d % 5)) -0.$((8 - d % 7)) 1.$((d % 8)) 1.$((7 - d % 6))"
    d=$((d + 1))
  done
  echo "probe rgba 0 0 0.0 0.0 0.0 1.0"
  f=$((f + 1))
done
}
'''

def guest_cmd(env):
    # a first run of one frame, not measured: libraries and the shader cache come from disk once
    runs = ("gfx_scene 1 %d > /tmp/warm.shader_test; %s PIGLIT_PLATFORM=surfaceless_egl "
            "bin/shader_runner_gles3 /tmp/warm.shader_test -auto -fbo >/dev/null 2>&1\n" % (draws, env))
    for n in (f1, f2):
        runs += ("gfx_scene %d %d > /tmp/scene%d.shader_test; echo GFXBENCH_START %d; "
                 "%s PIGLIT_PLATFORM=surfaceless_egl bin/shader_runner_gles3 /tmp/scene%d.shader_test -auto -fbo "
                 "2>&1 | tail -n 1; echo GFXBENCH_END %d\n" % (n, draws, n, n, env, n, n))
    return GEN + "cd /usr/lib/aarch64-linux-gnu/piglit\n" + runs

def boot(tag, model, env, stats=None):
    args = [malibu, "-m", "2G", "--image", img, "--gpu", model, "--display", "none",
            "--gpu-threads", threads]
    if stats:
        args += ["--stats", stats]
    share = os.path.join(work, "share-" + tag)
    os.makedirs(share, exist_ok=True)
    with open(os.path.join(share, "scene.sh"), "w") as f:       # longer than --run may be
        f.write(guest_cmd(env))
    args += ["--share", share + ",ro", "--run", "sh /mnt/host/scene.sh"]
    err = open(os.path.join(work, tag + ".stderr"), "w")
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err)
    marks, results, log = {}, [], []
    for raw in p.stdout:
        now = time.monotonic()
        line = raw.decode("utf-8", "replace").rstrip("\n")
        log.append(line)
        for key in ("GFXBENCH_START", "GFXBENCH_END"):
            if line.startswith(key + " "):
                marks[(key, int(line.split()[1]))] = now
        if line.startswith("PIGLIT:"):
            results.append(line)
    p.wait()
    err.close()
    with open(os.path.join(work, tag + ".log"), "w") as f:
        f.write("\n".join(log) + "\n")
    ok = len(results) == 2 and all('"pass"' in r for r in results)
    try:
        secs = [marks[("GFXBENCH_END", n)] - marks[("GFXBENCH_START", n)] for n in (f1, f2)]
    except KeyError:
        return None, False
    return secs, ok

rows = []
peer_fps = None
configs = [("llvmpipe", "g52", "LIBGL_ALWAYS_SOFTWARE=1"), ("mali-g72", "g72", ""), ("mali-g52", "g52", "")]
configs = [c for c in configs if c[0] in os.environ.get("GFX_CONFIGS", "llvmpipe mali-g72 mali-g52").split()]
for tag, model, env in configs:
    f1, f2 = peer_frames if tag == "llvmpipe" else mali_frames
    secs, ok = boot(tag, model, env)
    if secs is None or secs[1] <= secs[0]:
        rows.append((tag, secs, None, None, "NO-MARKERS" if secs is None else "NOISE", (f1, f2)))
        continue
    fps = (f2 - f1) / (secs[1] - secs[0])
    mlane, status = None, "FAIL"
    if tag.startswith("mali"):
        sfile = os.path.join(work, tag + "-stats.json")
        _, sok = boot(tag + "-stats", model, env, sfile)
        ok = ok and sok
        try:
            rep = json.load(open(sfile))
            instr = rep["gpu"]["totals"]["thread_instructions"]
            mlane = instr / (1 + f1 + f2) * fps / 1e6      # the warm-up frame too
            if rep["gpu"]["jobs"].get("failed"):
                ok, status = False, "JOB-FAULT"
            fr = rep.get("graphics", {}).get("frame_totals", {})
            print("%s: %d frames, %d draws, %d fragments, %d pixels shaded, overdraw %.2f, %d thread instructions"
                  % (tag, len(rep.get("graphics", {}).get("frames", [])), fr.get("draws", 0), fr.get("fragments", 0),
                     fr.get("pixels_shaded", 0), fr.get("overdraw", 0), instr))
        except (OSError, ValueError, KeyError):
            ok = False
    else:
        peer_fps = fps
    rows.append((tag, secs, fps, mlane, "PASS" if ok else status, (f1, f2)))

print("scene: %d draws per frame, 250x250, --gpu-threads %s, host load %.1f at the end"
      % (draws, threads, os.getloadavg()[0]))
print("%-10s %7s %10s %10s %10s %10s %10s  %s" % ("config", "frames", "run1 s", "run2 s", "frames/s", "Mlane/s",
                                                 "x llvmpipe", "status"))
for tag, secs, fps, mlane, st, fr in rows:
    n = "%d,%d" % fr
    if fps is None:
        print("%-10s %7s %10s %10s %10s %10s %10s  %s" % (tag, n, "%.2f" % secs[0] if secs else "-",
              "%.2f" % secs[1] if secs else "-", "-", "-", "-", st))
        continue
    ratio = "%.3f" % (fps / peer_fps) if peer_fps else "-"
    print("%-10s %7s %10.2f %10.2f %10.2f %10s %10s  %s" % (tag, n, secs[0], secs[1], fps,
          "%.2f" % mlane if mlane is not None else "-", ratio, st))
PYEOF

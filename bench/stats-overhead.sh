#!/bin/sh
# --stats overhead of the GPU engine: each OpenCL sample of guest-images/apps run REPS times in one
# boot of malibu without --stats and one with it, the two boots alternating BOOTS times (so that
# a slow spell of the host falls on both), at --gpu-threads 1 and the samples' default sizes
# unless given.  The peer is malibu itself without --stats, measured in the same run.
#   engine CPU ms  host CPU time of the thread running the jobs' workgroups (MALIBU_GPU_LOG=1's
#                  "engine CPU"), summed over one run of the sample's jobs: BOOTS x REPS values
#                  per mode, of which the table gives the smallest and the first quartile (host
#                  noise only ever adds time, and on a shared VM it adds a lot: whole boots run
#                  10-30 % slow)
#   overhead       with / without, of the minimum and of the first quartile; the last row is
#                  their geometric mean over the samples
#   boots          boots used without / with --stats: a boot whose runs' median is above SLOW
#                  (default 1.4) x the fastest boot's of the sample (either side) is left out.
#                  On the 2-CPU VM of bench/RESULTS.md whole boots sometimes ran 1.7-1.9 x slow
#                  (vecadd 2M: 31 ms per run in one boot, 54 in the next), even pinned; a
#                  minimum over such boots compares the host's speeds, not --stats.  An
#                  overhead above 40 % would show as no boot left with --stats ("-").
#   status         PASS when every run of the sample passed its own check in both modes and
#                  --stats counted as many thread instructions as the engine ran
#                  (STATS-MISMATCH otherwise)
#
# usage: bench/stats-overhead.sh [--gpu MODEL] [--malibu PATH] [--backends "jit interp"]
#                                [SAMPLE[:ARG,ARG]...]
#        (defaults: g71, build/malibu, --gpu-backend jit, the 13 samples)
# BOOTS=n (default 3) alternating boot pairs per sample, REPS=n (default 4) runs per boot,
# SLOW=x (default 1.4) the slow-boot limit.
# PIN=CPU runs malibu under `taskset -c CPU`: all its threads on one host CPU.  On the 2-CPU VM
# of bench/RESULTS.md, bfs's engine CPU per run was bimodal (56-58 or 85-94 ms for the same work)
# with the engine and vCPU threads on different CPUs, and steady (58-63 ms) pinned.
set -eu
MODEL=g71
MALIBU=build/malibu
BACKENDS=jit
while [ $# -gt 0 ]; do
    case $1 in
        --gpu) MODEL=$2; shift 2 ;;
        --malibu) MALIBU=$2; shift 2 ;;
        --backends) BACKENDS=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) break ;;
    esac
done
. "$(dirname "$0")/gpu_samples.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

exec python3 - "$MALIBU" "$IMG" "$MODEL" "$BACKENDS" "${BOOTS:-3}" "${REPS:-4}" "$WORK" "${PIN:-}" "${SLOW:-1.4}" $SAMPLES <<'EOF'
import json, math, os, re, statistics, subprocess, sys, time

malibu, img, model, backends, boots, reps, work, pin, slow = sys.argv[1:10]
samples = sys.argv[10:]
slow = float(slow)
backends, boots, reps = backends.split(), int(boots), int(reps)
prefix = ["taskset", "-c", pin] if pin else []


def boot(spec, backend, with_stats, tag):
    """One boot running the sample reps times: per run, its jobs' engine CPU ms summed; passes;
    the --stats report's thread instructions and the engine's lane-instructions."""
    name, _, args = spec.partition(":")
    one = f"RUSTICL_ENABLE=panfrost {name} -d Mali {args.replace(',', ' ')}"
    cmd = "RUSTICL_ENABLE=panfrost clinfo -l >/dev/null; " + "; ".join([one] * reps)
    stats, errlog = os.path.join(work, tag + ".json"), os.path.join(work, tag + ".stderr")
    with open(errlog, "w") as err:
        out = subprocess.run(prefix + [malibu, "--image", img, "--gpu", model, "--gpu-threads", "1",
                              "--gpu-backend", backend] + (["--stats", stats] if with_stats else [])
                             + ["--run", cmd], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=err, env=dict(os.environ, MALIBU_GPU_LOG="1")).stdout.decode(errors="replace")
    log = open(errlog, errors="replace").read()
    cpu = [float(v) for v in re.findall(r"^gpu: job .*, engine CPU ([0-9.]+) ms$", log, re.M)]
    lanes = sum(int(n) for n in re.findall(r"^gpu: job .*?, (\d+) lane-instructions,", log, re.M))
    passes = len(re.findall(rf"^{re.escape(name)}: PASS\r?$", out, re.M))
    per = len(cpu) // reps if cpu and len(cpu) % reps == 0 else 0
    runs = [sum(cpu[i * per:(i + 1) * per]) for i in range(reps)] if per else []
    r = {"runs": runs, "ok": passes == reps and bool(runs), "lanes": lanes, "stats_lanes": None}
    if with_stats:
        try:
            with open(stats) as f:
                r["stats_lanes"] = json.load(f)["gpu"]["totals"]["thread_instructions"]
        except (OSError, ValueError, KeyError):
            pass
    return r


def q1(v):
    return sorted(v)[len(v) // 4]


t0, load0 = time.time(), os.getloadavg()
rows = []
for spec in samples:
    for be in backends:
        offb, onb, status = [], [], "PASS"          # per boot: its runs
        for b in range(boots):
            a = boot(spec, be, False, f"{spec}-{be}-{b}-off")
            s = boot(spec, be, True, f"{spec}-{be}-{b}-on")
            offb += [a["runs"]] if a["runs"] else []
            onb += [s["runs"]] if s["runs"] else []
            if not (a["ok"] and s["ok"]):
                status = "FAIL"
            elif s["stats_lanes"] != s["lanes"] and status == "PASS":
                status = f"STATS-MISMATCH ({s['stats_lanes']} vs {s['lanes']})"
        fastest = min((statistics.median(r) for r in offb + onb), default=0)
        off = [v for r in offb if statistics.median(r) <= slow * fastest for v in r]
        on = [v for r in onb if statistics.median(r) <= slow * fastest for v in r]
        used = f"{len(off) // reps} / {len(on) // reps}"
        print(f"  {spec} --gpu-backend {be}: without --stats {' | '.join(' '.join(f'{v:.2f}' for v in r) for r in offb)}; "
              f"with {' | '.join(' '.join(f'{v:.2f}' for v in r) for r in onb)} (engine CPU ms per run, by boot)", flush=True)
        if not off or not on:
            rows.append((spec, be, None, None, None, None, used, status))
            continue
        rows.append((spec, be, min(off), q1(off), min(on), q1(on), used, status))

cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
                     stdout=subprocess.PIPE).stdout.decode().strip()
print(f"\n--stats overhead: --gpu {model}, --gpu-threads 1, {boots} boot pairs x {reps} runs"
      f"{f', pinned to CPU {pin}' if pin else ''}; host: {cpu}, "
      f"{os.cpu_count()} CPUs; load average at start {load0[0]:.2f}, at end {os.getloadavg()[0]:.2f}; "
      f"{time.time() - t0:.0f} s\n")
print("| sample | back end | engine CPU ms min / q1 | with --stats min / q1 | overhead min | overhead q1 | boots | status |")
print("|---|---|---|---|---|---|---|---|")


def pct(a, b):
    return "-" if a is None or not b else f"{100 * (a / b - 1):+.1f} %"


def geomean(pairs):
    pairs = [(a, b) for a, b in pairs if a is not None and b]
    return math.exp(sum(math.log(a / b) for a, b in pairs) / len(pairs)) if pairs else None


for spec, be, omin, oq1, smin, sq1, used, status in rows:
    f = (lambda v: "-" if v is None else f"{v:.2f}")
    print(f"| {spec} | {be} | {f(omin)} / {f(oq1)} | {f(smin)} / {f(sq1)} | {pct(smin, omin)} | {pct(sq1, oq1)} | {used} | {status} |")
for be in backends:
    mine = [r for r in rows if r[1] == be]
    gmin, gq1 = geomean([(r[4], r[2]) for r in mine]), geomean([(r[5], r[3]) for r in mine])
    print(f"| geometric mean | {be} | | | {pct(gmin, 1)} | {pct(gq1, 1)} | | |")
EOF

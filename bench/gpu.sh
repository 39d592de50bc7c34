#!/bin/sh
# GPU benchmark: each OpenCL sample of guest-images/apps on the emulated Mali (Debian's panfrost +
# Mesa's rusticl in the guest image), one boot per sample and host thread count (--gpu-threads 1
# and N), at the samples' default sizes unless given.  Per sample it prints:
#   kernel ms      guest-visible kernel time: the sample's own "time kernel=ALL ns=" line (guest
#                  clock around enqueue + clFinish: panfrost has no profiling timestamps), for
#                  1 and N threads.  With --gpu-time model (malibu's default) the guest clock
#                  advances by the GPU's modelled time while the vCPU waits on a job, so this
#                  is modelled GPU time plus the CPU side and barely depends on host threads;
#                  --gpu-time host makes it host time (long jobs then hit panfrost's timeout)
#   model ms       modelled GPU time of the jobs (MALIBU_GPU_LOG=1's "modelled")
#   Mlane          simulated lane-instructions (MALIBU_GPU_LOG=1's per-job lane-instructions,
#                  identical for every thread count and back end)
#   gpu CPU s      host CPU time of malibu's device threads (every thread but the vCPU's, from
#                  /proc/PID/task/*/schedstat) between the markers the guest prints around the
#                  sample: the GPU engine's threads plus idle device threads; the sample's OpenCL
#                  compile runs on the vCPU and is not counted
#   M lane/CPU-s   Mlane / gpu CPU s, per thread count
#   engine ms      sum of the engine's own job times in host time (MALIBU_GPU_LOG=1), and the
#                  host-thread speed-up 1 -> N
#   engine CPU ms  host CPU time of the threads running the jobs' workgroups (MALIBU_GPU_LOG=1's
#                  "engine CPU"): the shader cores alone, without idle device threads, and
#                  insensitive to other load on the host; M lane/engine-CPU-s = Mlane / it
#   --stats        one more boot per sample and back end (t=1) with --stats FILE.json: its
#                  thread_instructions must equal Mlane (else STATS-MISMATCH), and "stats
#                  overhead" is its engine CPU time over the uninstrumented run's (the other runs
#                  measure malibu as it runs without --stats)
#   back ends      each sample runs under every back end of --backends (default: interp jit,
#                  malibu's --gpu-backend); the last table compares their M lane/CPU-s and
#                  M lane/engine-CPU-s (t=1) and gives the geometric means of the jit / interp ratios
#   status         PASS, or what went wrong: FAIL (the sample's check), TIMEOUT (panfrost stopped
#                  a job after its 500 ms scheduler timeout: the figures of that run are partial)
#
# usage: bench/gpu.sh [--gpu MODEL] [--threads N] [--malibu PATH] [--gpu-time model|host]
#                     [--backends "interp jit"] [SAMPLE[:ARG,ARG]...]
#        (defaults: g71, N = nproc, build/malibu, the 13 samples)
# RUNS=n boots each configuration (and each --stats one) n times and keeps the smallest of each
# time measured (kernel, device-thread CPU, engine, engine CPU): host noise only ever adds time.
set -eu
MODEL=g71
THREADS=$(nproc)
MALIBU=build/malibu
GPU_TIME=model
BACKENDS="interp jit"
while [ $# -gt 0 ]; do
    case $1 in
        --gpu) MODEL=$2; shift 2 ;;
        --threads) THREADS=$2; shift 2 ;;
        --malibu) MALIBU=$2; shift 2 ;;
        --gpu-time) GPU_TIME=$2; shift 2 ;;
        --backends) BACKENDS=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) break ;;
    esac
done
. "$(dirname "$0")/gpu_samples.sh"
WORK=${WORK:-build/bench/gpu}
mkdir -p "$WORK"

python3 - "$MALIBU" "$IMG" "$MODEL" "$THREADS" "$WORK" "${RUNS:-1}" "$GPU_TIME" "$BACKENDS" $SAMPLES <<'EOF'
import json, math, os, re, subprocess, sys, time

malibu, img, model, nthreads, work, runs, gpu_time, backends = sys.argv[1:9]
backends = backends.split()
samples = sys.argv[9:]
counts = [1] if int(nthreads) <= 1 else [1, int(nthreads)]


def device_cpu_ns(pid):
    """On-CPU ns of every thread of pid except the main one (the vCPU)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        if int(tid) == pid:
            continue
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


def run(spec, threads, rep, backend, with_stats=False):
    name, _, args = spec.partition(":")
    args = args.replace(",", " ")
    tag = f"{name}-{backend}-t{threads}-r{rep}" + ("-stats" if with_stats else "")
    stats, errlog = os.path.join(work, tag + ".json"), os.path.join(work, tag + ".stderr")
    # clinfo first: rusticl and its libraries are loaded (and in the guest's page cache) before
    # the begin marker, so disk reads do not land in the measured window
    cmd = (f"RUSTICL_ENABLE=panfrost clinfo -l >/dev/null; echo BENCH_BEGIN; "
           f"RUSTICL_ENABLE=panfrost {name} -d Mali {args}; echo BENCH_END; "
           f"dmesg | grep -c 'sched timeout' | sed 's/^/BENCH_TIMEOUTS /'; sleep 1")
    env = dict(os.environ, MALIBU_GPU_LOG="1")
    with open(errlog, "w") as err:
        p = subprocess.Popen([malibu, "--image", img, "--gpu", model, "--gpu-threads",
                              str(threads), "--gpu-time", gpu_time, "--gpu-backend", backend]
                             + (["--stats", stats] if with_stats else []) + ["--run", cmd],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, env=env)
        marks, out = {}, []
        for raw in p.stdout:
            line = raw.decode(errors="replace").rstrip("\r\n")
            out.append(line)
            if line.strip() in ("BENCH_BEGIN", "BENCH_END"):
                marks[line.strip()] = device_cpu_ns(p.pid)
        p.wait()
    with open(os.path.join(work, tag + ".console"), "w") as f:
        f.write("\n".join(out) + "\n")
    text = "\n".join(out)
    r = {"status": "PASS" if re.search(rf"^{name}: PASS$", text, re.M) else "FAIL"}
    m = re.search(r"time kernel=ALL ns=(\d+)", text)
    r["kernel_ms"] = int(m.group(1)) / 1e6 if m else None
    m = re.search(r"^BENCH_TIMEOUTS (\d+)", text, re.M)
    if m and int(m.group(1)):
        r["status"] = "TIMEOUT"
    if "BENCH_BEGIN" in marks and "BENCH_END" in marks:
        r["cpu_s"] = (marks["BENCH_END"] - marks["BENCH_BEGIN"]) / 1e9
    log = open(errlog, errors="replace").read()
    jobs = re.findall(r"^gpu: job \S+ as\d+: status (0x[0-9a-f]+), .*?([0-9.]+) ms \(", log, re.M)
    r["engine_ms"] = sum(float(ms) for _, ms in jobs)
    r["engine_cpu_ms"] = sum(float(ms) for ms in re.findall(r"^gpu: job .*, engine CPU ([0-9.]+) ms$", log, re.M))
    if any(st != "0x1" for st, _ in jobs) and r["status"] == "PASS":
        r["status"] = "JOB-FAULT"
    r["lanes"] = sum(int(n) for n in re.findall(r"^gpu: job .*?, (\d+) lane-instructions,", log, re.M)) or None
    r["jobs"] = len(jobs)
    r["model_ms"] = sum(float(ms) for ms in re.findall(r"^gpu: job .*, modelled ([0-9.]+) ms,", log, re.M))
    if with_stats:
        try:
            with open(stats) as f:
                r["stats_lanes"] = json.load(f)["gpu"]["totals"]["thread_instructions"]
        except (OSError, ValueError, KeyError) as e:
            r["stats_lanes"] = None
            r["status"] += f" (stats: {e})"
    return r


def fastest(cur, r):
    """Repeated boots of one configuration: the smallest of each time measured (the host's noise
    only ever adds time), the counts of the first, and any run's failure."""
    if cur is None:
        return r
    out = dict(cur)
    for k in ("kernel_ms", "cpu_s", "engine_ms", "engine_cpu_ms"):
        vals = [v for v in (cur.get(k), r.get(k)) if v]
        out[k] = min(vals) if vals else None
    if cur["status"] == "PASS" and r["status"] != "PASS":
        out["status"] = r["status"]
    if "stats_lanes" in r and r.get("stats_lanes") != cur.get("stats_lanes"):
        out["stats_lanes"] = r.get("stats_lanes")
    return out


def fmt(x, f="{:.1f}"):
    return "-" if x is None else f.format(x)


rows = {be: [] for be in backends}
t_start = time.time()
load0 = os.getloadavg()
for spec in samples:
  for be in backends:
    best = {}
    for t in counts:
        for rep in range(int(runs)):
            best[t] = fastest(best.get(t), run(spec, t, rep, be))
        b = best[t]
        print(f"  {spec} --gpu-backend {be} --gpu-threads {t}: {b['status']}, kernel {fmt(b['kernel_ms'])} ms, "
              f"{fmt(b['lanes'] and b['lanes'] / 1e6)} M lane-instr, device-thread CPU "
              f"{fmt(b.get('cpu_s'), '{:.3f}')} s, engine {b['engine_ms']:.3f} ms, engine CPU "
              f"{b['engine_cpu_ms']:.3f} ms", flush=True)
    s1 = None
    for rep in range(int(runs)):
        s1 = fastest(s1, run(spec, 1, rep, be, with_stats=True))
    a = best[1]
    if s1.get("stats_lanes") != a["lanes"] and a["status"] == "PASS":
        a["status"] = f"STATS-MISMATCH ({s1.get('stats_lanes')} in --stats)"
    a["stats_overhead"] = (s1["engine_cpu_ms"] / a["engine_cpu_ms"] - 1) if a["engine_cpu_ms"] else None
    print(f"  {spec} --gpu-backend {be} --gpu-threads 1 --stats: {s1['status']}, {fmt(s1.get('stats_lanes'), '{}')} "
          f"thread_instructions, engine CPU {s1['engine_cpu_ms']:.3f} ms", flush=True)
    rows[be].append((spec, best))

N = counts[-1]
hdr = (f"| sample | compute jobs | M lane-instr | kernel ms t=1 | kernel ms t={N} | model ms | "
       f"gpu CPU s t=1 | M lane-instr/CPU-s t=1 | M lane-instr/CPU-s t={N} | engine ms t=1 | "
       f"engine ms t={N} | engine speed-up | engine CPU ms t=1 | M lane-instr/engine-CPU-s t=1 | "
       f"--stats overhead t=1 | status t=1 / t={N} |")
print()
cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo")
            if ln.startswith("model name")), "?")
rate = lambda r: (r["lanes"] / r["cpu_s"] / 1e6) if r.get("cpu_s") and r["lanes"] else None
erate = lambda r: (r["lanes"] / r["engine_cpu_ms"] / 1e3) if r.get("engine_cpu_ms") and r["lanes"] else None
print(f"GPU benchmark: --gpu {model}, --gpu-time {gpu_time}, --gpu-backend {' and '.join(backends)}, --gpu-threads 1 and {N}, fastest of {runs} boots; host: {cpu}, "
      f"{os.cpu_count()} CPUs; load average at start {load0[0]:.2f}, at end "
      f"{os.getloadavg()[0]:.2f}; {time.time() - t_start:.0f} s")
for be in backends:
  print()
  print(f"--gpu-backend {be}:")
  print()
  print(hdr)
  print("|" + "|".join(["---"] * (hdr.count("|") - 1)) + "|")
  for spec, best in rows[be]:
    a, b = best[1], best[N]
    lanes = a["lanes"]
    esp = (a["engine_ms"] / b["engine_ms"]) if b["engine_ms"] else None
    print(f"| {spec} | {fmt(a['jobs'], '{}')} | {fmt(lanes and lanes / 1e6)} | "
          f"{fmt(a['kernel_ms'])} | {fmt(b['kernel_ms'])} | {fmt(a.get('model_ms'), '{:.2f}')} | "
          f"{fmt(a.get('cpu_s'), '{:.3f}')} | {fmt(rate(a), '{:.0f}')} | {fmt(rate(b), '{:.0f}')} | "
          f"{a['engine_ms']:.1f} | {b['engine_ms']:.1f} | {fmt(esp, '{:.2f}')} | "
          f"{a['engine_cpu_ms']:.2f} | {fmt(erate(a), '{:.0f}')} | "
          f"{fmt(a.get('stats_overhead') and 100 * a['stats_overhead'], '{:+.0f} %')} | {a['status']} / {b['status']} |")
if len(backends) > 1:
    ref, new = backends[0], backends[-1]
    print()
    print(f"| sample | M lane-instr/CPU-s {ref} t=1 | M lane-instr/CPU-s {new} t=1 | {new} / {ref} | "
          f"M lane-instr/engine-CPU-s {ref} t=1 | M lane-instr/engine-CPU-s {new} t=1 | {new} / {ref} (engine) |")
    print("|---|---|---|---|---|---|---|")
    ratios, eratios = [], []
    for (spec, a), (_, b) in zip(rows[ref], rows[new]):
        ra, rb, ea, eb = rate(a[1]), rate(b[1]), erate(a[1]), erate(b[1])
        q = rb / ra if ra and rb else None
        eq = eb / ea if ea and eb else None
        if q:
            ratios.append(q)
        if eq:
            eratios.append(eq)
        print(f"| {spec} | {fmt(ra, '{:.0f}')} | {fmt(rb, '{:.0f}')} | {fmt(q, '{:.2f}')} | "
              f"{fmt(ea, '{:.0f}')} | {fmt(eb, '{:.0f}')} | {fmt(eq, '{:.2f}')} |")
    gm = lambda xs: "-" if not xs else f"{math.prod(xs) ** (1 / len(xs)):.2f}"
    print(f"| geometric mean | | | {gm(ratios)} | | | {gm(eratios)} |")

EOF

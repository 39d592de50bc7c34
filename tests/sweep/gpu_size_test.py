#!/usr/bin/env python3
"""gpu-size-test: --gpu MODEL,cores=N,mhz=M in the guest.  For three sizes of one G71 (MP1 at
500 MHz, MP4 at 500 MHz, MP4 at 1000 MHz), panfrost's probe line prints the configured core mask
(shader_present=0x...), rusticl reports that many compute units, the device tree's GPU clock is
the configured rate, and the modelled time of a compute-bound kernel (sgemm_naive 128, timed by
the GPU's profiling timestamps) scales with cores x clock: MP4 takes a quarter of MP1's time,
1000 MHz half of 500 MHz's.  Deterministic guest time (--clock icount --smp 1), so the ratios are
those of the model.

usage: gpu_size_test.py MALIBU IMAGE_DIR"""
import concurrent.futures
import re
import subprocess
import sys

SIZES = [(1, 500), (4, 500), (4, 1000)]
# The kernel's time per point of cores x MHz: measured ratios 4.0000 and 2.0000 (7039650,
# 1759910 and 879950 ns); the tolerance covers a fixed launch cost the profiling window includes.
RATIO_TOL = 0.02
GUEST = ("echo clk=$(od -An -tx1 /proc/device-tree/gpu-clk/clock-frequency | tr -d ' '); "
         "dmesg | grep shader_present; clinfo | grep -i 'max compute units' | head -1; sgemm_naive 128")


def run(malibu, image, cores, mhz):
    cmd = [malibu, "-m", "512M", "--smp", "1", "--clock", "icount", "--image", image, "--display", "none",
           "--gpu", "g71,cores=%d,mhz=%d" % (cores, mhz), "--run", GUEST]
    out = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, errors="replace", timeout=600).stdout.replace("\r", "")
    def find(pat, what):
        m = re.search(pat, out)
        if not m:
            sys.exit("gpu-size-test: cores=%d mhz=%d: no %s in the guest's output:\n%s" % (cores, mhz, what, out[-3000:]))
        return m.group(1)
    return {"shader_present": int(find(r"shader_present=(0x[0-9a-f]+)", "panfrost probe line"), 16),
            "cus": int(find(r"Max compute units\s+(\d+)", "clinfo compute units")),
            "clk": int(find(r"clk=([0-9a-f]{8})", "DT clock"), 16),
            "ns": int(find(r"sgemm_naive: time kernel=sgemm_naive launches=1 ns=(\d+)", "kernel time")),
            "pass": "sgemm_naive: PASS" in out}


def main():
    malibu, image = sys.argv[1:3]
    with concurrent.futures.ThreadPoolExecutor(len(SIZES)) as ex:
        res = dict(zip(SIZES, ex.map(lambda s: run(malibu, image, *s), SIZES)))
    fails = []
    for (cores, mhz), r in res.items():
        print("gpu-size-test: g71 cores=%d mhz=%d: shader_present=0x%x, %d compute units, DT clock %d Hz, "
              "sgemm_naive %d ns%s" % (cores, mhz, r["shader_present"], r["cus"], r["clk"], r["ns"],
                                       "" if r["pass"] else " (FAILED)"))
        if r["shader_present"] != (1 << cores) - 1:
            fails.append("cores=%d: shader_present 0x%x" % (cores, r["shader_present"]))
        if r["cus"] != cores:
            fails.append("cores=%d: %d compute units" % (cores, r["cus"]))
        if r["clk"] != mhz * 1000000:
            fails.append("mhz=%d: DT clock %d" % (mhz, r["clk"]))
        if not r["pass"]:
            fails.append("cores=%d mhz=%d: sgemm_naive failed" % (cores, mhz))
    for a, b, want in (((1, 500), (4, 500), 4.0), ((4, 500), (4, 1000), 2.0)):
        ratio = res[a]["ns"] / res[b]["ns"]
        print("gpu-size-test: time %s / %s = %.4f (expected %.1f)" % (a, b, ratio, want))
        if abs(ratio / want - 1) > RATIO_TOL:
            fails.append("time ratio %s / %s = %.4f, expected %.1f" % (a, b, ratio, want))
    if fails:
        sys.exit("gpu-size-test: FAIL: " + "; ".join(fails))
    print("gpu-size-test: PASS")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""checkpoint-test, the refusals: a checkpoint loaded onto the wrong board, truncated, or with one
byte flipped, or onto another --cpu, is refused before anything runs, with a message naming the problem, and
malibu-checkpoint lists the file and finds no difference between it and a copy (issue 37;
docs/checkpoint.md "What a loader refuses").

usage: refuse_test.py MALIBU MALIBU_CHECKPOINT IMAGE_DIR CHECKPOINT WORK_DIR [SHARE]
       CHECKPOINT: a G52 board of -m 2G saved by checkpoint_test.py (its gpu.ckpt), with --share
       SHARE; each case differs from that board in the one thing it names"""
import os
import shutil
import subprocess
import sys
import time

# A refusal comes before the guest runs: a few seconds (building the board, reading the file).
TIMEOUT = 120


def main():
    malibu, tool, image, ck, work = sys.argv[1:6]
    share = sys.argv[6] if len(sys.argv) > 6 else None
    os.makedirs(work, exist_ok=True)
    base = ["-m", "2G", "--image", image, "--display", "none", "--run", "echo RAN"] + (["--share", share] if share else [])
    size = os.path.getsize(ck)
    trunc = os.path.join(work, "truncated.ck")
    with open(ck, "rb") as f, open(trunc, "wb") as g:
        g.write(f.read(size // 2))
    flip = os.path.join(work, "flipped.ck")
    shutil.copyfile(ck, flip)
    with open(flip, "r+b") as f:          # a byte in the middle of RAM
        f.seek(size // 2)
        b = f.read(1)
        f.seek(size // 2)
        f.write(bytes([b[0] ^ 0x10]))
    cases = [
        ("another GPU model", ck, ["--gpu", "g71"], "the checkpoint was saved with --gpu g52; this board has --gpu g71"),
        ("other RAM size", ck, ["--gpu", "g52", "-m", "1G"], "the checkpoint was saved with -m 2048M; this board has -m 1024M"),
        ("another CPU model", ck, ["--gpu", "g52", "--cpu", "a57"],
         "field 'cpu_model': saved with --cpu max, this run has --cpu a57"),
        ("truncated", trunc, ["--gpu", "g52"], "truncated: section 'ram' 1 needs"),
        ("one byte flipped", flip, ["--gpu", "g52"], "damaged: section 'ram' 1 fails its CRC"),
    ]
    failed = []
    for what, path, extra, want in cases:
        t0 = time.time()
        p = subprocess.run([malibu, *base, *extra, "--checkpoint-load", path], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
        line = next((l for l in err.splitlines() if "checkpoint" in l or "truncated" in l or "damaged" in l),
                    err.strip().splitlines()[-1] if err.strip() else "")
        ok = p.returncode != 0 and want in err and "RAN" not in out
        print("== %s: exit %d in %.1f s: %s%s" % (what, p.returncode, time.time() - t0, line.strip(),
                                                 "" if ok else "   <- expected a refusal saying: " + want))
        if not ok:
            failed.append(what)
    # the tool reads the same file the same way
    p = subprocess.run([tool, "info", ck], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    info = p.stdout.decode()
    if p.returncode != 0 or "ram" not in info or "cpu" not in info or "mali" not in info:
        failed.append("malibu-checkpoint info")
        print(info, p.stderr.decode())
    else:
        print("== malibu-checkpoint info: %s" % info.splitlines()[0])
    p = subprocess.run([tool, "info", flip], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 1 or "fails its CRC" not in p.stderr.decode():
        failed.append("malibu-checkpoint info on the flipped file")
    copy = os.path.join(work, "copy.ck")
    shutil.copyfile(ck, copy)
    p = subprocess.run([tool, "diff", ck, copy], stdout=subprocess.PIPE)
    if p.returncode != 0:
        failed.append("malibu-checkpoint diff of a copy")
    for f in (trunc, flip, copy):
        os.unlink(f)
    if failed:
        sys.exit("checkpoint-test (refusals): FAIL: " + ", ".join(failed))
    print("checkpoint-test (refusals): PASS")


if __name__ == "__main__":
    main()

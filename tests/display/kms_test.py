#!/usr/bin/env python3
"""make display-kms-test: the eLCDIF as a KMS device, headless (--display none --screenshot).

    kms_test.py MALIBU WORKDIR IMAGE_DIR

Two boots of IMAGE_DIR with the default display controller (the eLCDIF beside the HDLCD):
  1. the handover and modetest: the kernel log has mxsfb bound to the lcdif node and fbcon on its
     frame buffer, /dev/dri has a card driven by mxsfb, no error-level kernel line (dmesg -l
     err..emerg, the raw log's <0>..<3>) at all; `modetest -M mxsfb-drm -c` lists a connected DPI connector with the
     panel's 1024x768 mode at 60 Hz, `modetest -s CONNECTOR:1024x768` sets it and, while it holds
     the screen, the screenshot shows its SMPTE colour bars (the centre of each of the 7 top bars);
  2. the dumb-buffer pattern: `kms_pattern -n 60` (guest-images/apps/kms_pattern.c) sets the CRTC
     to the inverted pattern, page-flips 60 times between two dumb buffers with flip events, ending
     on the pattern, and holds it; every pixel of the screenshot must equal the formula, and the
     flip events come no faster than the panel's refresh (60 Hz: 16.7 ms apart).
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import display_test as dt  # noqa: E402  (read_png, pattern, fail, boot)

# modetest's SMPTE pattern: the top bars, left to right (libdrm tests/util/pattern.c)
SMPTE_TOP = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0), (192, 0, 192),
             (192, 0, 0), (0, 0, 192)]
REFRESH_MS = 1000 / 60.0


def check_modetest(work, malibu, image):
    png = os.path.join(work, "kms-modetest.png")
    # modetest -s keeps the mode until a key comes on its stdin: sleep's pipe holds it
    cmd = ("dmesg | grep -E 'mxsfb|panel-simple|simple-framebuffer|Console'; echo '== errors';"
           " dmesg -r | grep '^<[0-3]>'; echo '== drivers';"
           " for c in /sys/class/drm/card?; do echo \"$c $(basename $(readlink $c/device/driver))\"; done;"
           " echo '== modetest -c'; modetest -M mxsfb-drm -c > /tmp/c.txt; echo \"status $?\"; cat /tmp/c.txt;"
           " id=$(awk '/^[0-9]/ && $3==\"connected\" {print $1; exit}' /tmp/c.txt);"
           " echo '== modetest -s'; sleep 1 | modetest -M mxsfb-drm -s $id:1024x768 2>&1; echo \"status $?\";"
           " (sleep 60 | modetest -M mxsfb-drm -s $id:1024x768 > /dev/null 2>&1 &); sleep 3")
    rc, out, err = dt.boot(malibu, image, png, cmd)
    what = "modetest"
    if rc != 0 or not os.path.exists(png):
        dt.fail("%s: exit status %d: %s %s" % (what, rc, out[-1500:], err[-500:]))
        return
    log, _, rest = out.partition("== errors")
    errors, _, rest = rest.partition("== drivers")
    drivers, _, rest = rest.partition("== modetest -c")
    conn, _, setmode = rest.partition("== modetest -s")
    for need in ("[drm] Initialized mxsfb-drm", "7ff40000.lcdif", "mxsfb-drmdrmfb frame buffer device",
                 "switching to colour frame buffer device 128x48"):
        if need not in log:
            dt.fail("%s: no '%s' in the kernel log" % (what, need))
    for line in errors.strip().splitlines():
        dt.fail("%s: error-level kernel line: %s" % (what, line.strip()))
    if not re.search(r"card\d+ mxsfb", drivers):
        dt.fail("%s: no /sys/class/drm/card* driven by mxsfb: %s" % (what, drivers.strip()))
    m = re.search(r"^(\d+)\s+\d+\s+connected\s+(\S+)", conn, re.M)
    if "status 0" not in conn or not m or not m.group(2).startswith("DPI"):
        dt.fail("%s: modetest -c lists no connected DPI connector:\n%s" % (what, conn[-1500:]))
    if not re.search(r"#0 1024x768 60\.\d+ 1024 1048 1184 1344 768 771 777 806 65000", conn):
        dt.fail("%s: modetest -c does not list the panel's 1024x768 mode (65 MHz)" % what)
    if "status 0" not in setmode or \
            not re.search(r"setting mode 1024x768-60\.\d+Hz on connectors %s, crtc \d+" % (m.group(1) if m else "-"), setmode):
        dt.fail("%s: modetest -s did not set the mode:\n%s" % (what, setmode[-800:]))
    w, h, rows = dt.read_png(png)
    bad = []
    for i, want in enumerate(SMPTE_TOP):
        x = (2 * i + 1) * w // 14
        got = tuple(rows[h // 4][3 * x:3 * x + 3])
        if got != want:
            bad.append("bar %d at (%d,%d) is %s, expected %s" % (i, x, h // 4, got, want))
    if (w, h) != (dt.W, dt.H) or bad:
        dt.fail("%s: the screenshot (%dx%d) does not show modetest's colour bars: %s" % (what, w, h, "; ".join(bad)))
    if not dt.failures:
        print("display-kms-test: modetest: mxsfb bound, connector %s, mode set, 7 colour bars on screen"
              % m.group(1))


def check_pattern(work, malibu, image):
    png = os.path.join(work, "kms-pattern.png")
    cmd = ("(kms_pattern -n 60 -w 60 > /tmp/k.txt 2>&1 &); for i in $(seq 100); do"
           " grep -q 'kms_pattern' /tmp/k.txt && break; sleep 0.2; done; cat /tmp/k.txt")
    before = len(dt.failures)
    rc, out, err = dt.boot(malibu, image, png, cmd)
    what = "kms_pattern"
    m = re.search(r"kms_pattern: 1024x768@60 .* (\d+) flips, ([0-9.]+) ms between flip events", out)
    if rc != 0 or not os.path.exists(png) or not m:
        dt.fail("%s: exit status %d: %s %s" % (what, rc, out[-1500:], err[-500:]))
        return
    interval = float(m.group(2))
    # no faster than the refresh (one frame, less the host timer's jitter), and they do come
    if not REFRESH_MS * 0.9 <= interval <= REFRESH_MS * 12:
        dt.fail("%s: %.2f ms between flip events, the panel refreshes every %.2f ms" % (what, interval, REFRESH_MS))
    dt.check_pattern(what, png)
    if len(dt.failures) == before:
        print("display-kms-test: kms_pattern: %s flips, %.2f ms apart (refresh %.2f ms)"
              % (m.group(1), interval, REFRESH_MS))


def main():
    malibu, work, image = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    check_modetest(work, malibu, image)
    check_pattern(work, malibu, image)
    if dt.failures:
        print("display-kms-test: %d failure(s)" % len(dt.failures))
        return 1
    print("display-kms-test: PASS in %.0f s" % (time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""malibu-report's timeline in a browser: loads DIR/index.html in headless Chromium and checks
what it shows.

  * by DOM (chromium --dump-dom): the page holds a timeline SVG per clock view of the timeline
    file, and each kernel name of the --stats report is text inside every one of them;
  * by screenshot (chromium --screenshot): the picture is not blank: many colours, and more
    pixels of the first kernel's colour and of the vCPU-running colour than their legend
    squares have (12 x 12 each, twice: two views): the job and vCPU lanes are drawn.

Usage: check_timeline_html.py DIR/index.html --stats STATS.json --png OUT.png [--chromium PATH]"""
import argparse
import html.parser
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "display"))
from display_test import read_png  # noqa: E402  (the tests' PNG reader)

# tools/malibu-report.py TL_KERNEL_COLOURS[0..1]: the first two kernels' colours (a short job
# may be one SVG pixel wide, which the screenshot's scaling can drop: any of them drawn will do)
KERNEL_RGBS = ((0x1f, 0x77, 0xb4), (0xd6, 0x27, 0x28))
RUNNING_RGB = (0x2c, 0xa0, 0x2c)    # TL_STATE_COLOURS["running"]
LEGEND_PIXELS = 2 * 12 * 12         # the colour's legend squares in the two views
MIN_COLOURS = 8


class TimelineText(html.parser.HTMLParser):
    """The text inside each <svg class="timeline">"""

    def __init__(self):
        super().__init__()
        self.svgs, self.depth = [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "svg" and ("class", "timeline") in attrs:
            self.svgs.append([])
            self.depth = 1
        elif self.depth and tag == "svg":
            self.depth += 1

    def handle_endtag(self, tag):
        if self.depth and tag == "svg":
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.svgs[-1].append(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page")
    ap.add_argument("--stats", required=True)
    ap.add_argument("--png", required=True)
    ap.add_argument("--views", type=int, default=2, help="timeline SVGs expected (clock views)")
    ap.add_argument("--chromium", default="chromium")
    a = ap.parse_args()
    fails = []
    exe = shutil.which(a.chromium)
    if not exe:
        print("check_timeline_html: FAIL: %s not installed (Debian package chromium, tools/host-packages)" % a.chromium)
        return 1
    url = "file://" + os.path.abspath(a.page)
    flags = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
             "--user-data-dir=" + os.path.join(os.path.dirname(os.path.abspath(a.png)), "chromium-profile")]
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    if dom.returncode:
        print("check_timeline_html: FAIL: chromium --dump-dom exited %d: %s" % (dom.returncode, dom.stderr[-500:]))
        return 1
    p = TimelineText()
    p.feed(dom.stdout)
    with open(a.stats) as f:
        kernels = [k["name"] for k in json.load(f)["gpu"]["kernels"]]
    if not kernels:
        fails.append("the --stats report lists no kernel")
    if len(p.svgs) != a.views:
        fails.append("the DOM has %d timeline SVGs, expected %d" % (len(p.svgs), a.views))
    for i, texts in enumerate(p.svgs):
        text = "\n".join(texts)
        for k in kernels:
            if k not in text:
                fails.append("timeline SVG %d: kernel name %r not in its text" % (i, k))
    if os.path.exists(a.png):
        os.remove(a.png)
    shot = subprocess.run(flags + ["--window-size=1200,1000", "--screenshot=" + os.path.abspath(a.png), url],
                          capture_output=True, text=True, timeout=120)
    if shot.returncode or not os.path.exists(a.png):
        fails.append("chromium --screenshot exited %d, no %s: %s" % (shot.returncode, a.png, shot.stderr[-500:]))
    else:
        w, h, rows = read_png(a.png)
        bpp = 3
        colours, running_px = set(), 0
        kernel_rgbs = [bytes(c) for c in KERNEL_RGBS]
        per_kernel = [0] * len(kernel_rgbs)
        for row in rows:
            for x in range(0, len(row), bpp):
                rgb = row[x:x + 3]
                colours.add(rgb)
                if rgb in kernel_rgbs:
                    per_kernel[kernel_rgbs.index(rgb)] += 1
                running_px += rgb == bytes(RUNNING_RGB)
        kernel_px = max(per_kernel)
        print("check_timeline_html: screenshot %dx%d: %d colours, %d kernel-colour pixels, %d vCPU-running pixels"
              % (w, h, len(colours), kernel_px, running_px))
        if len(colours) < MIN_COLOURS:
            fails.append("screenshot has %d colours (< %d): blank" % (len(colours), MIN_COLOURS))
        if kernel_px <= LEGEND_PIXELS:
            fails.append("screenshot has at most %d pixels of the first kernels' colours, no more than their "
                         "legend squares (%d): no job drawn" % (kernel_px, LEGEND_PIXELS))
        if running_px <= LEGEND_PIXELS:
            fails.append("screenshot has %d vCPU-running pixels, no more than the legend squares (%d): no vCPU "
                         "lane drawn" % (running_px, LEGEND_PIXELS))
    for f in fails:
        print("check_timeline_html: FAIL: " + f)
    if not fails:
        print("check_timeline_html: ok: %d timeline SVGs with the kernel names %s" % (len(p.svgs), ", ".join(kernels)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

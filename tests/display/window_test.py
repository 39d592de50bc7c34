#!/usr/bin/env python3
"""make display-window-test: the SDL window of --display sdl under Xvfb, and typing into it.

    window_test.py MALIBU IMAGE_DIR WORKDIR

Starts Xvfb on a free display, boots IMAGE_DIR with --display sdl and no --run (the serial shell
stays on a pipe that is kept open; the init starts a shell on the screen's tty1), then with
xdotool types into the window, so each key goes SDL -> virtio-input keyboard -> the guest's
console:
  1. `clear; printf '\\033[?25lTYPED OK\\n'`: the screen's first line must then be the character
     cells of "TYPED OK" (tests/display/display_test.py's check);
  2. Ctrl+Alt+S writes malibu's screenshot; `xwd -id WINDOW` takes the window's contents from
     the X server: they must equal the screenshot pixel for pixel (the window shows the frame 1:1);
  3. `busybox devmem 0x1c0f0000 32 42`: the guest writes the exit device, malibu exits with 42.
Needs Xvfb, xwd (x11-apps) and xdotool (tools/host-packages).
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import display_test  # noqa: E402  (PNG reader, text-cell check)

failures = []


def fail(msg):
    print("display-window-test: FAIL: " + msg, flush=True)
    failures.append(msg)


def read_xwd(path):
    """(width, height, rows of RGB bytes) of a ZPixmap XWD file with 4-byte pixels."""
    data = open(path, "rb").read()
    h = struct.unpack(">25I", data[:100])
    header_size, version, fmt, depth, w, hgt = h[:6]
    byte_order, bpp, bpl = h[7], h[11], h[12]
    masks, ncolors = h[14:17], h[19]
    # Xvfb's depth-24 screens store 4 bytes per pixel whatever bits_per_pixel says
    assert version == 7 and fmt == 2 and bpp in (24, 32) and bpl >= 4 * w, "unexpected XWD format"
    off = header_size + 12 * ncolors
    shifts = [m.bit_length() - 8 for m in masks]
    rows = []
    for y in range(hgt):
        line = data[off + y * bpl:off + y * bpl + 4 * w]
        vals = struct.unpack(("<" if byte_order == 0 else ">") + "%dI" % w, line)
        rows.append(bytes(b for v in vals for b in ((v & masks[0]) >> shifts[0],
                                                     (v & masks[1]) >> shifts[1],
                                                     (v & masks[2]) >> shifts[2])))
    return w, hgt, rows


def xdo(env, *args):
    return subprocess.run(["xdotool"] + list(args), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60).stdout.decode()


def type_line(env, win, text):
    xdo(env, "type", "--window", win, "--delay", "40", text)
    xdo(env, "key", "--window", win, "Return")


def main():
    malibu, image, work = sys.argv[1:4]
    for tool in ("Xvfb", "xwd", "xdotool"):
        if not shutil.which(tool):
            print("display-window-test: FAIL: %s not installed (tools/host-packages)" % tool)
            return 1
    os.makedirs(work, exist_ok=True)
    xvfb, env = display_test.start_xvfb()
    png = os.path.join(work, "window-screenshot.png")
    xwd = os.path.join(work, "window.xwd")
    for f in (png, xwd):
        if os.path.exists(f):
            os.unlink(f)
    guest = None
    try:
        out_path = os.path.join(work, "window-console.txt")
        out = open(out_path, "wb")
        guest = subprocess.Popen([malibu, "--image", image, "--screenshot", png], env=env,
                                 stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 300
        while b"interactive shell" not in open(out_path, "rb").read():
            if guest.poll() is not None or time.monotonic() > deadline:
                fail("no interactive shell (status %r): %s" % (guest.poll(), open(out_path, "rb").read()[-1500:]))
                return 1
            time.sleep(0.5)
        win = ""
        while not win and time.monotonic() < deadline:
            win = xdo(env, "search", "--name", "^malibu$").split("\n")[0].strip()
            time.sleep(0.2)
        geo = xdo(env, "getwindowgeometry", win)
        m = re.search(r"Geometry: (\d+)x(\d+)", geo)
        if not m:
            fail("no window geometry: %r" % geo)
            return 1
        print("display-window-test: window %s, %sx%s" % ((win,) + m.groups()), flush=True)
        time.sleep(3)  # the tty1 shell's prompt
        type_line(env, win, "clear; printf '\\033[?25l%s\\n'" % "TYPED OK")
        time.sleep(3)
        xdo(env, "key", "--window", win, "ctrl+alt+s")
        time.sleep(2)
        subprocess.run(["xwd", "-id", win, "-silent", "-out", xwd], env=env, check=True, timeout=60)
        if not os.path.exists(png):
            fail("Ctrl+Alt+S wrote no screenshot")
            return 1
        display_test.TEXT = "TYPED OK"
        display_test.failures = failures
        w, h, rows = display_test.read_png(png)
        # the first line only: the shell's next prompt follows on line 2
        text_rows = [r for r in rows[:16]] + [bytes(3 * w)] * (h - 16)
        tmp = os.path.join(work, "window-line1.png")
        write_png(tmp, w, h, text_rows)
        display_test.check_text("typed line", tmp)
        xw, xh, xrows = read_xwd(xwd)
        if (xw, xh) != (w, h):
            fail("window is %dx%d, frame %dx%d" % (xw, xh, w, h))
        else:
            bad = sum(1 for y in range(h) if xrows[y] != rows[y])
            if bad:
                fail("%d of %d window lines differ from the screenshot" % (bad, h))
            else:
                print("display-window-test: the window shows the screenshot's %dx%d pixels exactly" % (w, h))
        type_line(env, win, "busybox devmem 0x1c0f0000 32 42")
        try:
            rc = guest.wait(timeout=120)
        except subprocess.TimeoutExpired:
            rc = None
        if rc != 42:
            fail("typed exit-device write: malibu exit status %r, expected 42" % rc)
        else:
            print("display-window-test: typed command ran in the guest (exit status 42)")
    finally:
        if guest and guest.poll() is None:
            guest.kill()
            guest.wait()
        xvfb.terminate()
        xvfb.wait()
    if failures:
        print("display-window-test: %d failure(s)" % len(failures))
        return 1
    print("display-window-test: PASS")
    return 0


def write_png(path, w, h, rows):
    import zlib
    raw = b"".join(b"\0" + r for r in rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    sys.exit(main())

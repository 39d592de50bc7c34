#!/usr/bin/env python3
"""make display-test: the board's screen, headless (--display none --screenshot FILE.png).

    display_test.py MALIBU WORKDIR IMAGE_DIR...

For each guest image: boots it with the display and --screenshot, then checks
  1. the probe log: simplefb registered the framebuffer the board handed over (1024x768,
     x8r8g8b8), fbcon took it over (128x48 text console), no framebuffer/HDLCD error line;
  2. the console text: the guest clears tty1, hides the cursor and prints a known line; in the
     PNG, the 8x16 character cells of that line are lit exactly where the line has characters,
     with fbcon's light grey, equal characters have identical glyphs and different ones differ,
     and the rest of the screen is black;
  3. an exact test pattern: `fb_pattern` (guest-images/apps/fb_pattern.c) writes a known image
     through the framebuffer device; every pixel of the screenshot must equal the formula.
The PNG is decoded here with zlib (no image library).
"""
import os
import select
import struct
import subprocess
import sys
import time
import zlib

TIMEOUT = float(os.environ.get("DISPLAY_TEST_TIMEOUT", "600"))
W, H = 1024, 768
failures = []


def fail(msg):
    print("display-test: FAIL: " + msg, flush=True)
    failures.append(msg)


def read_png(path):
    """(width, height, rows of (r, g, b) bytes) of an 8-bit RGB or RGBA (alpha dropped),
    non-interlaced PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            raise ValueError("bad CRC in " + kind.decode())
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG format"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = 1 + bpp * w
    rows = []
    prev = bytearray(bpp * w)
    for y in range(h):
        f, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
        for i in range(len(line)):  # undo the row filters (malibu writes 0; any decoder must)
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(v for i, v in enumerate(line) if i % 4 != 3))
        prev = line
    return w, h, rows


def start_xvfb():
    """An Xvfb on a free display (1280x1024x24): (its process, an environment with DISPLAY set
    and WAYLAND_DISPLAY removed, so SDL opens an X11 window there), once it accepts clients.
    Xvfb picks the display itself (-displayfd) and writes its number once it listens, so suites
    running at once each get their own."""
    rfd, wfd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-screen", "0", "1280x1024x24",
                             "-nolisten", "tcp"], pass_fds=(wfd,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(wfd)
    got = b""
    deadline = time.time() + 10    # up to 10 s for it to listen
    while not got.endswith(b"\n") and time.time() < deadline:
        ready, _, _ = select.select([rfd], [], [], max(0.0, deadline - time.time()))
        if not ready:
            break
        chunk = os.read(rfd, 16)
        if not chunk:
            break
        got += chunk
    os.close(rfd)
    if not got.strip().isdigit():
        xvfb.kill()
        sys.exit("display: FAIL: Xvfb -displayfd reported no display number within 10 s (got %r)" % got)
    env = dict(os.environ, DISPLAY=":%d" % int(got))
    env.pop("WAYLAND_DISPLAY", None)
    return xvfb, env


def boot(malibu, image, png, cmd):
    argv = [malibu, "--image", image, "--display", "none", "--screenshot", png, "--run", cmd]
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=TIMEOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


TEXT = "MALIBU SCREEN TEST 0123456789 ABBA"
GREY = (0xAA, 0xAA, 0xAA)  # fbcon's default foreground (VGA light grey)


def check_log(what, out):
    need = ["simple-framebuffer", "format=x8r8g8b8, mode=1024x768x32",
            "fb0: simplefb registered!", "switching to colour frame buffer device 128x48"]
    for n in need:
        if n not in out:
            fail("%s: no '%s' in the kernel log" % (what, n))
    for line in out.splitlines():
        low = line.lower()
        if ("framebuffer" in low or "hdlcd" in low or "simplefb" in low) and \
                ("error" in low or "fail" in low):
            fail("%s: kernel log: %s" % (what, line.strip()))


def check_text(what, png):
    before = len(failures)
    w, h, rows = read_png(png)
    if (w, h) != (W, H):
        fail("%s: screenshot is %dx%d, expected %dx%d" % (what, w, h, W, H))
        return
    glyphs = {}
    for col in range(W // 8):
        ch = TEXT[col] if col < len(TEXT) else " "
        cell = []
        for y in range(16):
            for x in range(col * 8, col * 8 + 8):
                px = tuple(rows[y][3 * x:3 * x + 3])
                if px not in (GREY, (0, 0, 0)):
                    fail("%s: pixel (%d,%d) is %02x%02x%02x, neither black nor fbcon grey"
                         % ((what, x, y) + px))
                    return
                cell.append(px == GREY)
        lit = sum(cell)
        if (ch == " ") != (lit == 0):
            fail("%s: character cell %d ('%s') has %d lit pixels" % (what, col, ch, lit))
            return
        if ch in glyphs and glyphs[ch] != cell:
            fail("%s: the two '%s' glyphs differ" % (what, ch))
        glyphs[ch] = cell
    shapes = {tuple(v) for k, v in glyphs.items() if k != " "}
    if len(shapes) != len(set(TEXT) - {" "}):
        fail("%s: different characters drawn with the same glyph" % what)
    for y in range(16, H):
        if rows[y].count(0) != 3 * W:
            fail("%s: screen line %d is not black below the text" % (what, y))
            return
    if len(failures) == before:
        print("display-test: %s: %d character cells match '%s', rest black" % (what, W // 8, TEXT))


def pattern(x, y):
    return ((x * 255 // (W - 1)) << 16) | ((y * 255 // (H - 1)) << 8) | ((x ^ y) & 0xFF)


def check_pattern(what, png):
    w, h, rows = read_png(png)
    bad = 0
    for y in range(h):
        row = rows[y]
        for x in range(w):
            v = row[3 * x] << 16 | row[3 * x + 1] << 8 | row[3 * x + 2]
            if v != pattern(x, y):
                if bad < 3:
                    fail("%s: pixel (%d,%d) is %06x, pattern says %06x" % (what, x, y, v, pattern(x, y)))
                bad += 1
    if (w, h) != (W, H) or bad:
        fail("%s: %d of %d pixels differ from the pattern" % (what, bad, w * h))
    else:
        print("display-test: %s: all %d pixels equal the pattern" % (what, w * h))


def main():
    malibu, work, images = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(work, exist_ok=True)
    for image in images:
        tag = os.path.basename(os.path.normpath(image))
        png = os.path.join(work, tag + "-text.png")
        cmd = ("dmesg; printf '\\033[H\\033[2J\\033[?25l%s' > /dev/tty1; sleep 1" % TEXT)
        rc, out, err = boot(malibu, image, png, cmd)
        what = tag + " console"
        if rc != 0 or not os.path.exists(png):
            fail("%s: exit status %d, screenshot %s" % (what, rc, "written" if os.path.exists(png) else "missing"))
            print(out[-2000:], err[-2000:])
            continue
        check_log(what, out)
        check_text(what, png)
        png = os.path.join(work, tag + "-pattern.png")
        rc, out, err = boot(malibu, image, png, "printf '\\033[?25l' > /dev/tty1; fb_pattern /dev/fb0")
        what = tag + " fb_pattern"
        if rc != 0 or not os.path.exists(png):
            fail("%s: exit status %d: %s %s" % (what, rc, out[-500:], err[-500:]))
            continue
        check_pattern(what, png)
    if failures:
        print("display-test: %d failure(s)" % len(failures))
        return 1
    print("display-test: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Our sample scene (guest-images/apps/gles_scene) on the emulated Mali against llvmpipe in the
same guest: the images tests/piglit/gles_scene_guest.sh put on a boot's console.

    gles_scene_compare.py --run MODEL=CONSOLE... [--out DIR]

Per boot: the panfrost image must equal the llvmpipe image on every pixel of the mask (the
pixels GL's rules make exact: clear colour, interiors of flat triangles and of nearest-sampled,
texel-aligned quads under the depth test); elsewhere (triangle edges, Gouraud colours, trilinear
filtering, blending) GL leaves the precision to the implementation, and the script reports how
many pixels differ and by how much (max and mean absolute difference per channel over those
pixels).  A missing image fails.  --out DIR keeps the decoded images (MODEL-DEVICE.ppm,
mask.pgm) for viewing."""
import argparse
import base64
import collections
import gzip
import os
import sys


def images(path):
    """{tag: bytes} of the console's SCENE_DATA lines (the last run of each tag)."""
    chunks = collections.OrderedDict()
    with open(path, errors="replace") as f:
        for line in f:
            w = line.rstrip("\r\n").split(" ")
            if len(w) == 3 and w[0] == "SCENE_DATA":
                chunks.setdefault(w[1], []).append(w[2])
    out = {}
    for tag, lines in chunks.items():
        try:
            out[tag] = gzip.decompress(base64.b64decode("".join(lines)))
        except (ValueError, OSError, EOFError):
            out[tag] = None
    return out


def pnm(data):
    """(magic, width, height, pixel bytes) of a binary PPM/PGM with maxval 255 and plain headers."""
    parts = data.split(maxsplit=4)
    if len(parts) < 5 or parts[0] not in (b"P5", b"P6") or parts[3] != b"255":
        raise ValueError("not a P5/P6 image with maxval 255")
    w, h = int(parts[1]), int(parts[2])
    ch = 3 if parts[0] == b"P6" else 1
    pix = parts[4]
    if len(pix) != w * h * ch:
        raise ValueError("%d pixel bytes, want %d" % (len(pix), w * h * ch))
    return parts[0], w, h, pix


def compare(model, imgs):
    """Prints the comparison; returns the list of failures."""
    bad = []
    need = ("panfrost.ppm", "llvmpipe.ppm", "mask.pgm")
    missing = [t for t in need if not imgs.get(t)]
    if missing:
        return ["%s: no %s on the console (the scene did not draw or was not read back)"
                % (model, ", ".join(missing))]
    try:
        _, w, h, mali = pnm(imgs["panfrost.ppm"])
        _, w2, h2, ref = pnm(imgs["llvmpipe.ppm"])
        _, w3, h3, mask = pnm(imgs["mask.pgm"])
    except ValueError as e:
        return ["%s: %s" % (model, e)]
    if (w, h) != (w2, h2) or (w, h) != (w3, h3):
        return ["%s: image sizes differ" % model]
    exact = exact_bad = other = other_bad = 0
    maxd, sumd = [0, 0, 0], [0, 0, 0]
    first = None
    for i in range(w * h):
        a, b = mali[3 * i:3 * i + 3], ref[3 * i:3 * i + 3]
        if mask[i]:
            exact += 1
            if a != b:
                exact_bad += 1
                first = first or (i % w, i // w, tuple(a), tuple(b))
        else:
            other += 1
            other_bad += a != b
            for c in range(3):
                d = abs(a[c] - b[c])
                maxd[c] = max(maxd[c], d)
                sumd[c] += d
    print("gles-scene: %s: exact region %d pixels, %d differ%s" % (
        model, exact, exact_bad,
        " (first at x=%d y=%d from the top: Mali %s, llvmpipe %s)" % first if first else ""))
    print("gles-scene: %s: elsewhere %d pixels, %d differ; |Mali - llvmpipe| max R %d G %d B %d, "
          "mean R %.3f G %.3f B %.3f" % ((model, other, other_bad) + tuple(maxd)
                                          + tuple(s / max(other, 1) for s in sumd)))
    if exact_bad:
        bad.append("%s: %d pixels of the exact region differ from llvmpipe's" % (model, exact_bad))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", action="append", default=[], required=True)
    ap.add_argument("--out")
    a = ap.parse_args()
    bad = []
    for spec in a.run:
        model, _, path = spec.partition("=")
        imgs = images(path)
        if a.out:
            os.makedirs(a.out, exist_ok=True)
            for tag, data in imgs.items():
                if data:
                    name = tag if tag == "mask.pgm" else "%s-%s" % (model, tag)
                    with open(os.path.join(a.out, name), "wb") as f:
                        f.write(data)
        bad += compare(model, imgs)
    for b in bad:
        print("gles-scene: FAILED: " + b)
    print("gles-scene: %s" % ("FAILED" if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""malibu-image: guest images in the user's cache, for `malibu --image NAME`.

    malibu-image build [--stack backports|stable] [--packages "PKG ..."] [NAME]
                                  build image NAME (default: default) from the pinned Debian packages
    malibu-image list             the images built, with their stack and extra packages
    malibu-image remove NAME...   delete images
    malibu-image dir [NAME]       print an image's directory (default: the images' directory)

Images live in $XDG_CACHE_HOME/malibu/images/NAME (default ~/.cache/malibu/images/NAME): Image,
initrd.img, initramfs-busybox.cpio.gz and rootfs.ext4, as `make image` builds them in a source
tree, with the same scripts (guest-images/fetch and build.py, installed in share/malibu) and the
same stacks: backports (the default: trixie-backports' Linux and Mesa) or stable (trixie's own).
--packages adds Debian packages (and their dependency closure) to the root filesystem, as
`make image IMAGE_PACKAGES=...` does.

The downloaded .debs are kept in $XDG_CACHE_HOME/malibu/cache (GUEST_CACHE=DIR another one, e.g.
a source tree's guest-images/cache, so nothing is downloaded twice); DEBIAN_MIRROR and
DEBIAN_SECURITY_MIRROR choose the archive (default: the host's apt sources).  The build needs the
host packages of a source build's guest images (docs/guest-images.md): the aarch64 cross
compiler, dpkg-dev, e2fsprogs, cpio, xz-utils.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# the source tree's guest-images/ for the copy in build/ (mk/install.mk fills it in; empty in an
# installed copy, which finds share/malibu/guest-images beside its bin/)
SOURCE_GUEST_IMAGES = "@SOURCE_GUEST_IMAGES@"
STACKS = ("backports", "stable")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
FILES = ("Image", "initrd.img", "initramfs-busybox.cpio.gz", "rootfs.ext4")


def guest_images_dir():
    here = os.path.dirname(os.path.realpath(__file__))
    for d in (os.path.join(here, "..", "share", "malibu", "guest-images"), SOURCE_GUEST_IMAGES):
        if d and not d.startswith("@") and os.path.isfile(os.path.join(d, "build.py")):
            return os.path.abspath(d)
    sys.exit("malibu-image: the guest-image scripts are missing (looked for %s)"
             % os.path.join(here, "..", "share", "malibu", "guest-images"))


def cache_home():
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    # the XDG base directory rule: only an absolute path counts
    return os.path.join(xdg if os.path.isabs(xdg) else os.path.expanduser("~/.cache"), "malibu")


def images_dir():
    return os.path.join(cache_home(), "images")


def image_dir(name):
    if not NAME_RE.match(name):
        sys.exit("malibu-image: '%s': an image name is letters, digits, '.', '_' and '-'" % name)
    return os.path.join(images_dir(), name)


def tool_env():
    env = dict(os.environ)
    # mke2fs and debugfs live in /usr/sbin on Debian, often not in a user's PATH
    path = env.get("PATH", "/usr/bin:/bin").split(":")
    env["PATH"] = ":".join(path + [d for d in ("/usr/sbin", "/sbin") if d not in path])
    return env


def run(argv, env):
    print("malibu-image: " + " ".join(argv[1:]), flush=True)
    r = subprocess.run(argv, env=env)
    if r.returncode:
        sys.exit("malibu-image: %s failed (exit %d)" % (" ".join(argv[1:3]), r.returncode))


def build(args):
    gi = guest_images_dir()
    out = image_dir(args.name)
    env = tool_env()
    env.update(GUEST_STACK=args.stack, GUEST_OUT=out, GUEST_WORK=os.path.join(out, ".work"),
               GUEST_CACHE=os.path.abspath(env.get("GUEST_CACHE") or os.path.join(cache_home(), "cache")),
               IMAGE_PACKAGES=args.packages)
    env.pop("GUEST_LOCK", None)          # the stack's own lock, in share/malibu
    os.makedirs(out, exist_ok=True)
    fetch = [sys.executable, os.path.join(gi, "fetch")]
    # `make image`'s steps (mk/image.mk), in its order
    run(fetch + ["fetch", "rootfs", "part", "boot", "kernel", "sdk"], env)
    for step in ("kernel", "initramfs", "initrd", "apps", "rootfs"):
        run([sys.executable, os.path.join(gi, "build.py"), step], env)
    extras = subprocess.run(fetch + ["extras"], env=env, stdout=subprocess.PIPE, text=True,
                            check=True).stdout.split()
    with open(os.path.join(out, ".image-config"), "w") as f:
        f.write("stack %s packages %s\n" % (args.stack, " ".join(extras)))
    if not args.keep_work:   # the unpacked trees: about 1 GB, only for an incremental rebuild
        shutil.rmtree(os.path.join(out, ".work"), ignore_errors=True)
    print("malibu-image: built %s: malibu --image %s --run 'clinfo -l'" % (out, args.name))


def describe(d):
    try:
        with open(os.path.join(d, ".image-config")) as f:
            config = f.read().split()
    except OSError:
        return "incomplete (no .image-config: the build did not finish)"
    missing = [n for n in FILES if not os.path.exists(os.path.join(d, n))]
    if missing:
        return "incomplete (missing %s)" % " ".join(missing)
    stack = config[1] if len(config) > 1 else "?"
    extra = " ".join(config[3:]) or "-"
    size = sum(os.path.getsize(os.path.join(d, n)) for n in FILES)
    return "stack %s, extra packages %s, %d MB" % (stack, extra, size // 2**20)


def list_images(args):
    root = images_dir()
    names = sorted(n for n in os.listdir(root) if os.path.isdir(os.path.join(root, n))) \
        if os.path.isdir(root) else []
    for n in names:
        print("%-16s %s" % (n, describe(os.path.join(root, n))))
    if not names:
        print("no images in %s (malibu-image build)" % root, file=sys.stderr)


def remove(args):
    status = 0
    for name in args.names:
        d = image_dir(name)
        if not os.path.isdir(d):
            print("malibu-image: no image %s (%s)" % (name, d), file=sys.stderr)
            status = 1
            continue
        shutil.rmtree(d)
        print("malibu-image: removed %s" % d)
    return status


def show_dir(args):
    print(image_dir(args.name) if args.name else images_dir())


def main():
    p = argparse.ArgumentParser(prog="malibu-image", description=__doc__.split("\n\n")[0],
                                epilog="Images: %s/NAME.  More: docs/guest-images.md." % images_dir())
    sub = p.add_subparsers(dest="cmd", required=True, metavar="build|list|remove|dir")
    b = sub.add_parser("build", help="build an image (default name: default)")
    b.add_argument("--stack", choices=STACKS, default="backports",
                   help="backports (default: Linux 7.3, Mesa 26.1) or stable (trixie's Linux and Mesa)")
    b.add_argument("--packages", default=os.environ.get("IMAGE_PACKAGES", ""), metavar='"PKG ..."',
                   help="extra Debian packages for the root filesystem (default: $IMAGE_PACKAGES)")
    b.add_argument("--keep-work", action="store_true",
                   help="keep the unpacked package trees (NAME/.work) for a faster rebuild")
    b.add_argument("name", nargs="?", default="default")
    b.set_defaults(func=build)
    sub.add_parser("list", help="list the images").set_defaults(func=list_images)
    r = sub.add_parser("remove", help="delete images")
    r.add_argument("names", nargs="+", metavar="NAME")
    r.set_defaults(func=remove)
    d = sub.add_parser("dir", help="print an image's directory")
    d.add_argument("name", nargs="?")
    d.set_defaults(func=show_dir)
    args = p.parse_args()
    sys.exit(args.func(args) or 0)


if __name__ == "__main__":
    main()

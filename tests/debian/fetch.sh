#!/bin/sh
# The Debian trixie arm64 packages of group `debtest` (guest-images/packages.list, pinned in
# packages.lock), fetched by guest-images/fetch and unpacked into a sysroot.
#
#   tests/debian/fetch.sh [DIR [SYSROOT]]
#       DIR     default guest-images/cache/debian-arm64 (git-ignored)
#       SYSROOT default DIR/sysroot
#
# guest-images/fetch keeps apt's arm64 state in its cache (the host's apt setup is untouched),
# checks the signed indexes and each .deb's SHA256, and takes a package's current version when the
# pinned one has left the mirror (one warning line).  Nothing is installed or run: the packages
# are unpacked with dpkg-deb -x.  The runtime closure of what the tests use: busybox (static), xz,
# sqlite3, python3.13 (minimal + stdlib).
set -eu

DIR=${1:-guest-images/cache/debian-arm64}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
SYSROOT=${2:-$DIR/sysroot}
FETCH="${PYTHON:-python3} $(dirname "$0")/../../guest-images/fetch"

$FETCH fetch debtest >/dev/null
debs=$($FETCH list debtest)
# by file name (package_version_arch.deb), not path: a worktree sharing this cache through a
# link lists the same .debs under its own path and must not rebuild the sysroot
stamp_want=$( (echo "$debs" | sed 's#.*/##'; cat "$0") | md5sum | cut -d' ' -f1)
if [ -f "$SYSROOT/.stamp" ] && [ "$(cat "$SYSROOT/.stamp")" = "$stamp_want" ]; then
    exit 0
fi

rm -rf "$SYSROOT"
mkdir -p "$SYSROOT/usr/bin" "$SYSROOT/usr/lib" "$SYSROOT/usr/sbin" "$SYSROOT/tmp"
# merged /usr (normally made by base-files)
ln -s usr/bin "$SYSROOT/bin"
ln -s usr/lib "$SYSROOT/lib"
ln -s usr/sbin "$SYSROOT/sbin"
for f in $debs; do
    dpkg-deb -x "$f" "$SYSROOT"
done
ln -sf python3.13 "$SYSROOT/usr/bin/python3"
# What dpkg's postinst would do for python: byte-compile the modules the tests and the
# benchmark import (the reference runner does it once; runs then use PYTHONDONTWRITEBYTECODE).
L=$SYSROOT/usr/lib/python3.13
echo "fetch.sh: byte-compiling the python stdlib under qemu-aarch64 (once)"
qemu-aarch64 -L "$SYSROOT" "$SYSROOT/usr/bin/python3.13" -m compileall -q -l "$L" "$L/encodings" \
    "$L/json" "$L/re" "$L/collections" "$L/importlib" >/dev/null
echo "$stamp_want" > "$SYSROOT/.stamp"
echo "fetch.sh: sysroot ready in $SYSROOT ($(echo $debs | wc -w) packages)"

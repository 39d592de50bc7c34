#!/bin/sh
# Fetch pinned Debian trixie arm64 packages and unpack them into a sysroot.
#
#   tests/debian/fetch.sh [CACHE [SYSROOT]]
#       CACHE   default guest-images/cache/debian-arm64 (git-ignored): apt state + .debs
#       SYSROOT default CACHE/sysroot
#
# apt keeps its arm64 state in CACHE (the host's apt setup is untouched), checks the
# signed Release files and the .deb checksums.  Downloaded .debs are kept and reused.
# Nothing is installed or run: the packages are unpacked with dpkg-deb -x.
# If a pinned version has left the mirror (Debian keeps only the newest), the current
# trixie version is used instead and a warning is printed.
set -eu

CACHE=${1:-guest-images/cache/debian-arm64}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
SYSROOT=${2:-$CACHE/sysroot}

# name=version, checked 2026-11-22 (trixie).  The list is the runtime closure of
# what the tests use: busybox (static), xz, sqlite3, python3.13 (minimal + stdlib).
PKGS="
busybox-static=1:1.37.0-6+b9
libc6=2.41-12+deb13u4
libgcc-s1=14.2.0-19
xz-utils=5.8.1-1+deb13u1
liblzma5=5.8.1-1+deb13u1
sqlite3=3.46.1-7+deb13u2
libsqlite3-0=3.46.1-7+deb13u2
libreadline8t64=8.2-6
libtinfo6=6.5+20250216-2
zlib1g=1:1.3.dfsg+really1.3.1-1+b1
python3.13-minimal=3.13.5-2+deb13u5
libpython3.13-minimal=3.13.5-2+deb13u5
libpython3.13-stdlib=3.13.5-2+deb13u5
libexpat1=2.8.3-1~deb13u1
libffi8=3.4.8-2
libbz2-1.0=1.0.8-6
libzstd1=1.5.7+dfsg-1
"

stamp_want=$( (echo "$PKGS"; cat "$0") | md5sum | cut -d' ' -f1)
if [ -f "$SYSROOT/.stamp" ] && [ "$(cat "$SYSROOT/.stamp")" = "$stamp_want" ]; then
    exit 0
fi

d=$CACHE/apt
mkdir -p "$d/lists/partial" "$d/archives/partial" "$CACHE/debs"
echo "deb [arch=arm64] http://deb.debian.org/debian trixie main" > "$d/sources.list"
: > "$d/status"
o="-q -oAPT::Architecture=arm64 -oAPT::Architectures=arm64 -oDir::State::Lists=$d/lists
   -oDir::Etc::SourceList=$d/sources.list -oDir::Etc::SourceParts=/dev/null -oDir::Cache=$d
   -oDir::State::status=$d/status -oAPT::Default-Release=trixie -oDebug::NoLocking=1"

updated=0
update() {
    if [ $updated = 0 ]; then
        echo "fetch.sh: apt-get update (arm64 state in $d)"
        # shellcheck disable=SC2086
        apt-get $o update >/dev/null
        updated=1
    fi
}

debs=""
for pv in $PKGS; do
    name=${pv%%=*}
    ver=${pv#*=}
    fver=$(echo "$ver" | sed 's/^[0-9]*://')
    f=$(ls "$CACHE/debs/${name}_"*"${fver}_"*.deb 2>/dev/null | head -n1 || true)
    if [ -z "$f" ]; then
        update
        # shellcheck disable=SC2086
        if ! (cd "$CACHE/debs" && apt-get $o download "$name=$ver" >/dev/null 2>&1); then
            # shellcheck disable=SC2086
            cur=$(apt-cache $o policy "$name" | sed -n 's/^ *Candidate: //p')
            echo "fetch.sh: WARNING: $name=$ver is no longer on the mirror, using $cur" >&2
            # shellcheck disable=SC2086
            (cd "$CACHE/debs" && apt-get $o download "$name=$cur" >/dev/null)
            fver=$(echo "$cur" | sed 's/^[0-9]*://')
        fi
        f=$(ls "$CACHE/debs/${name}_"*"${fver#*:}"*.deb 2>/dev/null | head -n1 || true)
        [ -z "$f" ] && f=$(ls -t "$CACHE/debs/${name}_"*.deb | head -n1)
    fi
    debs="$debs $f"
done

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

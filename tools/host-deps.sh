#!/bin/sh
# Install the Debian packages of tools/host-packages that this host lacks: with apt-get as root,
# through sudo when it is there, else print the exact command and fail.  Quiet when nothing is missing.
#   tools/host-deps.sh [--check]     --check: only report, install nothing (exit 1 if anything is missing)
set -eu
here=$(dirname "$0")
list=$(sed 's/#.*//' "$here/host-packages" | tr -s ' \n' '  ')

missing=""
for p in $list; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
        missing="$missing $p"
    fi
done
missing=${missing# }
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends $missing"
if [ "${1:-}" = "--check" ]; then
    echo "host-deps: missing Debian packages: $missing" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "host-deps: malibu needs these Debian packages: $missing" >&2
    echo "host-deps: install them as root, then run make again:" >&2
    echo "    sudo apt-get update && sudo $cmd" >&2
    exit 1
fi
echo "host-deps: installing $missing"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get update -qq || ! $sudo apt-get install -y -qq --no-install-recommends $missing; then
    echo "host-deps: installing failed; run this as root, then make again:" >&2
    echo "    apt-get update && $cmd" >&2
    exit 1
fi
echo "host-deps: done"

# Sourced by the benchmarks: IMAGE_DIR = the guest image directory of IMAGE_STACK (default: the
# backports stack), or IMAGE_OUT when set, as mk/image.mk defines it (make image-dir).
IMAGE_DIR=$(make -s --no-print-directory -C "$(dirname "$0")/.." image-dir ${IMAGE_STACK:+IMAGE_STACK=$IMAGE_STACK} \
    ${IMAGE_OUT:+IMAGE_OUT=$IMAGE_OUT}) || { echo "$0: make image-dir failed (IMAGE_STACK: backports or stable)" >&2; exit 1; }

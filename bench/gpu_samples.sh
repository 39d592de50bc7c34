# Sourced by the GPU benchmarks (bench/gpu.sh, bench/stats-overhead.sh) after their options:
# SAMPLES = the samples named on the command line (SAMPLE[:ARG,ARG]), else the 13 of
# guest-images/apps; IMG = the guest image of IMAGE_STACK / IMAGE_OUT (bench/image_dir.sh),
# checked to be there with $MALIBU.
SAMPLES=${*:-vecadd saxpy sgemm_naive sgemm_tiled reduce scan sobel histogram bitonic_sort \
transpose bfs math_builtins image_convert}
. "$(dirname "$0")/image_dir.sh"
IMG=$IMAGE_DIR
for f in "$MALIBU" $IMG/Image $IMG/initrd.img $IMG/rootfs.ext4; do
    [ -e "$f" ] || { echo "$0: missing $f (make build/malibu image)" >&2; exit 1; }
done

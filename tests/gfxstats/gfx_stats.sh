#!/bin/sh
# gfx-stats-test: --stats' graphics counts on a scene whose counts follow from its geometry
# (scene.shader_test), drawn by piglit's shader_runner_gles3 in the guest, per GPU model with
# --gpu-threads 1 and 4; check_gfx_stats.py asserts the counts and that both thread counts give
# the same graphics section and per-stage instruction totals.  One more boot (the first model)
# runs piglit's dual-source blending test, whose blend shader must show as the blend stage.
#
# usage: gfx_stats.sh MALIBU WORKDIR IMAGE_DIR [MODELS]   (MODELS default "g72 g52")
set -u
malibu=$1
work=$2
img=${3:?usage: gfx_stats.sh MALIBU WORKDIR IMAGE_DIR [MODELS]}
models=${4:-g72 g52}
here=$(dirname "$0")
for f in "$malibu" "$img/Image" "$img/initrd.img" "$img/rootfs.ext4"; do
    [ -e "$f" ] || { echo "gfx-stats-test: FAIL: $f missing"; exit 1; }
done
rm -rf "$work"
mkdir -p "$work"
scene=$(cat "$here/scene.shader_test")
cmd="cat > /tmp/scene.shader_test <<'SCENE_EOF'
$scene
SCENE_EOF
cd /usr/lib/aarch64-linux-gnu/piglit && PIGLIT_PLATFORM=surfaceless_egl bin/shader_runner_gles3 /tmp/scene.shader_test -auto -fbo"
reports=""
for m in $models; do
    for t in 1 4; do
        r=$work/$m-t$t
        "$malibu" -m 2G --image "$img" --gpu "$m" --display none --gpu-threads $t --stats "$r.json" \
            --run "$cmd" >"$r.log" 2>&1
        grep -a 'PIGLIT:' "$r.log" | tail -n 1 | sed "s/^/gfx-stats-test: $m threads $t: /"
        reports="$reports $m:$r"
    done
done
m=${models%% *}
r=$work/$m-blend
"$malibu" -m 2G --image "$img" --gpu "$m" --display none --stats "$r.json" \
    --run "cd /usr/lib/aarch64-linux-gnu/piglit && PIGLIT_PLATFORM=surfaceless_egl bin/arb_blend_func_extended-fbo-extended-blend-pattern_gles3 -auto -fbo" \
    >"$r.log" 2>&1
grep -a 'PIGLIT:' "$r.log" | tail -n 1 | sed "s/^/gfx-stats-test: $m blend shader: /"
reports="$reports blend:$r"
exec python3 "$here/check_gfx_stats.py" $reports

#!/bin/sh
# In the guest (tests/gfx/gles_test.sh mounts this directory at /mnt/host): each of our GLES
# shader tests through piglit's shader_runner_gles3, on llvmpipe and on the Mali, one line each:
# "GLES-TEST name driver result".
cd /usr/lib/aarch64-linux-gnu/piglit || { echo "GLES-TEST none none no-piglit"; exit 0; }
for t in /mnt/host/*.shader_test; do
    n=$(basename "$t" .shader_test)
    r=$(PIGLIT_PLATFORM=surfaceless_egl LIBGL_ALWAYS_SOFTWARE=1 bin/shader_runner_gles3 "$t" -auto -fbo 2>&1 |
        sed -n 's/.*"result": "\([a-z]*\)".*/\1/p' | tail -1)
    echo "GLES-TEST $n llvmpipe ${r:-none}"
    r=$(PIGLIT_PLATFORM=surfaceless_egl PAN_MESA_DEBUG=sync bin/shader_runner_gles3 "$t" -auto -fbo 2>&1 |
        sed -n 's/.*"result": "\([a-z]*\)".*/\1/p' | tail -1)
    echo "GLES-TEST $n mali ${r:-none}"
done

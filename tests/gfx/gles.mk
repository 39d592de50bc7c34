# Our GLES shader tests in the guest (tests/gfx/gles/*.shader_test, docs/graphics.md): piglit's
# shader_runner_gles3 runs each on llvmpipe and on the Mali; each must pass on both.
#   make gles-own-test    on g72 and g52 (about 1 min each; not in make test)
.PHONY: gles-own-test
gles-own-test: $(B)/malibu
	@$(MAKE) --no-print-directory image
	@echo "== gles: our shader tests (textureGather ...), g72 and g52 against llvmpipe"
	sh tests/gfx/gles_test.sh $(B)/malibu $(GI_OUT) "g72 g52"

# Per-pixel cost of the graphics pixel back end (bench/gfx_pixel_bench.c): `make bench-gfx-pixel`.
# Not part of `make` or `make test`.
$(B)/bench/gfx_pixel_bench: bench/gfx_pixel_bench.c $(B)/obj/emu/gpu/gfx_blend.o $(B)/obj/emu/gpu/gfx_pixel.o \
                            $(B)/obj/emu/gpu/gfx_layout.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iemu/gpu -o $@ $^ -lm

.PHONY: bench-gfx-pixel
bench-gfx-pixel: $(B)/bench/gfx_pixel_bench
	$(B)/bench/gfx_pixel_bench

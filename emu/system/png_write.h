/* A PNG writer for screenshots: 8-bit RGB, no interlace, one zlib stream (zlib is already linked
 * for the board), the "None" row filter.  No other library. */
#ifndef MALIBU_SYSTEM_PNG_WRITE_H
#define MALIBU_SYSTEM_PNG_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* pixels: width * height XRGB8888 words (the X byte is ignored), rows top to bottom.  false with
 * a message in err on an I/O error or sizes PNG cannot hold. */
bool png_write_xrgb(const char *path, const uint32_t *pixels, unsigned width, unsigned height,
                    char *err, size_t errlen);

#endif

/* fb_pattern [FBDEV]: draw the display test pattern on a framebuffer device (default /dev/fb0)
 * and leave it there, for tests/display/display_test.py, which compares the screenshot with the
 * same formula pixel by pixel:
 *     red = x * 255 / (width - 1), green = y * 255 / (height - 1), blue = (x ^ y) & 255
 * The console (tty1) is switched to graphics mode first so fbcon's cursor does not draw over the
 * pattern (it stays so: this is a test tool; `printf '\033c' > /dev/tty1` after KD_TEXT brings the
 * console back).  32-bit pixels only, placed with the channel offsets the driver reports. */
#include <fcntl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "/dev/fb0";
    int tty = open("/dev/tty1", O_RDWR);
    if (tty >= 0) {
        ioctl(tty, KDSETMODE, KD_GRAPHICS);
        close(tty);
    }
    int fd = open(path, O_RDWR);
    struct fb_var_screeninfo var;
    struct fb_fix_screeninfo fix;
    if (fd < 0 || ioctl(fd, FBIOGET_VSCREENINFO, &var) || ioctl(fd, FBIOGET_FSCREENINFO, &fix)) {
        perror(path);
        return 1;
    }
    if (var.bits_per_pixel != 32 || var.xres < 2 || var.yres < 2) {
        fprintf(stderr, "%s: %ux%u at %u bits per pixel: only 32-bit pixels are drawn\n", path,
                var.xres, var.yres, var.bits_per_pixel);
        return 1;
    }
    size_t len = (size_t)fix.line_length * var.yres;
    uint8_t *fb = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (fb == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    for (uint32_t y = 0; y < var.yres; y++) {
        uint32_t *row = (uint32_t *)(fb + (size_t)y * fix.line_length);
        for (uint32_t x = 0; x < var.xres; x++) {
            uint32_t r = x * 255 / (var.xres - 1), g = y * 255 / (var.yres - 1), b = (x ^ y) & 255;
            row[x] = r << var.red.offset | g << var.green.offset | b << var.blue.offset;
        }
    }
    msync(fb, len, MS_SYNC);
    printf("fb_pattern: %ux%u pattern on %s\n", var.xres, var.yres, path);
    return 0;
}

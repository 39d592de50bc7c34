/* LD_PRELOAD library for tests/display/gl_test.py: keeps a KMS program's last frame on screen.
 *
 * kmscube -c N draws N frames and exits; at exit the kernel drops its framebuffers and the
 * console takes the screen back, so the screenshot (taken when malibu exits) would show the
 * console. This library's destructor runs after main() returns, while the program's DRM file is
 * still open: it flushes stdio, prints KMS_HOLD on stderr and sleeps for good, so the last
 * flipped frame stays on the CRTC until the guest powers off. The constructor removes
 * LD_PRELOAD from the environment so that helpers the program starts (GStreamer's plug-in
 * scanner) are not held instead. Built for the guest (aarch64) by tests/display/display.mk. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void only_this_process(void)
{
    unsetenv("LD_PRELOAD");
}

__attribute__((destructor)) static void hold_last_frame(void)
{
    fflush(NULL);
    fputs("KMS_HOLD\n", stderr);
    for (;;)
        pause();
}

/* kms_pattern [-n FLIPS] [-w SECONDS] [DEVICE]: the display test pattern through KMS, for
 * tests/display/kms_test.py, which compares the screenshot with the same formula pixel by pixel:
 *     red = x * 255 / (width - 1), green = y * 255 / (height - 1), blue = (x ^ y) & 255
 * It opens DEVICE (default: the first /dev/dri/cardN with a connector), takes the first connected
 * connector's first mode, creates two dumb buffers (XRGB8888): A holds the pattern inverted
 * (255 - each component), B the pattern.  It sets the CRTC to A (SETCRTC), then page-flips FLIPS
 * times (default 1) between them with a flip event each (PAGE_FLIP + the event read from the
 * device), the last flip to B, and prints the mode and the mean time between flip events.  With
 * -w it keeps the device open (B on screen) for SECONDS before exiting: when the last opener
 * closes it, the kernel gives the screen back to the console.  Plain DRM ioctls (drm.h,
 * drm_mode.h), what libdrm's drmModeSetCrtc / drmModePageFlip / drmHandleEvent wrap. */
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_ITEMS 16

static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do
        r = ioctl(fd, req, arg);
    while (r < 0 && (errno == EINTR || errno == EAGAIN));
    return r;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

typedef struct Buffer {
    uint32_t handle, fb_id, pitch;
    uint64_t size;
    uint8_t *map;
} Buffer;

/* A dumb buffer of w x h XRGB8888 pixels, mapped, with a framebuffer object. */
static int make_buffer(int fd, unsigned w, unsigned h, Buffer *b)
{
    struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
    if (xioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c)) {
        perror("CREATE_DUMB");
        return -1;
    }
    b->handle = c.handle;
    b->pitch = c.pitch;
    b->size = c.size;
    struct drm_mode_fb_cmd f = { .width = w, .height = h, .pitch = c.pitch, .bpp = 32, .depth = 24,
                                 .handle = c.handle };
    if (xioctl(fd, DRM_IOCTL_MODE_ADDFB, &f)) {
        perror("ADDFB");
        return -1;
    }
    b->fb_id = f.fb_id;
    struct drm_mode_map_dumb m = { .handle = c.handle };
    if (xioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m)) {
        perror("MAP_DUMB");
        return -1;
    }
    b->map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
    if (b->map == MAP_FAILED) {
        perror("mmap");
        return -1;
    }
    return 0;
}

static void fill(const Buffer *b, unsigned w, unsigned h, uint32_t invert)
{
    for (uint32_t y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(b->map + (size_t)y * b->pitch);
        for (uint32_t x = 0; x < w; x++) {
            uint32_t r = x * 255 / (w - 1), g = y * 255 / (h - 1), bl = (x ^ y) & 255;
            row[x] = ((r << 16 | g << 8 | bl) ^ invert) & 0xFFFFFF;
        }
    }
}

/* The first connected connector with a mode, and a CRTC its encoder can drive. */
static int find_output(int fd, uint32_t *conn_id, uint32_t *crtc_id, struct drm_mode_modeinfo *mode)
{
    uint32_t conns[MAX_ITEMS], crtcs[MAX_ITEMS], encs[MAX_ITEMS], fbs[MAX_ITEMS];
    struct drm_mode_card_res res = { 0 };
    if (xioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) || !res.count_connectors || !res.count_crtcs)
        return -1;
    if (res.count_connectors > MAX_ITEMS || res.count_crtcs > MAX_ITEMS ||
        res.count_encoders > MAX_ITEMS || res.count_fbs > MAX_ITEMS)
        return -1;
    res.connector_id_ptr = (uintptr_t)conns;
    res.crtc_id_ptr = (uintptr_t)crtcs;
    res.encoder_id_ptr = (uintptr_t)encs;
    res.fb_id_ptr = (uintptr_t)fbs;
    if (xioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res))
        return -1;
    for (unsigned i = 0; i < res.count_connectors; i++) {
        struct drm_mode_modeinfo modes[64];
        uint32_t cencs[MAX_ITEMS];
        struct drm_mode_get_connector c = { .connector_id = conns[i] };
        if (xioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c)) /* probes the modes */
            continue;
        if (c.connection != 1 || !c.count_modes || c.count_modes > 64 || c.count_encoders > MAX_ITEMS)
            continue;
        c.modes_ptr = (uintptr_t)modes;
        c.encoders_ptr = (uintptr_t)cencs;
        c.count_props = 0;
        if (xioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c) || !c.count_modes)
            continue;
        struct drm_mode_get_encoder e = { .encoder_id = c.encoder_id ? c.encoder_id : cencs[0] };
        if (xioctl(fd, DRM_IOCTL_MODE_GETENCODER, &e))
            continue;
        for (unsigned k = 0; k < res.count_crtcs; k++) {
            if (e.possible_crtcs & (1u << k)) {
                *conn_id = conns[i];
                *crtc_id = crtcs[k];
                *mode = modes[0];
                return 0;
            }
        }
    }
    return -1;
}

/* Wait for one flip-complete event (what drmHandleEvent dispatches). */
static int wait_flip(int fd)
{
    for (;;) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 5000) <= 0) {
            fprintf(stderr, "kms_pattern: no flip event within 5 s\n");
            return -1;
        }
        char buf[1024];
        ssize_t n = read(fd, buf, sizeof buf);
        for (ssize_t off = 0; n > 0 && off + (ssize_t)sizeof(struct drm_event) <= n;) {
            struct drm_event ev;
            memcpy(&ev, buf + off, sizeof ev);
            if (ev.type == DRM_EVENT_FLIP_COMPLETE)
                return 0;
            if (ev.length < sizeof ev)
                break;
            off += ev.length;
        }
    }
}

int main(int argc, char **argv)
{
    unsigned flips = 1, hold = 0;
    int opt;
    while ((opt = getopt(argc, argv, "n:w:")) != -1) {
        if (opt == 'n')
            flips = (unsigned)strtoul(optarg, NULL, 0);
        else if (opt == 'w')
            hold = (unsigned)strtoul(optarg, NULL, 0);
        else {
            fprintf(stderr, "usage: kms_pattern [-n FLIPS] [-w SECONDS] [/dev/dri/cardN]\n");
            return 2;
        }
    }
    if (flips < 1)
        flips = 1;
    char path[32];
    int fd = -1;
    uint32_t conn = 0, crtc = 0;
    struct drm_mode_modeinfo mode;
    for (int i = 0; i < 8 && fd < 0; i++) {
        snprintf(path, sizeof path, "/dev/dri/card%d", i);
        const char *p = optind < argc ? argv[optind] : path;
        fd = open(p, O_RDWR | O_CLOEXEC);
        if (fd >= 0 && find_output(fd, &conn, &crtc, &mode)) {
            close(fd);
            fd = -1;
        }
        if (optind < argc) {
            snprintf(path, sizeof path, "%s", p);
            break;
        }
    }
    if (fd < 0) {
        fprintf(stderr, "kms_pattern: no KMS device with a connected connector\n");
        return 1;
    }
    unsigned w = mode.hdisplay, h = mode.vdisplay;
    Buffer a, b;
    if (w < 2 || h < 2 || make_buffer(fd, w, h, &a) || make_buffer(fd, w, h, &b))
        return 1;
    fill(&a, w, h, 0xFFFFFF);
    fill(&b, w, h, 0);
    struct drm_mode_crtc set = { .crtc_id = crtc, .fb_id = a.fb_id, .set_connectors_ptr = (uintptr_t)&conn,
                                 .count_connectors = 1, .mode = mode, .mode_valid = 1 };
    if (xioctl(fd, DRM_IOCTL_MODE_SETCRTC, &set)) {
        perror("SETCRTC");
        return 1;
    }
    double t0 = 0;
    for (unsigned i = 0; i < flips; i++) {
        const Buffer *to = (flips - 1 - i) % 2 == 0 ? &b : &a; /* the last one: B */
        struct drm_mode_crtc_page_flip pf = { .crtc_id = crtc, .fb_id = to->fb_id,
                                              .flags = DRM_MODE_PAGE_FLIP_EVENT };
        if (xioctl(fd, DRM_IOCTL_MODE_PAGE_FLIP, &pf)) {
            perror("PAGE_FLIP");
            return 1;
        }
        if (wait_flip(fd))
            return 1;
        if (i == 0)
            t0 = now_ms(); /* intervals from the first event on */
    }
    double mean = flips > 1 ? (now_ms() - t0) / (flips - 1) : 0;
    printf("kms_pattern: %ux%u@%u (%s) on %s connector %u crtc %u: %u flips, %.2f ms between flip events\n",
           w, h, mode.vrefresh, mode.name, path, conn, crtc, flips, mean);
    fflush(stdout);
    if (hold)
        sleep(hold);
    return 0;
}

/* The SDL2 window of --display sdl (see display.h): one thread owns SDL, shows the screen's frame
 * scaled to the window (aspect kept), and redraws only when the frame changed, checked at the
 * refresh rate the guest programmed.  Closing the window quits malibu (status 0, like Ctrl-A x);
 * Ctrl+Alt+S writes the screenshot (the --screenshot file, else malibu-screenshot.png). */
#include "display.h"

#include <SDL.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../devices/console.h"
#include "../../devices/board_display.h"
#include "../../devices/lcdif.h" /* LCDIF_MAX_DIM */
#include "../../devices/virtio_input.h"
#include "display_keymap.h"

typedef struct Window {
    Board *board;
    VirtioInput *keyboard, *tablet;
    const char *screenshot;
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    unsigned tex_w, tex_h;
    uint32_t *frame, *shown; /* the frame just rendered, the one on screen */
} Window;

#define MAX_PIXELS ((size_t)LCDIF_MAX_DIM * LCDIF_MAX_DIM)

bool display_sdl_available(void)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        return false;
    SDL_Quit();
    return true;
}

static void take_screenshot(Window *w)
{
    const char *path = w->screenshot ? w->screenshot : "malibu-screenshot.png";
    char err[256];
    if (display_screenshot(w->board, path, err, sizeof err))
        fprintf(stderr, "malibu: screenshot written to %s\n", path);
    else
        fprintf(stderr, "malibu: screenshot: %s\n", err);
}

/* Look at the guest's frame; convert, upload and present only when it changed (or force). */
static void refresh(Window *w, bool force)
{
    unsigned fw = w->tex_w, fh = w->tex_h;
    int r = board_display_render_changed(w->board, w->frame, MAX_PIXELS, &fw, &fh);
    if (r == 0 && !force && w->tex)
        return; /* nothing new: no conversion, no upload */
    if (r < 0) {
        fw = w->tex_w ? w->tex_w : 640;
        fh = w->tex_h ? w->tex_h : 480;
        memset(w->frame, 0, (size_t)fw * fh * 4); /* controller off: black, like a monitor */
    } else if (r == 0) {
        memcpy(w->frame, w->shown, (size_t)fw * fh * 4);
    }
    bool resized = fw != w->tex_w || fh != w->tex_h;
    if (resized) {
        if (w->tex)
            SDL_DestroyTexture(w->tex);
        w->tex = SDL_CreateTexture(w->ren, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING,
                                   (int)fw, (int)fh);
        w->tex_w = fw;
        w->tex_h = fh;
        SDL_RenderSetLogicalSize(w->ren, (int)fw, (int)fh);
    }
    size_t bytes = (size_t)fw * fh * 4;
    if (!resized && !force && !memcmp(w->frame, w->shown, bytes))
        return;
    memcpy(w->shown, w->frame, bytes);
    if (w->tex)
        SDL_UpdateTexture(w->tex, NULL, w->shown, (int)fw * 4);
    SDL_RenderClear(w->ren);
    if (w->tex)
        SDL_RenderCopy(w->ren, w->tex, NULL, NULL);
    SDL_RenderPresent(w->ren);
}

/* Keys and the pointer to the guest's virtio-input devices.  Key repeats are the guest's own
 * (the device offers EV_REP), so SDL's repeated key-downs are not passed on. */
static void input_event(Window *w, const SDL_Event *ev)
{
    switch (ev->type) {
    case SDL_KEYDOWN: case SDL_KEYUP: {
        uint16_t key = display_linux_key(ev->key.keysym.scancode);
        if (!key || ev->key.repeat || !w->keyboard)
            return;
        virtio_input_send(w->keyboard, EV_KEY, key, ev->type == SDL_KEYDOWN);
        virtio_input_send(w->keyboard, EV_SYN, SYN_REPORT, 0);
        return;
    }
    case SDL_MOUSEMOTION: case SDL_MOUSEBUTTONDOWN: case SDL_MOUSEBUTTONUP: {
        if (!w->tablet || w->tex_w < 2 || w->tex_h < 2)
            return;
        /* SDL reports positions in the frame's coordinates (SDL_RenderSetLogicalSize) */
        int x = ev->type == SDL_MOUSEMOTION ? ev->motion.x : ev->button.x;
        int y = ev->type == SDL_MOUSEMOTION ? ev->motion.y : ev->button.y;
        x = x < 0 ? 0 : x >= (int)w->tex_w ? (int)w->tex_w - 1 : x;
        y = y < 0 ? 0 : y >= (int)w->tex_h ? (int)w->tex_h - 1 : y;
        virtio_input_send(w->tablet, EV_ABS, ABS_X, (int32_t)((int64_t)x * VIRTIO_INPUT_ABS_MAX / (w->tex_w - 1)));
        virtio_input_send(w->tablet, EV_ABS, ABS_Y, (int32_t)((int64_t)y * VIRTIO_INPUT_ABS_MAX / (w->tex_h - 1)));
        if (ev->type != SDL_MOUSEMOTION) {
            uint8_t b = ev->button.button;
            uint16_t btn = b == SDL_BUTTON_LEFT ? BTN_LEFT : b == SDL_BUTTON_RIGHT ? BTN_RIGHT
                         : b == SDL_BUTTON_MIDDLE ? BTN_MIDDLE : 0;
            if (btn)
                virtio_input_send(w->tablet, EV_KEY, btn, ev->type == SDL_MOUSEBUTTONDOWN);
        }
        virtio_input_send(w->tablet, EV_SYN, SYN_REPORT, 0);
        return;
    }
    case SDL_MOUSEWHEEL:
        if (w->tablet && ev->wheel.y) {
            virtio_input_send(w->tablet, EV_REL, REL_WHEEL, ev->wheel.y);
            virtio_input_send(w->tablet, EV_SYN, SYN_REPORT, 0);
        }
        return;
    default:
        return;
    }
}

static void *window_thread(void *opaque)
{
    Window *w = opaque;
    bool quit = false;
    while (!quit) {
        uint32_t mhz = board_display_refresh_mhz(w->board);
        /* at the guest's refresh; a switched-off controller is looked at 10 times a second */
        int wait_ms = mhz ? (int)(1000000u / mhz) : 100;
        if (wait_ms < 1)
            wait_ms = 1;
        uint32_t deadline = SDL_GetTicks() + (uint32_t)wait_ms;
        SDL_Event ev;
        bool force = false;
        int left = wait_ms;
        while (left > 0 && SDL_WaitEventTimeout(&ev, left)) {
            if (ev.type == SDL_QUIT) {
                quit = true;
                break;
            }
            if (ev.type == SDL_WINDOWEVENT &&
                (ev.window.event == SDL_WINDOWEVENT_EXPOSED || ev.window.event == SDL_WINDOWEVENT_SIZE_CHANGED))
                force = true;
            if (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_s &&
                (ev.key.keysym.mod & KMOD_CTRL) && (ev.key.keysym.mod & KMOD_ALT))
                take_screenshot(w); /* the S still reaches the guest: it sees Ctrl+Alt+S */
            else
                input_event(w, &ev);
            left = (int)(deadline - SDL_GetTicks());
        }
        if (!quit)
            refresh(w, force);
    }
    fprintf(stderr, "malibu: window closed\n");
    console_restore_terminal();
    exit(0);
    return NULL;
}

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t started = PTHREAD_COND_INITIALIZER;
static int start_state; /* 0 starting, 1 running, -1 failed */
static char start_err[256];

/* SDL is used from this thread only: create the window here, then serve it. */
static void *window_main(void *opaque)
{
    Window *w = opaque;
    int state = -1;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(start_err, sizeof start_err, "SDL: %s", SDL_GetError());
    } else if (!(w->win = SDL_CreateWindow("malibu", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                           BOARD_DISPLAY_WIDTH, BOARD_DISPLAY_HEIGHT,
                                           SDL_WINDOW_RESIZABLE)) ||
               !(w->ren = SDL_CreateRenderer(w->win, -1, 0))) {
        snprintf(start_err, sizeof start_err, "SDL window: %s", SDL_GetError());
    } else {
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear");
        state = 1;
    }
    pthread_mutex_lock(&start_lock);
    start_state = state;
    pthread_cond_signal(&started);
    pthread_mutex_unlock(&start_lock);
    if (state < 0)
        return NULL;
    return window_thread(w);
}

bool display_sdl_start(Board *b, const char *screenshot, char *err, size_t errlen)
{
    Window *w = calloc(1, sizeof *w);
    if (!w || !(w->frame = malloc(MAX_PIXELS * 4)) || !(w->shown = calloc(MAX_PIXELS, 4))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    w->board = b;
    w->keyboard = b->keyboard;
    w->tablet = b->tablet;
    w->screenshot = screenshot;
    pthread_t t;
    if (pthread_create(&t, NULL, window_main, w) != 0) {
        snprintf(err, errlen, "cannot start the display thread");
        return false;
    }
    pthread_detach(t);
    pthread_mutex_lock(&start_lock);
    while (start_state == 0)
        pthread_cond_wait(&started, &start_lock);
    pthread_mutex_unlock(&start_lock);
    if (start_state < 0) {
        snprintf(err, errlen, "--display sdl: %s", start_err);
        return false;
    }
    return true;
}

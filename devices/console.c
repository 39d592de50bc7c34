/* Host terminal backend (see console.h). */
#include "console.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define ESC_KEY 0x01 /* Ctrl-A */

struct Console {
    int in_fd, out_fd;
    ConsoleRxFn rx;
    void *rx_opaque;
    void (*quit)(void *);
    void *quit_opaque;
    bool escape;
    bool started;
};

static Console *volatile live_console; /* the one whose reader thread runs: lives until exit */
static struct termios saved_tio;
static int saved_fd = -1;

void console_restore_terminal(void)
{
    if (saved_fd >= 0) {
        tcsetattr(saved_fd, TCSANOW, &saved_tio);
        saved_fd = -1;
    }
}

static void restore_and_die(int sig)
{
    console_restore_terminal();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void make_raw(int fd)
{
    if (!isatty(fd) || saved_fd >= 0 || tcgetattr(fd, &saved_tio) != 0)
        return;
    struct termios t = saved_tio;
    t.c_iflag &= ~(unsigned)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    t.c_lflag &= ~(unsigned)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag &= ~(unsigned)(CSIZE | PARENB);
    t.c_cflag |= CS8;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSANOW, &t) != 0)
        return;
    saved_fd = fd;
    atexit(console_restore_terminal);
    signal(SIGTERM, restore_and_die);
    signal(SIGHUP, restore_and_die);
    signal(SIGQUIT, restore_and_die);
}

static void default_quit(void *opaque)
{
    (void)opaque;
    exit(0);
}

Console *console_new(int in_fd, int out_fd)
{
    Console *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->in_fd = in_fd;
    c->out_fd = out_fd;
    c->quit = default_quit;
    return c;
}

void console_free(Console *c)
{
    if (c && !c->started)
        free(c);
}

void console_set_quit(Console *c, void (*quit)(void *), void *opaque)
{
    c->quit = quit;
    c->quit_opaque = opaque;
}

static void write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        p += n;
        len -= (size_t)n;
    }
}

void console_putc(void *console, uint8_t ch)
{
    Console *c = console;
    write_all(c->out_fd, &ch, 1);
}

/* Deliver one byte to the guest, waiting for FIFO space. */
static void deliver(Console *c, uint8_t b)
{
    while (c->rx(c->rx_opaque, &b, 1) == 0) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
}

static void handle_byte(Console *c, uint8_t b)
{
    if (!c->escape) {
        if (b == ESC_KEY)
            c->escape = true;
        else
            deliver(c, b);
        return;
    }
    c->escape = false;
    if (b == 'x' || b == 'X') {
        static const char msg[] = "\r\nmalibu: terminated (Ctrl-A x)\r\n";
        write_all(c->out_fd, msg, sizeof msg - 1);
        console_restore_terminal();
        c->quit(c->quit_opaque);
    } else if (b == 'h' || b == 'H' || b == '?') {
        static const char msg[] = "\r\nCtrl-A x  quit\r\nCtrl-A Ctrl-A  send Ctrl-A\r\n"
                                  "Ctrl-A h  this help\r\n";
        write_all(c->out_fd, msg, sizeof msg - 1);
    } else if (b == ESC_KEY) {
        deliver(c, ESC_KEY);
    } else {
        deliver(c, ESC_KEY);
        deliver(c, b);
    }
}

static void *reader(void *arg)
{
    Console *c = arg;
    uint8_t buf[256];
    for (;;) {
        ssize_t n = read(c->in_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return NULL; /* EOF: no more input */
        for (ssize_t i = 0; i < n; i++)
            handle_byte(c, buf[i]);
    }
}

void console_start(Console *c, ConsoleRxFn rx, void *rx_opaque)
{
    c->rx = rx;
    c->rx_opaque = rx_opaque;
    if (c->in_fd < 0)
        return;
    make_raw(c->in_fd);
    pthread_t th;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &a, reader, c) != 0)
        fprintf(stderr, "malibu: console input thread: %s\n", strerror(errno));
    else {
        c->started = true;
        live_console = c;
    }
    pthread_attr_destroy(&a);
}

/* The GDB server thread (gdb_server.h). */
#define _GNU_SOURCE /* pipe2 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "gdb_server.h"

struct GdbServer {
    const GdbTarget *t;
    int listen_fd, port;
    int wake[2];                 /* vCPU side -> server thread: the machine stopped */
    pthread_t thread;
    pthread_mutex_t mu;          /* everything below, and writes to client */
    pthread_cond_t cv;
    int client;                  /* -1: none */
    bool stopped;                /* every vCPU parked */
    bool want_stop_reply;        /* gdb resumed (or interrupted) and waits for the stop */
    bool exited;
    GdbStop last;
    GdbStub stub;
    GdbPacketParser parser;
    char frame[2 * GDB_PACKET_MAX + 8];
};

/* Send a framed payload; gdb's ack is not waited for (it resends on a NAK, which we ignore:
 * TCP does not corrupt packets). */
static void send_locked(GdbServer *s, const char *payload, size_t len)
{
    size_t n = gdb_packet_frame(payload, len, s->frame, sizeof s->frame);
    for (size_t o = 0; o < n && s->client >= 0;) {
        ssize_t w = send(s->client, s->frame + o, n - o, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            shutdown(s->client, SHUT_RDWR); /* the read side sees the close and drops gdb */
            return;
        }
        o += (size_t)w;
    }
}

static void send_raw_locked(GdbServer *s, const char *bytes)
{
    if (s->client >= 0 && send(s->client, bytes, strlen(bytes), MSG_NOSIGNAL) < 0)
        shutdown(s->client, SHUT_RDWR);
}

static void send_stop_locked(GdbServer *s)
{
    char r[96];
    gdb_stub_stop_reply(&s->last, r, sizeof r);
    gdb_stub_stopped(&s->stub, &s->last);
    send_locked(s, r, strlen(r));
    s->want_stop_reply = false;
}

void gdb_server_stopped(GdbServer *s, const GdbStop *st)
{
    pthread_mutex_lock(&s->mu);
    s->stopped = true;
    s->last = *st;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    char b = 1;
    if (write(s->wake[1], &b, 1) < 0)
        return; /* the pipe is full: the server is already woken */
}

void gdb_server_exited(GdbServer *s, int status)
{
    pthread_mutex_lock(&s->mu);
    s->exited = true;
    if (s->client >= 0) {
        s->last = (GdbStop){ .exited = true, .status = status };
        send_stop_locked(s);
        shutdown(s->client, SHUT_RDWR);
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

int gdb_server_port(const GdbServer *s) { return s->port; }

static void halt_and_wait_locked(GdbServer *s)
{
    if (s->stopped || s->exited)
        return;
    pthread_mutex_unlock(&s->mu);
    s->t->halt(s->t->opaque);
    pthread_mutex_lock(&s->mu);
    while (!s->stopped && !s->exited)
        pthread_cond_wait(&s->cv, &s->mu);
}

static void resume_locked(GdbServer *s, const uint8_t *actions)
{
    s->stopped = false;
    s->t->resume(s->t->opaque, actions);
}

/* gdb went away (detach, kill of the connection, EOF): no break/watchpoints, machine runs. */
static void drop_client_locked(GdbServer *s)
{
    if (s->client < 0)
        return;
    close(s->client);
    s->client = -1;
    s->want_stop_reply = false;
    halt_and_wait_locked(s); /* the lists change only while every vCPU is parked */
    if (s->stopped && !s->exited) {
        uint8_t all[GDB_MAX_CPUS];
        memset(all, GDB_ACT_CONTINUE, sizeof all);
        s->t->remove_all_points(s->t->opaque);
        resume_locked(s, all);
    }
    fprintf(stderr, "malibu: gdb: detached\n");
}

static void packet_locked(GdbServer *s)
{
    GdbStub *g = &s->stub;
    send_raw_locked(s, "+");
    if (!s->stopped) {
        /* all-stop mode: gdb talks only to a stopped machine; answer what needs no vCPU */
        send_locked(s, "E01", 3);
        return;
    }
    gdb_stub_handle(g, s->parser.buf, s->parser.len);
    if (g->kill) {
        s->t->kill(s->t->opaque);
        uint8_t all[GDB_MAX_CPUS];
        memset(all, GDB_ACT_CONTINUE, sizeof all);
        resume_locked(s, all);
        close(s->client);
        s->client = -1;
        return;
    }
    if (g->resume) {
        s->want_stop_reply = true;
        resume_locked(s, g->action);
        return;
    }
    send_locked(s, g->reply, g->reply_len);
    if (g->detach) {
        s->t->remove_all_points(s->t->opaque);
        drop_client_locked(s);
    }
}

static void session(GdbServer *s)
{
    uint8_t buf[4096];
    for (;;) {
        struct pollfd p[2] = { { s->client, POLLIN, 0 }, { s->wake[0], POLLIN, 0 } };
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        pthread_mutex_lock(&s->mu);
        if (p[1].revents) {
            char junk[64];
            if (read(s->wake[0], junk, sizeof junk) < 0 && errno != EAGAIN) {
                pthread_mutex_unlock(&s->mu);
                return;
            }
            if (s->stopped && s->want_stop_reply)
                send_stop_locked(s);
        }
        if (s->exited || s->client < 0) {
            pthread_mutex_unlock(&s->mu);
            return;
        }
        if (p[0].revents) {
            ssize_t n = recv(s->client, buf, sizeof buf, 0);
            if (n <= 0 && !(n < 0 && errno == EINTR)) {
                drop_client_locked(s);
                pthread_mutex_unlock(&s->mu);
                return;
            }
            for (ssize_t i = 0; i < n && s->client >= 0; i++) {
                switch (gdb_packet_feed(&s->parser, buf[i])) {
                case GP_PACKET:
                    packet_locked(s);
                    break;
                case GP_BAD:
                    send_raw_locked(s, "-");
                    break;
                case GP_INTERRUPT:
                    if (!s->stopped && !s->exited) {
                        s->want_stop_reply = true;
                        pthread_mutex_unlock(&s->mu);
                        s->t->halt(s->t->opaque);
                        pthread_mutex_lock(&s->mu);
                    }
                    break;
                default:
                    break;
                }
            }
        }
        bool gone = s->client < 0;
        pthread_mutex_unlock(&s->mu);
        if (gone)
            return;
    }
}

static void *server_main(void *arg)
{
    GdbServer *s = arg;
    for (;;) {
        int fd = accept(s->listen_fd, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            fprintf(stderr, "malibu: gdb: accept: %s\n", strerror(errno));
            return NULL;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        /* a client that stops reading must not block the server (and the vCPUs waiting on it):
         * a send that cannot finish within 10 s ends the connection */
        struct timeval tv = { .tv_sec = 10 };
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        pthread_mutex_lock(&s->mu);
        if (s->exited) {
            pthread_mutex_unlock(&s->mu);
            close(fd);
            continue;
        }
        s->client = fd;
        gdb_packet_init(&s->parser);
        gdb_stub_init(&s->stub, s->t);
        fprintf(stderr, "malibu: gdb: attached\n");
        halt_and_wait_locked(s); /* gdb expects a stopped target */
        gdb_stub_stopped(&s->stub, &s->last);
        pthread_mutex_unlock(&s->mu);
        session(s);
    }
}

GdbServer *gdb_server_start(const char *spec, const GdbTarget *t, char *err, size_t errlen)
{
    char host[256] = "127.0.0.1";
    const char *colon = strrchr(spec, ':');
    const char *port_s = spec;
    if (colon) {
        size_t hl = (size_t)(colon - spec);
        if (hl == 0 || hl >= sizeof host) {
            snprintf(err, errlen, "--gdb %s: expected [HOST:]PORT", spec);
            return NULL;
        }
        memcpy(host, spec, hl);
        host[hl] = 0;
        port_s = colon + 1;
    }
    char *end;
    long port = strtol(port_s, &end, 10);
    if (!*port_s || *end || port < 0 || port > 65535) {
        snprintf(err, errlen, "--gdb %s: expected [HOST:]PORT (0..65535)", spec);
        return NULL;
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
    struct addrinfo *ai;
    int r = getaddrinfo(host, port_s, &hints, &ai);
    if (r) {
        snprintf(err, errlen, "--gdb %s: %s", spec, gai_strerror(r));
        return NULL;
    }
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1)) {
        snprintf(err, errlen, "--gdb %s: %s", spec, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return NULL;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage sa;
    socklen_t sl = sizeof sa;
    getsockname(fd, (struct sockaddr *)&sa, &sl);
    GdbServer *s = calloc(1, sizeof *s);
    if (!s || pipe2(s->wake, O_NONBLOCK | O_CLOEXEC)) {
        snprintf(err, errlen, "--gdb: out of resources");
        close(fd);
        free(s);
        return NULL;
    }
    s->t = t;
    s->listen_fd = fd;
    s->port = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                             : ((struct sockaddr_in *)&sa)->sin_port);
    s->client = -1;
    s->last.signal = 5;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    if (pthread_create(&s->thread, NULL, server_main, s)) {
        snprintf(err, errlen, "--gdb: cannot start the server thread");
        return NULL;
    }
    pthread_detach(s->thread);
    fprintf(stderr, "malibu: gdb: listening on %s:%d\n", host, s->port);
    return s;
}

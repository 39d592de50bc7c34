/* The GDB remote protocol server: a listening TCP socket and one thread that talks to one gdb
 * at a time (gdb_packet.c framing, gdb_stub.c commands) and stops / resumes the machine through
 * the GdbTarget.  While gdb is attached the machine runs only between a resume command and the
 * next stop; when gdb detaches or disconnects, its break/watchpoints go and the machine runs. */
#ifndef MALIBU_GDB_SERVER_H
#define MALIBU_GDB_SERVER_H

#include "gdb_stub.h"

typedef struct GdbServer GdbServer;

/* Listen on spec = "[HOST:]PORT" (HOST default 127.0.0.1; PORT 0: any free port) and start the
 * server thread.  NULL with a message in err on failure. */
GdbServer *gdb_server_start(const char *spec, const GdbTarget *t, char *err, size_t errlen);
/* The port actually listened on. */
int gdb_server_port(const GdbServer *s);
/* Every vCPU is parked (any thread): st says why; the stop reply goes to gdb if it waits. */
void gdb_server_stopped(GdbServer *s, const GdbStop *st);
/* The machine ends with status: gdb gets "W" (exit) and the connection closes. */
void gdb_server_exited(GdbServer *s, int status);

#endif

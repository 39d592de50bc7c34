/* build/malibu's GPU debugging output on stderr: a report block for every job chain that ends
 * with a fault (always on), and with --gpu-trace jobs every job chain decoded as it starts
 * (emu/decode/job_print.c: what build/malibu-decode prints from a --gpu-dump). */
#ifndef MALIBU_GPU_TRACE_H
#define MALIBU_GPU_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "../../devices/mali/mali.h"

/* "jobs" -> true in *jobs; false with a message in err for anything else. */
bool gpu_trace_parse(const char *list, bool *jobs, char *err, size_t errlen);
/* The observers for the board's configuration (BoardConfig.gpu_tap_*): the chain printer with
 * `jobs`, else none; the fault report always. */
void gpu_trace_taps(bool jobs, MaliChainFn *chain, MaliFaultFn *fault);

#endif

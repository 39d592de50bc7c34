/* Compute workgroups on the Bifrost executor: the one workgroup scheduler of the compute engine,
 * the unit tests and the fuzz harnesses.  Threads are numbered x fastest and packed into warps of
 * 4 (v6) / 8 (v7) lanes; warps run round-robin, each until it ends, reaches a BARRIER (released
 * when every live warp has reached it) or uses up its turn. */
#ifndef MALIBU_GPU_WORKGROUP_H
#define MALIBU_GPU_WORKGROUP_H

#include <stdbool.h>

#include "bifrost_exec.h"

/* Compute-shader preloads (reference section 4.1): r55 = local id x | y << 16, r56 = local id z,
 * r57-r59 = workgroup id, r60-r62 = zero-based global id. */
void bi_compute_preload(bi_warp *w, unsigned lane, const uint32_t local_id[3], const uint32_t wg_id[3],
                        const uint32_t global_id[3]);

/* Vertex shading (IDVS position and varying shaders): workgroup (x, y) runs the vertices
 * x * local_size[0] + t (t < local_size[0]) below count, of instance y, with the vertex
 * preloads: r58-r59 = the vertex's position slot pos_base + 16 * (vertex + instance *
 * instance_size), r61 = vertex id (zero-based in the job), r62 = instance id. */
typedef struct bi_vertex_grid {
    uint32_t count;
    uint32_t instance_size;
    uint64_t pos_base;
} bi_vertex_grid;

typedef struct {
    unsigned local_size[3];
    uint32_t wg_id[3];
    const uint32_t *uniforms;
    unsigned nuniforms;
    const bi_mem *mem;           /* wls_base: this workgroup's local storage */
    uint64_t tls_base;           /* thread t's TLS at tls_base + t * tls_stride */
    uint32_t tls_stride;
    uint32_t core_id;
    const bi_vertex_grid *vertex;    /* NULL: compute preloads */
    /* Budget for the whole workgroup (0: none); running out is a BI_FAULT_CLAUSE_LIMIT fault. */
    unsigned max_clauses;
    /* Clauses a warp runs before the next warp's turn (0: until it ends or reaches a barrier);
     * a warp that used up its turn runs on in the next round. */
    unsigned turn_clauses;
    /* Optional, after every warp turn: the clauses and tuples it ran, and whether it ended the
     * workgroup with a fault.  Returning true stops the workgroup (BI_EXEC_STOPPED) unless it
     * faulted: a runner's progress reports and stop requests. */
    bool (*turn_done)(void *ctx, uint64_t clauses, uint64_t tuples, bool faulted);
    void *ctx;
} bi_workgroup;

typedef struct {
    unsigned warps;
    uint64_t clauses, lane_clauses, lane_instrs, barriers;
} bi_wg_stats;

/* Warp storage a runner reuses from one workgroup to the next (zero-initialise; one per host
 * thread).  reserve: room for n warps, 0 or -1 (host out of memory). */
typedef struct {
    bi_warp *warps;              /* slots, taken by warps as they start */
    uint8_t *state;              /* per warp of the workgroup */
    unsigned *slot;              /* per warp: its slot in warps */
    unsigned *free;              /* slots given back by warps that ended */
    unsigned cap;
    /* registers the last workgroups may have left non-zero in the first dirty_warps slots: a
     * slot is cleared of only those when a warp takes it */
    uint64_t dirty;
    unsigned dirty_warps;
} bi_wg_warps;
int bi_wg_warps_reserve(bi_wg_warps *ws, unsigned n);
void bi_wg_warps_free(bi_wg_warps *ws);

/* Run one workgroup of program p (ws: warp storage, NULL: allocated for this call).  Returns
 * BI_EXEC_END, BI_EXEC_STOPPED, or BI_EXEC_FAULT (*f says why; f may be NULL).  stats (may be
 * NULL): what the workgroup's warps ran, faulted or not. */
int bi_run_workgroup(const bi_workgroup *wg, bi_program *p, bi_wg_warps *ws, bi_wg_stats *stats, bi_fault *f);

#endif

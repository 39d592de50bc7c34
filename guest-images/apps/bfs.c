/* bfs: level-synchronous breadth-first search from node 0 on a generated directed graph (CSR),
 * one work-item per node, two kernels per level (Rodinia style): `expand` lets each frontier
 * node visit its out-edges, `update` turns the newly reached nodes into the next frontier.
 * Heavy divergence: only frontier work-items do work, and out-degrees range from 1 to ~300
 * (2% of the nodes are hubs).
 *
 *   bfs [-d DEVICE] [NODES]          (default 16384)
 *
 * The graph is a random tree over most nodes plus random extra edges; the last 1/64 of the
 * nodes get only random in-edges, so some may stay unreachable (level -1).  Several frontier
 * nodes may write the same newly reached node in one level, always with the same value.  Levels
 * are compared exactly with a CPU BFS.
 */
#include "common.h"
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void expand(__global const uint *row, __global const uint *col,\n"
    "                     __global uchar *frontier, __global uchar *updating,\n"
    "                     __global const uchar *visited, __global int *level, uint n)\n"
    "{\n"
    "    uint v = get_global_id(0);\n"
    "    if (v >= n || !frontier[v])\n"
    "        return;\n"
    "    frontier[v] = 0;\n"
    "    int next = level[v] + 1;\n"
    "    for (uint e = row[v]; e < row[v + 1]; e++) {\n"
    "        uint u = col[e];\n"
    "        if (!visited[u]) {\n"
    "            level[u] = next;\n"
    "            updating[u] = 1;\n"
    "        }\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void update(__global uchar *frontier, __global uchar *updating,\n"
    "                     __global uchar *visited, __global uint *again, uint n)\n"
    "{\n"
    "    uint v = get_global_id(0);\n"
    "    if (v < n && updating[v]) {\n"
    "        frontier[v] = 1;\n"
    "        visited[v] = 1;\n"
    "        updating[v] = 0;\n"
    "        *again = 1;\n"
    "    }\n"
    "}\n";

static int run(app_t *a)
{
    cl_uint n = (cl_uint)app_arg(a, 0, 16384);
    if (n < 2 || n > (1u << 24))
        return 1;
    app_rng r;
    app_rng_seed(&r, 11);
    /* out-degree per node, then edges */
    cl_uint *row = malloc(sizeof(cl_uint) * (n + 1)), *deg = calloc(n, sizeof(cl_uint));
    cl_uint tree_nodes = n - n / 64;
    for (cl_uint v = 0; v < n; v++)
        deg[v] = app_rand_below(&r, 100) < 2 ? 50 + app_rand_below(&r, 250)
                                              : app_rand_below(&r, 4);
    /* tree edges: each node 1..tree_nodes-1 gets an in-edge from an earlier node */
    cl_uint *parent = malloc(sizeof(cl_uint) * n);
    for (cl_uint v = 1; v < tree_nodes; v++) {
        parent[v] = app_rand_below(&r, v);
        deg[parent[v]]++;
    }
    row[0] = 0;
    for (cl_uint v = 0; v < n; v++)
        row[v + 1] = row[v] + deg[v];
    cl_uint m = row[n];
    cl_uint *col = malloc(sizeof(cl_uint) * (m ? m : 1)), *fill = calloc(n, sizeof(cl_uint));
    for (cl_uint v = 1; v < tree_nodes; v++)
        col[row[parent[v]] + fill[parent[v]]++] = v;
    for (cl_uint v = 0; v < n; v++)
        while (fill[v] < deg[v]) {
            /* random edge; targets in the unattached tail are rarer */
            cl_uint u = app_rand_below(&r, n);
            if (u >= tree_nodes && app_rand_below(&r, 4))
                u = app_rand_below(&r, tree_nodes);
            col[row[v] + fill[v]++] = u;
        }
    /* CPU BFS */
    cl_int *want = malloc(sizeof(cl_int) * n), *level = malloc(sizeof(cl_int) * n);
    cl_uint *queue = malloc(sizeof(cl_uint) * n), qh = 0, qt = 0;
    for (cl_uint v = 0; v < n; v++)
        want[v] = -1;
    want[0] = 0;
    queue[qt++] = 0;
    int depth = 0;
    size_t reached = 1;
    while (qh < qt) {
        cl_uint v = queue[qh++];
        for (cl_uint e = row[v]; e < row[v + 1]; e++)
            if (want[col[e]] < 0) {
                want[col[e]] = want[v] + 1;
                depth = want[v] + 1 > depth ? want[v] + 1 : depth;
                queue[qt++] = col[e];
                reached++;
            }
    }
    cl_uchar *flags = calloc(n, 1);
    for (cl_uint v = 0; v < n; v++)
        level[v] = -1;
    level[0] = 0;
    flags[0] = 1;
    int rc = 1;
    cl_program p = app_build(a, src, NULL);
    cl_kernel ke = app_kernel(a, p, "expand"), ku = app_kernel(a, p, "update");
    cl_mem brow = app_buffer(a, CL_MEM_READ_ONLY, sizeof(cl_uint) * (n + 1), row);
    cl_mem bcol = app_buffer(a, CL_MEM_READ_ONLY, sizeof(cl_uint) * (m ? m : 1), col);
    cl_mem bfront = app_buffer(a, CL_MEM_READ_WRITE, n, flags);
    cl_mem bvis = app_buffer(a, CL_MEM_READ_WRITE, n, flags);
    flags[0] = 0;
    cl_mem bupd = app_buffer(a, CL_MEM_READ_WRITE, n, flags);
    cl_mem blevel = app_buffer(a, CL_MEM_READ_WRITE, sizeof(cl_int) * n, level);
    cl_mem bagain = app_buffer(a, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL);
    if (!ke || !ku || !brow || !bcol || !bfront || !bvis || !bupd || !blevel || !bagain)
        goto out;
    size_t wg = app_wg(a, ke, 64);
    wg = app_wg(a, ku, wg);
    size_t global = app_round_up(n, wg);
    if (app_args(a, ke, sizeof brow, &brow, sizeof bcol, &bcol, sizeof bfront, &bfront,
                 sizeof bupd, &bupd, sizeof bvis, &bvis, sizeof blevel, &blevel, sizeof n, &n,
                 (size_t)0) ||
        app_args(a, ku, sizeof bfront, &bfront, sizeof bupd, &bupd, sizeof bvis, &bvis,
                 sizeof bagain, &bagain, sizeof n, &n, (size_t)0))
        goto out;
    unsigned iters = 0;
    for (;;) {
        cl_uint again = 0;
        if (app_write(a, bagain, sizeof again, &again) ||
            app_run(a, ke, 1, &global, &wg, NULL) || app_run(a, ku, 1, &global, &wg, NULL) ||
            app_read(a, bagain, sizeof again, &again))
            goto out;
        iters++;
        if (!again)
            break;
        if (iters > n) {
            app_log(a, "no convergence after %u levels", iters);
            goto out;
        }
    }
    if (app_read(a, blevel, sizeof(cl_int) * n, level))
        goto out;
    app_log(a, "%u nodes, %u edges, %zu reachable, depth %d: %u levels on the device, "
            "work-group %zu", n, m, reached, depth, iters, wg);
    rc = app_check_i32(a, "level", level, want, n) != 0;
    if ((int)iters != depth + 1) {
        app_log(a, "device took %u levels, expected %d", iters, depth + 1);
        rc = 1;
    }
out:
    free(row), free(deg), free(parent), free(col), free(fill), free(want), free(level);
    free(queue), free(flags);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "bfs", "[NODES]", run);
}

/* sobel: 3x3 Sobel filter on a generated 8-bit image (gradient background, discs, boxes,
 * noise), edges clamped.  Outputs the gradient magnitude sqrt(gx^2 + gy^2) as float and a
 * binary edge map (gx^2 + gy^2 > 128^2 ? 255 : 0).
 *
 *   sobel [-d DEVICE] [W [H]]          (default 256 x 256)
 *
 * gx, gy and the edge map are integer arithmetic: bit-exact.  The magnitude uses sqrt, checked
 * within the OpenCL spec's ULP bound for sqrt (3 ulp, 4 on embedded-profile devices).
 */
#include "common.h"
#include <math.h>
#include <stdlib.h>

static const char *src =
    "__kernel void sobel(__global const uchar *img, __global float *mag, __global uchar *edge,\n"
    "                    int w, int h)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    if (x >= w || y >= h)\n"
    "        return;\n"
    "    int xl = max(x - 1, 0), xr = min(x + 1, w - 1);\n"
    "    int yu = max(y - 1, 0), yd = min(y + 1, h - 1);\n"
    "#define P(X, Y) ((int)img[(Y) * w + (X)])\n"
    "    int gx = P(xr, yu) + 2 * P(xr, y) + P(xr, yd) - P(xl, yu) - 2 * P(xl, y) - P(xl, yd);\n"
    "    int gy = P(xl, yd) + 2 * P(x, yd) + P(xr, yd) - P(xl, yu) - 2 * P(x, yu) - P(xr, yu);\n"
    "    int m2 = gx * gx + gy * gy;\n"
    "    mag[y * w + x] = sqrt((float)m2);\n"
    "    edge[y * w + x] = m2 > 128 * 128 ? 255 : 0;\n"
    "}\n";

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int run(app_t *a)
{
    int w = (int)app_arg(a, 0, 256), h = (int)app_arg(a, 1, (unsigned long)w);
    if (w <= 0 || h <= 0 || (long)w * h > (1L << 28))
        return 1;
    size_t np = (size_t)w * h;
    cl_uchar *img = malloc(np), *edge = malloc(np), *want_edge = malloc(np);
    float *mag = malloc(np * sizeof(float));
    double *want_mag = malloc(np * sizeof(double));
    app_rng r;
    app_rng_seed(&r, 7);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            img[y * w + x] = (cl_uchar)((x * 96 / w + y * 64 / h) + app_rand_below(&r, 12));
    for (int s = 0; s < 24; s++) { /* discs and boxes */
        int cx = (int)app_rand_below(&r, (uint32_t)w), cy = (int)app_rand_below(&r, (uint32_t)h);
        int rad = 2 + (int)app_rand_below(&r, (uint32_t)(w < h ? w : h) / 8 + 1);
        int v = 60 + (int)app_rand_below(&r, 196);
        for (int y = clampi(cy - rad, 0, h - 1); y <= clampi(cy + rad, 0, h - 1); y++)
            for (int x = clampi(cx - rad, 0, w - 1); x <= clampi(cx + rad, 0, w - 1); x++)
                if ((s & 1) || (x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad)
                    img[y * w + x] = (cl_uchar)v;
    }
    size_t nedge = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int xl = clampi(x - 1, 0, w - 1), xr = clampi(x + 1, 0, w - 1);
            int yu = clampi(y - 1, 0, h - 1), yd = clampi(y + 1, 0, h - 1);
#define P(X, Y) ((int)img[(Y) * w + (X)])
            int gx = P(xr, yu) + 2 * P(xr, y) + P(xr, yd) - P(xl, yu) - 2 * P(xl, y) - P(xl, yd);
            int gy = P(xl, yd) + 2 * P(x, yd) + P(xr, yd) - P(xl, yu) - 2 * P(x, yu) - P(xr, yu);
            int m2 = gx * gx + gy * gy;
            want_mag[y * w + x] = sqrt((double)m2);
            want_edge[y * w + x] = m2 > 128 * 128 ? 255 : 0;
            nedge += m2 > 128 * 128;
        }
    int rc = 1;
    cl_kernel k = app_kernel(a, app_build(a, src, NULL), "sobel");
    cl_mem bi = app_buffer(a, CL_MEM_READ_ONLY, np, img);
    cl_mem bm = app_buffer(a, CL_MEM_WRITE_ONLY, np * sizeof(float), NULL);
    cl_mem be = app_buffer(a, CL_MEM_WRITE_ONLY, np, NULL);
    if (!k || !bi || !bm || !be)
        goto out;
    size_t wg = app_wg(a, k, 64), local[2], global[2];
    local[0] = wg >= 16 ? 16 : wg;
    local[1] = wg / local[0];
    global[0] = app_round_up((size_t)w, local[0]);
    global[1] = app_round_up((size_t)h, local[1]);
    if (app_args(a, k, sizeof bi, &bi, sizeof bm, &bm, sizeof be, &be, sizeof w, &w, sizeof h, &h,
                 (size_t)0) ||
        app_run(a, k, 2, global, local, NULL) || app_read(a, bm, np * sizeof(float), mag) ||
        app_read(a, be, np, edge))
        goto out;
    app_log(a, "%dx%d image, work-group %zux%zu, %zu edge pixels", w, h, local[0], local[1],
            nedge);
    rc = app_check_u8(a, "edge", edge, want_edge, np) != 0;
    rc |= app_check_f32_ulp(a, "magnitude", mag, want_mag, np, app_ulp_bound(a, APP_ULP_SQRT)) != 0;
out:
    free(img), free(edge), free(want_edge), free(mag), free(want_mag);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "sobel", "[W [H]]", run);
}

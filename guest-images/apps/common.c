/* Shared helper for the OpenCL samples: see common.h. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char *cl_err_name(cl_int e)
{
    switch (e) {
#define E(x) case x: return #x
    E(CL_DEVICE_NOT_FOUND); E(CL_DEVICE_NOT_AVAILABLE); E(CL_COMPILER_NOT_AVAILABLE);
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE); E(CL_OUT_OF_RESOURCES); E(CL_OUT_OF_HOST_MEMORY);
    E(CL_PROFILING_INFO_NOT_AVAILABLE); E(CL_BUILD_PROGRAM_FAILURE);
    E(CL_INVALID_VALUE); E(CL_INVALID_DEVICE); E(CL_INVALID_CONTEXT);
    E(CL_INVALID_QUEUE_PROPERTIES); E(CL_INVALID_COMMAND_QUEUE); E(CL_INVALID_MEM_OBJECT);
    E(CL_INVALID_BUILD_OPTIONS); E(CL_INVALID_PROGRAM); E(CL_INVALID_PROGRAM_EXECUTABLE);
    E(CL_INVALID_KERNEL_NAME); E(CL_INVALID_KERNEL); E(CL_INVALID_ARG_INDEX);
    E(CL_INVALID_ARG_VALUE); E(CL_INVALID_ARG_SIZE); E(CL_INVALID_KERNEL_ARGS);
    E(CL_INVALID_WORK_DIMENSION); E(CL_INVALID_WORK_GROUP_SIZE); E(CL_INVALID_WORK_ITEM_SIZE);
    E(CL_INVALID_GLOBAL_OFFSET); E(CL_INVALID_EVENT); E(CL_INVALID_OPERATION);
    E(CL_INVALID_BUFFER_SIZE); E(CL_INVALID_GLOBAL_WORK_SIZE); E(CL_INVALID_PLATFORM);
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
#undef E
    default: return "?";
    }
}

void app_log(app_t *a, const char *fmt, ...)
{
    va_list ap;
    printf("%s: ", a->name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

int app_cl_fail(app_t *a, cl_int err, const char *what)
{
    app_log(a, "%s failed: error %d (%s)", what, (int)err, cl_err_name(err));
    return 1;
}

unsigned long app_arg(app_t *a, int i, unsigned long dflt)
{
    if (i >= a->argc)
        return dflt;
    char *end;
    unsigned long v = strtoul(a->argv[i], &end, 0);
    if (*end == 'k' || *end == 'K')
        v <<= 10, end++;
    else if (*end == 'm' || *end == 'M')
        v <<= 20, end++;
    if (end == a->argv[i] || *end) {
        app_log(a, "bad number '%s' (argument %d), using %lu", a->argv[i], i + 1, dflt);
        return dflt;
    }
    return v;
}

static void track(app_t *a, void *obj, int kind)
{
    if (obj && a->nobjs < APP_MAX_OBJS) {
        a->objs[a->nobjs] = obj;
        a->objkind[a->nobjs++] = kind;
    }
}

cl_program app_build(app_t *a, const char *src, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(a->ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) {
        app_cl_fail(a, err, "clCreateProgramWithSource");
        return NULL;
    }
    track(a, p, 2);
    err = clBuildProgram(p, 1, &a->device, options ? options : "", NULL, NULL);
    if (err != CL_SUCCESS || a->verbose) {
        size_t len = 0;
        clGetProgramBuildInfo(p, a->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = malloc(len + 1);
        if (log && clGetProgramBuildInfo(p, a->device, CL_PROGRAM_BUILD_LOG, len, log, NULL)
                       == CL_SUCCESS) {
            log[len] = 0;
            app_log(a, "build log (options '%s'):\n%s", options ? options : "", log);
        }
        free(log);
    }
    if (err != CL_SUCCESS) {
        app_cl_fail(a, err, "clBuildProgram");
        return NULL;
    }
    return p;
}

cl_kernel app_kernel(app_t *a, cl_program prog, const char *kname)
{
    cl_int err;
    if (!prog)
        return NULL;
    cl_kernel k = clCreateKernel(prog, kname, &err);
    if (err != CL_SUCCESS) {
        app_cl_fail(a, err, kname);
        return NULL;
    }
    track(a, k, 1);
    return k;
}

cl_mem app_image(app_t *a, cl_mem_flags flags, const cl_image_format *fmt, const cl_image_desc *desc,
                 const void *host)
{
    cl_int err;
    cl_mem m = clCreateImage(a->ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), fmt, desc, (void *)host, &err);
    if (err != CL_SUCCESS) {
        app_cl_fail(a, err, "clCreateImage");
        return NULL;
    }
    track(a, m, 0);
    return m;
}

int app_read_image(app_t *a, cl_mem img, size_t w, size_t h, size_t d, void *host)
{
    size_t origin[3] = { 0, 0, 0 }, region[3] = { w, h, d };
    cl_int err = clEnqueueReadImage(a->queue, img, CL_TRUE, origin, region, 0, 0, host, 0, NULL, NULL);
    return err != CL_SUCCESS ? app_cl_fail(a, err, "clEnqueueReadImage") : 0;
}

cl_sampler app_sampler(app_t *a, cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter)
{
    cl_int err;
    cl_sampler_properties p[] = { CL_SAMPLER_NORMALIZED_COORDS, normalized, CL_SAMPLER_ADDRESSING_MODE, addressing,
                                  CL_SAMPLER_FILTER_MODE, filter, 0 };
    cl_sampler s = clCreateSamplerWithProperties(a->ctx, p, &err);
    if (err != CL_SUCCESS) {
        app_cl_fail(a, err, "clCreateSamplerWithProperties");
        return NULL;
    }
    track(a, s, 3);
    return s;
}

cl_mem app_buffer(app_t *a, cl_mem_flags flags, size_t bytes, const void *host)
{
    cl_int err;
    if (host)
        flags |= CL_MEM_COPY_HOST_PTR;
    cl_mem m = clCreateBuffer(a->ctx, flags, bytes ? bytes : 4, (void *)host, &err);
    if (err != CL_SUCCESS) {
        app_cl_fail(a, err, "clCreateBuffer");
        return NULL;
    }
    track(a, m, 0);
    return m;
}

int app_read(app_t *a, cl_mem buf, size_t bytes, void *host)
{
    APP_CL(a, clEnqueueReadBuffer(a->queue, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    return 0;
}

int app_write(app_t *a, cl_mem buf, size_t bytes, const void *host)
{
    APP_CL(a, clEnqueueWriteBuffer(a->queue, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    return 0;
}

int app_args(app_t *a, cl_kernel k, ...)
{
    va_list ap;
    cl_uint i = 0;
    int rc = 0;
    va_start(ap, k);
    for (;;) {
        size_t size = va_arg(ap, size_t);
        if (!size)
            break;
        const void *p = va_arg(ap, const void *);
        cl_int err = clSetKernelArg(k, i, size, p);
        if (err != CL_SUCCESS) {
            char what[48];
            snprintf(what, sizeof what, "clSetKernelArg %u", i);
            rc = app_cl_fail(a, err, what);
            break;
        }
        i++;
    }
    va_end(ap);
    return rc;
}

static cl_ulong now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

int app_run(app_t *a, cl_kernel k, cl_uint dim, const size_t *global, const size_t *local,
            const char *label)
{
    char kname[48] = "";
    if (!label) {
        clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof kname - 1, kname, NULL);
        label = kname;
    }
    cl_event ev = NULL;
    cl_ulong t0 = now_ns();
    APP_CL(a, clEnqueueNDRangeKernel(a->queue, k, dim, NULL, global, local, 0, NULL, &ev));
    cl_int err = clWaitForEvents(1, &ev);
    if (err == CL_SUCCESS) {
        cl_int st = CL_SUCCESS;
        clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
        if (st < 0)
            err = st;
    }
    cl_ulong t1 = now_ns(), ns = t1 - t0;
    if (err == CL_SUCCESS && a->profiling) {
        cl_ulong s = 0, e = 0;
        if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL)
                == CL_SUCCESS &&
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL)
                == CL_SUCCESS && e >= s)
            ns = e - s;
        else
            a->profiling = 0; /* report host time from now on */
    }
    clReleaseEvent(ev);
    if (err != CL_SUCCESS)
        return app_cl_fail(a, err, label);
    int t;
    for (t = 0; t < a->ntimers; t++)
        if (!strcmp(a->timers[t].name, label))
            break;
    if (t == a->ntimers && t < APP_MAX_TIMERS) {
        snprintf(a->timers[t].name, sizeof a->timers[t].name, "%s", label);
        a->timers[t].launches = 0;
        a->timers[t].ns = 0;
        a->ntimers++;
    }
    if (t < APP_MAX_TIMERS) {
        a->timers[t].launches++;
        a->timers[t].ns += ns;
    }
    return 0;
}

static size_t pow2_floor(size_t x)
{
    size_t p = 1;
    while (p * 2 <= x)
        p *= 2;
    return p;
}

size_t app_dev_wg(app_t *a, size_t want)
{
    return pow2_floor(want < a->max_wg ? want : a->max_wg);
}

size_t app_wg(app_t *a, cl_kernel k, size_t want)
{
    size_t kmax = 0;
    if (clGetKernelWorkGroupInfo(k, a->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                                 NULL) != CL_SUCCESS || kmax == 0)
        kmax = a->max_wg;
    if (want > kmax)
        want = kmax;
    return app_dev_wg(a, want);
}

size_t app_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* ---- PRNG -------------------------------------------------------------------------------- */

void app_rng_seed(app_rng *r, uint64_t seed)
{
    r->s = seed;
}

uint32_t app_rand_u32(app_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

uint32_t app_rand_below(app_rng *r, uint32_t n)
{
    return (uint32_t)(((uint64_t)app_rand_u32(r) * n) >> 32);
}

float app_rand_float(app_rng *r, float lo, float hi)
{
    /* volatile: no fma contraction, so the host and guest builds draw the same values */
    volatile float scaled = (hi - lo) * ((float)(app_rand_u32(r) >> 8) * (1.0f / 16777216.0f));
    return lo + scaled;
}

float app_rand_grid(app_rng *r, int lo, int hi, int frac_bits)
{
    int32_t span = (hi - lo) << frac_bits;
    int32_t k = (int32_t)app_rand_below(r, (uint32_t)span + 1);
    return ldexpf((float)(((int32_t)lo << frac_bits) + k), -frac_bits);
}

/* ---- output files ------------------------------------------------------------------------ */

void app_output(app_t *a, const char *what, const char *type, const void *data, size_t elem,
                size_t n, const char *check)
{
    if (!a->out_dir)
        return;
    char file[256], path[4096];
    snprintf(file, sizeof file, "%s%s.%s.bin", a->name, a->out_tag, what);
    for (char *c = file; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
            *c = '_';   /* one flat file name whatever WHAT holds */
    snprintf(path, sizeof path, "%s/%s", a->out_dir, file);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, elem, n, f) == n;
    ok = (f && fclose(f) == 0) && ok;
    snprintf(path, sizeof path, "%s/MANIFEST", a->out_dir);
    FILE *m = ok ? fopen(path, "a") : NULL;
    ok = m && fprintf(m, "%s %s %zu %s\n", file, type, n, check) > 0;
    ok = (m && fclose(m) == 0) && ok;
    if (!ok) {
        app_log(a, "cannot write %s in %s", file, a->out_dir);
        a->out_failed = 1;
    }
}

/* ---- checks ------------------------------------------------------------------------------ */

#define MAX_SHOWN 8

static size_t summary(app_t *a, const char *what, size_t bad, size_t n)
{
    if (bad)
        app_log(a, "%s: %zu of %zu wrong", what, bad, n);
    else if (a->verbose)
        app_log(a, "%s: %zu values match", what, n);
    return bad;
}

size_t app_check_u32(app_t *a, const char *what, const uint32_t *got, const uint32_t *want,
                     size_t n)
{
    app_output(a, what, "u32", got, 4, n, "exact");
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < MAX_SHOWN)
            app_log(a, "%s[%zu] = %u (0x%08x), expected %u (0x%08x)", what, i, got[i], got[i],
                    want[i], want[i]);
    return summary(a, what, bad, n);
}

size_t app_check_i32(app_t *a, const char *what, const int32_t *got, const int32_t *want,
                     size_t n)
{
    app_output(a, what, "i32", got, 4, n, "exact");
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < MAX_SHOWN)
            app_log(a, "%s[%zu] = %d, expected %d", what, i, got[i], want[i]);
    return summary(a, what, bad, n);
}

size_t app_check_u8(app_t *a, const char *what, const uint8_t *got, const uint8_t *want,
                    size_t n)
{
    app_output(a, what, "u8", got, 1, n, "exact");
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < MAX_SHOWN)
            app_log(a, "%s[%zu] = %u, expected %u", what, i, got[i], want[i]);
    return summary(a, what, bad, n);
}

static int same_f32(float x, float y)
{
    uint32_t bx, by;
    memcpy(&bx, &x, 4);
    memcpy(&by, &y, 4);
    return bx == by || (isnan(x) && isnan(y));
}

static uint32_t bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
}

size_t app_check_f32(app_t *a, const char *what, const float *got, const float *want, size_t n)
{
    app_output(a, what, "f32", got, 4, n, "exact");
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!same_f32(got[i], want[i]) && bad++ < MAX_SHOWN)
            app_log(a, "%s[%zu] = %.9g (0x%08x), expected %.9g (0x%08x)", what, i, got[i],
                    bits(got[i]), want[i], bits(want[i]));
    return summary(a, what, bad, n);
}

size_t app_check_f32_either(app_t *a, const char *what, const float *got, const float *want1,
                            const float *want2, size_t n)
{
    if (a->out_dir) { /* with both references: tells fused from unfused off-line */
        char w[64];
        app_output(a, what, "f32", got, 4, n, "either");
        snprintf(w, sizeof w, "%s.want1", what);
        app_output(a, w, "f32", want1, 4, n, "reference");
        snprintf(w, sizeof w, "%s.want2", what);
        app_output(a, w, "f32", want2, 4, n, "reference");
    }
    size_t bad = 0, first = 0, second = 0;
    for (size_t i = 0; i < n; i++) {
        int m1 = same_f32(got[i], want1[i]), m2 = same_f32(got[i], want2[i]);
        first += m1 && !m2;
        second += m2 && !m1;
        if (!m1 && !m2 && bad++ < MAX_SHOWN)
            app_log(a, "%s[%zu] = %.9g (0x%08x), expected %.9g (0x%08x) or %.9g (0x%08x)", what,
                    i, got[i], bits(got[i]), want1[i], bits(want1[i]), want2[i], bits(want2[i]));
    }
    if (a->verbose || bad)
        app_log(a, "%s: %zu only match the first reference, %zu only the second", what, first,
                second);
    return summary(a, what, bad, n);
}

double app_ulp_error(float got, double ref)
{
    if (isnan(ref) || isnan(got))
        return isnan(ref) && isnan(got) ? 0 : INFINITY;
    if (isinf(ref) || isinf(got))
        return (double)got == ref ? 0 : INFINITY;
    double r = fabs(ref);
    if (r < 0x1p-126)
        r = 0x1p-126; /* ulp of the smallest normal: devices may flush denormals */
    int e;
    frexp(r, &e);                      /* r = m * 2^e, m in [0.5, 1) */
    double ulp = ldexp(1.0, e - 24);   /* spacing of floats in [2^(e-1), 2^e) */
    return fabs((double)got - ref) / ulp;
}

size_t app_check_f32_ulp(app_t *a, const char *what, const float *got, const double *ref,
                         size_t n, double max_ulp)
{
    char check[32];
    snprintf(check, sizeof check, "ulp=%g", max_ulp);
    app_output(a, what, "f32", got, 4, n, check);
    size_t bad = 0, worst_i = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double e = app_ulp_error(got[i], ref[i]);
        if (e > worst || (isnan(e) && !isnan(worst)))
            worst = e, worst_i = i;
        if (!(e <= max_ulp) && bad++ < MAX_SHOWN)
            app_log(a, "%s[%zu] = %.9g (0x%08x), expected %.9g: %.2f ulp > %.1f", what, i, got[i],
                    bits(got[i]), ref[i], e, max_ulp);
    }
    app_log(a, "%s: max error %.3f ulp (bound %.1f) at [%zu]", what, worst, max_ulp, worst_i);
    return summary(a, what, bad, n);
}

double app_ulp_bound(app_t *a, enum app_ulp_fn fn)
{
    /* OpenCL 3.0 unified spec, 7.4 "Relative Error as ULPs", single precision */
    static const double full[] = {
        [APP_ULP_DIV] = 2.5, [APP_ULP_SQRT] = 3, [APP_ULP_RSQRT] = 2, [APP_ULP_EXP] = 3,
        [APP_ULP_LOG] = 3, [APP_ULP_SIN] = 4, [APP_ULP_COS] = 4, [APP_ULP_TAN] = 5,
        [APP_ULP_POW] = 16, [APP_ULP_ATAN2] = 6, [APP_ULP_HYPOT] = 4, [APP_ULP_CBRT] = 2,
        [APP_ULP_TANH] = 5,
    };
    static const double embedded[] = {
        [APP_ULP_DIV] = 3, [APP_ULP_SQRT] = 4, [APP_ULP_RSQRT] = 4, [APP_ULP_EXP] = 4,
        [APP_ULP_LOG] = 4, [APP_ULP_SIN] = 4, [APP_ULP_COS] = 4, [APP_ULP_TAN] = 5,
        [APP_ULP_POW] = 16, [APP_ULP_ATAN2] = 6, [APP_ULP_HYPOT] = 4, [APP_ULP_CBRT] = 4,
        [APP_ULP_TANH] = 5,
    };
    return a->embedded ? embedded[fn] : full[fn];
}

float app_fma_ref(float x, float y, float z)
{
    return fmaf(x, y, z);
}

float app_muladd_ref(float x, float y, float z)
{
    volatile float p = x * y; /* rounded product: no contraction into an fma */
    return p + z;
}

/* ---- main driver ------------------------------------------------------------------------- */

typedef struct { cl_platform_id p; cl_device_id d; char pname[128], dname[128]; cl_device_type t; }
    devent;

static int list_devices(devent *out, int max)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    int n = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
        return 0;
    for (cl_uint p = 0; p < np && p < 16; p++) {
        cl_device_id devs[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 16 && n < max; d++, n++) {
            out[n].p = plats[p];
            out[n].d = devs[d];
            out[n].pname[0] = out[n].dname[0] = 0;
            clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof out[n].pname - 1, out[n].pname,
                              NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof out[n].dname - 1, out[n].dname, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof out[n].t, &out[n].t, NULL);
        }
    }
    return n;
}

static int icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return n == 0;
}

static const char *type_name(cl_device_type t)
{
    return t & CL_DEVICE_TYPE_GPU ? "GPU" : t & CL_DEVICE_TYPE_CPU ? "CPU"
         : t & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator" : "other";
}

static void release_objs(app_t *a)
{
    for (int i = a->nobjs - 1; i >= 0; i--) {
        if (a->objkind[i] == 0)
            clReleaseMemObject(a->objs[i]);
        else if (a->objkind[i] == 1)
            clReleaseKernel(a->objs[i]);
        else if (a->objkind[i] == 3)
            clReleaseSampler(a->objs[i]);
        else
            clReleaseProgram(a->objs[i]);
    }
    a->nobjs = 0;
}

static int run_on(app_t *a, devent *e, int (*run)(app_t *a))
{
    cl_int err;
    char version[128] = "", profile[64] = "";
    a->platform = e->p;
    a->device = e->d;
    snprintf(a->plat_name, sizeof a->plat_name, "%s", e->pname);
    snprintf(a->dev_name, sizeof a->dev_name, "%s", e->dname);
    clGetDeviceInfo(e->d, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    clGetDeviceInfo(e->d, CL_DEVICE_PROFILE, sizeof profile - 1, profile, NULL);
    a->embedded = strstr(profile, "EMBEDDED") != NULL;
    a->max_wg = 1;
    clGetDeviceInfo(e->d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof a->max_wg, &a->max_wg, NULL);
    a->local_mem = 0;
    clGetDeviceInfo(e->d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof a->local_mem, &a->local_mem, NULL);
    app_log(a, "device: %s / %s (%s, %s, %s, max work-group %zu, local mem %lu)", e->pname,
            e->dname, type_name(e->t), version, profile, a->max_wg, (unsigned long)a->local_mem);
    a->ntimers = 0;
    a->nobjs = 0;
    a->ctx = clCreateContext(NULL, 1, &e->d, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return app_cl_fail(a, err, "clCreateContext");
    cl_command_queue_properties qp = 0;
    clGetDeviceInfo(e->d, CL_DEVICE_QUEUE_PROPERTIES, sizeof qp, &qp, NULL);
    a->profiling = 0;
    a->queue = NULL;
    if ((qp & CL_QUEUE_PROFILING_ENABLE) && !getenv("MALIBU_CL_NOPROFILE")) {
        cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
        a->queue = clCreateCommandQueueWithProperties(a->ctx, e->d, props, &err);
        a->profiling = a->queue != NULL;
    }
    if (!a->queue)
        a->queue = clCreateCommandQueueWithProperties(a->ctx, e->d, NULL, &err);
    if (!a->queue) {
        clReleaseContext(a->ctx);
        return app_cl_fail(a, err, "clCreateCommandQueue");
    }
    cl_ulong t0 = now_ns();
    a->out_failed = 0;
    int rv = run(a);
    int r = rv == APP_SKIP ? APP_SKIP : (rv || a->out_failed);
    cl_ulong total = 0;
    if (r == 0) {
        for (int t = 0; t < a->ntimers; t++) {
            app_log(a, "time kernel=%s launches=%u ns=%llu source=%s", a->timers[t].name,
                    a->timers[t].launches, (unsigned long long)a->timers[t].ns,
                    a->profiling ? "profiling" : "host");
            total += a->timers[t].ns;
        }
        app_log(a, "time kernel=ALL ns=%llu source=%s wall_ns=%llu", (unsigned long long)total,
                a->profiling ? "profiling" : "host", (unsigned long long)(now_ns() - t0));
    }
    release_objs(a);
    clReleaseCommandQueue(a->queue);
    clReleaseContext(a->ctx);
    return r == APP_SKIP ? APP_SKIP : r != 0;
}

int app_main(int argc, char **argv, const char *name, const char *usage, int (*run)(app_t *a))
{
    app_t a;
    memset(&a, 0, sizeof a);
    a.name = name;
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *spec = getenv("MALIBU_CL_DEVICE");
    a.out_dir = getenv("MALIBU_CL_OUT");
    if (a.out_dir && !*a.out_dir)
        a.out_dir = NULL;
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc)
            spec = argv[++i];
        else if (!strncmp(argv[i], "-d", 2) && argv[i][2])
            spec = argv[i] + 2;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            a.out_dir = argv[++i];
        else if (!strcmp(argv[i], "-v"))
            a.verbose = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: %s [-d DEVICE] [-o DIR] [-v] %s\n"
                   "  -d N|all|SUBSTRING  device: index in '-d list', every device, or a\n"
                   "                      substring of 'PLATFORM / DEVICE' (default: first GPU,\n"
                   "                      else first device; also $MALIBU_CL_DEVICE)\n"
                   "  -o DIR              write the checked values to DIR/NAME.WHAT.bin and list\n"
                   "                      them in DIR/MANIFEST (also $MALIBU_CL_OUT)\n"
                   "  -v                  verbose (build logs, per-check summaries)\n",
                   name, usage);
            free(pos);
            return 0;
        } else
            pos[npos++] = argv[i];
    }
    a.argc = npos;
    a.argv = pos;
    devent devs[32];
    int n = list_devices(devs, 32);
    if (spec && !strcmp(spec, "list")) {
        for (int i = 0; i < n; i++)
            printf("%d: %s / %s (%s)\n", i, devs[i].pname, devs[i].dname, type_name(devs[i].t));
        free(pos);
        return 0;
    }
    int sel[32], nsel = 0;
    if (n == 0) {
        app_log(&a, "no OpenCL device found");
    } else if (!spec || !*spec) {
        int pick = 0;
        for (int i = n - 1; i >= 0; i--)
            if (devs[i].t & CL_DEVICE_TYPE_GPU)
                pick = i;
        sel[nsel++] = pick;
    } else if (!strcmp(spec, "all")) {
        for (int i = 0; i < n; i++)
            sel[nsel++] = i;
    } else {
        char *end;
        long idx = strtol(spec, &end, 10);
        if (*end == 0 && end != spec) {
            if (idx >= 0 && idx < n)
                sel[nsel++] = (int)idx;
        } else {
            for (int i = 0; i < n && !nsel; i++) {
                char full[300];
                snprintf(full, sizeof full, "%s / %s", devs[i].pname, devs[i].dname);
                if (icontains(full, spec))
                    sel[nsel++] = i;
            }
        }
        if (!nsel)
            app_log(&a, "no OpenCL device matches '%s' (%d devices; -d list)", spec, n);
    }
    int failed = 0, skipped = 0;
    for (int s = 0; s < nsel; s++) {
        if (nsel > 1)
            snprintf(a.out_tag, sizeof a.out_tag, ".d%d", sel[s]);
        int r = run_on(&a, &devs[sel[s]], run);
        app_log(&a, "%s / %s: %s", devs[sel[s]].pname, devs[sel[s]].dname,
                r == APP_SKIP ? "SKIP" : r ? "FAIL" : "PASS");
        skipped += r == APP_SKIP;
        failed += r && r != APP_SKIP;
    }
    free(pos);
    if (nsel > 0 && failed == 0 && skipped == nsel) {
        app_log(&a, "SKIP");
        return APP_SKIP;
    }
    int ok = nsel > 0 && failed == 0;
    app_log(&a, "%s", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

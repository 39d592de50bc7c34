/* Shared helper for the OpenCL samples in guest-images/apps (see README.md there).
 *
 * A sample is `static int run(app_t *a)` plus `main() { return app_main(...); }`.  app_main parses
 * the common options, picks the device(s), makes a context and an in-order queue (with profiling
 * when the device offers it), calls run() per device and prints the verdict lines:
 *
 *   NAME: device: PLATFORM / DEVICE (TYPE, VERSION, PROFILE)
 *   NAME: time kernel=K launches=N ns=T source=profiling|host       (one per kernel name)
 *   NAME: PLATFORM / DEVICE: PASS|FAIL                               (one per device)
 *   NAME: PASS|FAIL                                                  (last line; exit 0 on PASS)
 *
 * Device selection: `-d SPEC` or $MALIBU_CL_DEVICE; SPEC = a number (index in the `-d list`
 * order), `all` (every device), or a case-insensitive substring of "PLATFORM / DEVICE".
 * Default: the first GPU device over all platforms, else the first device of any type (on the
 * guest, the first device of the platform rusticl exposes with RUSTICL_ENABLE).
 *
 * Output files: `-o DIR` or $MALIBU_CL_OUT makes every app_check_* also write the values it
 * checked, so that runs on other devices or emulator settings can be compared off-line (see
 * app_output below).
 */
#ifndef APPS_COMMON_H
#define APPS_COMMON_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

#define APP_MAX_TIMERS 16
#define APP_MAX_OBJS 64

typedef struct {
    const char *name;            /* sample name, prefix of every line */
    int argc;                    /* positional arguments left after the common options */
    char **argv;
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    int profiling;               /* queue has CL_QUEUE_PROFILING_ENABLE */
    int embedded;                /* EMBEDDED_PROFILE device: larger ULP bounds */
    int verbose;
    char plat_name[128], dev_name[128];
    size_t max_wg;               /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    cl_ulong local_mem;          /* CL_DEVICE_LOCAL_MEM_SIZE */
    struct { char name[48]; unsigned launches; cl_ulong ns; } timers[APP_MAX_TIMERS];
    int ntimers;
    void *objs[APP_MAX_OBJS];    /* released after run(): 0 mem, 1 kernel, 2 program, 3 sampler */
    int objkind[APP_MAX_OBJS];
    int nobjs;
    const char *out_dir;         /* -o DIR / $MALIBU_CL_OUT, NULL: no output files */
    char out_tag[16];            /* ".dK" (device index K) when several devices run, else "" */
    int out_failed;              /* an output file could not be written: the device fails */
} app_t;

/* Parses options, runs `run` on the selected device(s), prints the verdict; returns the exit
 * status (0 = every device passed).  `usage` lists the sample's positional arguments.
 * run() returns 0 (pass), APP_SKIP (the device lacks something the sample needs: the device's
 * line says SKIP; when every device skipped, the last line is "NAME: SKIP" and the exit status
 * APP_SKIP) or anything else (fail). */
#define APP_SKIP 77
int app_main(int argc, char **argv, const char *name, const char *usage, int (*run)(app_t *a));

/* Positional argument i (0-based, after the options) as a number, or dflt when absent. */
unsigned long app_arg(app_t *a, int i, unsigned long dflt);

/* Print "NAME: ..." (printf format). */
void app_log(app_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* OpenCL error check: on failure prints "NAME: WHAT failed: error N (CL_...)" and returns 1. */
int app_cl_fail(app_t *a, cl_int err, const char *what);
#define APP_CL(a, call)                                                                          \
    do {                                                                                         \
        cl_int app_err_ = (call);                                                                \
        if (app_err_ != CL_SUCCESS)                                                              \
            return app_cl_fail((a), app_err_, #call);                                            \
    } while (0)

/* Builds `src` with `options` (may be NULL); prints the build log on failure.  NULL on error.
 * The program is released after run(). */
cl_program app_build(app_t *a, const char *src, const char *options);
cl_kernel app_kernel(app_t *a, cl_program prog, const char *kname);
/* Buffer of `bytes`; host != NULL copies it in (CL_MEM_COPY_HOST_PTR).  NULL on error. */
cl_mem app_buffer(app_t *a, cl_mem_flags flags, size_t bytes, const void *host);
int app_read(app_t *a, cl_mem buf, size_t bytes, void *host);   /* blocking; 0 = ok */
/* Image (clCreateImage; host != NULL copies it in, rows packed) and its blocking read-back of the
 * whole image (rows packed); sampler (clCreateSamplerWithProperties).  NULL / non-zero on error;
 * released after run(). */
cl_mem app_image(app_t *a, cl_mem_flags flags, const cl_image_format *fmt, const cl_image_desc *desc,
                 const void *host);
int app_read_image(app_t *a, cl_mem img, size_t w, size_t h, size_t d, void *host);
cl_sampler app_sampler(app_t *a, cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter);
int app_write(app_t *a, cl_mem buf, size_t bytes, const void *host);

/* Sets kernel arguments: pairs of (size, pointer), terminated by 0.  A NULL pointer with a size
 * is a __local buffer of that many bytes.  0 = ok. */
int app_args(app_t *a, cl_kernel k, ...);

/* Enqueues k, waits for it, adds its time (profiling event, else host wall clock around the
 * enqueue + clFinish) to the timer named `label` (default: the kernel's name).  0 = ok. */
int app_run(app_t *a, cl_kernel k, cl_uint dim, const size_t *global, const size_t *local,
            const char *label);

/* Work-group size for k: the largest power of two <= want that the kernel and device allow. */
size_t app_wg(app_t *a, cl_kernel k, size_t want);
/* Same before a program exists: power of two <= want and <= the device's maximum. */
size_t app_dev_wg(app_t *a, size_t want);
size_t app_round_up(size_t x, size_t m);

/* Deterministic inputs: splitmix64 seeded per sample. */
typedef struct { uint64_t s; } app_rng;
void app_rng_seed(app_rng *r, uint64_t seed);
uint32_t app_rand_u32(app_rng *r);
uint32_t app_rand_below(app_rng *r, uint32_t n);           /* uniform in [0, n) */
float app_rand_float(app_rng *r, float lo, float hi);       /* uniform, 24-bit resolution */
/* lo + k * 2^-frac_bits with k uniform: exactly representable values, exact sums/products */
float app_rand_grid(app_rng *r, int lo, int hi, int frac_bits);

/* ---- output files ----------------------------------------------------------------------------
 * With an output directory, writes the n elements of `elem` bytes at `data` (host byte order) to
 * DIR/NAME[.dK].WHAT.bin and appends "FILE TYPE N CHECK" to DIR/MANIFEST.  TYPE: u8 u32 i32 f32;
 * CHECK says how the values were checked and so how two devices' files may differ: `exact`
 * (bit-exact), `either` (each value equals one of two correctly rounded references, e.g. fused or
 * unfused a*b+c; app_check_f32_either also writes them as WHAT.want1 / WHAT.want2, CHECK
 * `reference`), `ulp=B` (within B ulp of the exact result) or `approx` (another error bound).  The app_check_* functions call it;
 * a sample calls it itself for values it checks another way.  A write error fails the device. */
void app_output(app_t *a, const char *what, const char *type, const void *data, size_t elem,
                size_t n, const char *check);

/* ---- result checks: each prints up to 8 mismatches and a summary, returns mismatch count ---- */
size_t app_check_u32(app_t *a, const char *what, const uint32_t *got, const uint32_t *want,
                     size_t n);
size_t app_check_i32(app_t *a, const char *what, const int32_t *got, const int32_t *want,
                     size_t n);
size_t app_check_u8(app_t *a, const char *what, const uint8_t *got, const uint8_t *want,
                    size_t n);
/* bit-exact float comparison (NaN matches NaN) */
size_t app_check_f32(app_t *a, const char *what, const float *got, const float *want, size_t n);
/* got[i] must equal want1[i] or want2[i] (e.g. a*b+c fused or not: OpenCL C allows contraction
 * by default, FP_CONTRACT ON) */
size_t app_check_f32_either(app_t *a, const char *what, const float *got, const float *want1,
                            const float *want2, size_t n);
/* |got - ref| <= max_ulp ulp(ref), ulp measured at the (double) reference as in the OpenCL
 * spec's definition; prints the largest error seen. */
size_t app_check_f32_ulp(app_t *a, const char *what, const float *got, const double *ref,
                         size_t n, double max_ulp);
double app_ulp_error(float got, double ref);

/* ULP bounds of single-precision built-ins (OpenCL 3.0 spec, sec. 7.4, full / embedded
 * profile). */
enum app_ulp_fn { APP_ULP_DIV, APP_ULP_SQRT, APP_ULP_RSQRT, APP_ULP_EXP, APP_ULP_LOG,
                  APP_ULP_SIN, APP_ULP_COS, APP_ULP_TAN, APP_ULP_POW, APP_ULP_ATAN2,
                  APP_ULP_HYPOT, APP_ULP_CBRT, APP_ULP_TANH };
double app_ulp_bound(app_t *a, enum app_ulp_fn fn);

/* CPU references for what the device may compute for x*y+z: fused (one rounding) and unfused
 * (two roundings), independent of how the host compiler contracts. */
float app_fma_ref(float x, float y, float z);
float app_muladd_ref(float x, float y, float z);

#endif

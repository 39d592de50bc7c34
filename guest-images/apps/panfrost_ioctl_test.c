/* panfrost_ioctl_test: drives the Mali GPU through the panfrost DRM ioctls directly (no Mesa):
 *
 *   1. finds the panfrost render node, prints GPU_PROD_ID / revision / cores;
 *   2. creates and maps BOs, submits a chain of WRITE_VALUE jobs (all immediate sizes, one
 *      listed before the job it depends on, a barrier job, a NULL job), waits, checks memory and
 *      the job headers the GPU writes back (Exception Status 1 = DONE), and the fence status;
 *   3. writes into a growable (HEAP) BO: the GPU page-faults, the kernel maps pages on demand
 *      and the job completes;
 *   4. submits a job writing to an unmapped GPU address: the fence must carry an error (the
 *      kernel reports the MMU fault and kills the job) and nothing may be written;
 *   5. submits the good chain again: the GPU has recovered;
 *   6. a COMPUTE job with an empty descriptor fails cleanly (fence error), then recovery;
 *   7. a second DRM file (its own GPU address space) runs the chain on job slot 0 (FS
 *      requirement), then the first one on slot 1.
 *
 *   panfrost_ioctl_test [-v] [DEVICE]      exit status 0 = all passed; prints PASS/FAIL lines
 *
 * The uapi structures are declared here (stable ABI of include/uapi/drm/panfrost_drm.h, drm.h,
 * linux/sync_file.h), so only libc headers are needed. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* ---- uapi ------------------------------------------------------------------------------- */
struct pt_drm_version {
    int version_major, version_minor, version_patchlevel;
    size_t name_len;
    char *name;
    size_t date_len;
    char *date;
    size_t desc_len;
    char *desc;
};
struct pt_gem_close { uint32_t handle, pad; };
struct pt_syncobj_create { uint32_t handle, flags; };
struct pt_syncobj_destroy { uint32_t handle, pad; };
struct pt_syncobj_handle { uint32_t handle, flags; int32_t fd; uint32_t pad; };
struct pt_submit {
    uint64_t jc, in_syncs;
    uint32_t in_sync_count, out_sync;
    uint64_t bo_handles;
    uint32_t bo_handle_count, requirements;
};
struct pt_wait_bo { uint32_t handle, pad; int64_t timeout_ns; };
struct pt_create_bo { uint32_t size, flags, handle, pad; uint64_t offset; };
struct pt_mmap_bo { uint32_t handle, flags; uint64_t offset; };
struct pt_get_param { uint32_t param, pad; uint64_t value; };
struct pt_sync_file_info {
    char name[32];
    int32_t status;
    uint32_t flags, num_fences, pad;
    uint64_t sync_fence_info;
};

#define PT_DRM_IOWR(nr, type) _IOWR('d', nr, type)
#define PT_DRM_IOW(nr, type) _IOW('d', nr, type)
#define PT_IOCTL_VERSION PT_DRM_IOWR(0x00, struct pt_drm_version)
#define PT_IOCTL_GEM_CLOSE PT_DRM_IOW(0x09, struct pt_gem_close)
#define PT_IOCTL_SYNCOBJ_CREATE PT_DRM_IOWR(0xBF, struct pt_syncobj_create)
#define PT_IOCTL_SYNCOBJ_DESTROY PT_DRM_IOWR(0xC0, struct pt_syncobj_destroy)
#define PT_IOCTL_SYNCOBJ_HANDLE_TO_FD PT_DRM_IOWR(0xC1, struct pt_syncobj_handle)
#define PT_SYNCOBJ_EXPORT_SYNC_FILE 1u
#define PT_CMD 0x40 /* DRM_COMMAND_BASE */
#define PT_IOCTL_SUBMIT PT_DRM_IOW(PT_CMD + 0x00, struct pt_submit)
#define PT_IOCTL_WAIT_BO PT_DRM_IOW(PT_CMD + 0x01, struct pt_wait_bo)
#define PT_IOCTL_CREATE_BO PT_DRM_IOWR(PT_CMD + 0x02, struct pt_create_bo)
#define PT_IOCTL_MMAP_BO PT_DRM_IOWR(PT_CMD + 0x03, struct pt_mmap_bo)
#define PT_IOCTL_GET_PARAM PT_DRM_IOWR(PT_CMD + 0x04, struct pt_get_param)
#define PT_SYNC_IOC_FILE_INFO _IOWR('>', 4, struct pt_sync_file_info)
#define PT_BO_NOEXEC 1u
#define PT_BO_HEAP 2u
enum { PARAM_GPU_PROD_ID = 0, PARAM_GPU_REVISION = 1, PARAM_SHADER_PRESENT = 2,
       PARAM_MMU_FEATURES = 12 };

/* ---- job descriptors (Mali v6/v7 job header + WRITE_VALUE payload) ------------------------ */
enum { JOB_NULL = 1, JOB_WRITE_VALUE = 2, JOB_COMPUTE = 4 };
#define PT_JD_REQ_FS 1u
enum { WV_ZERO = 3, WV_IMM8 = 4, WV_IMM16 = 5, WV_IMM32 = 6, WV_IMM64 = 7 };
#define JOB_STRIDE 128 /* header 32 + payload 24, 64-byte aligned */

static int verbose;
static int failures;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    if (!ok)
        failures++;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do
        r = ioctl(fd, req, arg);
    while (r < 0 && (errno == EINTR || errno == EAGAIN));
    return r;
}

typedef struct Bo {
    uint32_t handle, size;
    uint64_t va;
    uint8_t *map;
} Bo;

static int bo_new(int fd, Bo *bo, uint32_t size, uint32_t flags, int map)
{
    struct pt_create_bo c = { .size = size, .flags = flags };
    memset(bo, 0, sizeof *bo);
    if (xioctl(fd, PT_IOCTL_CREATE_BO, &c) < 0) {
        perror("DRM_IOCTL_PANFROST_CREATE_BO");
        return -1;
    }
    bo->handle = c.handle;
    bo->size = size;
    bo->va = c.offset;
    if (!map)
        return 0;
    struct pt_mmap_bo m = { .handle = c.handle };
    if (xioctl(fd, PT_IOCTL_MMAP_BO, &m) < 0) {
        perror("DRM_IOCTL_PANFROST_MMAP_BO");
        return -1;
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
    if (p == MAP_FAILED) {
        perror("mmap BO");
        return -1;
    }
    bo->map = p;
    return 0;
}

static void bo_free(int fd, Bo *bo)
{
    if (bo->map)
        munmap(bo->map, bo->size);
    struct pt_gem_close c = { .handle = bo->handle };
    if (bo->handle)
        xioctl(fd, PT_IOCTL_GEM_CLOSE, &c);
    memset(bo, 0, sizeof *bo);
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Job n of the chain BO: header (Is 64b, type, barrier, index, dependencies, next). */
static void job_header(Bo *jobs, unsigned n, unsigned type, unsigned index, unsigned dep1,
                       unsigned dep2, int barrier, int next)
{
    uint8_t *h = jobs->map + n * JOB_STRIDE;
    memset(h, 0, JOB_STRIDE);
    put32(h + 16, 1u | type << 1 | (barrier ? 1u << 8 : 0) | index << 16);
    put32(h + 20, dep1 | dep2 << 16);
    put64(h + 24, next >= 0 ? jobs->va + (uint64_t)next * JOB_STRIDE : 0);
}

static void job_write_value(Bo *jobs, unsigned n, unsigned index, unsigned dep1, unsigned dep2,
                            int next, uint64_t target, unsigned type, uint64_t imm)
{
    job_header(jobs, n, JOB_WRITE_VALUE, index, dep1, dep2, 0, next);
    uint8_t *p = jobs->map + n * JOB_STRIDE + 32;
    put64(p, target);
    put32(p + 8, type);
    put64(p + 16, imm);
}

static uint32_t job_status(Bo *jobs, unsigned n) { return get32(jobs->map + n * JOB_STRIDE); }

/* Submit a chain starting at job 0 of `jobs`, wait for it; returns the fence status
 * (1 = signalled OK, < 0 = error, 0 = still running) or -1000 on an ioctl failure. */
static int submit_wait_req(int fd, Bo *jobs, uint32_t first, Bo **bos, unsigned nbos,
                           uint32_t req)
{
    struct pt_syncobj_create sc = { 0 };
    if (xioctl(fd, PT_IOCTL_SYNCOBJ_CREATE, &sc) < 0) {
        perror("DRM_IOCTL_SYNCOBJ_CREATE");
        return -1000;
    }
    uint32_t handles[8];
    for (unsigned i = 0; i < nbos && i < 8; i++)
        handles[i] = bos[i]->handle;
    struct pt_submit s = {
        .jc = jobs->va + (uint64_t)first * JOB_STRIDE, .out_sync = sc.handle,
        .bo_handles = (uintptr_t)handles, .bo_handle_count = nbos, .requirements = req,
    };
    int status = -1000;
    if (xioctl(fd, PT_IOCTL_SUBMIT, &s) < 0) {
        perror("DRM_IOCTL_PANFROST_SUBMIT");
        goto out;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); /* WAIT_BO takes an absolute CLOCK_MONOTONIC time */
    int64_t deadline = (int64_t)now.tv_sec * 1000000000ll + now.tv_nsec + 10ll * 1000000000ll;
    for (unsigned i = 0; i < nbos; i++) {
        struct pt_wait_bo w = { .handle = handles[i], .timeout_ns = deadline };
        if (xioctl(fd, PT_IOCTL_WAIT_BO, &w) < 0) {
            perror("DRM_IOCTL_PANFROST_WAIT_BO");
            goto out;
        }
    }
    struct pt_syncobj_handle h = { .handle = sc.handle, .flags = PT_SYNCOBJ_EXPORT_SYNC_FILE,
                                   .fd = -1 };
    if (xioctl(fd, PT_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) < 0) {
        perror("DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD");
        goto out;
    }
    struct pollfd pfd = { .fd = h.fd, .events = POLLIN };
    poll(&pfd, 1, 10000);
    struct pt_sync_file_info info;
    memset(&info, 0, sizeof info);
    if (xioctl(h.fd, PT_SYNC_IOC_FILE_INFO, &info) < 0)
        perror("SYNC_IOC_FILE_INFO");
    else
        status = info.status;
    close(h.fd);
out:;
    struct pt_syncobj_destroy d = { .handle = sc.handle };
    xioctl(fd, PT_IOCTL_SYNCOBJ_DESTROY, &d);
    return status;
}

static int submit_wait(int fd, Bo *jobs, uint32_t first, Bo **bos, unsigned nbos)
{
    return submit_wait_req(fd, jobs, first, bos, nbos, 0);
}

static int open_panfrost(const char *path)
{
    char name[64], buf[32];
    for (int i = 0; i < 16; i++) {
        if (path)
            snprintf(name, sizeof name, "%s", path);
        else if (i < 8)
            snprintf(name, sizeof name, "/dev/dri/renderD%d", 128 + i);
        else
            snprintf(name, sizeof name, "/dev/dri/card%d", i - 8);
        int fd = open(name, O_RDWR | O_CLOEXEC);
        if (fd >= 0) {
            struct pt_drm_version v;
            memset(&v, 0, sizeof v);
            memset(buf, 0, sizeof buf);
            v.name = buf;
            v.name_len = sizeof buf - 1;
            if (xioctl(fd, PT_IOCTL_VERSION, &v) == 0 && !strcmp(buf, "panfrost")) {
                if (verbose)
                    printf("%s: %s %d.%d.%d\n", name, buf, v.version_major, v.version_minor,
                           v.version_patchlevel);
                return fd;
            }
            close(fd);
        }
        if (path)
            break;
    }
    return -1;
}

static uint64_t param(int fd, uint32_t p)
{
    struct pt_get_param g = { .param = p };
    return xioctl(fd, PT_IOCTL_GET_PARAM, &g) == 0 ? g.value : ~0ull;
}

/* The good chain: list order and dependencies
 *   job 0: idx 1, dep idx 2   imm32 0xAAAA0000 -> d[0]   (runs after job 1, overwrites it)
 *   job 1: idx 2              imm32 0xBBBB0000 -> d[0]
 *   job 2: idx 3, dep 1 and 2 imm64               -> d[1]
 *   job 3: idx 4, dep 3       imm16 0x1234        -> d[2] (the other 6 bytes keep 0xFF)
 *   job 4: idx 5              imm8 0x5A           -> d[3]
 *   job 5: idx 6, barrier     NULL
 *   job 6: idx 7, dep 6       zero                -> d[4] */
static void build_good_chain(Bo *jobs, Bo *data)
{
    memset(data->map, 0xFF, 64);
    job_write_value(jobs, 0, 1, 2, 0, 1, data->va + 0, WV_IMM32, 0xAAAA0000u);
    job_write_value(jobs, 1, 2, 0, 0, 2, data->va + 0, WV_IMM32, 0xBBBB0000u);
    job_write_value(jobs, 2, 3, 1, 2, 3, data->va + 8, WV_IMM64, 0x0123456789ABCDEFull);
    job_write_value(jobs, 3, 4, 3, 0, 4, data->va + 16, WV_IMM16, 0xFFFF1234u);
    job_write_value(jobs, 4, 5, 0, 0, 5, data->va + 24, WV_IMM8, 0x15Au);
    job_header(jobs, 5, JOB_NULL, 6, 0, 0, 1, 6);
    job_write_value(jobs, 6, 7, 6, 0, -1, data->va + 32, WV_ZERO, 0x77);
}

static int check_good_chain(Bo *jobs, Bo *data, const char *label)
{
    char what[128];
    int ok = get32(data->map) == 0xAAAA0000u && get32(data->map + 4) == 0xFFFFFFFFu &&
             get64(data->map + 8) == 0x0123456789ABCDEFull &&
             get64(data->map + 16) == 0xFFFFFFFFFFFF1234ull &&
             get64(data->map + 24) == 0xFFFFFFFFFFFFFF5Aull && get64(data->map + 32) == 0;
    if (verbose || !ok)
        for (int i = 0; i < 5; i++)
            printf("  d[%d] = 0x%016llx\n", i, (unsigned long long)get64(data->map + 8 * i));
    snprintf(what, sizeof what, "%s: WRITE_VALUE results in memory (dependency order)", label);
    check(ok, what);
    int all_done = 1;
    for (unsigned n = 0; n < 7; n++)
        if (job_status(jobs, n) != 1) {
            printf("  job %u: exception status 0x%x\n", n, job_status(jobs, n));
            all_done = 0;
        }
    snprintf(what, sizeof what, "%s: job headers written back with DONE", label);
    check(all_done, what);
    return ok && all_done;
}

int main(int argc, char **argv)
{
    const char *dev = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            verbose = 1;
        else
            dev = argv[i];
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    verbose++;
    int fd = open_panfrost(dev);
    verbose--;
    if (fd < 0) {
        printf("FAIL: no panfrost DRM device (is panfrost.ko loaded?)\n");
        return 1;
    }
    uint64_t prod = param(fd, PARAM_GPU_PROD_ID), rev = param(fd, PARAM_GPU_REVISION);
    printf("GPU_PROD_ID 0x%llx revision 0x%llx shader_present 0x%llx mmu_features 0x%llx\n",
           (unsigned long long)prod, (unsigned long long)rev,
           (unsigned long long)param(fd, PARAM_SHADER_PRESENT),
           (unsigned long long)param(fd, PARAM_MMU_FEATURES));
    check(prod != ~0ull && prod != 0, "GET_PARAM GPU_PROD_ID");

    Bo jobs, data, heap, other;
    if (bo_new(fd, &jobs, 4096, 0, 1) || bo_new(fd, &data, 4096, PT_BO_NOEXEC, 1) ||
        bo_new(fd, &other, 4096, PT_BO_NOEXEC, 1)) {
        printf("FAIL: cannot create/map BOs\n");
        return 1;
    }
    printf("BOs: jobs at GPU VA 0x%llx, data at 0x%llx\n", (unsigned long long)jobs.va,
           (unsigned long long)data.va);
    Bo *bos[3] = { &jobs, &data, &other };

    /* 1. a chain of WRITE_VALUE jobs with dependencies */
    build_good_chain(&jobs, &data);
    int st = submit_wait(fd, &jobs, 0, bos, 2);
    check(st == 1, "chain: fence signalled without error");
    check_good_chain(&jobs, &data, "chain");

    /* 2. growable heap: the GPU faults, the kernel maps 2 MiB on demand, the job completes */
    if (bo_new(fd, &heap, 8u << 20, PT_BO_HEAP | PT_BO_NOEXEC, 0) == 0) {
        job_write_value(&jobs, 8, 1, 0, 0, 9, heap.va + (5u << 20) + 0x100, WV_IMM32, 0x600D);
        job_write_value(&jobs, 9, 2, 1, 0, -1, other.va, WV_IMM32, 0xC0FFEE);
        Bo *hb[3] = { &jobs, &heap, &other };
        memset(other.map, 0, 16);
        st = submit_wait(fd, &jobs, 8, hb, 3);
        if (verbose)
            printf("  heap: fence %d, job status 0x%x 0x%x\n", st, job_status(&jobs, 8),
                   job_status(&jobs, 9));
        check(st == 1 && job_status(&jobs, 8) == 1 && job_status(&jobs, 9) == 1 &&
                  get32(other.map) == 0xC0FFEE,
              "heap BO: page fault handled by growing the heap, chain completed");
        bo_free(fd, &heap);
    } else {
        check(0, "heap BO created");
    }

    /* 3. a write to an unmapped GPU address: MMU fault, the job fails, nothing else written */
    uint64_t bad = 0xF0000000ull; /* inside the per-file VA range [32 MiB, 4 GiB), never mapped */
    if (bad >= jobs.va && bad < jobs.va + 4096)
        bad = 0xE0000000ull;
    memset(other.map, 0, 16);
    job_write_value(&jobs, 10, 1, 0, 0, 11, bad, WV_IMM32, 0xBAD);
    job_write_value(&jobs, 11, 2, 1, 0, -1, other.va, WV_IMM32, 0x5EE);
    st = submit_wait(fd, &jobs, 10, bos, 3);
    printf("  fault: fence status %d (%s), job status 0x%x\n", st, st < 0 ? strerror(-st) : "-",
           job_status(&jobs, 10));
    check(st < 0 && st != -1000, "unmapped address: fence carries an error");
    check(job_status(&jobs, 10) != 1 && get32(other.map) == 0,
          "unmapped address: faulting job not DONE, the job after it did not run");

    /* 4. the GPU recovers: the good chain runs again */
    build_good_chain(&jobs, &data);
    st = submit_wait(fd, &jobs, 0, bos, 2);
    check(st == 1, "after the fault: fence signalled without error");
    check_good_chain(&jobs, &data, "after the fault");

    /* 5. a compute job whose descriptor is all zeros (no shader, no state): the job fails,
     * whatever the shader-core model does with it, and the GPU recovers */
    memset(jobs.map + 12 * JOB_STRIDE, 0, 256);
    job_header(&jobs, 12, JOB_COMPUTE, 1, 0, 0, 1, -1);
    st = submit_wait(fd, &jobs, 12, bos, 3);
    printf("  compute: fence status %d, job status 0x%x\n", st, job_status(&jobs, 12));
    check(st < 0 && st != -1000, "empty compute job: fence carries an error");
    build_good_chain(&jobs, &data);
    st = submit_wait(fd, &jobs, 0, bos, 2);
    check(st == 1 && check_good_chain(&jobs, &data, "after the compute job"),
          "after the compute job: chain OK");

    /* 6. two files (two address spaces), one chain on job slot 0, one on slot 1 */
    int fd2 = open_panfrost(dev);
    Bo jobs2, data2;
    if (fd2 < 0 || bo_new(fd2, &jobs2, 4096, 0, 1) || bo_new(fd2, &data2, 4096, PT_BO_NOEXEC, 1)) {
        check(0, "second DRM file with its own BOs");
    } else {
        Bo *bos2[2] = { &jobs2, &data2 };
        build_good_chain(&jobs, &data);
        build_good_chain(&jobs2, &data2);
        int st2 = submit_wait_req(fd2, &jobs2, 0, bos2, 2, PT_JD_REQ_FS);
        st = submit_wait(fd, &jobs, 0, bos, 2);
        check(st == 1 && st2 == 1, "two address spaces: both fences signalled without error");
        check_good_chain(&jobs, &data, "file 1 (slot 1)");
        check_good_chain(&jobs2, &data2, "file 2 (slot 0)");
        bo_free(fd2, &jobs2);
        bo_free(fd2, &data2);
    }
    if (fd2 >= 0)
        close(fd2);

    bo_free(fd, &jobs);
    bo_free(fd, &data);
    bo_free(fd, &other);
    close(fd);
    printf("%s (%d failure%s)\n", failures ? "FAIL" : "PASS", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}

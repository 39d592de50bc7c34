/* Bifrost warp executor: runs decoded clauses (bifrost_decode.h) for one warp of 4 (v6) or 8 (v7)
 * lanes: ALU ops, loads/stores/atomics through bi_mem callbacks, barriers.  Compute workgroups:
 * workgroup.h; its observer (instrumentation): gpu_observer.h. */
#ifndef MALIBU_BIFROST_EXEC_H
#define MALIBU_BIFROST_EXEC_H

#include "bifrost_decode.h"

#define BI_MAX_LANES 8

typedef struct bi_gfx_if bi_gfx_if;     /* graphics messages' front end (bifrost_gfx.h) */

enum bi_exec_status {
    BI_EXEC_OK = 0,
    BI_EXEC_END = 1,             /* every lane finished */
    BI_EXEC_BARRIER = 2,         /* the warp executed a BARRIER (call again to continue) */
    BI_EXEC_STOPPED = 3,         /* a workgroup's runner asked it to stop (workgroup.h) */
    BI_EXEC_BLEND_CALL = 4,      /* a BLEND called a blend shader: run it (bifrost_gfx.h) and call
                                    again to continue */
    BI_EXEC_FAULT = -3,          /* the warp stopped: the bi_fault says why */
    /* results of the texture unit's calls (bifrost_tex.h), which the executor turns into faults */
    BI_EXEC_UNIMPLEMENTED = -1,
    BI_EXEC_ERROR = -2,
};

/* Why execution stopped.  Runners map the kind to their own status (the compute engine: the
 * Mali job exception code); msg is the human-readable detail for logs. */
enum bi_fault_kind {
    BI_FAULT_NONE = 0,
    BI_FAULT_UNIMPLEMENTED,      /* an instruction, modifier or message form the executor does not
                                    support (the message says which, and why if known) */
    BI_FAULT_INVALID,            /* bad encoding, reserved value, staging registers out of range */
    BI_FAULT_BAD_PC,             /* clause address misaligned or outside the program (addr = pc) */
    BI_FAULT_FETCH,              /* the clause's code could not be read (addr = pc) */
    BI_FAULT_MEMORY,             /* a load / store / atomic / texture access failed (addr, when
                                    known; the bi_mem callbacks saw any MMU fault) */
    BI_FAULT_CLAUSE_LIMIT,       /* the clause budget ran out (the shader did not end) */
    BI_FAULT_HOST,               /* host out of memory */
};

typedef struct bi_fault {
    enum bi_fault_kind kind;
    uint64_t addr;
    char msg[160];
} bi_fault;

/* Semantic operation of an FMA/ADD instruction, resolved once per clause. */
typedef struct bi_xinstr {
    uint8_t sem;                 /* enum bi_sem (isa/bifrost/exec.isa) */
    uint8_t nsrcs;
    uint8_t abs[4], neg[4], widen[4];   /* widen: 0 none, 1 h0, 2 h1 */
    uint8_t lane[4];             /* byte (0-3) / half (0-1) selects; 0xff none */
    uint8_t round, clamp, cmp, result_type, sat, not1, not_result, minmax, mux, sext, logic, mask;
    uint8_t seg, size, dlane, ext, preserve_null;   /* memory ops: segment, bytes, lane_dest, extend */
    uint8_t vw;                  /* vector ops: lane width in bits (16 or 8) */
    uint8_t atom_opc, atom_one, atom_ret;   /* atomics: operation, implied operand (1: +1, 2: -1),
                                               RETURN form */
    uint8_t fmode;               /* FREXPE/FREXPM mode, FLOG_TABLE mode, FMA_RSCALE special */
    uint8_t abs_target;          /* branches: the target is an absolute address (0: end the thread) */
    uint8_t clper_xor, clper_group;  /* CLPER: lane index XORed with this lane's (else absolute),
                                        lanes per subgroup */
    uint32_t clper_inactive;     /* CLPER: result when the source lane is not active */
    uint8_t vsel[4][4];          /* vector ops: per source, the source lane feeding each lane
                                    (bit 4 set: a byte widened to a 16-bit lane) */
    uint8_t table;               /* DTSEL_IMM: 1 + table (1 = attribute_1); LEA_ATTR*: its DTSEL's
                                    (0: none, the varying table) */
    uint8_t regfmt;              /* LEA_ATTR*: register format (BI_RF_*, BI_RF_AUTO) */
    uint8_t attr_imm, attr_index; /* LEA_ATTR_IMM: the attribute index is the immediate attr_index */
    uint8_t clock_cycles;        /* LD_GCLK: the cycle counter (else the system timestamp) */
    uint32_t texdesc;            /* TEXS_2D, VAR_TEX: the equivalent TEXC descriptor */
    /* graphics messages (bifrost_exec_gfx.c; regfmt, size = components, attr_imm / attr_index =
     * an immediate index are shared with the ops above) */
    uint8_t vkind, vsample, vupdate, vspecial, vfunc;   /* LD_VAR*: bifrost_gfx.h's enums */
    uint8_t zs_z, zs_s;          /* ZS_EMIT: carries depth / stencil */
    uint8_t var_skip;            /* VAR_TEX.skip */
} bi_xinstr;

/* A clause prepared for execution (decode once, run many times). */
typedef struct bi_xclause {
    bi_clause c;
    bi_xinstr fma[8], add[8];
    uint32_t fau_lo[8], fau_hi[8];   /* constant FAU words after PC-relative modification */
    uint8_t fast_fma[8], fast_add[8]; /* per tuple: lane-loop kind of each unit's instruction */
    unsigned ninstrs;                /* non-NOP FMA/ADD instructions */
    uint64_t epoch;                  /* fetched programs: bi_mem epoch the bytes were last checked in */
    uint8_t *raw;                    /* fetched programs: the clause's bytes */
    const void *jit;                 /* compiled code (bifrost_exec_jit.h), NULL: interpreted */
    struct bi_xclause *next;         /* the clause a warp ran after this one last time (a cache of
                                        bi_exec_program's program look-up) */
    uint32_t index;                  /* in a program: clauses decoded before it (its --stats record
                                        in compiled code: bx_jit_frame.count) */
} bi_xclause;

struct bi_warp;

/* What compiled code counted of one clause for the observer (its counts call, gpu_observer.h),
 * summed over its runs: x ran fall + taken + split times.  In `fall` runs the lanes that ran it
 * all went on to the clause after it (x->c.offset + size), in `taken` runs all to taken_pc (all
 * ones: they finished), in `split` runs (divergent) some to each.  fall_lanes / taken_lanes: the
 * lanes that went each way, summed over all three kinds; `partial`: the runs in which other lanes
 * of the warp, not finished, waited elsewhere. */
typedef struct bi_clause_count {
    const struct bi_xclause *x;
    uint32_t taken_pc;
    uint64_t fall, taken, split;
    uint64_t fall_lanes, taken_lanes;
    uint64_t partial;
} bi_clause_count;

/* Memory seen by LOAD/STORE (global addresses; WLS and TLS segments are offsets from a base;
 * UBO loads index a table of buffers).  read/write return 0, or -1 for a fault. */
typedef struct bi_mem {
    void *ctx;
    int (*read)(void *ctx, uint64_t addr, void *buf, unsigned size);
    int (*write)(void *ctx, uint64_t addr, const void *buf, unsigned size);
    /* Optional atomic read-modify-write of 4/8 naturally aligned bytes (memory = op(old, arg),
     * *old = previous value); NULL: read + write (fine for one host thread). */
    int (*atomic)(void *ctx, uint64_t addr, unsigned size, uint64_t (*op)(uint64_t old, void *arg), void *arg,
                  uint64_t *old);
    /* Shader code for programs made with bi_program_new_fetch: bytes at code offset off; returns
     * the number of bytes read (at most size; it may stop early at a page end, but reads at least
     * one byte), or 0 on a fault. */
    unsigned (*fetch)(void *ctx, uint64_t off, void *buf, unsigned size);
    /* Optional fast path of compiled clauses' 32-bit loads and stores and of atomics: host memory
     * for addr, valid for reads (write = 0), writes (1) or atomics (2: read and write; the
     * executor does them as host compare-and-swap) over [*lo, *hi) (host address = result + (a -
     * addr)); NULL: the access goes through read / write / atomic, which report faults.  Compiled
     * code may keep a range for the rest of a warp's turn (longer: map_gen); it uses none while
     * message is set. */
    uint8_t *(*map)(void *ctx, uint64_t addr, int write, uint64_t *lo, uint64_t *hi);
    /* Optional (the timing plug-in, gpu_timing.h): called before a memory message's lanes access
     * memory, so their accesses can be grouped per message; NULL when timing is off. */
    void (*message)(void *ctx, const struct bi_warp *w);
    /* Optional: a word that changes whenever a range map returned may stop being valid (read
     * atomically); compiled code keeps map's ranges from one warp to the next on a host thread
     * while it and epoch are unchanged.  NULL: it keeps them for one warp's turn only. */
    const uint64_t *map_gen;
    uint64_t epoch;                          /* code validity epoch (see bi_program_new_fetch) */
    uint64_t wls_base;                       /* workgroup-local storage of this warp's workgroup */
    /* 0, or the address from which on memory is private to the warp's host thread (its
     * workgroup's storage): compiled atomics there need no bus lock */
    uint64_t private_base;
    unsigned nubos;
    const uint64_t *ubo_addr;                /* UBO n: address and size in bytes */
    const uint32_t *ubo_size;
    /* texture/image messages (bifrost_tex.c): the job's descriptor tables (DCD) and GPU arch */
    unsigned arch_major;                     /* 6 or 7: pixel format layout */
    uint64_t textures, samplers;             /* 32-byte Texture / Sampler descriptors */
    uint64_t attributes, attr_bufs;          /* 8-byte Attribute / 16-byte Attribute Buffer records */
    /* vertex jobs: the draw's instance size (padded vertex count; 0: not instanced): attribute
     * records index their buffers by vertex + instance * attr_instance_size (bifrost_gfx.h) */
    uint32_t attr_instance_size;
    /* vertex jobs: the DCD's Offset Start, added to the (zero-based) vertex index of attribute
     * loads (panfrost's offset_start: the draw's first or minimum vertex; its varyings are
     * zero-based) */
    uint32_t attr_offset_start;
    uint64_t varyings, vary_bufs;            /* vertex jobs: the varying table LEA_ATTR* reads
                                                without DTSEL_IMM (same record layouts) */
    /* LD_GCLK: the GPU's cycle counter and system timestamp when the job started, and whether
     * they run (cycle counting on); a warp reads them advanced by the tuples it issued so far
     * (one per cycle), the timestamp converted at ts_hz / gpu_hz */
    uint64_t clock_cycles, clock_ts, gpu_hz, ts_hz;
    int clock_running;
    /* graphics messages (LD_VAR*, ATEST, ZS_EMIT, BLEND, LD_TILE / ST_TILE): the front end's
     * callbacks, bifrost_gfx.h; NULL: those messages fault */
    const bi_gfx_if *gfx;
} bi_mem;

typedef struct bi_warp {
    unsigned lanes;                          /* 4 (v6) or 8 (v7) */
    const bi_mem *mem;                       /* NULL: memory instructions fault */
    uint64_t tls_base[BI_MAX_LANES];         /* thread-local storage base per lane */
    unsigned barriers;                       /* BARRIER instructions executed (the device syncs) */
    struct bi_xclause *resume;               /* the clause bi_exec_program ran last (NULL: none):
                                                where its next call looks for the warp's clause */
    uint32_t reg[64][BI_MAX_LANES];          /* r0-r63 per lane */
    uint32_t pc[BI_MAX_LANES];               /* byte offset of each lane's next clause */
    uint8_t done[BI_MAX_LANES];
    uint32_t warp_id, core_id;
    const uint32_t *uniforms;                /* push uniforms (FAU uniform pair n = words 2n, 2n+1) */
    unsigned nuniforms;                      /* in 32-bit words */
    uint64_t clauses_run, lanes_run;         /* statistics: clauses executed, sum of active lanes */
    uint64_t lane_instrs;                    /* statistics: non-NOP instructions x active lanes */
    uint64_t tuples_run;                     /* tuples issued (clause sizes summed): timing model */
    /* graphics (bifrost_gfx.h; zero for compute) */
    void *gfx_ctx;                           /* the front end's state for this warp (its callbacks' ctx) */
    const uint64_t *gfx_fau;                 /* special FAU values 0-31 (ATEST datum, blend
                                                descriptors...); NULL: zero */
    uint64_t blend_shader;                   /* BI_EXEC_BLEND_CALL: the blend shader's address */
    uint32_t helper;                         /* lanes that only run for derivatives (and discarded
                                                lanes): no effect outside the warp */
    uint8_t blend_rt;                        /* render target of the BLEND that called the shader */
    uint8_t blend_lanes;                     /* the lanes that call it */
    uint8_t blend_end;                       /* of those, the lanes that end after it (the
                                                descriptor's return address is 0) */
    uint8_t in_blend;                        /* running a blend shader */
} bi_warp;

/* Prepare a decoded clause; returns BI_EXEC_FAULT (BI_FAULT_UNIMPLEMENTED, the op in the message)
 * when the clause contains an instruction the executor does not support.  In every call below, f
 * may be NULL. */
int bi_prepare_clause(bi_xclause *x, const bi_clause *c, bi_fault *f);

/* Run one prepared clause for the lanes in exec_mask (each lane's pc is updated: next clause
 * or branch target; lanes finishing an END clause are marked done). */
int bi_exec_clause(bi_warp *w, const bi_xclause *x, uint32_t exec_mask, bi_fault *f);

/* Reset a warp: zero registers, all lanes at pc 0. */
void bi_warp_init(bi_warp *w, enum bi_arch arch);

/* Run a whole shader (raw clauses at code[0..len)) with minimum-PC scheduling until every lane is
 * done or max_clauses clauses ran. Returns BI_EXEC_END on completion. */
int bi_exec_shader(bi_warp *w, const uint8_t *code, size_t len, enum bi_arch arch,
                   unsigned max_clauses, bi_fault *f);

/* A shader whose clauses are decoded and prepared once, on first execution, and then shared by
 * every warp that runs it.  code must stay valid while the program exists. */
typedef struct bi_program bi_program;
bi_program *bi_program_new(const uint8_t *code, size_t len, enum bi_arch arch);
/* A program whose code is read through the warps' bi_mem fetch callback, clause by clause, when
 * first executed (decoding is thread-safe: warps on several host threads may share the program).
 * A clause decoded under an earlier bi_mem epoch is read again when first executed under a new
 * one and decoded again if its bytes changed, so one program can serve successive jobs. */
bi_program *bi_program_new_fetch(enum bi_arch arch);
/* (Hands the calling thread's counts for the observer over first: bi_exec_flush.) */
void bi_program_free(bi_program *p);
/* Hand what the calling host thread's compiled code counted for the observer (gpu_observer.h:
 * counts) over to it.  Call at the end of the thread's part of each job, before the job's
 * observer end call, and before a program that thread ran is freed (bi_program_free does). */
void bi_exec_flush(void);
enum bi_arch bi_program_arch(const bi_program *p);
/* Clauses decoded so far (statistics). */
unsigned bi_program_clauses(bi_program *p);

/* Run a warp with minimum-PC scheduling until every lane is done (BI_EXEC_END), the warp executed a
 * BARRIER (BI_EXEC_BARRIER; call again to continue) or max_clauses clauses ran (BI_FAULT_CLAUSE_LIMIT).
 * The observer (gpu_observer.h) sees every clause it runs.  w->resume must be NULL (bi_warp_init)
 * or what an earlier call with the same p left there. */
int bi_exec_program(bi_warp *w, bi_program *p, unsigned max_clauses, bi_fault *f);

/* Back end of programs' clauses: the interpreter (the reference), or clauses compiled to host code
 * when first decoded (x86-64 hosts with AVX2 and FMA; the default there).  Programs decode under
 * the back end chosen when each clause is first run.  bi_set_backend returns -1 (and changes
 * nothing) when the host cannot run compiled code. */
enum bi_backend { BI_BACKEND_INTERP, BI_BACKEND_JIT };
int bi_set_backend(enum bi_backend b);
enum bi_backend bi_get_backend(void);
/* The host code the jit back end emits from now on: "avx2" (AVX2 + FMA) or "sse" (SSE4.1 +
 * SSSE3: 4-lane warps; 8-lane warps then run interpreted).  The default is the best the host
 * has (MALIBU_GPU_JIT_ISA=sse|avx2 chooses too).  Returns -1 (and changes nothing) for another
 * name or a set the host lacks. */
int bi_set_jit_isa(const char *name);
/* The back end p's clauses compile under, instead of the process's (an engine's choice):
 * backend enum bi_backend, jit_isa the host code ("avx2" 2, "sse" 1: bi_jit_isa_code); -1 for
 * either: the process's at each clause's decoding. */
void bi_program_set_backend(bi_program *p, int backend, int jit_isa);
/* "avx2" / "sse" as a jit_isa code, -1 for another name or a set the host lacks. */
int bi_jit_isa_code(const char *name);

/* Float helpers (exported for tests): IEEE binary16 <-> binary32. */
uint32_t bi_f16_to_f32(uint16_t h);
/* round: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero, 4 nearest away */
uint16_t bi_f32_to_f16(uint32_t x, int round);

#endif

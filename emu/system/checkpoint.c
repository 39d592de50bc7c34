/* Saving and resuming the machine (checkpoint.h). */
#include "checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../../devices/board.h"
#include "../../devices/board_ckpt.h"
#include "../../devices/board_gpu.h"
#include "../checkpoint/ckpt.h"
#include "guest_channel.h"
#include "options.h"
#include "smp.h"
#include "stop_signal.h"
#include "sys_ckpt.h"

static struct {
    struct Board *board;
    SysMachine *mach;
    const char *save_path, *load_path, *run_cmd;
    uint64_t quantum; /* --smp-quantum (0: the default): saved for the record */
    bool exit_after, loaded;
    unsigned asker; /* the vCPU whose request stopped the loop */
} ck;

/* The "machine" section: the loop that ran the vCPUs and its place, and who asked. */
typedef struct MachineState {
    uint64_t ncpu, quantum, icount, icount_shift, asker; /* asker == ncpu: nobody (a signal) */
    uint64_t cpu_model; /* --cpu: CpuModel (the guest chose code paths by its ID registers) */
    SmpRrPlace rr;
} MachineState;

static const CkptField machine_fields[] = {
    CKPT_FIELD(MachineState, ncpu, CKPT_T_U64),
    CKPT_FIELD(MachineState, quantum, CKPT_T_U64),
    CKPT_FIELD(MachineState, icount, CKPT_T_U64),
    CKPT_FIELD(MachineState, icount_shift, CKPT_T_U64),
    CKPT_FIELD(MachineState, asker, CKPT_T_U64),
    CKPT_FIELD(MachineState, cpu_model, CKPT_T_U64),
    CKPT_FIELD_NAMED("rr_pos", MachineState, rr.pos, CKPT_T_U32),
    CKPT_FIELD_NAMED("rr_turn_open", MachineState, rr.turn_open, CKPT_T_BOOL),
    CKPT_FIELD_NAMED("rr_progress", MachineState, rr.progress, CKPT_T_BOOL),
    CKPT_FIELD_NAMED("rr_waiting_event", MachineState, rr.waiting_event, CKPT_T_BOOL),
    CKPT_FIELD_NAMED("rr_sleepers", MachineState, rr.sleepers, CKPT_T_U32),
    CKPT_FIELDS_END
};

static int64_t request(SysCPU *s)
{
    if (!ck.save_path)
        return -EOPNOTSUPP;
    if (!smp_can_stop_all())
        return -EOPNOTSUPP; /* options.c refused this */
    if (__atomic_load_n(&ck.mach->stop, __ATOMIC_ACQUIRE))
        return -EBUSY;      /* the machine is stopping anyway */
    ck.asker = s->index;
    ck.mach->stop_status = CHECKPOINT_STOP_STATUS;
    __atomic_store_n(&ck.mach->stop, 1, __ATOMIC_RELEASE);
    s->cpu.exit_request = 1; /* the channel ended the block: the loop sees stop at once */
    return 0;
}

static const char *run_cmd(void)
{
    return ck.loaded ? ck.run_cmd : NULL;
}

void checkpoint_setup(struct Board *b, SysMachine *m, const SystemOptions *o, const char *cmd)
{
    ck.board = b;
    ck.mach = m;
    ck.save_path = o->ckpt_save;
    ck.load_path = o->ckpt_load;
    ck.exit_after = o->ckpt_exit;
    ck.quantum = o->smp_quantum ? o->smp_quantum : SMP_DEFAULT_QUANTUM;
    ck.run_cmd = cmd;
    guest_channel_set_checkpoint(request, run_cmd);
}

static double host_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Write the file (every vCPU stopped at a block boundary).  who: the asking vCPU, or ncpu. */
static bool save_file(unsigned who)
{
    char err[512];
    double t0 = host_s();
    CkptWriter *w = ckpt_writer_open(ck.save_path, err, sizeof err);
    if (!w) {
        fprintf(stderr, "malibu: --checkpoint-save: %s\n", err);
        return false;
    }
    SysMachine *m = ck.mach;
    MachineState ms = { .ncpu = m->ncpu, .quantum = ck.quantum, .asker = who, .cpu_model = cpu_model };
    ms.icount = gtimer_icount(ck.board->gtimer);
    ms.icount_shift = ms.icount ? gtimer_icount_shift(ck.board->gtimer) : 0;
    smp_rr_place(&ms.rr);
    ckpt_begin(w, "machine", 0, CHECKPOINT_MACHINE_VERSION);
    ckpt_fields(w, machine_fields, &ms);
    ckpt_end(w);
    board_ckpt_save(ck.board, w);
    for (unsigned i = 0; i < m->ncpu; i++)
        sys_cpu_ckpt_save(m->cpus[i], w);
    bool ok = ckpt_writer_close(w, err, sizeof err);
    if (!ok) {
        fprintf(stderr, "malibu: --checkpoint-save: %s\n", err);
        return false;
    }
    struct stat st;
    double mb = stat(ck.save_path, &st) == 0 ? st.st_size / 1048576.0 : 0;
    fprintf(stderr, "malibu: checkpoint saved to %s (%.1f MB, %.2f s)\n", ck.save_path, mb, host_s() - t0);
    return true;
}

/* The same with the GPU at rest meanwhile (its jobs write RAM): every job slot idle, between two
 * jobs of its chain, or finished (board_gpu.h).  A run that ends with the save keeps it at rest,
 * so its --stats report counts the GPU's work up to the checkpoint, no more. */
static bool save(unsigned who)
{
    board_gpu_quiesce(ck.board);
    bool ok = save_file(who);
    if (!ok || !(ck.exit_after || stop_signal_received()))
        board_gpu_resume(ck.board);
    return ok;
}

/* Both the saving run after its save and a resumed run go on from here, in the same state: caches
 * empty, and every vCPU leaving its first block at once (the flushes post exit requests to the
 * other vCPUs, and the GIC's lines to those with an interrupt: which ones depends on the order of
 * what happened, so both runs set them all). */
static void settle(void)
{
    SysMachine *m = ck.mach;
    for (unsigned i = 0; i < m->ncpu; i++)
        sys_cpu_ckpt_drop_caches(m->cpus[i]);
    for (unsigned i = 0; i < m->ncpu; i++)
        m->cpus[i]->cpu.exit_request = 1;
}

bool checkpoint_loaded(void)
{
    return ck.loaded;
}

bool checkpoint_load(char *err, size_t errlen)
{
    CkptReader *r = ckpt_reader_open(ck.load_path, err, errlen);
    if (!r)
        return false;
    SysMachine *m = ck.mach;
    MachineState ms;
    CkptSection *s = NULL;
    if (board_ckpt_check(ck.board, r))
        s = ckpt_section(r, "machine", 0, CHECKPOINT_MACHINE_VERSION);
    if (s && ckpt_load_fields(s, machine_fields, &ms)) {
        if (ms.ncpu != m->ncpu)
            ckpt_fail(s, "field 'ncpu': saved with --smp %llu, this run has --smp %u", (unsigned long long)ms.ncpu,
                      m->ncpu);
        else if (ms.cpu_model != (uint64_t)cpu_model)   /* the guest picked its code by the ID registers */
            ckpt_fail(s, "field 'cpu_model': saved with --cpu %s, this run has --cpu %s",
                      ms.cpu_model == CPU_MODEL_A57 ? "a57" : ms.cpu_model == CPU_MODEL_MAX ? "max" : "(unknown)",
                      cpu_model == CPU_MODEL_A57 ? "a57" : "max");
        else if (ms.asker > m->ncpu)
            ckpt_fail(s, "field 'asker': vCPU %llu of %u", (unsigned long long)ms.asker, m->ncpu);
        else if (ms.rr.pos >= m->ncpu)
            ckpt_fail(s, "field 'rr_pos': vCPU %u of %u", ms.rr.pos, m->ncpu);
        else if (ms.rr.sleepers >> m->ncpu)
            ckpt_fail(s, "field 'rr_sleepers': 0x%x names vCPUs beyond %u", ms.rr.sleepers, m->ncpu);
    }
    for (unsigned i = 0; i < m->ncpu && ckpt_ok(r); i++)
        sys_cpu_ckpt_load(m->cpus[i], r);
    if (ckpt_ok(r))
        board_ckpt_load(ck.board, r);
    if (ckpt_ok(r))
        ckpt_finish(r);
    if (!ckpt_ok(r)) {
        snprintf(err, errlen, "--checkpoint-load %s: %s", ck.load_path, ckpt_error(r));
        ckpt_reader_close(r);
        return false;
    }
    ckpt_reader_close(r);
    /* an open turn's end was set by the saved clock's deadlines: it goes on only with that clock */
    ms.rr.turn_open = ms.rr.turn_open && (ms.icount != 0) == gtimer_icount(ck.board->gtimer);
    smp_set_rr_place(&ms.rr);
    for (unsigned i = 0; i < m->ncpu; i++)
        gtimer_set_cpu_online(ck.board->gtimer, i, !m->cpus[i]->powered_off);
    if (ms.asker < m->ncpu)
        m->cpus[ms.asker]->cpu.x[0] = 1; /* its `malibu checkpoint` returns 1: the resumed run */
    settle();
    ck.loaded = true;
    return true;
}

int checkpoint_run(uint64_t reset_pc)
{
    SysMachine *m = ck.mach;
    int status = ck.loaded ? smp_resume() : smp_run(reset_pc);
    while (status == CHECKPOINT_STOP_STATUS) {
        bool ok = save(ck.asker);
        int sig = stop_signal_received();
        if (sig)
            return 128 + sig; /* a stop signal came meanwhile: main ends the run */
        if (ok && ck.exit_after)
            return 0;
        settle(); /* as a resumed run starts */
        m->stop_status = 0;
        __atomic_store_n(&m->stop, 0, __ATOMIC_RELEASE);
        status = smp_resume();
    }
    return status;
}

void checkpoint_save_on_signal(int sig)
{
    if (!ck.save_path)
        return;
    if (!smp_can_stop_all()) {
        fprintf(stderr, "malibu: %s: no checkpoint (vCPUs on their own threads)\n", stop_signal_name(sig));
        return;
    }
    save(ck.mach->ncpu);
}

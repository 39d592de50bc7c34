/* "malibu exit" device (see exitdev.h). */
#include "exitdev.h"
#include "fdt_board.h"

#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>

struct ExitDev {
    uint64_t base;
    ExitDevFn fn;
    void *opaque;
};

ExitDev *exitdev_new(uint64_t base, ExitDevFn fn, void *opaque)
{
    ExitDev *d = calloc(1, sizeof *d);
    if (d) {
        d->base = base;
        d->fn = fn;
        d->opaque = opaque;
    }
    return d;
}

void exitdev_free(ExitDev *d)
{
    free(d);
}

void exitdev_set_fn(ExitDev *d, ExitDevFn fn, void *opaque)
{
    __atomic_store_n(&d->opaque, opaque, __ATOMIC_SEQ_CST);
    __atomic_store_n(&d->fn, fn, __ATOMIC_SEQ_CST);
}

static uint64_t exitdev_read(void *opaque, uint64_t offset, unsigned size)
{
    (void)opaque;
    (void)offset;
    (void)size;
    return 0;
}

static void exitdev_write(void *opaque, uint64_t offset, uint64_t value, unsigned size)
{
    ExitDev *d = opaque;
    if (offset != EXITDEV_REG_STATUS || size != 4)
        return;
    uint32_t v = (uint32_t)value;
    int status = v > 255 ? 255 : (int)v;
    ExitDevFn fn = __atomic_load_n(&d->fn, __ATOMIC_SEQ_CST);
    if (fn)
        fn(__atomic_load_n(&d->opaque, __ATOMIC_SEQ_CST), status);
}

const MmioOps exitdev_ops = { "malibu-exit", exitdev_read, exitdev_write };

int exitdev_fdt_hook(void *fdt, void *opaque)
{
    ExitDev *d = opaque;
    char name[32];
    snprintf(name, sizeof name, "exit@%llx", (unsigned long long)d->base);
    int n = fdt_add_subnode(fdt, 0, name);
    if (n < 0)
        return n;
    /* libfdt inserts each new property first: set them last to first */
    int r = fdt_board_setprop_reg(fdt, n, d->base, EXITDEV_SIZE);
    if (r >= 0)
        r = fdt_setprop_string(fdt, n, "compatible", EXITDEV_COMPATIBLE);
    return r < 0 ? r : 0;
}

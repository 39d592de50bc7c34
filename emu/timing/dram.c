/* DRAM banks and row buffers (dram.h). */
#include "dram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tm_dram {
    tm_dram_cfg cfg;
    uint64_t *open_row;           /* per channel x bank: row + 1, 0 = precharged */
    tm_dram_stats st;
};

static bool pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

int tm_dram_check(const tm_dram_cfg *c, char *err, unsigned errlen)
{
    if (!pow2(c->channels) || !pow2(c->banks) || (uint64_t)c->channels * c->banks > TM_DRAM_MAX_BANKS)
        return snprintf(err, errlen, "dram: channels (%u) and banks (%u) must be powers of two, at most %u banks in all",
                        c->channels, c->banks, TM_DRAM_MAX_BANKS), -1;
    if (!pow2(c->row) || c->row < 64 || c->row > 65536)
        return snprintf(err, errlen, "dram.row %u: a power of two from 64 to 65536 bytes", c->row), -1;
    if (!pow2(c->burst) || c->burst > c->row)
        return snprintf(err, errlen, "dram.burst %u: a power of two up to the row size", c->burst), -1;
    if (!c->tCL || !c->tRCD || !c->tRP || !c->tBURST || c->tRAS < c->tRCD)
        return snprintf(err, errlen, "dram: tCL, tRCD, tRP, tBURST must be > 0 and tRAS >= tRCD"), -1;
    if (c->overhead > 100000)
        return snprintf(err, errlen, "dram.overhead %u: at most 100000 cycles", c->overhead), -1;
    if (!c->mhz || c->mhz > 10000)
        return snprintf(err, errlen, "dram.mhz %u: 1 to 10000", c->mhz), -1;
    return 0;
}

tm_dram *tm_dram_new(const tm_dram_cfg *cfg, char *err, unsigned errlen)
{
    if (tm_dram_check(cfg, err, errlen))
        return NULL;
    tm_dram *d = calloc(1, sizeof(*d));
    if (d)
        d->open_row = calloc((size_t)cfg->channels * cfg->banks, sizeof(*d->open_row));
    if (!d || !d->open_row) {
        free(d);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    d->cfg = *cfg;
    return d;
}

void tm_dram_free(tm_dram *d)
{
    if (d)
        free(d->open_row);
    free(d);
}

void tm_dram_locate(const tm_dram *d, uint64_t addr, unsigned *channel, unsigned *bank, uint64_t *row)
{
    const tm_dram_cfg *c = &d->cfg;
    if (c->map == TM_MAP_ROW_BANK_CH_COL) {    /* a whole row of consecutive bytes per bank */
        uint64_t a = addr / c->row;
        *channel = (unsigned)(a % c->channels);
        a /= c->channels;
        *bank = (unsigned)(a % c->banks);
        *row = a / c->banks;
    } else {                                   /* consecutive bursts rotate over channels, banks */
        uint64_t a = addr / c->burst;
        *channel = (unsigned)(a % c->channels);
        a /= c->channels;
        *bank = (unsigned)(a % c->banks);
        a /= c->banks;
        *row = a / (c->row / c->burst);
    }
}

unsigned tm_dram_access(tm_dram *d, uint64_t addr, unsigned bytes, bool write)
{
    const tm_dram_cfg *c = &d->cfg;
    unsigned ch, bank, lat;
    uint64_t row;
    tm_dram_locate(d, addr, &ch, &bank, &row);
    uint64_t *open = &d->open_row[(size_t)ch * c->banks + bank];
    if (c->closed_page || !*open) {
        lat = c->tRCD + c->tCL + c->tBURST;
        d->st.row_empty++;
    } else if (*open == row + 1) {
        lat = c->tCL + c->tBURST;
        d->st.row_hits++;
    } else {
        lat = c->tRP + c->tRCD + c->tCL + c->tBURST;
        d->st.row_conflicts++;
    }
    unsigned bursts = bytes > c->burst ? (bytes + c->burst - 1) / c->burst : 1;
    lat += (bursts - 1) * c->tBURST + c->overhead;          /* the rest of a line longer than one burst */
    *open = c->closed_page ? 0 : row + 1;
    d->st.reads += !write;
    d->st.writes += write;
    d->st.bytes += (uint64_t)bursts * c->burst;
    d->st.cycles += lat;
    d->st.bank[(size_t)ch * c->banks + bank]++;
    return lat;
}

const tm_dram_stats *tm_dram_get_stats(const tm_dram *d)
{
    return &d->st;
}

const tm_dram_cfg *tm_dram_get_cfg(const tm_dram *d)
{
    return &d->cfg;
}

void tm_dram_clear_stats(tm_dram *d)
{
    memset(&d->st, 0, sizeof(d->st));
}

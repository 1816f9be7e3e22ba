/* Parameters of the memory controller, DRAM and address map: the dram.*
 * rows of src/mem/params_dram.def as a plain struct, so the controller can be
 * built and tested without a configuration. All times in DRAM clock cycles.
 * docs/dram.md explains every field. */
#ifndef SIMTGRID_MEM_DRAM_PARAMS_H
#define SIMTGRID_MEM_DRAM_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtgrid/config.h"
#include "mem/registry.h"

enum dram_page_policy { DRAM_PAGE_OPEN = 0, DRAM_PAGE_CLOSE = 1 };

#define DRAM_ADDR_MAP_MAX 160

typedef struct dram_params {
    unsigned channels, banks, bank_groups;
    unsigned row_bytes, bus_bytes;
    const policy *timing;       /* dram_timing_ops row (src/mem/registry.def) */
    unsigned row_hit_latency, row_conflict_latency;           /* simple */
    unsigned tRCD, tRP, tRAS, tRC, tCL, tWL, tCCD, tCCDL;     /* full */
    unsigned tRRD, tWTR, tRTW, tWR, burst_length, data_rate;  /* full */
    unsigned tFAW, pseudo_channels;                           /* full */
    bool refresh, refresh_stagger;
    bool refresh_per_bank;      /* REFpb: one bank at a time, tRFCpb each */
    unsigned tREFI, tRFC, tRFCpb;
    const policy *sched;        /* dram_sched_ops row */
    unsigned frfcfs_cap;        /* FR-FCFS+Cap: row hits that may pass a bank's oldest (0: no cap) */
    unsigned queue_size;
    enum dram_page_policy page_policy;
    unsigned hint_hold_cycles;
    char addr_map[DRAM_ADDR_MAP_MAX];
    unsigned channel_interleave;
    bool channel_mix;           /* hashed: mixed channel offset instead of fold16 */
    bool write_mask;            /* false: partly written segments cost a read first */
} dram_params;

/* Every field at its default from params_dram.def (the one source of the
 * defaults). */
void dram_params_default(dram_params *p);
/* Ranges and relations the model relies on (powers of two, burst length a
 * multiple of the data rate, ...). On failure returns false, points *key at
 * the parameter to blame and writes "what was expected" to why. The address
 * map string is checked by addrmap_init. */
bool dram_params_check(const dram_params *p, const char **key, char *why, size_t why_len);
/* Reads every dram.* parameter, then checks them and the address map. An
 * error names where the value came from (file:line), the key and what was
 * expected. */
bool dram_params_from_config(dram_params *p, const config *c, GError **err);

/* Data-bus cycles of one burst (full timing): burst_length / data_rate. */
static inline unsigned dram_burst_cycles(const dram_params *p)
{
    return p->burst_length / p->data_rate;
}

/* Every dram.* row bound to its field (for the reader and its test). */
extern const param_bind dram_param_binds[];
extern const size_t dram_param_binds_len;

#endif

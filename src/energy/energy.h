/* The activity-based energy estimate: after a run, reads the blocks' counters
 * from the statistics registry and adds an "energy" block of derived values
 * (nJ per component, the total and the average power). docs/energy.md. */
#ifndef SIMTGRID_ENERGY_H
#define SIMTGRID_ENERGY_H

#include <stdint.h>

#include "simtgrid/config.h"
#include "simtgrid/stats.h"

typedef struct energy_params {
    double issue_pj, lane_pj, rf_pj, rf_read_pj, rf_write_pj;
    double l1_access_pj, l2_access_pj, icnt_flit_pj;
    double dram_activate_pj, dram_byte_pj, dram_access_pj;
    double sm_static_mw, chip_static_mw;
} energy_params;

/* Reads the energy.* parameters of `c` (the defaults when c is NULL). */
void energy_params_read(energy_params *p, const config *c);

/* Adds the "energy" block to `st` for a run of `core_cycles` cycles at
 * `core_mhz` on `nsms` SMs. */
void energy_report(const energy_params *p, stats *st, unsigned nsms, uint64_t core_cycles,
                   double core_mhz);

#endif

/* Address translation of global loads (docs/cache.md, "Address translation"):
 * a per-SM L1 TLB, a TLB shared by a group of SMs, and a page walk past it.
 * Off (tlb.l1_entries = 0) unless a model sets it. */
#ifndef SIMTGRID_MEM_TLB_H
#define SIMTGRID_MEM_TLB_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "simtgrid/config.h"
#include "simtgrid/stats.h"

typedef enum { TLB_GROUP_CONSECUTIVE, TLB_GROUP_H100 } tlb_group_map;

typedef struct tlb_params {
    unsigned l1_entries, l1_ways;      /* per SM; 0 entries = no translation */
    uint64_t page_bytes;
    double l1_miss_port_cycles;        /* LD/ST port time an L1 TLB miss costs the SM */
    unsigned group_sms;                /* consecutive map: SMs per shared TLB */
    tlb_group_map group_map;
    unsigned group_entries, group_ways;
    unsigned group_hit_cycles;         /* added by an L1 miss that hits the shared TLB */
    double group_lookups_per_cycle;    /* the shared TLB's lookups per cycle */
    unsigned walk_cycles;              /* added again by a shared-TLB miss */
} tlb_params;

void tlb_params_default(tlb_params *p);
/* Reads tlb.*; checks the shapes and that the h100 map has gpu.sms = 132. */
bool tlb_params_from_config(tlb_params *p, const config *c, GError **err);
/* Shared TLBs on a chip of `nsms` SMs, and the one SM `sm` uses. */
unsigned tlb_ngroups(const tlb_params *p, unsigned nsms);
unsigned tlb_group_of(const tlb_params *p, unsigned sm);

typedef struct tlb_group tlb_group;
typedef struct tlb tlb;

tlb_group *tlb_group_new(const tlb_params *p);
void tlb_group_free(tlb_group *g);
tlb *tlb_new(const tlb_params *p, tlb_group *g);
void tlb_free(tlb *t);
/* Statistics of an SM's translation under `name` ("sm3"). */
void tlb_register_stats(tlb *t, stats *st, const char *name);

/* The core cycle at which the page of `addr` is translated for an access
 * made at `cycle` (cycle itself on an L1 TLB hit). Called at the current
 * cycle only, by every SM of a group in the order the simulation runs them. */
uint64_t tlb_translate(tlb *t, uint64_t addr, uint64_t cycle);
/* Whole cycles of LD/ST port time the L1 TLB misses so far owe (each adds
 * tlb.l1_miss_port_cycles); the fraction is kept for the next misses. */
unsigned tlb_take_port_cycles(tlb *t);

#endif

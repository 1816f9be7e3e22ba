/* dram.* parameters: defaults read from params_dram.def (so the table that
 * `simtgrid params` prints and the struct can never disagree), and the
 * checks the controller relies on. */
#include "mem/dram_params.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIND(field, kind) {"dram." #field, offsetof(dram_params, field), kind}
const dram_param_binding dram_param_bindings[] = {
    BIND(channels, DRAM_FIELD_UINT),
    BIND(banks, DRAM_FIELD_UINT),
    BIND(bank_groups, DRAM_FIELD_UINT),
    BIND(row_bytes, DRAM_FIELD_UINT),
    BIND(bus_bytes, DRAM_FIELD_UINT),
    BIND(timing, DRAM_FIELD_ENUM),
    BIND(row_hit_latency, DRAM_FIELD_UINT),
    BIND(row_conflict_latency, DRAM_FIELD_UINT),
    BIND(tRCD, DRAM_FIELD_UINT),
    BIND(tRP, DRAM_FIELD_UINT),
    BIND(tRAS, DRAM_FIELD_UINT),
    BIND(tRC, DRAM_FIELD_UINT),
    BIND(tCL, DRAM_FIELD_UINT),
    BIND(tWL, DRAM_FIELD_UINT),
    BIND(tCCD, DRAM_FIELD_UINT),
    BIND(tCCDL, DRAM_FIELD_UINT),
    BIND(tRRD, DRAM_FIELD_UINT),
    BIND(tWTR, DRAM_FIELD_UINT),
    BIND(tRTW, DRAM_FIELD_UINT),
    BIND(tWR, DRAM_FIELD_UINT),
    BIND(burst_length, DRAM_FIELD_UINT),
    BIND(data_rate, DRAM_FIELD_UINT),
    BIND(refresh, DRAM_FIELD_BOOL),
    BIND(tREFI, DRAM_FIELD_UINT),
    BIND(tRFC, DRAM_FIELD_UINT),
    BIND(sched, DRAM_FIELD_ENUM),
    BIND(queue_size, DRAM_FIELD_UINT),
    BIND(page_policy, DRAM_FIELD_ENUM),
    BIND(hint_hold_cycles, DRAM_FIELD_UINT),
    BIND(addr_map, DRAM_FIELD_STRING),
    BIND(channel_interleave, DRAM_FIELD_UINT),
};
#undef BIND
const size_t dram_param_bindings_len = sizeof dram_param_bindings / sizeof dram_param_bindings[0];

/* The rows' names, defaults and enum choices. */
typedef struct def_row {
    const char *name, *def, *choices;
} def_row;
static const def_row def_rows[] = {
#define PARAM(name, type, unit, def, min, max, choices, desc) {name, def, choices},
#include "mem/params_dram.def"
#undef PARAM
};

/* Index of `word` in "a|b|c", or 0 when absent (the .def is checked by the
 * parameter table itself, so absent cannot happen for a valid row). */
static unsigned choice_index(const char *choices, const char *word)
{
    unsigned i = 0;
    size_t n = strlen(word);
    for (const char *p = choices; p && *p; i++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, word, n))
            return i;
        p = bar ? bar + 1 : NULL;
    }
    return 0;
}

void dram_params_default(dram_params *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < sizeof def_rows / sizeof def_rows[0]; i++) {
        const def_row *r = &def_rows[i];
        for (size_t j = 0; j < dram_param_bindings_len; j++) {
            const dram_param_binding *b = &dram_param_bindings[j];
            if (strcmp(b->name, r->name))
                continue;
            char *field = (char *)p + b->offset;
            switch (b->kind) {
            case DRAM_FIELD_UINT:
                *(unsigned *)field = (unsigned)strtoul(r->def, NULL, 10);
                break;
            case DRAM_FIELD_BOOL:
                *(bool *)field = !strcmp(r->def, "true");
                break;
            case DRAM_FIELD_ENUM:
                *(int *)field = (int)choice_index(r->choices, r->def);
                break;
            case DRAM_FIELD_STRING:
                snprintf(field, DRAM_ADDR_MAP_MAX, "%s", r->def);
                break;
            }
        }
    }
}

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

#define FAIL(k, ...)                                 \
    do {                                             \
        *key = (k);                                  \
        snprintf(why, why_len, __VA_ARGS__);         \
        return false;                                \
    } while (0)

bool dram_params_check(const dram_params *p, const char **key, char *why, size_t why_len)
{
    const char *dummy_key;
    char dummy_why[1];
    if (!key)
        key = &dummy_key;
    if (!why) {
        why = dummy_why;
        why_len = sizeof dummy_why;
    }
    if (p->channels < 1 || p->channels > 64)
        FAIL("dram.channels", "expected 1 to 64 channels, got %u", p->channels);
    if (!is_pow2(p->banks) || p->banks > 64)
        FAIL("dram.banks", "expected a power of two from 1 to 64, got %u", p->banks);
    if (!is_pow2(p->bank_groups) || p->bank_groups > p->banks)
        FAIL("dram.bank_groups", "expected a power of two no larger than dram.banks (%u), got %u",
             p->banks, p->bank_groups);
    if (!is_pow2(p->row_bytes) || p->row_bytes < 16)
        FAIL("dram.row_bytes", "expected a power of two of at least 16, got %u", p->row_bytes);
    if (p->bus_bytes < 1)
        FAIL("dram.bus_bytes", "expected at least 1 byte per cycle, got %u", p->bus_bytes);
    if (p->timing != DRAM_TIMING_SIMPLE && p->timing != DRAM_TIMING_FULL)
        FAIL("dram.timing", "expected simple or full");
    if (p->row_hit_latency < 1)
        FAIL("dram.row_hit_latency", "expected at least 1 cycle, got %u", p->row_hit_latency);
    if (p->row_conflict_latency < p->row_hit_latency)
        FAIL("dram.row_conflict_latency", "expected at least dram.row_hit_latency (%u), got %u",
             p->row_hit_latency, p->row_conflict_latency);
    if (p->data_rate < 1 || p->burst_length < p->data_rate || p->burst_length % p->data_rate)
        FAIL("dram.burst_length", "expected a positive multiple of dram.data_rate (%u), got %u",
             p->data_rate, p->burst_length);
    if (p->bank_groups > 1 && p->tCCDL < p->tCCD)
        FAIL("dram.tCCDL", "expected at least dram.tCCD (%u) with bank groups, got %u", p->tCCD,
             p->tCCDL);
    if (p->refresh && (p->tREFI < 1 || p->tRFC >= p->tREFI))
        FAIL("dram.tRFC", "expected less than dram.tREFI (%u) with refresh on, got %u", p->tREFI,
             p->tRFC);
    if (p->sched != DRAM_SCHED_FCFS && p->sched != DRAM_SCHED_FRFCFS)
        FAIL("dram.sched", "expected fcfs or frfcfs");
    if (p->queue_size < 1 || p->queue_size > 4096)
        FAIL("dram.queue_size", "expected 1 to 4096 requests, got %u", p->queue_size);
    if (p->page_policy != DRAM_PAGE_OPEN && p->page_policy != DRAM_PAGE_CLOSE)
        FAIL("dram.page_policy", "expected open or close");
    if (!is_pow2(p->channel_interleave))
        FAIL("dram.channel_interleave", "expected a power of two, got %u", p->channel_interleave);
    return true;
}

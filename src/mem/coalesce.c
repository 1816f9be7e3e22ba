/* Coalescer (coalesce.h). Lines are found through a 128-slot open-addressing
 * table on the stack, so a fully divergent warp costs 32 probes rather than
 * 32 x 32 comparisons; the output order never depends on the table. */
#include "mem/coalesce.h"

#include <stdio.h>
#include <string.h>

#define SLOTS 128  /* > 2 x COALESCE_MAX_ACCESSES: probes stay short */

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

bool coalesce_params_check(const coalesce_params *p, char *why, unsigned long why_len)
{
    if (!is_pow2(p->line_bytes) || p->line_bytes < 4) {
        snprintf(why, why_len, "expected a power-of-two line size of at least 4 bytes, got %u",
                 p->line_bytes);
        return false;
    }
    if (!is_pow2(p->sector_bytes) || p->sector_bytes > p->line_bytes ||
        p->line_bytes / p->sector_bytes > 32) {
        snprintf(why, why_len,
                 "expected a power-of-two sector size dividing the %u-byte line into at most 32 "
                 "sectors, got %u",
                 p->line_bytes, p->sector_bytes);
        return false;
    }
    return true;
}

/* Index of `line` in out[], adding it when new. */
static unsigned find_or_add(uint8_t *slots, coalesce_access *out, unsigned *n, uint64_t line,
                            unsigned line_shift)
{
    uint64_t h = ((line >> line_shift) * 0x9E3779B97F4A7C15ull) >> 57;  /* top 7 bits */
    for (;; h = (h + 1) & (SLOTS - 1)) {
        unsigned s = slots[h];
        if (!s) {
            unsigned i = (*n)++;
            out[i] = (coalesce_access){.line = line};
            slots[h] = (uint8_t)(i + 1);
            return i;
        }
        if (out[s - 1].line == line)
            return s - 1;
    }
}

unsigned coalesce_warp(const coalesce_params *p, const uint64_t addr[COALESCE_LANES],
                       uint32_t active, unsigned size, coalesce_access out[COALESCE_MAX_ACCESSES])
{
    uint8_t slots[SLOTS];
    memset(slots, 0, sizeof slots);
    unsigned line_shift = (unsigned)__builtin_ctz(p->line_bytes);
    unsigned sector_shift = (unsigned)__builtin_ctz(p->sector_bytes);
    uint64_t line_mask = ~(uint64_t)(p->line_bytes - 1);
    if (size == 0)
        size = 1;
    if (size > p->line_bytes)
        size = p->line_bytes;
    unsigned n = 0, last = 0;
    bool have_last = false;
    for (uint32_t lanes = active; lanes; lanes &= lanes - 1) {
        unsigned lane = (unsigned)__builtin_ctz(lanes);
        uint64_t first = addr[lane], end = first + size - 1;  /* inclusive */
        if (end < first)
            end = UINT64_MAX;  /* wraps past the top of the address space */
        for (uint64_t line = first & line_mask;; line += p->line_bytes) {
            uint64_t lo = first > line ? first : line;
            uint64_t hi = end < line + p->line_bytes - 1 ? end : line + p->line_bytes - 1;
            unsigned s0 = (unsigned)((lo - line) >> sector_shift);
            unsigned s1 = (unsigned)((hi - line) >> sector_shift);
            uint32_t sectors = (uint32_t)((s1 - s0 == 31 ? 0xFFFFFFFFu : ((1u << (s1 - s0 + 1)) - 1))
                                          << s0);
            /* Neighbouring lanes usually share a line: try the last one first. */
            unsigned i = have_last && out[last].line == line
                             ? last
                             : find_or_add(slots, out, &n, line, line_shift);
            out[i].sectors |= sectors;
            out[i].lanes |= 1u << lane;
            last = i;
            have_last = true;
            if (hi == end || line + p->line_bytes == 0)
                break;
        }
    }
    return n;
}

uint32_t sector_mask_regroup(uint32_t mask, unsigned from_bytes, unsigned to_bytes,
                             unsigned line_bytes)
{
    if (from_bytes == to_bytes)
        return mask;
    uint32_t out = 0;
    unsigned n_from = line_bytes / from_bytes;
    for (unsigned i = 0; i < n_from && i < 32; i++) {
        if (!(mask >> i & 1))
            continue;
        unsigned b0 = i * from_bytes, b1 = b0 + from_bytes - 1;
        for (unsigned t = b0 / to_bytes; t <= b1 / to_bytes; t++)
            out |= 1u << t;
    }
    return out;
}

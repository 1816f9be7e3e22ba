/* Coalescer (coalesce.h). Lines are found through a 128-slot open-addressing
 * table on the stack, so a fully divergent warp costs 32 probes rather than
 * 32 x 32 comparisons; the output order never depends on the table. */
#include "mem/coalesce.h"

#include <stdio.h>
#include <string.h>

#include "config/param_check.h"

#define SLOTS 128  /* > 2 x COALESCE_MAX_ACCESSES: probes stay short */

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

static inline uint64_t slot_of(uint64_t line, unsigned line_shift)
{
    return ((line >> line_shift) * 0x9E3779B97F4A7C15ull) >> 57;  /* top 7 bits: 0..127 */
}

/* Index of `line` in out[], adding it when new. */
static unsigned find_or_add(uint8_t *slots, coalesce_access *out, unsigned *n, uint64_t line,
                            unsigned line_shift)
{
    for (uint64_t h = slot_of(line, line_shift);; h = (h + 1) & (SLOTS - 1)) {
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

/* The access being extended, kept in registers: consecutive lanes mostly
 * share a line, and writing out[] per lane stalls on store forwarding. */
typedef struct current {
    int i;              /* index in out[], -1 before the first lane */
    bool hashed;        /* slots[] is set up (only once a second line shows up) */
    uint64_t line;
    uint32_t sectors, lanes;
} current;

static inline void add_piece(current *cur, uint8_t *slots, coalesce_access *out, unsigned *n,
                             uint64_t line, unsigned line_shift, uint32_t sectors, uint32_t lane_bit)
{
    if (cur->i < 0 || cur->line != line) {
        if (cur->i >= 0) {
            out[cur->i].sectors = cur->sectors;
            out[cur->i].lanes = cur->lanes;
        }
        if (!*n) {
            /* The first line needs no table: a coalesced warp never builds one. */
            out[0] = (coalesce_access){.line = line};
            *n = 1;
            cur->i = 0;
        } else {
            if (!cur->hashed) {
                memset(slots, 0, SLOTS);
                uint64_t h = slot_of(out[0].line, line_shift);  /* empty table: no probing */
                slots[h] = 1;
                cur->hashed = true;
            }
            cur->i = (int)find_or_add(slots, out, n, line, line_shift);
        }
        cur->line = line;
        cur->sectors = out[cur->i].sectors;
        cur->lanes = out[cur->i].lanes;
    }
    cur->sectors |= sectors;
    cur->lanes |= lane_bit;
}

/* Sectors s0..s1 as a mask; 2u << 31 wraps to 0, which still gives the top bits. */
static inline uint32_t sector_range(unsigned s0, unsigned s1)
{
    return (uint32_t)((2u << s1) - (1u << s0));
}

unsigned coalesce_warp(const coalesce_params *p, const uint64_t addr[COALESCE_LANES],
                       uint32_t active, unsigned size, coalesce_access out[COALESCE_MAX_ACCESSES])
{
    uint8_t slots[SLOTS];  /* set up lazily by add_piece */
    unsigned line_shift = (unsigned)__builtin_ctz(p->line_bytes);
    unsigned sector_shift = (unsigned)__builtin_ctz(p->sector_bytes);
    uint64_t line_mask = ~(uint64_t)(p->line_bytes - 1);
    if (size == 0)
        size = 1;
    if (size > p->line_bytes)
        size = p->line_bytes;
    unsigned n = 0;
    current cur = {.i = -1};
    for (uint32_t lanes = active; lanes; lanes &= lanes - 1) {
        unsigned lane = (unsigned)__builtin_ctz(lanes);
        uint64_t first = addr[lane], end = first + size - 1;  /* inclusive */
        if (end >= first && !((first ^ end) >> line_shift)) {
            /* Fast path: the lane's bytes lie in one line (the usual case). */
            uint64_t line = first & line_mask;
            add_piece(&cur, slots, out, &n, line, line_shift,
                      sector_range((unsigned)((first - line) >> sector_shift),
                                   (unsigned)((end - line) >> sector_shift)),
                      1u << lane);
            continue;
        }
        if (end < first)
            end = UINT64_MAX;  /* wraps past the top of the address space */
        for (uint64_t line = first & line_mask;; line += p->line_bytes) {
            uint64_t lo = first > line ? first : line;
            uint64_t hi = end < line + p->line_bytes - 1 ? end : line + p->line_bytes - 1;
            add_piece(&cur, slots, out, &n, line, line_shift,
                      sector_range((unsigned)((lo - line) >> sector_shift),
                                   (unsigned)((hi - line) >> sector_shift)),
                      1u << lane);
            if (hi == end || line + p->line_bytes == 0)
                break;
        }
    }
    if (cur.i >= 0) {
        out[cur.i].sectors = cur.sectors;
        out[cur.i].lanes = cur.lanes;
    }
    return n;
}

uint32_t sector_mask_regroup(uint32_t mask, unsigned from_bytes, unsigned to_bytes,
                             unsigned line_bytes)
{
    if (from_bytes == to_bytes)
        return mask;
    uint32_t out = 0;
    if (to_bytes > from_bytes) {
        /* Each target sector covers r source sectors: set if any of them is. */
        unsigned r = to_bytes / from_bytes, n_to = line_bytes / to_bytes;
        if (n_to == 1)
            return mask != 0;  /* an unsectored target: the one sector */
        uint32_t group = r >= 32 ? 0xFFFFFFFFu : (1u << r) - 1;
        for (unsigned t = 0; t < n_to && t * r < 32; t++)
            if ((mask >> (t * r)) & group)
                out |= 1u << t;
        return out;
    }
    /* Each source sector spans r target sectors. */
    unsigned r = from_bytes / to_bytes, n_from = line_bytes / from_bytes;
    uint32_t group = r >= 32 ? 0xFFFFFFFFu : (1u << r) - 1;
    for (unsigned i = 0; i < n_from && i * r < 32; i++)
        if (mask >> i & 1)
            out |= group << (i * r);
    return out;
}

/* The bytes of a's line its lanes write: cover[s] bit b = byte 32 s + b;
 * returns the 32-B segments touched. */
static uint32_t cover_bytes(const coalesce_params *p, const uint64_t addr[COALESCE_LANES], unsigned size,
                            const coalesce_access *a, uint32_t cover[32])
{
    if (size == 0)
        size = 1;
    if (size > p->line_bytes)
        size = p->line_bytes;
    uint32_t touched = 0;
    uint64_t end_line = a->line + p->line_bytes;
    for (uint32_t lanes = a->lanes; lanes; lanes &= lanes - 1) {
        uint64_t first = addr[__builtin_ctz(lanes)];
        for (uint64_t b = first < a->line ? a->line : first; b < first + size && b < end_line; b++) {
            unsigned off = (unsigned)(b - a->line);
            cover[off >> 5] |= 1u << (off & 31);
            touched |= 1u << (off >> 5);
        }
    }
    return touched;
}

uint32_t coalesce_partial32(const coalesce_params *p, const uint64_t addr[COALESCE_LANES],
                            unsigned size, const coalesce_access *a)
{
    if (p->line_bytes > 1024)
        return 0;
    uint32_t cover[32] = {0};   /* bytes written, one word per 32-B segment */
    uint32_t touched = cover_bytes(p, addr, size, a, cover);
    uint32_t partial = 0;
    for (uint32_t t = touched; t; t &= t - 1) {
        unsigned s = (unsigned)__builtin_ctz(t);
        if (cover[s] != UINT32_MAX)
            partial |= 1u << s;
    }
    return partial;
}

uint32_t coalesce_words32(const coalesce_params *p, const uint64_t addr[COALESCE_LANES], unsigned size,
                          const coalesce_access *a)
{
    if (p->line_bytes > 128)
        return 0;
    uint32_t cover[32] = {0};
    uint32_t words = 0;
    for (uint32_t t = cover_bytes(p, addr, size, a, cover); t; t &= t - 1) {
        unsigned s = (unsigned)__builtin_ctz(t);
        for (unsigned w = 0; w < 8; w++)
            if ((cover[s] >> (4 * w) & 0xFu) == 0xFu)
                words |= 1u << (8 * s + w);
    }
    return words;
}

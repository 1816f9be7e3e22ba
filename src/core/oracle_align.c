/* ORACLE's alignment of a warp's per-thread traces (oracle_align.h). */
#include <stdbool.h>
#include <string.h>

#include "core/oracle_align.h"
#include "core/pdom.h"

/* End (exclusive) of the segment starting at `from`: just after the first
 * barrier, or the trace's end. */
static uint32_t seg_end(const uint32_t *t, uint32_t len, uint32_t from, const uint8_t *is_bar)
{
    while (from < len)
        if (is_bar[t[from++]])
            break;
    return from;
}

/* Merges lane `l`'s segment t[0..n) into columns `cols` (m of them) by a
 * longest common subsequence; the result replaces cols. False when the
 * table would exceed max_cells. */
static bool merge_lcs(GArray **cols, const uint32_t *t, uint32_t n, unsigned l, uint64_t max_cells)
{
    GArray *a = *cols;
    uint32_t m = a->len;
    const oracle_col *c = (const oracle_col *)(void *)a->data;
    uint64_t w = (uint64_t)n + 1, cells = ((uint64_t)m + 1) * w;
    if (cells > max_cells)
        return false;
    /* L[i][j]: LCS of columns i.. and pcs j.. (suffixes, so the walk below
     * runs forward). */
    uint32_t *L = g_new(uint32_t, cells);
    for (uint64_t j = 0; j <= n; j++)
        L[(uint64_t)m * w + j] = 0;
    for (uint32_t i = m; i-- > 0;) {
        uint32_t *row = L + (uint64_t)i * w, *below = row + w;
        row[n] = 0;
        for (uint32_t j = n; j-- > 0;)
            row[j] = c[i].pc == t[j] ? below[j + 1] + 1 : MAX(below[j], row[j + 1]);
    }
    GArray *b = g_array_sized_new(FALSE, FALSE, sizeof(oracle_col), m + n);
    uint32_t i = 0, j = 0, bit = UINT32_C(1) << l;
    while (i < m || j < n) {
        oracle_col x;
        if (i < m && j < n && c[i].pc == t[j]) {
            /* equal heads: matching them is always optimal for an LCS */
            x = (oracle_col){c[i].pc, c[i].mask | bit};
            i++, j++;
        } else if (j == n || (i < m && L[(uint64_t)(i + 1) * w + j] >= L[(uint64_t)i * w + j + 1])) {
            x = c[i++];   /* ties: the lanes merged earlier go first */
        } else {
            x = (oracle_col){t[j++], bit};
        }
        g_array_append_val(b, x);
    }
    g_free(L);
    g_array_free(a, TRUE);
    *cols = b;
    return true;
}

/* Majority merging of the segments [pos[l], end[l]) of `lanes`. */
static void merge_majority(const uint32_t *const *trace, const uint32_t *end, uint32_t *pos,
                           uint32_t lanes, const uint8_t *is_bar, GArray *out)
{
    for (;;) {
        uint32_t pcs[32], cnt[32], n = 0, best = UINT32_MAX;
        for (uint32_t m = lanes; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (pos[l] >= end[l])
                continue;
            uint32_t pc = trace[l][pos[l]], k = 0;
            while (k < n && pcs[k] != pc)
                k++;
            if (k == n)
                pcs[n] = pc, cnt[n++] = 0;
            cnt[k]++;
        }
        if (!n)
            return;
        for (uint32_t k = 0; k < n; k++) {
            bool kb = is_bar[pcs[k]] != 0;
            if (best == UINT32_MAX)
                best = k;
            else if (kb != (is_bar[pcs[best]] != 0))
                best = kb ? best : k;   /* a barrier only when nothing else is left */
            else if (cnt[k] > cnt[best])
                best = k;
        }
        oracle_col x = {pcs[best], 0};
        for (uint32_t m = lanes; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (pos[l] < end[l] && trace[l][pos[l]] == x.pc) {
                x.mask |= UINT32_C(1) << l;
                pos[l]++;
            }
        }
        g_array_append_val(out, x);
    }
}

/* What PDOM would issue for the segments [pos[l], end[l]) of `lanes`
 * (Fung's DWF thesis 3.2, pdom.h), lanes leaving at the end of their
 * segment; false when the lanes do not start at one pc. */
static bool merge_pdom(const uint32_t *const *trace, const uint32_t *end, uint32_t *pos, uint32_t lanes,
                       const isa_program *prog, GArray *out)
{
    uint32_t pc0 = trace[__builtin_ctz(lanes)][pos[__builtin_ctz(lanes)]];
    for (uint32_t m = lanes; m; m &= m - 1)
        if (trace[__builtin_ctz(m)][pos[__builtin_ctz(m)]] != pc0)
            return false;
    pdom_stack *stk = g_new(pdom_stack, 1);
    pdom_init(stk, pc0, lanes);
    while (!pdom_empty(stk)) {
        oracle_col x = {pdom_top(stk)->pc, pdom_top(stk)->mask};
        g_array_append_val(out, x);
        /* A recorded trace follows the program: a lane not gone goes on at
         * pc + 1 or, having taken the branch, at its target. */
        uint32_t taken = 0, gone = 0;
        for (uint32_t m = x.mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (++pos[l] >= end[l])
                gone |= UINT32_C(1) << l;
            else if (trace[l][pos[l]] != x.pc + 1)
                taken |= UINT32_C(1) << l;
        }
        const isa_inst *in = isa_program_inst(prog, x.pc);
        if (in->op == ISA_OP_BRA || gone)
            pdom_update_two(stk, taken, isa_next_pc(in, x.pc, true), x.pc + 1, x.pc + 1, in->reconv, gone);
        else
            pdom_advance(stk, x.pc + 1);
    }
    g_free(stk);
    return true;
}

void oracle_align(const uint32_t *const *trace, const uint32_t *len, uint32_t lanes,
                  const isa_program *prog, const uint8_t *is_bar, uint64_t max_cells, GArray *out,
                  oracle_align_stats *st)
{
    uint32_t pos[32] = {0}, end[32], p2[32];
    GArray *cand[3];
    for (unsigned k = 0; k < 3; k++)
        cand[k] = g_array_new(FALSE, FALSE, sizeof(oracle_col));
    for (;;) {
        uint32_t live = 0, longest = 0;
        for (uint32_t m = lanes; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (pos[l] < len[l]) {
                live |= UINT32_C(1) << l;
                end[l] = seg_end(trace[l], len[l], pos[l], is_bar);
                longest = MAX(longest, end[l] - pos[l]);
            }
        }
        if (!live)
            break;
        st->segments++;
        /* candidate 0: the progressive LCS alignment, when its tables fit
         * (the columns so far are at least the longest trace) */
        bool ok = (uint64_t)(longest + 1) * (longest + 1) <= max_cells;
        g_array_set_size(cand[0], 0);
        for (uint32_t m = live; ok && m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            ok = merge_lcs(&cand[0], trace[l] + pos[l], end[l] - pos[l], l, max_cells);
        }
        /* candidates 1 and 2: PDOM's own schedule and majority merging */
        memcpy(p2, pos, sizeof p2);
        g_array_set_size(cand[1], 0);
        bool pdom_ok = prog && merge_pdom(trace, end, p2, live, prog, cand[1]);
        memcpy(p2, pos, sizeof p2);
        g_array_set_size(cand[2], 0);
        merge_majority(trace, end, p2, live, is_bar, cand[2]);
        unsigned best = 2;
        if (pdom_ok && cand[1]->len <= cand[best]->len)
            best = 1;
        if (ok && cand[0]->len <= cand[best]->len)
            best = 0;
        st->chosen[best]++;
        g_array_append_vals(out, cand[best]->data, cand[best]->len);
        for (uint32_t m = live; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            pos[l] = end[l];
        }
    }
    for (unsigned k = 0; k < 3; k++)
        g_array_free(cand[k], TRUE);
}

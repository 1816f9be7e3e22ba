/* Memory controller of one channel (see memctrl.h and docs/dram.md).
 *
 * Scheduling is late-binding: a waiting request is committed to its bank
 * (bound) only when its first command issues, so every decision uses the
 * queue as it stands at that cycle. Each bank offers one candidate: its
 * bound request, or the scheduler's choice among its waiting ones (FR-FCFS:
 * the oldest row hit, else the oldest; FCFS: only the oldest waiting request
 * of the whole channel is a candidate, so service starts in arrival order).
 * The timing model says when each candidate's next command may issue; the
 * earliest wins, ties going to column commands (row hits) over row
 * commands, then to the oldest request, as in Rixner's FR-FCFS.
 *
 * Row-hint hold (Narasiman's dissertation, section 7.2): when a hinted
 * request's data is done at `done`, its bank keeps the row open until
 * done + hint_hold_cycles: while no same-row request waits for the bank, a
 * request for another row may not start there before that cycle. The hold
 * ends when a request starts on the bank (the awaited hit, or anything once
 * the window is over), or at a refresh. */
#include "mem/dram_bank.h"
#include "simtgrid/trace.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

/* ---- waiting lists ----------------------------------------------------- */

static void activate(memctrl *mc, uint32_t k)
{
    if (mc->active_pos[k] != MC_NONE)
        return;
    mc->active_pos[k] = mc->nactive;
    mc->active[mc->nactive++] = k;
    /* Its slot is filled by the pick: a bank joins with a new request, so
     * it is dirty (link_waiting). */
}

/* Bank k leaves the active set once it holds no request. */
static void maybe_deactivate(memctrl *mc, uint32_t k)
{
    const mc_bank *b = &mc->banks[k];
    uint32_t pos = mc->active_pos[k];
    if (b->waiting || b->bound != MC_NONE || pos == MC_NONE)
        return;
    uint32_t end = --mc->nactive, last = mc->active[end];
    mc->active[pos] = last;
    mc->active_pos[last] = pos;
    mc->active_pos[k] = MC_NONE;
    mc->slot_at[pos] = mc->slot_at[end];
    mc->slot_key[pos] = mc->slot_key[end];
    mc->slot_cmd[pos] = mc->slot_cmd[end];
    mc->slot_xi[pos] = mc->slot_xi[end];
}

static void link_waiting(memctrl *mc, uint32_t i)
{
    mc_req *r = &mc->reqs[i];
    mc_bank *b = &mc->banks[r->bank];
    r->next = MC_NONE;
    r->prev = b->tail;
    if (b->tail != MC_NONE)
        mc->reqs[b->tail].next = i;
    else
        b->head = i;
    b->tail = i;
    b->waiting++;
    mc_mark(mc, b);
    activate(mc, r->bank);
    r->gnext = MC_NONE;
    r->gprev = mc->gtail;
    if (mc->gtail != MC_NONE)
        mc->reqs[mc->gtail].gnext = i;
    else
        mc->ghead = i;
    mc->gtail = i;
    mc->queued++;
}

static void unlink_waiting(memctrl *mc, uint32_t i)
{
    mc_req *r = &mc->reqs[i];
    mc_bank *b = &mc->banks[r->bank];
    if (r->prev != MC_NONE)
        mc->reqs[r->prev].next = r->next;
    else
        b->head = r->next;
    if (r->next != MC_NONE)
        mc->reqs[r->next].prev = r->prev;
    else
        b->tail = r->prev;
    b->waiting--;
    if (r->gprev != MC_NONE)
        mc->reqs[r->gprev].gnext = r->gnext;
    else
        mc->ghead = r->gnext;
    if (r->gnext != MC_NONE)
        mc->reqs[r->gnext].gprev = r->gprev;
    else
        mc->gtail = r->gprev;
    mc->queued--;
}

/* ---- picking the next command ------------------------------------------ */

static mc_pick bank_pick(const mc_bank *b, uint64_t t)
{
    return (mc_pick){t, b->cand_seq, b->cand, (enum dram_cmd)b->cand_cmd, b->cand_rank, true};
}

/* Recompute the candidates of the banks whose view changed, into their
 * slots (an inactive bank's, which is none, is not kept). */
static void flush_dirty(memctrl *mc)
{
    for (uint32_t d = 0; d < mc->ndirty; d++) {
        uint32_t k = mc->dirty[d];
        mc_bank *b = &mc->banks[k];
        dram_bank_candidate(mc, b);
        uint32_t pos = mc->active_pos[k];
        if (pos == MC_NONE)
            continue;
        bool none = b->cand == MC_NONE;
        mc->slot_at[pos] = none ? UINT64_MAX : b->cand_at;
        mc->slot_key[pos] = none ? UINT64_MAX : b->cand_key;
        mc->slot_cmd[pos] = none ? 0 : b->cand_cmd;
        mc->slot_xi[pos] = none ? 0 : b->cand_xi;
    }
    mc->ndirty = 0;
}

/* The channel's floor for each kind of command, none before cur, from
 * the channel terms pick_next kept in pick_floors (they change only when
 * a command issues or a refresh runs, and either makes the pick stale). */
static void pick_floors(const memctrl *mc, uint64_t floors[DRAM_CMD_COUNT])
{
    for (unsigned k = 0; k < DRAM_CMD_COUNT; k++)
        floors[k] = mc_max(mc->pick_floors[k], mc->cur);
}

/* The hot loop of the controller: one pass over the active banks' slots
 * per command, each mc_with_channel's two max (the command's floor, its
 * group's or pseudo-channel's term) and one (t, key) compare. A slot
 * with no candidate (UINT64_MAX, UINT64_MAX) never wins. */
static mc_pick pick_next(memctrl *mc)
{
    uint64_t floors[DRAM_CMD_COUNT];
    flush_dirty(mc);
    mc->ops->channel_floors(mc, mc->pick_floors);
    pick_floors(mc, floors);
    const uint64_t *at = mc->slot_at, *key = mc->slot_key, *extra = mc->extra;
    const uint8_t *cmd = mc->slot_cmd, *xi = mc->slot_xi;
    uint64_t bt = UINT64_MAX, bk = UINT64_MAX;
    uint32_t win = MC_NONE, n = mc->nactive;
    for (uint32_t a = 0; a < n; a++) {
        uint64_t t = mc_max(mc_max(at[a], floors[cmd[a]]), extra[xi[a]]);
        if (t < bt || (t == bt && key[a] < bk)) {
            bt = t;
            bk = key[a];
            win = a;
        }
    }
    mc_pick best = win != MC_NONE ? bank_pick(&mc->banks[mc->active[win]], bt)
                                  : (mc_pick){.valid = false};
    if (mc->sched->channel_offer)
        mc->sched->channel_offer(mc, floors, &best);
    return best;
}

/* The pick after request i joined its bank's queue, from the fresh pick
 * before it: only that bank's candidate can have changed (the others' and
 * the channel's floors have not: pick_floors reuses the fresh pick's, and
 * its t is >= cur, so raising them to cur moves none), so unless the old
 * winner came from that bank the new pick is the earlier of the two, as
 * the full pass would find (the order is total). A channel-wide offer
 * (fcfs) may change too: full pass. */
static mc_pick pick_after_enqueue(memctrl *mc, uint32_t i)
{
    uint32_t k = mc->reqs[i].bank;
    if (!mc->pick_fresh || mc->sched->channel_offer ||
        (mc->pick.valid && mc->reqs[mc->pick.req].bank == k))
        return pick_next(mc);
    mc_bank *b = &mc->banks[k];
    flush_dirty(mc);   /* bank k only: the fresh pick had flushed the others */
    mc_pick best = mc->pick;
    if (b->cand == MC_NONE)
        return best;
    uint64_t floors[DRAM_CMD_COUNT];
    pick_floors(mc, floors);
    enum dram_cmd cmd = (enum dram_cmd)b->cand_cmd;
    uint64_t t = mc_with_channel(mc, floors, b, b->cand_at, cmd);
    if (mc_earlier(&best, t, b->cand_rank, b->cand_seq))
        best = bank_pick(b, t);
    return best;
}

/* ---- talking to the bank actors (dram_bank.h) -------------------------- */

/* Messages of the current decision go at the group's time: the cycle's
 * first tick, or later in the cycle after an earlier exchange (the group's
 * clock never goes back). */
static void bank_send(memctrl *mc, uint32_t k, dram_bank_msg m)
{
    uint64_t t = mc->cur * DRAM_BANK_TICKS;
    if (t > mc->bank_tick)
        mc->bank_tick = t;
    m.t = mc->cur;
    if (!des_lport_send(mc->bank_actors[k].in, &m, mc->bank_tick))
        g_error("dram channel %u: bank %u's port is full", mc->channel, k);
}

/* Run the banks (they apply the messages one tick after they were sent)
 * and take their reports (one tick later) into the controller's views. */
static void bank_exchange(memctrl *mc, uint32_t first, uint32_t end)
{
    mc->bank_tick += 2;
    des_lgroup_run(mc->bank_group, mc->bank_tick);
    for (uint32_t k = first; k < end; k++) {
        des_lport *out = mc->bank_actors[k].out;
        const dram_bank_report *rep;
        while ((rep = des_lport_peek(out, mc->bank_tick))) {
            dram_bank_view(mc, &mc->banks[k], rep);
            des_lport_pop(out, mc->bank_tick);
        }
    }
}

/* ---- issuing ------------------------------------------------------------ */

static void bind(memctrl *mc, mc_bank *b, uint32_t i, uint64_t t)
{
    mc_req *r = &mc->reqs[i];
    /* FR-FCFS+Cap's count: a younger request passes the bank's oldest, or
     * the oldest starts and the count begins again for the next one. A
     * request binds once, at its first command (issue), so `bypasses` gets
     * one value per request that starts as its bank's oldest. */
    if (i == b->head) {
        mc_hist(mc, &mc->st.bypasses, b->bypassed);
        if (mc->p.frfcfs_cap && b->bypassed >= mc->p.frfcfs_cap)
            mc_count(mc, &mc->st.cap_served, 1);
        b->bypassed = 0;
    } else {
        b->bypassed++;
    }
    bank_send(mc, r->bank, (dram_bank_msg){.kind = DRAM_BANK_START, .row = r->row});
    unlink_waiting(mc, i);
    mc_hist(mc, &mc->st.queue_delay, t - r->arrival);
    b->bound = i;
    mc_mark(mc, b);
    mc->busy++;
}

static void heap_push(memctrl *mc, const mc_done_ent *e)
{
    if (mc->heap_len == mc->heap_cap) {
        /* Only when the wrapper leaves completions uncollected. */
        size_t cap = mc->heap_cap * 2;
        mc->heap = g_renew(mc_done_ent, mc->heap, cap);
        mc->heap_cap = cap;
    }
    size_t i = mc->heap_len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        const mc_done_ent *p = &mc->heap[parent];
        if (p->d.done < e->d.done || (p->d.done == e->d.done && p->seq < e->seq))
            break;
        mc->heap[i] = *p;
        i = parent;
    }
    mc->heap[i] = *e;
}

static mc_done_ent heap_pop(memctrl *mc)
{
    mc_done_ent top = mc->heap[0];
    mc_done_ent last = mc->heap[--mc->heap_len];
    size_t n = mc->heap_len, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && (mc->heap[c + 1].d.done < mc->heap[c].d.done ||
                          (mc->heap[c + 1].d.done == mc->heap[c].d.done &&
                           mc->heap[c + 1].seq < mc->heap[c].seq)))
            c++;
        if (last.d.done < mc->heap[c].d.done ||
            (last.d.done == mc->heap[c].d.done && last.seq < mc->heap[c].seq))
            break;
        mc->heap[i] = mc->heap[c];
        i = c;
    }
    if (n)
        mc->heap[i] = last;
    return top;
}

static void finish(memctrl *mc, mc_bank *b, uint32_t i, uint64_t t)
{
    mc_req *r = &mc->reqs[i];
    b->bound = MC_NONE;
    mc_mark(mc, b);
    mc->busy--;
    maybe_deactivate(mc, r->bank);
    if (r->write) {
        mc_count(mc, &mc->st.writes, 1);
        mc_count(mc, &mc->st.bytes_written, r->bytes);
    } else {
        mc_count(mc, &mc->st.reads, 1);
        mc_count(mc, &mc->st.bytes_read, r->bytes);
    }
    mc_hist(mc, &mc->st.latency, r->done - r->arrival);
    mc_done_ent e = {{r->addr, r->arrival, r->done, r->id, r->write}, r->seq};
    heap_push(mc, &e);
    (void)t;
    bank_send(mc, r->bank, (dram_bank_msg){.kind = DRAM_BANK_DONE, .a = r->done, .hint = r->hint});
    r->next = mc->free_head;
    mc->free_head = i;
}

void memctrl_trace(memctrl *mc, struct trace *t, const char *block, double us_per_cycle)
{
    char *track = g_strdup_printf("%s.cmd", block);
    mc->tr_cmd = trace_track(t, track);
    mc->tr = mc->tr_cmd >= 0 ? t : NULL;
    mc->us_per_cycle = us_per_cycle;
    g_free(track);
}

static void issue(memctrl *mc, const mc_pick *pk)
{
    mc_req *r = &mc->reqs[pk->req];
    mc_bank *b = &mc->banks[r->bank];
    if (b->bound != pk->req)
        bind(mc, b, pk->req, pk->t);
    mc_mark(mc, b);
    if (mc->tr) {
        static const char *const cmd_name[DRAM_CMD_COUNT] = {"PRE", "ACT", "RD", "WR", "serve"};
        trace_complete_on(mc->tr, mc->tr_cmd, cmd_name[pk->cmd], pk->t * mc->us_per_cycle, mc->us_per_cycle);
    }
    dram_bank_msg m = {.kind = DRAM_BANK_CMD, .cmd = (uint8_t)pk->cmd, .row = r->row,
                       .write = r->write};
    bool last = mc->ops->issue(mc, b, r, pk->cmd, pk->t, &m);
    bank_send(mc, r->bank, m);
    if (last)
        finish(mc, b, pk->req, pk->t);
    bank_exchange(mc, r->bank, r->bank + 1);
}

/* Refreshes per tREFI: one for all banks, or one per bank (REFpb in turn,
 * as Ramulator 2's PerBank refresh manager issues HBM3's REFsb). */
static unsigned refresh_slots(const memctrl *mc)
{
    return mc->p.refresh_per_bank ? mc->p.banks : 1;
}

static uint64_t refresh_due_of(const memctrl *mc, uint64_t n)
{
    return mc->refresh_base + n * mc->p.tREFI / refresh_slots(mc);
}

static void refresh(memctrl *mc, uint64_t until)
{
    mc->pick_fresh = false;
    mc->cur = mc_max(mc->cur, mc->refresh_due);
    unsigned first = 0, end = mc->p.banks, trfc = mc->p.tRFC;
    if (mc->p.refresh_per_bank) {
        first = (unsigned)((mc->refresh_n - 1) % mc->p.banks);
        end = first + 1;
        trfc = mc->p.tRFCpb;
    }
    /* Each bank refreshed closes its row, then stays closed to the
     * refresh's end; the others go on. */
    for (unsigned k = first; k < end; k++)
        bank_send(mc, k, (dram_bank_msg){.kind = DRAM_BANK_REFRESH, .a = mc->refresh_due});
    bank_exchange(mc, first, end);
    uint64_t done = mc->ops->refresh(mc, mc->refresh_due, first, end, trfc);
    for (unsigned k = first; k < end; k++)
        bank_send(mc, k, (dram_bank_msg){.kind = DRAM_BANK_REFRESH_END, .a = done});
    bank_exchange(mc, first, end);
    mc_count(mc, &mc->st.refreshes, 1);
    mc->refresh_due = refresh_due_of(mc, ++mc->refresh_n);
    /* Idle: every bank is closed and stays so, and a refresh changes
     * nothing but its banks' last end: of the refreshes due before until,
     * count all but the last round (one per bank) in one step. The last
     * due before until is refresh n_last, the largest n with
     * floor(n tREFI / S) <= until - 1 - base. */
    if (mc->queued == 0 && mc->busy == 0 && mc->refresh_due < until) {
        uint64_t S = refresh_slots(mc);
        uint64_t n_last = ((until - mc->refresh_base) * S - 1) / mc->p.tREFI;
        if (n_last >= mc->refresh_n + S) {
            uint64_t skip = n_last + 1 - S - mc->refresh_n;
            mc_count(mc, &mc->st.refreshes, skip);
            mc->refresh_n += skip;
            mc->refresh_due = refresh_due_of(mc, mc->refresh_n);
        }
    }
}

/* Decide every cycle < until. */
static void run(memctrl *mc, uint64_t until)
{
    if (until <= mc->cur)
        return;
    for (;;) {
        /* The pick cached by the last call stays right while nothing but
         * time has changed: every candidate was then at >= until, so
         * raising the floor to until moves none of them. */
        mc_pick pk = mc->pick_fresh ? mc->pick : pick_next(mc);
        mc->pick = pk;
        mc->pick_fresh = true;
        uint64_t t = pk.valid ? pk.t : MEMCTRL_NEVER;
        if (mc->refresh_due < until && mc->refresh_due <= t) {
            refresh(mc, until);
            continue;
        }
        if (t >= until) {
            mc->next_action = t;
            break;
        }
        mc->cur = t;
        mc->pick_fresh = false;
        issue(mc, &pk);
    }
    mc->cur = until;
}

/* ---- public ------------------------------------------------------------- */

memctrl *memctrl_new(const dram_params *p, const addrmap *map, unsigned channel)
{
    if (!dram_params_check(p, NULL, NULL, 0) || !map || map->banks != p->banks)
        return NULL;
    memctrl *mc = g_new0(memctrl, 1);
    mc->p = *p;
    mc->map = map;
    mc->channel = channel;
    mc->ops = p->timing->ops;
    mc->sched = p->sched->ops;
    mc->burst_cycles = dram_burst_cycles(p);
    mc->atom_bytes = p->bus_bytes * mc->burst_cycles;
    mc->min_latency = mc->ops->min_latency(mc);
    /* Waiting requests are bounded by the queue, bound ones by the banks. */
    mc->nslots = p->queue_size + p->banks;
    mc->reqs = g_new0(mc_req, mc->nslots);
    mc->banks = g_new0(mc_bank, p->banks);
    mc->extra = g_new0(uint64_t, 1 + p->bank_groups + p->pseudo_channels);
    mc->group_next_col = mc->extra + 1;
    mc->pc_next_act = mc->extra + 1 + p->bank_groups;
    mc->pc_faw = g_new0(uint64_t, 4 * p->pseudo_channels);
    mc->pc_faw_pos = g_new0(uint32_t, p->pseudo_channels);
    mc->active = g_new0(uint32_t, p->banks);
    mc->active_pos = g_new(uint32_t, p->banks);
    mc->slot_at = g_new(uint64_t, p->banks);
    mc->slot_key = g_new(uint64_t, p->banks);
    mc->slot_cmd = g_new(uint8_t, p->banks);
    mc->slot_xi = g_new(uint8_t, p->banks);
    mc->dirty = g_new(uint32_t, p->banks);
    mc->heap_cap = p->queue_size + p->banks + 16;
    mc->heap = g_new(mc_done_ent, mc->heap_cap);
    for (uint32_t i = 0; i < mc->nslots; i++)
        mc->reqs[i].next = i + 1 < mc->nslots ? i + 1 : MC_NONE;
    mc->free_head = 0;
    char *gname = g_strdup_printf("dram%u.banks", channel);
    mc->bank_group = des_lgroup_new(gname);
    g_free(gname);
    mc->bank_actors = g_new(dram_bank_actor, p->banks);
    for (unsigned k = 0; k < p->banks; k++) {
        dram_bank_init(&mc->banks[k], k % p->bank_groups);
        mc->banks[k].pc = k % p->pseudo_channels;
        char *name = g_strdup_printf("bank%u", k);
        dram_bank_actor_init(&mc->bank_actors[k], mc->bank_group, name, &mc->p, mc->ops);
        g_free(name);
        mc->active_pos[k] = MC_NONE;
    }
    /* Every bank runs once at time 0 to set itself up. */
    des_lgroup_run(mc->bank_group, 0);
    mc->ghead = mc->gtail = MC_NONE;
    /* Staggered: the channels' refreshes spread evenly over each tREFI, so
     * a request meets a refreshing channel with the same odds at any time,
     * and the lines of one warp load meet them independently. */
    if (p->refresh && p->refresh_stagger && p->channels > 1)
        mc->refresh_base = (uint64_t)p->tREFI * (channel % p->channels) / p->channels;
    mc->refresh_n = 1;
    mc->refresh_due = p->refresh ? refresh_due_of(mc, 1) : MEMCTRL_NEVER;
    mc->next_action = MEMCTRL_NEVER;
    mc->final_cycle = UINT64_MAX;
    stats_hist_init_log2(&mc->st.queue_delay, 20);
    stats_hist_init_log2(&mc->st.hold_wait, 20);
    stats_hist_init_log2(&mc->st.latency, 20);
    stats_hist_init_log2(&mc->st.bypasses, 20);
    return mc;
}

void memctrl_free(memctrl *mc)
{
    if (!mc)
        return;
    g_free(mc->reqs);
    g_free(mc->banks);
    des_lgroup_free(mc->bank_group);
    g_free(mc->bank_actors);
    g_free(mc->extra);
    g_free(mc->pc_faw);
    g_free(mc->pc_faw_pos);
    g_free(mc->active);
    g_free(mc->active_pos);
    g_free(mc->slot_at);
    g_free(mc->slot_key);
    g_free(mc->slot_cmd);
    g_free(mc->slot_xi);
    g_free(mc->dirty);
    g_free(mc->heap);
    g_free(mc->notes);
    g_free(mc);
}

bool memctrl_can_accept(const memctrl *mc)
{
    return mc->queued < mc->p.queue_size;
}

unsigned memctrl_room(const memctrl *mc)
{
    return mc->queued < mc->p.queue_size ? mc->p.queue_size - mc->queued : 0;
}

void memctrl_sync(memctrl *mc, uint64_t now)
{
    run(mc, now);
}

bool memctrl_enqueue(memctrl *mc, const memctrl_req *req, uint64_t now)
{
    /* Requests that started before `now` have left the queue. */
    run(mc, now);
    if (!memctrl_can_accept(mc)) {
        mc_count(mc, &mc->st.refused, 1);
        return false;
    }
    uint32_t i = mc->free_head;
    mc_req *r = &mc->reqs[i];
    mc->free_head = r->next;
    dram_addr a;
    addrmap_decode(mc->map, req->addr, &a);
    *r = (mc_req){.addr = req->addr, .row = a.row, .arrival = now, .seq = mc->seq++,
                  .id = req->id, .bank = a.bank, .bytes = req->bytes, .write = req->write,
                  .hint = req->hint};
    r->bursts_left = mc->ops->bursts(mc, req->bytes);
    link_waiting(mc, i);
    mc->pick = pick_after_enqueue(mc, i);
    mc->pick_fresh = true;
    mc->next_action = mc->pick.valid ? mc->pick.t : MEMCTRL_NEVER;
    return true;
}

/* No completion can come before the next command plus the shortest data
 * latency, or the earliest one decided already. */
uint64_t memctrl_next_done(const memctrl *mc)
{
    uint64_t t = mc->next_action;
    if (t != MEMCTRL_NEVER)
        t += mc->min_latency;
    if (mc->heap_len && mc->heap[0].d.done < t)
        t = mc->heap[0].d.done;
    return t;
}

/* The wrapper need not wake before the next completion, unless the queue
 * is full: then the next command may start a waiting request and free a
 * slot. */
uint64_t memctrl_next_event(const memctrl *mc)
{
    uint64_t t = memctrl_next_done(mc);
    return memctrl_can_accept(mc) || mc->next_action > t ? t : mc->next_action;
}

unsigned memctrl_min_latency(const memctrl *mc) { return mc->min_latency; }

size_t memctrl_advance(memctrl *mc, uint64_t now, memctrl_done *out, size_t max)
{
    if (now != MEMCTRL_NEVER)
        run(mc, now + 1);
    size_t n = 0;
    while (n < max && mc->heap_len && mc->heap[0].d.done <= now)
        out[n++] = heap_pop(mc).d;
    return n;
}

unsigned memctrl_pending(const memctrl *mc)
{
    return mc->queued + mc->busy + (unsigned)mc->heap_len;
}

unsigned memctrl_queued(const memctrl *mc)
{
    return mc->queued;
}

const memctrl_stats *memctrl_get_stats(const memctrl *mc)
{
    return &mc->st;
}

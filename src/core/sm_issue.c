/* Issue: warp statuses, the timing of one warp instruction, memory requests
 * and responses.
 *
 * Timing of an instruction issued at cycle k (docs/core.md, "Timing"):
 *   port passes  P = ceil(warp_size / simd_width): the scheduler's issue port
 *                is busy for cycles k .. k+P-1;
 *   unit passes  U = ceil(warp_size / unit lanes), or the bank-conflict
 *                degree C of a shared-memory access when larger; the unit
 *                accepts its next instruction at k + ii * max(U, C);
 *   smem queue   with core.smem_queue a shared-memory instruction issues
 *                while its unit is busy (room in the unit's queue) and
 *                starts at s = the unit's free cycle: k becomes s below;
 *   completion   done = k + depth - 1 + (latency - 1) + extra,
 *                extra = max(P - 1, ii * (max(U, C) - 1));
 *   barrel       the warp may be fetched again at done + 1 (or k + refetch
 *                for plain instructions when core.refetch_latency > 0);
 *   scoreboard   its results are readable from done + 1; the warp may issue
 *                its next independent instruction when its port is free,
 *                except after a control instruction (no prediction: done + 1);
 *   global mem   the request leaves at k + (latency - 1) + extra (the LD/ST
 *                unit's own latency) and the data written at the response
 *                cycle r completes the instruction at max(done, r). */
#include <string.h>

#include "core/sm_internal.h"
#include "simtgrid/trace.h"
#include "simtgrid/bits.h"

void sm_trace_tracks(sm *s, struct trace *t)
{
    s->tr = t;
    for (unsigned i = 0; i < s->p.schedulers; i++)
        s->sc[i].tr_stall = STALL_KINDS;
    if (!t)
        return;
    s->us_per_cycle = (double)s->clk->period / (double)des_ticks_per_us_of(s->engine);
    s->tr_sched = g_new(int, s->p.schedulers);
    for (unsigned i = 0; i < s->p.schedulers; i++) {
        char *name = g_strdup_printf("%s.sched%u", s->name, i);
        s->tr_sched[i] = trace_track(t, name);
        g_free(name);
    }
    char *name = g_strdup_printf("%s.mem", s->name);
    trace_spans_init(&s->tr_mem, t, name, s->us_per_cycle);
    g_free(name);
    /* Every track of this SM left out by the block filter: no cost. */
    bool any = s->tr_mem.t != NULL;
    for (unsigned i = 0; i < s->p.schedulers; i++)
        any |= s->tr_sched[i] >= 0;
    if (!any)
        s->tr = NULL;
}

static inline uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

bool sm_needs_reply(const sm *s, const isa_inst *in)
{
    return in->cls != ISA_CLASS_ST_GLOBAL || s->p.wait_for_stores;
}

bool sm_is_control(const isa_inst *in)
{
    return in->cls == ISA_CLASS_BRANCH || in->cls == ISA_CLASS_EXIT || in->cls == ISA_CLASS_BARRIER;
}

/* Room for one more request: the port's free slots (as seen now) minus the
 * requests already queued for it. */
bool sm_request_room(const sm *s)
{
    return s->req_out && s->req_space > s->sendq_count && s->sendq_count < s->sendq_cap && s->nfree_tag > 0;
}

/* Scoreboard: WS_MEM or WS_DEP while a register (or predicate) the
 * instruction reads or writes is not ready, else WS_READY. */
/* The registers' ready times only change when the warp's scoreboard is
 * written (its epoch moves), so a wait found earlier still holds (and the
 * latest-ready register stays the latest) until then: no need to read the
 * big per-warp scoreboard, nor the instruction, every cycle. True with the
 * status in *st if the cached verdict holds. */
static inline bool scoreboard_cached(const sm *s, const sm_entity *w, uint64_t cycle, uint64_t *wake,
                                     uint8_t *st)
{
    if (w->sb_until > cycle && w->sb_pc == w->pc && w->sb_epoch == s->hw_epoch[w->hw]) {
        if (w->sb_until == NEVER_CYCLE) {
            *st = WS_MEM;
            return true;
        }
        *wake = min_u64(*wake, w->sb_until);
        *st = WS_DEP;
        return true;
    }
    return false;
}

/* The last cycle the instruction's registers (read or written), predicates
 * and shared-atomic order hold it after `cycle` (0: none); *mem when one
 * waits on an outstanding memory instruction. */
static inline uint64_t register_wait(const sm *s, const sm_entity *w, const isa_inst *in, uint64_t cycle,
                                     bool *mem)
{
    const sm_hw *h = &s->hw[w->hw];
    uint64_t dep = 0;
    *mem = false;
    for (unsigned i = 0; i < in->nreads; i++) {
        uint64_t r = h->reg_ready[in->reads[i]];
        if (r == REG_MEM)
            *mem = true;
        else if (r > cycle)
            dep = max_u64(dep, r);
    }
    for (unsigned i = 0; i < in->ndst; i++) {
        uint64_t r = h->reg_ready[in->dst[i]];
        if (r == REG_MEM)
            *mem = true;
        else if (r > cycle)
            dep = max_u64(dep, r);
    }
    for (unsigned bits = (unsigned)(in->pred_reads | in->pred_writes); bits; bits &= bits - 1) {
        uint64_t r = h->pred_ready[__builtin_ctz(bits)];
        if (r > cycle)
            dep = max_u64(dep, r);
    }
    if (h->satom_ready > cycle && in->cls == ISA_CLASS_ATOMIC && !sm_is_global(in))
        dep = max_u64(dep, h->satom_ready);   /* the warp's previous shared atomic */
    return dep;
}

/* The scoreboard's verdict once scoreboard_cached found none. */
static inline uint8_t scoreboard_status(sm *s, sm_entity *w, const isa_inst *in, uint64_t cycle,
                                        uint64_t *wake)
{
    const sm_hw *h = &s->hw[w->hw];
    bool mem;
    uint64_t dep = register_wait(s, w, in, cycle, &mem);
    if (mem || dep) {
        w->sb_pc = w->pc;
        w->sb_epoch = s->hw_epoch[w->hw];
        w->sb_until = mem ? NEVER_CYCLE : dep;
    }
    if (mem)
        return WS_MEM;
    if (dep) {
        *wake = min_u64(*wake, dep);
        return WS_DEP;
    }
    if (sm_is_global(in) && sm_needs_reply(s, in) && h->mem_pending >= s->p.mem_pending_per_warp)
        return WS_MEM;
    return WS_READY;
}

/* Structural hazards of the execution side: WS_STRUCT until one of the
 * instruction's units is free and every register bank it reads is free to
 * start its operand reads, else WS_READY. */
static inline uint8_t unit_status(sm *s, const sm_entity *w, const isa_inst *in, uint64_t cycle,
                                  uint64_t *wake)
{
    core_unit_kind u = sm_unit_of(&s->p, in);
    uint64_t free_at = NEVER_CYCLE;
    unsigned first, step;
    sm_units_of(&s->p, u, w->sched, &first, &step);
    unsigned depth = u == CORE_UNIT_SMEM ? s->p.smem_queue : 0;
    for (unsigned i = first; i < s->p.unit[u].count; i += step) {
        sm_unit *x = &s->units[u][i];
        if (!depth)
            free_at = min_u64(free_at, x->free_at);
        else   /* core.smem_queue: room in its queue, or when the head starts */
            free_at = min_u64(free_at, sm_unit_queued(x, cycle) < depth ? cycle : x->q->start[x->q->head]);
    }
    if (free_at > cycle) {
        *wake = min_u64(*wake, free_at);
        return WS_STRUCT;
    }
    if (s->p.rf_banks) {
        const sm_sched_state *q = &s->sc[w->sched];
        uint64_t busy = 0;
        for (unsigned i = 0; i < in->nreads; i++)
            busy = max_u64(busy, q->rf_free[in->reads[i] % s->p.rf_banks]);
        if (busy > cycle) {
            *wake = min_u64(*wake, busy);
            return WS_STRUCT;
        }
    }
    return WS_READY;
}

/* A global access needs room for its request: WS_STRUCT without it. A full
 * port frees a slot when the memory side pops: the port wakes the SM when
 * the slot becomes visible, so the SM need not poll (sm.c abandons a cycle
 * whose port state is not yet known). Queued requests leave at known
 * cycles; a missing tag comes back with a response, which is a port event. */
static inline uint8_t request_status(sm *s, uint64_t cycle, uint64_t *wake)
{
    if (sm_request_room(s))
        return WS_READY;
    if (!s->req_out)
        return WS_STRUCT;
    if (s->req_space == 0) {
        des_time r = des_port_next_space(s->req_out);
        if (r != DES_NEVER) {
            *wake = min_u64(*wake, des_edge_at_or_after(s->clk, r) / s->clk->period);
        } else {
            des_port_wait_space(s->req_out, des_cycles(s->clk, cycle));
            s->wait_port = true;
        }
    } else if (s->req_space <= s->sendq_count)
        *wake = min_u64(*wake, s->sendq_at[s->sendq_head]);
    return WS_STRUCT;
}

/* Inlined into compute_statuses, which asks it for every member of a
 * scheduler every cycle it runs (10% of the H100 stream's instructions). */
static inline __attribute__((always_inline)) uint8_t entity_status(sm *s, unsigned e, uint64_t cycle,
                                                                   uint64_t *wake)
{
    sm_entity *w = &s->ent[e];
    if (!w->live)
        return WS_GONE;
    if (w->at_barrier)
        return WS_BARRIER;
    if (w->mem_wait)
        return WS_MEM;
    if (w->held)
        return WS_BARRIER;
    if (w->ready_at > cycle) {
        *wake = min_u64(*wake, w->ready_at);
        return WS_DEP;
    }
    uint8_t st = WS_READY;
    bool sb = s->p.discipline == CORE_SCOREBOARD;
    if (sb && scoreboard_cached(s, w, cycle, wake, &st))
        return st;
    const isa_inst *in = sm_inst_of(s, e);
    if (sb)
        st = scoreboard_status(s, w, in, cycle, wake);
    if (st == WS_READY)
        st = unit_status(s, w, in, cycle, wake);
    if (st == WS_READY && sm_is_global(in))
        st = request_status(s, cycle, wake);
    return st;
}

bool sm_may_issue_global(const sm *s, uint64_t k)
{
    for (unsigned e = 0; e < s->nent_cap; e++) {
        const sm_entity *w = &s->ent[e];
        if (!w->live || w->at_barrier || w->held || w->mem_wait || w->ready_at > k)
            continue;
        const isa_inst *in = sm_inst_of(s, e);
        bool mem;
        if (sm_is_global(in) && (s->p.discipline != CORE_SCOREBOARD || (!register_wait(s, w, in, k, &mem) && !mem)))
            return true;
    }
    return false;
}

uint8_t sm_entity_status(sm *s, unsigned e, uint64_t cycle, uint64_t *wake)
{
    return entity_status(s, e, cycle, wake);
}

/* The (bank, word) of every word the access's lanes touch, sorted: bank in
 * the top bits, so a bank's words are adjacent and equal words are too. */
static unsigned bank_keys(const isa_exec_out *o, uint32_t lanes, unsigned banks, unsigned bb, uint64_t *key)
{
    unsigned n = 0;
    unsigned size = o->access_size ? o->access_size : 1;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t first = o->addr[l] / bb, last = (o->addr[l] + size - 1) / bb;
        for (uint64_t word = first; word <= last && n < 4 * ISA_MAX_LANES; word++)
            key[n++] = (word % banks) << 40 | (word & ((UINT64_C(1) << 40) - 1));
    }
    /* insertion sort: n <= 128, usually 32 */
    for (unsigned i = 1; i < n; i++) {
        uint64_t v = key[i];
        unsigned j = i;
        while (j > 0 && key[j - 1] > v) {
            key[j] = key[j - 1];
            j--;
        }
        key[j] = v;
    }
    return n;
}

/* The most words one bank of the sorted keys must deliver: distinct words
 * (the same word is broadcast), or every lane for `atomic`. */
static unsigned keys_degree(const uint64_t *key, unsigned n, bool atomic)
{
    unsigned best = n ? 1 : 0, run = 0;
    for (unsigned i = 0; i < n; i++) {
        bool new_bank = i == 0 || key[i] >> 40 != key[i - 1] >> 40;
        if (new_bank)
            run = 1;
        else if (atomic || key[i] != key[i - 1])
            run++;
        if (run > best)
            best = run;
    }
    return best ? best : 1;
}

/* core.smem_atomic_half_warps: the two half-warps of an increment one after
 * the other, each with its own bank conflicts (distinct words of its busiest
 * bank; a half without active lanes costs nothing). `key` is scratch; NULL:
 * one pass per active half (the uniform word). */
static unsigned smem_halves(const sm *s, const isa_exec_out *o, uint64_t *key)
{
    unsigned half = s->p.warp_size / 2, passes = 0;
    uint32_t low = half >= 32 ? UINT32_MAX : (UINT32_C(1) << half) - 1;
    for (unsigned h = 0; h < 2; h++) {
        uint32_t m = o->mem_lanes & (h ? ~low : low);
        if (!m)
            continue;
        if (!key) {
            passes++;
            continue;
        }
        unsigned n = bank_keys(o, m, s->p.smem_banks, s->p.smem_bank_bytes, key);
        passes += keys_degree(key, n, false);
    }
    return passes ? passes : 1;
}

unsigned sm_smem_degree(const sm *s, const isa_exec_out *o, const isa_inst *in, unsigned *replays)
{
    bool atomic = in->cls == ISA_CLASS_ATOMIC;
    uint64_t key[4 * ISA_MAX_LANES];
    unsigned n = bank_keys(o, o->mem_lanes, s->p.smem_banks, s->p.smem_bank_bytes, key);
    *replays = 0;
    bool inc = atomic && in->sub == ISA_ATOM_ADD && in->src[1].kind == ISA_OPND_IMM;
    /* An add of a constant to one word for every lane: one update (the
     * H100's ATOMS.POPC.INC; an add of lane values serializes), once per
     * half-warp with core.smem_atomic_half_warps. */
    if (inc && s->p.smem_atomic_uniform && n && key[0] == key[n - 1])
        return s->p.smem_atomic_half_warps ? smem_halves(s, o, NULL) : 1;
    if (!atomic || !s->p.smem_atomic_replay)
        return inc && s->p.smem_atomic_half_warps ? smem_halves(s, o, key) : keys_degree(key, n, atomic);
    /* core.smem_atomic_replay: distinct words of the busiest bank, and a
     * replay for each further lane on the most-shared word */
    unsigned same = n ? 1 : 0, run = 0;
    for (unsigned i = 0; i < n; i++) {
        run = i && key[i] == key[i - 1] ? run + 1 : 1;
        same = run > same ? run : same;
    }
    *replays = same ? same - 1 : 0;
    return inc && s->p.smem_atomic_half_warps ? smem_halves(s, o, key) : keys_degree(key, n, false);
}

/* Bank-conflict degree of an access to `banks` banks of bb-byte words
 * (shared memory; the L1's banks with core.l1d_banks): the most distinct
 * words any one bank must deliver (the same word is broadcast). Atomics
 * serialize every lane of a bank. */
unsigned sm_bank_degree(const isa_exec_out *o, unsigned banks, unsigned bb, bool atomic)
{
    uint64_t key[4 * ISA_MAX_LANES];
    unsigned n = bank_keys(o, o->mem_lanes, banks, bb, key);
    return keys_degree(key, n, atomic);
}

/* Distinct line_bytes-byte lines the lanes of a memory access touch (an
 * access straddling a boundary touches both); at least 1. */
unsigned sm_line_count(const isa_exec_out *o, unsigned line_bytes)
{
    uint64_t line[2 * ISA_MAX_LANES];
    unsigned n = 0;
    unsigned size = o->access_size ? o->access_size : 1;
    for (uint32_t m = o->mem_lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t first = o->addr[l] / line_bytes, last = (o->addr[l] + size - 1) / line_bytes;
        for (uint64_t x = first; x <= last && x <= first + 1; x++) {
            bool seen = false;
            for (unsigned i = 0; i < n && !seen; i++)
                seen = line[i] == x;
            if (!seen)
                line[n++] = x;
        }
    }
    return n ? n : 1;
}

static void send_or_queue(sm *s, const warp_mem_req *r, uint64_t at, uint64_t cycle)
{
    if (at <= cycle && s->sendq_count == 0 &&
        des_port_try_send(s->req_out, r, des_cycles(s->clk, cycle))) {
        s->req_space--;
        return;
    }
    unsigned i = (s->sendq_head + s->sendq_count) % s->sendq_cap;
    s->sendq[i] = *r;
    s->sendq_at[i] = at;
    s->sendq_count++;
}

void sm_send_ready_requests(sm *s, uint64_t cycle)
{
    while (s->sendq_count && s->sendq_at[s->sendq_head] <= cycle) {
        if (!des_port_try_send(s->req_out, &s->sendq[s->sendq_head], des_cycles(s->clk, cycle)))
            return;   /* cannot happen: room was checked at issue */
        s->sendq_head = (s->sendq_head + 1) % s->sendq_cap;
        s->sendq_count--;
    }
    /* An empty queue starts again at slot 0: the ring then touches only as
     * many slots as it ever holds, not all of them as its head wanders, so
     * peak memory does not grow with run length (issue 20). */
    if (!s->sendq_count)
        s->sendq_head = 0;
}

void sm_fault(sm *s, unsigned e, uint32_t pc, const isa_exec_out *o)
{
    s->faults++;
    if (s->error)
        return;
    const sm_cta *c = &s->cta[s->ent[e].cta];
    const isa_program *prog = c->launch->il.prog;
    unsigned lane = (unsigned)__builtin_ctz(o->fault);
    s->error = g_strdup_printf("%s:%u: shared memory access at offset %" G_GUINT64_FORMAT
                               " is outside the CTA's %u bytes (launch %s, CTA %" G_GUINT64_FORMAT
                               ", thread %u, pc %u)",
                               isa_program_file(prog), o->inst->line, o->addr[lane],
                               c->ic->shared_bytes, c->launch->name, c->id,
                               s->hw[s->ent[e].hw].lane[lane]->tid_linear, pc);
    des_stop(s->engine);
}

/* Register-file banks (core.rf_banks = N > 0): register r is in bank
 * r mod N of the scheduler's register file, and a bank reads one register
 * per cycle. An instruction issued at k reads its m distinct source
 * registers of bank b in cycles k .. k + m - 1, so that bank is busy until
 * k + m; an instruction needing a busy bank cannot issue (a structural
 * stall), while one reading other banks may issue at k + 1. The issuing
 * instruction's own latency is unchanged (docs/core.md, "Register-file
 * banks"). Counts the extra read cycles (m - 1 of its busiest bank). */
void sm_rf_book_banks(sm *s, sm_sched_state *st, const isa_inst *in, uint64_t k)
{
    unsigned nb = s->p.rf_banks, worst = 0;
    for (unsigned i = 0; i < in->nreads; i++) {
        unsigned b = in->reads[i] % nb, m = 0;
        for (unsigned j = 0; j < in->nreads; j++)
            m += in->reads[j] % nb == b;
        st->rf_free[b] = k + m;
        if (m > worst)
            worst = m;
    }
    if (worst > 1)
        s->rf_conflict_cycles += worst - 1;
}

/* Books and sends (or queues) the request of global memory instruction
 * `o` of entity e, issued at k: a tag when the warp waits for a reply (it
 * blocks the entity under the barrel discipline, counts against the hw
 * warp's pending requests under the scoreboard), leaving at send_at. */
void sm_send_request(sm *s, unsigned e, const isa_exec_out *o, bool reply, uint64_t done, uint64_t send_at,
                     uint64_t k, uint32_t pc)
{
    sm_entity *w = &s->ent[e];
    sm_cta *c = &s->cta[w->cta];
    const isa_inst *in = o->inst;
    bool barrel = s->p.discipline == CORE_BARREL;
    unsigned tag = 0;
    if (reply) {
        tag = s->free_tag[--s->nfree_tag];
        s->mem[tag] = (sm_mem_op){.used = true, .blocking = barrel, .entity = (uint16_t)e, .hw = w->hw,
                                  .cta = w->cta, .done = done, .issued = k, .inst = in};
        c->mem_outstanding++;
        if (barrel)
            w->mem_wait++;
        else
            s->hw[w->hw].mem_pending++;
    } else if (s->store_acks) {
        c->mem_outstanding++;   /* a store the warp does not wait for: its CTA does */
    }
    warp_mem_req r;
    memset(&r, 0, sizeof r);
    for (uint32_t m = o->mem_lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        r.addr[l] = o->addr[l];
    }
    r.active = o->mem_lanes;
    r.tag = tag;
    r.sm = (uint16_t)s->id;
    r.warp = w->hw;
    r.op = in->cls == ISA_CLASS_LD_GLOBAL ? MEM_LOAD
         : in->cls == ISA_CLASS_ST_GLOBAL ? MEM_STORE : MEM_ATOMIC;
    r.size = (uint8_t)o->access_size;
    r.flags = (uint8_t)((in->cache == ISA_CACHE_CG ? MEM_L2_ONLY : 0) |
                        (in->cache == ISA_CACHE_CS ? MEM_STREAM : 0) |
                        (in->row_hint ? MEM_ROW_HINT : 0) | (reply ? 0 : MEM_NO_REPLY));
    if (s->rc->mem_partial && reply && r.op == MEM_LOAD)
        r.flags |= MEM_LANE_REPORT;
    r.pc = pc;
    r.kernel = c->launch->trace ? c->launch->trace->name : isa_program_name(c->launch->il.prog);
    r.ready_at = send_at;
    /* DaCache's gauged insertion needs the warp's GTO priority (Wang, ch. 4) */
    if (s->send_prio) {
        int rank = sm_sched_rank(s, w->sched, e);
        r.prio = (uint8_t)(rank < 0 ? 0 : rank > 255 ? 255 : rank);
    }
    if (s->fb) {   /* OAWS: the SM-wide rank trains FCW; the prediction is in flight */
        unsigned g = sm_global_rank(s, e);
        r.gprio = (uint8_t)(g > 255 ? 255 : g);
        r.pred = s->pred[e];
        mem_add_inflight(s->fb, r.pred);
    }
    s->mem_requests++;
    send_or_queue(s, &r, send_at, k);
}

/* Executes entity e at cycle k; the first entity of a slot books the unit,
 * the issue port and the lanes. Returns false if the entity vanished. */
/* The first issue of an instruction (a formation policy may issue it in
 * several sub-warps): the least busy unit of its kind, the slot's timing,
 * the register banks, and the issue counts. */
static void claim_unit(sm *s, unsigned sc, const isa_inst *in, const isa_exec_out *o, uint64_t k,
                       slot_timing *t)
{
    const core_params *p = &s->p;
    sm_sched_state *st = &s->sc[sc];
    core_unit_kind u = sm_unit_of(p, in);
    const core_unit_params *up = &p->unit[u];
    unsigned latency = sm_latency_of(p, in, u);
    unsigned lat_extra;
    unsigned passes = sm_unit_passes(s, u, o, in, &lat_extra);
    unsigned unit0, step;
    sm_units_of(p, u, sc, &unit0, &step);
    sm_unit *unit = &s->units[u][unit0];
    for (unsigned i = unit0 + step; i < up->count; i += step)
        if (s->units[u][i].free_at < unit->free_at)
            unit = &s->units[u][i];
    uint64_t start = sm_unit_claim(unit, k, (uint64_t)up->ii * passes, u == CORE_UNIT_SMEM && p->smem_queue);
    s->smem_queue_cycles += start - k;
    uint64_t extra = sm_pass_extra(s, u, in, passes) + lat_extra + (start - k);
    t->unit = u;
    t->passes = passes;
    t->send_at = k + (latency - 1) + extra;
    t->done = k + p->pipeline_depth - 1 + (latency - 1) + extra;
    t->threads = 0;
    st->port_free = k + s->passes_port;
    if (p->rf_banks)
        sm_rf_book_banks(s, st, in, k);
    s->warp_insts++;
    st->st.issued++;
    if (s->tr)   /* the issue port's busy cycles: spans of one track never overlap */
        trace_complete_on(s->tr, s->tr_sched[sc], isa_op_name((isa_op)in->op), k * s->us_per_cycle,
                          s->passes_port * s->us_per_cycle);
}

/* Active lanes per cycle of the issue passes, for the FU histogram. */
static void count_lanes(sm *s, sm_sched_state *st, uint32_t active, unsigned nthreads, uint64_t k)
{
    unsigned simd = s->p.simd_width;
    for (unsigned ps = 0; ps < s->passes_port; ps++) {
        unsigned lanes;
        if (s->rc->packs) {
            unsigned before = ps * simd;
            lanes = nthreads > before ? (nthreads - before < simd ? nthreads - before : simd) : 0;
        } else {
            uint32_t chunk = simd >= 32 ? UINT32_MAX : ((UINT32_C(1) << simd) - 1) << (ps * simd);
            lanes = (unsigned)sg_popcount32(active & chunk);
        }
        st->lanes_ring[(k + ps) % 64] += (uint16_t)lanes;
    }
}

/* When the warp may issue again: barrel processing waits for the
 * instruction (or the re-fetch latency); a scoreboard marks the registers
 * it writes. */
static void set_ready(sm *s, sm_entity *w, const isa_inst *in, const slot_timing *t, uint64_t k,
                      bool reply)
{
    const core_params *p = &s->p;
    if (p->discipline == CORE_BARREL) {
        if (p->refetch_latency && !sm_is_control(in) && !reply)
            w->ready_at = k + p->refetch_latency;
        else
            w->ready_at = t->done + 1;
        return;
    }
    sm_hw *h = &s->hw[w->hw];
    w->ready_at = sm_is_control(in) ? t->done + 1 : k + 1;
    if (p->smem_atomic_serial && t->unit == CORE_UNIT_SMEM && in->cls == ISA_CLASS_ATOMIC)
        h->satom_ready = t->done + 1;
    uint64_t ready = reply ? REG_MEM : t->done + 1;
    for (unsigned i = 0; i < in->ndst; i++)
        h->reg_ready[in->dst[i]] = ready;
    for (unsigned bits = in->pred_writes; bits; bits &= bits - 1)
        h->pred_ready[__builtin_ctz(bits)] = t->done + 1;
    s->hw_epoch[w->hw]++;
}

static void issue_entity(sm *s, unsigned sc, unsigned e, uint64_t k, slot_timing *t, bool first)
{
    if (s->rc->form) {
        sm_issue_formed(s, sc, e, k, t);
        return;
    }
    sm_entity *w = &s->ent[e];
    sm_cta *c = &s->cta[w->cta];
    sm_hw *h = &s->hw[w->hw];
    sm_entity_touched(s, e);   /* its pc, timing and scoreboard move */
    sm_hw_touched(s, w->hw);
    const isa_program *prog = c->launch->il.prog;
    uint32_t pc = w->pc;
    const isa_inst *in = sm_inst_of(s, e);
    isa_exec_out o;
    c->ic->clock = k;
    if (w->trace)
        atrace_exec(c->launch->trace, w->trace, pc, h->lanes, &o);
    else
        isa_exec(prog, pc, h->lane, w->active, &o);
    if (o.fault)
        sm_fault(s, e, pc, &o);
    unsigned nthreads = (unsigned)sg_popcount32(w->active);
    const core_params *p = &s->p;
    sm_sched_state *st = &s->sc[sc];
    if (first)
        claim_unit(s, sc, in, &o, k, t);
    if (s->rc->packs && t->unit == CORE_UNIT_LDST && s->p.mimd_pack_memory > 1)
        sm_pack_mem_add(s, t, &o, first);
    t->threads += nthreads;
    st->cur_threads = t->threads > p->warp_size ? p->warp_size : t->threads;
    count_lanes(s, st, w->active, nthreads, k);
    s->thread_insts += nthreads;
    sm_count_rf(s, in, nthreads);
    s->class_count[in->cls]++;
    if (c->end < t->done)
        c->end = t->done;
    if (s->hook)
        s->hook(s->hook_ctx, s->id, k, sc, w->hw, pc, w->active);

    bool global = sm_is_global(in) && o.mem_lanes;
    bool reply = global && sm_needs_reply(s, in);
    set_ready(s, w, in, t, k, reply);
    if (global)
        sm_send_request(s, e, &o, reply, t->done, t->send_at, k, pc);

    sm_issue_retire(s, e, pc, in, &o, (unsigned)sg_popcount32(o.exited), t->done);
}

void sm_issue_retire(sm *s, unsigned e, uint32_t pc, const isa_inst *in, const isa_exec_out *o,
                     unsigned exited, uint64_t done)
{
    const sm_entity *w = &s->ent[e];
    uint16_t cta = w->cta;
    bool barrier = in->cls == ISA_CLASS_BARRIER;
    if (w->trace)
        sm_trace_after_issue(s, e, pc);   /* may free e */
    else
        s->rc->after_issue(s, e, pc, o);   /* may free e */
    if (s->ent[e].live)
        sm_set_status(s, e, WS_DEP);
    if (exited)
        sm_threads_exited(s, cta, exited);
    if (barrier && s->ent[e].live)
        sm_barrier_arrive(s, e, done);
}

/* Statuses of scheduler sc's members at cycle k; the changed ones are
 * reported to its actor (sm_set_status, unrolled: room reserved once).
 * When every member waits on a time or a memory event (WS_DEP and above;
 * none READY or STRUCT, which read the units and the request port), the
 * statuses hold until the earliest of those times unless something
 * changes a member's status inputs (sm_entity_touched, sm_hw_touched, a
 * status set, the member set; sm_statuses_changed for all): a
 * later cycle before it reuses them, with the same wake-up and nothing to
 * report, instead of visiting every member (reconv_ops.stable_statuses). */
static void compute_statuses(sm *s, unsigned sc, uint64_t k, uint64_t *wake, uint8_t *worst, int *lone)
{
    sm_sched_state *q = &s->sc[sc];
    sched_actor *a = &q->act;
    sched_actor_reserve(a, s->sched_group, &s->sched_tick, q->n);
    if (q->st_valid && k >= q->st_from && k < q->st_until) {
        *wake = min_u64(*wake, q->st_until);
        *worst = q->st_worst;
        *lone = -1;
        return;
    }
    sched_report *box = a->box;
    unsigned nb = a->nbox;
    uint8_t best = WS_GONE;
    uint64_t until = NEVER_CYCLE;
    unsigned nready = 0, ready = 0;
    for (unsigned i = 0; i < q->n; i++) {
        unsigned id = q->members[i];
        uint8_t st = entity_status(s, id, k, &until);
        if (s->status[id] != st) {
            s->status[id] = st;
            box[nb++] = id | (uint64_t)st << 32;
        }
        if (st < best)
            best = st;
        if (st == WS_READY) {
            nready++;
            ready = id;
        }
    }
    a->nbox = nb;
    *worst = best;
    *lone = nready == 1 ? (int)ready : -1;
    *wake = min_u64(*wake, until);
    q->st_valid = s->rc->stable_statuses && best > WS_STRUCT;
    q->st_from = k;
    q->st_until = until;
    q->st_worst = best;
}

/* MIMD bound: fill the slot with more READY entities of the same unit kind,
 * any threads on any free lanes, up to warp_size threads; not shared
 * memory, and global memory only as core.mimd_pack_memory lets it. */
static void pack_more(sm *s, unsigned sc, uint64_t k, slot_timing *t)
{
    for (;;) {
        int id = sm_sched_ask(s, sc, SA_OFFER, k);
        if (id < 0)
            return;
        const sm_entity *w = &s->ent[id];
        const isa_inst *in = sm_inst_of(s, (unsigned)id);
        unsigned u = sm_unit_of(&s->p, in);
        if (u != t->unit || u == CORE_UNIT_SMEM ||
            t->threads + (unsigned)sg_popcount32(w->active) > s->p.warp_size ||
            (u == CORE_UNIT_LDST && !sm_pack_mem_fits(s, t, (unsigned)id, in))) {
            sm_set_status(s, (unsigned)id, WS_STRUCT);   /* not this slot; it may issue next cycle */
            continue;
        }
        sm_sched_record(s, sc, (unsigned)id, k);   /* claimed */
        issue_entity(s, sc, (unsigned)id, k, t, false);
    }
}

unsigned sm_issue_cycle(sm *s, unsigned sc, uint64_t k, uint64_t *wake, uint8_t *worst)
{
    const sched_ops *ops = s->p.scheduler->ops;
    int lone;
    compute_statuses(s, sc, k, wake, worst, &lone);
    bool ready = *worst == WS_READY;
    unsigned n = 0;
    while (n < s->p.issue_width) {
        /* The actor picks and takes its pick as issued. A formation
         * policy with its own pick (DWF, DWS) picks in the actor too
         * (SAF_OWN): DWF's comes formed and recorded (SAF_FORM, one
         * exchange); DWS's is offered, the SM resumes the group
         * (reconv_ops.picked) and the record rides on the next message
         * (SCHED_ISSUED, after the resume's reports: one exchange). */
        int id;
        if (s->rc->pick) {
            sm_sched_state *st = &s->sc[sc];
            s->pick_wake = wake;
            if (s->rc->form) {
                id = sched_actor_exchange(&st->act, s->sched_group, &s->sched_tick,
                                          (sched_msg){.kind = SA_PICK, .flags = SAF_OWN | SAF_FORM,
                                                      .k = k},
                                          &st->formed)
                         ? st->formed.id
                         : -1;
                if (id >= 0)
                    s->pred[id] = st->formed.pred;
            } else {
                id = sched_actor_ask(&st->act, s->sched_group, &s->sched_tick,
                                     (sched_msg){.kind = SA_OFFER, .flags = SAF_OWN, .issued = -1,
                                                 .k = k});
                if (id >= 0) {
                    if (s->rc->picked)
                        s->rc->picked(s, (unsigned)id, k);
                    sm_sched_record(s, sc, (unsigned)id, k);
                }
            }
        } else if (s->rc->form && (ready || ops->pick_every_cycle)) {
            /* LWM, TBC: the pick comes formed (SAF_FORM), one exchange */
            sm_sched_state *st = &s->sc[sc];
            id = sched_actor_exchange(&st->act, s->sched_group, &s->sched_tick,
                                      (sched_msg){.kind = SA_PICK, .flags = SAF_FORM, .k = k},
                                      &st->formed)
                     ? st->formed.id
                     : -1;
            if (id >= 0)
                s->pred[id] = st->formed.pred;
        } else if (lone >= 0 && ops->takes_lone_ready && !ops->pick_every_cycle && !ops->mem_state) {
            /* The policy's pick is the one READY member: no question; the
             * record rides on the next message, after this cycle's
             * reports, where the pick would have applied them. */
            id = lone;
            sm_sched_record(s, sc, (unsigned)id, k);
        } else if (ready || ops->pick_every_cycle) {
            id = sm_sched_ask(s, sc, SA_PICK, k);
        } else {
            id = -1;   /* no READY member: the answer is known */
        }
        if (id < 0)
            break;
        slot_timing t;
        issue_entity(s, sc, (unsigned)id, k, &t, true);
        if (s->rc->packs && t.unit != CORE_UNIT_SMEM &&
            (t.unit != CORE_UNIT_LDST || s->p.mimd_pack_memory > 1))
            pack_more(s, sc, k, &t);
        if (!s->rc->form)   /* formed sub-warps count themselves */
            stats_hist_add(&s->active_threads, t.threads);
        n++;
        if (n < s->p.issue_width) {
            uint64_t ignored = NEVER_CYCLE;
            uint8_t w2;
            compute_statuses(s, sc, k, &ignored, &w2, &lone);   /* units just booked */
            ready = w2 == WS_READY;
        }
    }
    return n;
}

void sm_mem_response(sm *s, const warp_mem_resp *r, uint64_t cycle)
{
    if (r->op == MEM_STORE && !s->p.wait_for_stores) {
        /* A fire-and-forget store was performed (it has no tag): the warp
         * went on at once, but its CTA ends only now, as a GPGPU-Sim warp is
         * not done before its stores are acknowledged (stores_done). */
        if (!s->store_acks || r->warp >= s->p.max_warps || !s->hw[r->warp].live)
            g_error("core: %s got a store acknowledgement for idle warp slot %u", s->name, r->warp);
        sm_cta *c = &s->cta[s->hw[r->warp].cta];
        if (c->end < cycle)
            c->end = cycle;
        c->mem_outstanding--;
        sm_cta_maybe_done(s, s->hw[r->warp].cta);
        return;
    }
    if (r->tag >= s->nmem_cap || !s->mem[r->tag].used)
        g_error("core: %s got a response with unknown tag %u", s->name, r->tag);
    if (r->partial) {   /* some lanes' data (MEM_LANE_REPORT): the policy's */
        sm_statuses_changed(s);
        if (s->rc->mem_partial && s->mem[r->tag].blocking)
            s->rc->mem_partial(s, r->tag, r->lanes, max_u64(s->mem[r->tag].done, cycle));
        return;
    }
    sm_mem_op *op = &s->mem[r->tag];
    uint64_t complete = max_u64(op->done, cycle);
    sm_cta *c = &s->cta[op->cta];
    if (c->end < complete)
        c->end = complete;
    if (op->blocking) {
        sm_entity *w = &s->ent[op->entity];
        sm_entity_touched(s, op->entity);
        w->mem_wait--;
        w->ready_at = max_u64(w->ready_at, complete + 1);
    } else {
        sm_hw *h = &s->hw[op->hw];
        for (unsigned i = 0; i < op->inst->ndst; i++)
            if (h->reg_ready[op->inst->dst[i]] == REG_MEM)
                h->reg_ready[op->inst->dst[i]] = complete + 1;
        s->hw_epoch[op->hw]++;
        h->mem_pending--;
        sm_hw_touched(s, op->hw);
    }
    if (s->tr_mem.t)   /* from issue to the cycle the data is written */
        trace_spans_add(&s->tr_mem, isa_op_name((isa_op)op->inst->op), op->issued, complete + 1);
    op->used = false;
    s->free_tag[s->nfree_tag++] = r->tag;
    c->mem_outstanding--;
    sm_cta_maybe_done(s, op->cta);
}

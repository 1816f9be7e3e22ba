/* The DRAM bank actor (dram_bank.h, docs/dram.md): a bank's row buffer,
 * timing constraints and row-hint hold, changed only by the messages its
 * controller sends, each answered by a report of the bank's new state. The
 * timing model's bank_* operations (dram_timing_full.c, dram_timing_simple.c)
 * say what a command does to the bank; this file does the rest: the
 * row-buffer outcome and the hold. */
#include "mem/dram_bank.h"

#include <glib.h>

/* A request starts (its first command issues at t): classify the access by
 * the row buffer and end any row-hint hold (a hit within the window, else
 * expired). */
static void start(dram_bank_state *s, const dram_bank_msg *m, dram_bank_report *rep)
{
    if (s->open_row == m->row)
        rep->ev |= DRAM_EV_ROW_HIT;
    else if (s->open_row == ROW_CLOSED)
        rep->ev |= DRAM_EV_ROW_MISS;
    else
        rep->ev |= DRAM_EV_ROW_CONFLICT;
    if (s->hold) {
        if (m->t < s->hold_until && s->open_row == m->row) {
            rep->ev |= DRAM_EV_HOLD_HIT;
            rep->hold_wait = m->t - s->hold_from;
        } else
            rep->ev |= DRAM_EV_HOLD_EXPIRED;
        s->hold = false;
    }
}

/* The request's data is done at m->a (its last command at m->t): a hinted
 * request arms the hold (Narasiman's dissertation, sec. 7.2), else the
 * close-page policy precharges. */
static void done(dram_bank_actor *ba, const dram_bank_msg *m, dram_bank_report *rep)
{
    dram_bank_state *s = &ba->s;
    if (m->hint) {
        s->hold = true;
        s->hold_from = m->a;
        s->hold_until = m->a + ba->p->hint_hold_cycles;
        rep->ev |= DRAM_EV_HOLD;
    } else if (ba->p->page_policy == DRAM_PAGE_CLOSE) {
        ba->ops->bank_close(ba->p, s, m->t, &rep->ev);
    }
}

static void bank_main(des_lactor *self, void *data, des_time now)
{
    (void)self;
    dram_bank_actor *ba = data;
    dram_bank_state *s = &ba->s;
    const dram_bank_msg *m;
    while ((m = des_lport_peek(ba->in, now))) {
        dram_bank_report rep = {0};
        switch ((enum dram_bank_kind)m->kind) {
        case DRAM_BANK_START:
            start(s, m, &rep);
            break;
        case DRAM_BANK_CMD:
            ba->ops->bank_cmd(ba->p, s, m, &rep.ev);
            break;
        case DRAM_BANK_DONE:
            done(ba, m, &rep);
            break;
        case DRAM_BANK_REFRESH:
            ba->ops->bank_refresh(ba->p, s, m->a, &rep.ev);
            break;
        case DRAM_BANK_REFRESH_END:
            /* The refresh closed the row: a pending hold expires. */
            ba->ops->bank_refresh_end(ba->p, s, m->a, &rep.ev);
            if (s->hold)
                rep.ev |= DRAM_EV_HOLD_EXPIRED;
            s->hold = false;
            break;
        }
        des_lport_pop(ba->in, now);
        rep.open_row = s->open_row;
        rep.next_act = s->next_act;
        rep.next_pre = s->next_pre;
        rep.next_col = s->next_col;
        rep.hit_ready = s->hit_ready;
        rep.idle_at = s->idle_at;
        rep.hold_until = s->hold_until;
        rep.hold = s->hold;
        if (!des_lport_send(ba->out, &rep, now))
            g_error("dram bank %s: report port full", des_lactor_name(ba->self));
    }
}

void dram_bank_actor_init(dram_bank_actor *ba, des_lgroup *g, const char *name,
                          const dram_params *p, const dram_timing_ops *ops)
{
    *ba = (dram_bank_actor){.s = {.open_row = ROW_CLOSED}, .p = p, .ops = ops};
    ba->self = des_lactor_new(g, name, bank_main, ba);
    /* Up to three messages per command (start, command, done), answered in
     * the same cycle. */
    char *in = g_strdup_printf("%s.in", name), *out = g_strdup_printf("%s.out", name);
    ba->in = des_lport_new(g, in, NULL, ba->self, sizeof(dram_bank_msg), 4, 1);
    ba->out = des_lport_new(g, out, ba->self, NULL, sizeof(dram_bank_report), 4, 1);
    g_free(in);
    g_free(out);
}

/* ---- the controller's side --------------------------------------------- */

void dram_bank_init(mc_bank *b, uint32_t group)
{
    *b = (mc_bank){.open_row = ROW_CLOSED, .head = MC_NONE, .tail = MC_NONE,
                   .bound = MC_NONE, .group = group, .cand = MC_NONE};
}

void dram_bank_count(memctrl_stats *st, mc_bank *b, uint32_t ev, uint64_t hold_wait)
{
    if (ev & (DRAM_EV_ROW_HIT | DRAM_EV_ROW_MISS | DRAM_EV_ROW_CONFLICT))
        b->started++;
    if (ev & DRAM_EV_ROW_HIT) {
        st->row_hits++;
        b->row_hits++;
    }
    st->row_misses += !!(ev & DRAM_EV_ROW_MISS);
    st->row_conflicts += !!(ev & DRAM_EV_ROW_CONFLICT);
    st->activations += !!(ev & DRAM_EV_ACT);
    st->precharges += !!(ev & DRAM_EV_PRE);
    st->hint_holds += !!(ev & DRAM_EV_HOLD);
    st->hint_hold_expired += !!(ev & DRAM_EV_HOLD_EXPIRED);
    if (ev & DRAM_EV_HOLD_HIT) {
        st->hint_hold_hits++;
        stats_hist_add(&st->hold_wait, hold_wait);
    }
}

/* Its statistics are held back while the channel runs ahead (memctrl_stats.c). */
void dram_bank_view(memctrl *mc, mc_bank *b, const dram_bank_report *r)
{
    if (r->ev) {
        if (mc_held(mc))
            mc_note_add(mc, MC_NOTE_BANK, b, r->ev, r->hold_wait);
        else
            dram_bank_count(&mc->st, b, r->ev, r->hold_wait);
    }
    b->open_row = r->open_row;
    b->next_act = r->next_act;
    b->next_pre = r->next_pre;
    b->next_col = r->next_col;
    b->hit_ready = r->hit_ready;
    b->idle_at = r->idle_at;
    b->hold_until = r->hold_until;
    b->hold = r->hold;
    mc_mark(mc, b);
}

/* The lone SM's run-ahead (issue 20: a lone warp waits 4 to 7 cycles on
 * each dependent ALU result, and each wait was a wake-up).
 *
 * When no other SM holds a CTA or has one on its way (the dispatcher's
 * count; a CTA sent later arrives no sooner than the dispatcher's term of
 * the bound), no other SM issues meanwhile and the order of functional
 * memory accesses between SMs cannot change; and when the SM shares
 * nothing else with a block that may run meanwhile (the LD/ST unit's
 * feedback is read directly; a timeline trace is written in call order),
 * it may run past its input latency: first to des_input_bound (its
 * senders' state), then to a far bound. Only two blocks send to it then:
 * its LD/ST unit (or memory), whose earliest run is looked at `LONE_DEPTH`
 * levels through its ports (des_port_arrival_bound), and the dispatcher,
 * which nothing but this SM's reports can wake before its pending
 * wake-up. Both bounds leave out the loops through this SM: a send at t (a
 * request answered, a CTA report answered by a new CTA), or a pop at t of
 * a port whose sender waits for the slot, instead stops the run-ahead at t
 * plus that loop's latency (`cap`; every longer loop back passes through
 * one of the two input ports after one of these sends). The horizon is
 * the later of the plain bound and this one, both sound.
 *
 * With other SMs busy (`multi`: the PDOM stack, no time series), the SM
 * runs ahead the same way but only through cycles in which no global
 * access can issue (sm.c aborts past the plain bound a cycle in which one
 * could: sm_may_issue_global), so the functional order of global accesses
 * between SMs stays that of the engine's time; the dispatcher, which other
 * SMs' reports can wake, bounds the CTAs to come by its promise alone
 * (none once every CTA is out). */
#include "core/sm_lone.h"

enum { LONE_DEPTH = 3 };

/* The PDOM stack: its global accesses issue only through the statuses'
 * request-port check (sm_issue.c), which the multi-SM run-ahead relies on. */
extern const reconv_ops reconv_pdom_ops;

static uint64_t cycle_before(const sm *s, des_time t)
{
    return t == DES_NEVER ? NEVER_CYCLE - 1 : (t - 1) / s->clk->period;
}

static unsigned count_of(const des_port *p) { return p ? des_port_count(p) : 0; }

/* What the SM's ports hold: while the SM runs nothing else sends to its
 * inputs or pops its outputs, so a change is its own send or pop. */
static sm_port_counts counts_of(const sm *s)
{
    return (sm_port_counts){count_of(s->req_out), count_of(s->done_out), count_of(s->resp_in),
                            count_of(s->cta_in)};
}

static void horizon_of(const sm_lone *a, const sm *s, uint64_t *horizon)
{
    uint64_t f = cycle_before(s, a->far < a->cap ? a->far : a->cap);
    *horizon = f > a->shallow ? f : a->shallow;
}

void sm_lone_start(sm_lone *a, const sm *s, des_actor *self, uint64_t *horizon)
{
    bool own = s->busy_sms && !s->fb && !s->tr, alone = own && *s->busy_sms <= 1;
    bool multi = own && !alone && s->rc == &reconv_pdom_ops && s->req_out && !s->probe_rows;
    *a = (sm_lone){.on = alone || multi, .multi = multi, .far = DES_NEVER, .cap = DES_NEVER};
    if (a->on) {
        uint64_t hb = cycle_before(s, des_input_bound(self));
        *horizon = hb > *horizon ? hb : *horizon;
    }
    a->shallow = *horizon;
}

bool sm_lone_extend(sm_lone *a, const sm *s, des_actor *self, uint64_t *horizon)
{
    if (a->tried)
        return false;
    a->tried = true;
    des_time b = DES_NEVER;
    if (s->resp_in)
        b = des_port_arrival_bound(self, s->resp_in, DES_NEVER, LONE_DEPTH);
    if (s->cta_in)   /* other SMs' reports may wake the dispatcher too: its promise */
        b = MIN(b, a->multi ? des_port_arrival_floor(s->cta_in) : des_port_arrival_bound(self, s->cta_in, DES_NEVER, 0));
    a->far = b;
    horizon_of(a, s, horizon);
    return s->cycle <= *horizon;
}

static void loop_back(sm_lone *a, des_time t)
{
    if (t < a->cap)
        a->cap = t;
}

/* Past the plain bound the SM pops nothing: a sender that stamps its sends
 * ahead of its own time (the ideal memory) would see the slot freed sooner
 * than when stepping. */
bool sm_lone_pops(const sm *s, uint64_t k)
{
    des_time t = des_cycles(s->clk, k);
    return (s->resp_in && des_port_next(s->resp_in) <= t) || (s->cta_in && des_port_next(s->cta_in) <= t);
}

void sm_lone_before(sm_lone *a, const sm *s) { a->was = counts_of(s); }

void sm_lone_after(sm_lone *a, const sm *s, uint64_t *horizon, des_time t)
{
    sm_port_counts now = counts_of(s), was = a->was;
    if (now.req != was.req && s->resp_in) {   /* answered once popped: not before the promise */
        des_time in = t + des_port_latency(s->req_out), pop = des_port_pops_from(s->req_out);
        loop_back(a, (in > pop ? in : pop) + des_port_latency(s->resp_in));
    }
    if (now.done != was.done && s->cta_in)
        loop_back(a, t + des_port_latency(s->done_out) + des_port_latency(s->cta_in));
    /* a freed slot is seen one latency after the pop (des_port_new) */
    if (now.resp != was.resp && des_port_sender_waiting(s->resp_in))
        loop_back(a, t + 2 * des_port_latency(s->resp_in));
    if (now.cta != was.cta && des_port_sender_waiting(s->cta_in))
        loop_back(a, t + 2 * des_port_latency(s->cta_in));
    if (a->tried)
        horizon_of(a, s, horizon);
}

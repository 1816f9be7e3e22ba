/* The DES layer over SimGrid: engine, clock domains, actors, ports.
 *
 * Time is an integral count of ticks held in a double (exact below 2^53). The
 * tick is chosen per simulation so that every clock domain's period is an
 * exact integer: ticks per microsecond = lcm of the domains' frequencies in
 * MHz (given in kHz resolution). SimGrid's clock counts ticks.
 *
 * Every hardware block is a SimGrid actor. Actors never sleep on their own:
 * they tell the engine when they next need to run (des_wake_at) and block;
 * one scheduler actor keeps a heap of wake times, sleeps until the earliest
 * and releases every actor due then, in actor-id order. A port send lowers
 * the receiver's wake time to the message's delivery time, so an idle block
 * costs nothing and is woken exactly when something reaches it.
 *
 * Ports are one-way, single-sender, single-receiver bounded FIFOs with a
 * fixed latency of at least one tick. Because nothing sent at time t can be
 * seen before t + latency, the order in which actors run at equal times never
 * changes results: runs are deterministic by construction. Capacity freed by
 * the receiver becomes visible to the sender one tick later, for the same
 * reason. */
#ifndef SIMTGRID_DES_H
#define SIMTGRID_DES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t des_time;            /* ticks */
#define DES_NEVER UINT64_MAX

typedef struct des_engine des_engine;
typedef struct des_actor des_actor;
typedef struct des_port des_port;

/* ---- clock domains ---------------------------------------------------- */

typedef struct des_clock {
    const char *name;     /* "core", "icnt", "l2", "dram" */
    uint64_t khz;         /* frequency */
    des_time period;      /* ticks per cycle, set by des_engine_new */
} des_clock;

/* Ticks per microsecond for these frequencies (lcm of MHz, kHz resolution),
 * or 0 when the lcm is so large that one simulated second would not fit in
 * 2^53 ticks. */
uint64_t des_ticks_per_us(const uint64_t *khz, unsigned n);

static inline des_time des_cycles(const des_clock *c, uint64_t cycles) { return cycles * c->period; }
/* Cycle number of time t in clock c (floor). */
static inline uint64_t des_cycle_of(const des_clock *c, des_time t) { return t / c->period; }
/* First clock edge at or after t. */
static inline des_time des_edge_at_or_after(const des_clock *c, des_time t)
{
    return (t + c->period - 1) / c->period * c->period;
}

/* ---- engine ------------------------------------------------------------ */

/* Boot SimGrid (once per process) with a platform simtgrid writes itself.
 * `clocks` (n of them) get their periods; the engine keeps the pointers.
 * `verbose` keeps SimGrid's logging. Returns NULL with *errmsg set (static
 * text or g_strdup'd; caller frees with g_free) on an impossible clock set. */
des_engine *des_engine_new(des_clock *clocks, unsigned n, bool verbose, char **errmsg);
/* Run until every actor is blocked with no wake time (the workload ended), or
 * until des_stop. Returns the final time in ticks. */
des_time des_run(des_engine *e);
void des_stop(des_engine *e);       /* from an actor: end the run at the current time */
/* Do not run any time after t (a cycle limit); the run ends there. */
void des_set_limit(des_engine *e, des_time t);
/* Lazy clock (sim.simgrid_clock = lazy): SimGrid's clock is advanced only
 * when the run ends, not at every timestamp; SimGrid still runs every block
 * as an actor and switches between them, in the same order, so results are
 * identical. Exact (the default): SimGrid's clock follows every timestamp at
 * which control passes between blocks. */
void des_set_lazy_clock(des_engine *e, bool lazy);
des_time des_now(const des_engine *e);
/* A passive observer: fn(ctx, T) is called once for each multiple T of
 * `period` ticks as simulated time reaches it, when every event before T has
 * run and none at or after T has: exactly the state at T. It must change no
 * simulated state (it reads counters), so results are the same with or
 * without it; it adds no event, so the run ends as it would. At most
 * DES_MAX_PROBES; call before des_run. */
#define DES_MAX_PROBES 4
typedef void (*des_probe_fn)(void *ctx, des_time t);
void des_add_probe(des_engine *e, des_time period, des_probe_fn fn, void *ctx);
/* A block that holds back its statistics for cycles it ran ahead of the
 * engine's time (issue 20: the DRAM channel) registers fn: fn(ctx, t) is
 * called before each probe at T with t = T - 1, and must then count every
 * update it holds for a time <= t, so the probe reads the state at T. */
typedef void (*des_journal_fn)(void *ctx, des_time t);
void des_add_journal(des_engine *e, des_journal_fn fn, void *ctx);
uint64_t des_ticks_per_us_of(const des_engine *e);
void des_engine_free(des_engine *e);

/* Kernel-level counters, for benchmarks: SimGrid wake-ups of block actors,
 * distinct timestamps the scheduler visited, and events blocks reported. */
typedef struct des_counters {
    uint64_t wakeups;
    uint64_t timestamps;
    uint64_t events;
    uint64_t inline_runs;   /* of the wake-ups: a block due alone that ran on
                             * with no SimGrid call (no clock advance, no switch) */
} des_counters;
des_counters des_get_counters(const des_engine *e);
/* A block calls this with the number of simulated events it processed in a
 * wake-up (messages handled, cycles simulated), for events-per-wake-up. */
void des_count_events(des_engine *e, uint64_t n);

/* ---- actors ----------------------------------------------------------- */

/* The body of a block: runs in its own SimGrid actor. It typically loops:
 *   for (;;) { drain ports, do work up to its lookahead, des_wake_at(...); des_block(self); }
 * and never returns (returning ends the actor). */
typedef void (*des_actor_fn)(des_actor *self, void *data);

/* Before des_run only: a block made during the run is an error. */
des_actor *des_actor_new(des_engine *e, const char *name, des_actor_fn fn, void *data);
des_engine *des_actor_engine(const des_actor *a);
const char *des_actor_name(const des_actor *a);
unsigned des_actor_id(const des_actor *a);
/* Ask to run again at time t (absolute, > now). The earliest request since the
 * actor last ran wins. DES_NEVER clears nothing: ports still wake it. */
void des_wake_at(des_actor *a, des_time t);
/* The running actor's pending wake-up becomes t (DES_NEVER: none), later
 * than a request made since it last ran or not: for a block that has run
 * ahead past wake-ups asked for it (a delivery it has taken, a credit it
 * has used), which would find nothing to do. Only for a block whose every
 * reason to run is t or in its ports (des_block adds those back). */
void des_wake_instead(des_actor *a, des_time t);
/* The actor acts only on the edges of `clk`: woken between two edges it
 * does nothing but ask for the next one. Its wake-ups (deliveries, freed
 * slots, its own requests) are then put on the first edge at or after
 * them, which saves that empty wake-up and changes nothing else (issue 20:
 * a reply crossing clock domains arrives between the receiver's edges). */
void des_actor_wake_on_edges(des_actor *a, const des_clock *clk);
/* des_ahead_within and des_ahead_next use only the plain input bound for
 * this actor, never the deep one: for a block with many senders (the
 * H100's request crossbar has 132), where looking at every sender's ports
 * each time its kept bound is reached costs more than the wake-ups it
 * saves. A lower bound, so only the run-ahead shortens. */
void des_actor_plain_input_bound(des_actor *a);
/* How far past the current time this actor may simulate without yielding:
 * the minimum latency of its input ports and credit delay of its output
 * ports (DES_NEVER with no ports). Nothing another block does at the current
 * time can reach it earlier. */
des_time des_lookahead(const des_actor *a);
/* The earliest time (exclusive bound) at which a message not yet sent can
 * reach `self`, called while it runs: per input port, the port's latency
 * after the earliest time its sender can send (now if the sender is due now
 * and has not run yet, else its pending wake-up or its own lookahead after
 * now, whichever is first), capped by the run's limit and the next probe.
 * At least now + des_lookahead for the inputs; more when the senders are
 * idle. Messages already sent are seen at their delivery times as usual.
 * A block may simulate up to this bound only if nothing but its ports can
 * change what it does (no state shared with blocks due meanwhile). */
des_time des_input_bound(const des_actor *self);
/* The same for credits: the earliest time at which a slot freed by a pop
 * not yet made becomes visible on one of `self`'s output ports (the
 * receiver's earliest run, as above, plus the port's credit delay). */
des_time des_output_bound(const des_actor *self);
/* A block that may end the run (des_stop) says so; the end then comes no
 * sooner than its earliest run (as above). des_stop_bound is one tick after
 * the earliest such run: a block that simulates only before it never
 * counts a cycle after the end of the run (the blocks due at the end time
 * still run). DES_NEVER when no block may end the run. */
void des_actor_may_end_run(des_actor *a);
des_time des_stop_bound(const des_actor *self);
/* Longer bounds, for a block whose run-ahead is limited by the ones
 * above (issue 20): each far end's earliest run is worked out from its
 * own neighbours' state, one level further (its pending wake-up, its
 * senders' earliest sends plus their latencies, the credits it waits for;
 * the first edge at or after it for a block acting on edges). `from` is
 * the earliest time `self` may send again (>= now: the next cycle it will
 * run; its earlier sends are in the ports already), so a loop back
 * through `self` bounds nothing before from plus the loop's latency; a
 * later `from` gives a bound at least as late, and every bound so given
 * stays valid while `self` runs ahead (take the latest).
 * des_input_bound_deep: as des_input_bound, with the senders' earliest
 * runs looked at through their own ports. des_stop_bound_deep: as
 * des_stop_bound, with the dispatcher's earliest run from its SMs' state.
 * des_port_credit_bound: the earliest time a pop not yet made frees a
 * slot of output `p` visible to its sender (the receiver's earliest run,
 * so computed, plus the credit delay). A port whose next slot is free
 * answers try_send and room_next alike whatever pops are to come: a
 * sender that asks only those (never des_port_space's count) need respect
 * this bound only for the ports its next cycle's sends could fill. */
des_time des_input_bound_deep(const des_actor *self, des_time from);
des_time des_port_credit_bound(const des_port *p, des_time from);
/* The earliest arrival on p of a message not yet sent, from its sender's
 * promise alone (its next run taken as the engine's time): weaker than
 * des_port_arrival_bound, but a look at one port. */
des_time des_port_arrival_floor(const des_port *p);
/* The receiver's promise, renewed each time before it blocks: whatever
 * reaches it, it pops nothing from p before t (0: none, the default), so
 * no slot it frees is seen before t plus the credit delay
 * (des_port_credit_bound counts it; issue 20). */
void des_port_pop_after(des_port *p, des_time t);
des_time des_port_pops_from(const des_port *p);   /* that promise (0: none) */
/* des_port_credit_bound kept in *at across a block's cycles: a bound stays
 * valid as time passes, so it is recomputed only once t reaches it. */
static inline des_time des_port_credit_kept(des_time *at, const des_port *p, des_time t)
{
    if (t >= *at) {
        des_time b = des_port_credit_bound(p, t);
        *at = *at > b ? *at : b;
    }
    return *at;
}
des_time des_stop_bound_deep(const des_actor *self, des_time from);
/* Per input port, for a block that knows more of its senders than the
 * ports tell (issue 20, the lone SM): the earliest arrival on `self`'s
 * input `p` of a message not yet sent, capped by the run's limit and the
 * next probe. depth > 0: the sender's earliest run looked at `depth`
 * levels through its own ports (as des_input_bound_deep; `from` as there,
 * DES_NEVER when `self` sends nothing before the answer or stops its
 * run-ahead at each send plus the loop's latency itself, and as much for
 * each pop of a port whose sender waits for a slot). depth 0: the
 * sender's pending wake-up only (now when it is due now and has not run),
 * for a sender that the caller knows nothing but `self` can wake. */
des_time des_port_arrival_bound(const des_actor *self, const des_port *p, des_time from,
                                unsigned depth);
/* A block on clock `clk` that runs ahead over the cycles it would be
 * woken for (the L2 slice, the DRAM channel): after its cycle at t, with
 * `own` its own next cycle (UINT64_MAX: none), the cycle it may run at
 * once, or UINT64_MAX (block until woken). Its next cycle is the earlier
 * of own and its ports' next delivery; it runs it only if that is within
 * two periods (a farther one costs more in bounds than it saves) and
 * before the deep stop and input bounds (kept in *stop and *far across
 * its wake-ups: 0 before the first; the plain input bound is tried
 * first, being cheaper, and alone for des_actor_plain_input_bound) and `credit(ctx, nt)`, its output
 * ports' bound at that cycle's time nt. */
uint64_t des_ahead_next(const des_actor *self, const des_clock *clk, des_time t, uint64_t own,
                        des_time *stop, des_time *far, des_time (*credit)(void *ctx, des_time nt),
                        void *ctx);
/* The same with `n` the next cycle as the block works it out itself (its
 * ports' deliveries included: the crossbar, which leaves out deliveries
 * to its full inputs and must not run a cycle des_ports_due would add),
 * run at once if within `span` periods. `stop` NULL: no stop bound, for a
 * block that holds back what it counts after the engine's time until the
 * time reaches it (and drops it if the run ends before). */
uint64_t des_ahead_within(const des_actor *self, const des_clock *clk, des_time t, uint64_t n,
                          unsigned span, des_time *stop, des_time *far, des_time (*credit)(void *ctx, des_time nt),
                          void *ctx);
/* The actor's input ports holding a message (queued or in flight), as a
 * bit set over their index (des_port_input_index), `*words` words long:
 * kept by the ports, so a block with many inputs visits only these. */
const uint64_t *des_actor_busy_inputs(const des_actor *a, unsigned *words);
/* The earliest time after t at which the actor's ports will wake it: a
 * message delivered after t on an input not muted, or a slot becoming
 * visible to a waiting sender (what des_block re-derives at now). A block
 * running ahead of now uses it for the wake-ups it skips. */
des_time des_ports_due(const des_actor *self, des_time t);
/* The cycle of clock clk a block would be woken for next after its cycle
 * at t: the earlier of `own` (its own next cycle, UINT64_MAX: none) and
 * the edge at or after des_ports_due. */
uint64_t des_cycle_due(const des_actor *self, const des_clock *clk, des_time t, uint64_t own);
/* Give control back until the engine wakes this actor; returns the time. */
des_time des_block(des_actor *self);

/* ---- ports ------------------------------------------------------------ */

/* A port carrying messages of `msg_size` bytes, at most `capacity` queued or
 * in flight, each delivered `latency` ticks (>= 1) after it was sent. The
 * message memory is a ring allocated here once: sending copies into it. */
des_port *des_port_new(des_engine *e, const char *name, size_t msg_size, unsigned capacity,
                       des_time latency, des_actor *sender, des_actor *receiver);
const char *des_port_name(const des_port *p);
des_time des_port_latency(const des_port *p);

/* Sender side. `t` is the sender's local time (>= now; a block that runs
 * ahead inside its lookahead sends at its local time). Fails, copying
 * nothing, when the port is full as seen at time t; then the sender is woken
 * when a freed slot becomes visible to it: a slot popped at time u is
 * reusable from u + latency (credits return as fast as data travels). */
bool des_port_try_send(des_port *p, const void *msg, des_time t);
/* Free slots as seen by the sender at time t. */
unsigned des_port_space(des_port *p, des_time t);
/* The sender saw no free slot at time t and waits for one without trying to
 * send: wake it when a slot becomes visible, exactly as a failed try_send
 * would (so a full port costs no polling). */
void des_port_wait_space(des_port *p, des_time t);
/* When the sender will next see a free slot: the time the oldest freed slot
 * becomes reusable, or DES_NEVER while every slot holds a message (then
 * only a pop, which des_port_wait_space turns into a wake-up, can free one). */
des_time des_port_next_space(const des_port *p);
/* True when the sender will see a free slot at t + period (its next cycle).
 * Otherwise it waits for one as after a refused send: a port wakes its
 * sender only then, so a block with queued messages that slept without
 * waiting would never wake. */
bool des_port_room_next(des_port *p, des_time t, des_time period);

/* Held sends (issue 20). A sender acting on clock edges that would wait
 * for a slot only to send hands the message over instead: the port sends
 * it itself, in order, at the first edge of the sender's clock at or after
 * `from` (the earliest time the sender could send it), the slot's
 * reusable time and one period after the previous send: the cycle at
 * which the sender, woken by the slot, would have sent it. A pop by the
 * receiver releases the next held message at once, so the receiver sees
 * it as if sent then, and the sender is not woken (unless
 * des_port_hold_wake). The sender learns each release's send time from
 * des_port_released, oldest first, and takes it (des_port_take_released)
 * when its own clock reaches that time, doing then what the send would
 * have done. While messages are held it must not des_port_try_send. */
void des_port_hold(des_port *p, const void *msg, des_time from);
unsigned des_port_held(const des_port *p);        /* handed over, not yet sent */
des_time des_port_released(const des_port *p);    /* oldest send not taken, or DES_NEVER */
void des_port_take_released(des_port *p);
/* While set, every release (and one made already, not yet taken, later
 * than now) wakes the sender at its send time: for a sender that must
 * then act at once. */
void des_port_hold_wake(des_port *p, bool wake);
/* While set, held sends may share a cycle, as a sender's own sends may
 * (des_port_try_send takes several at one time): each goes at the first
 * edge at or after its `from` and its slot's reusable time, and not
 * before the previous send, instead of one period after it. For a sender
 * that hands over several messages due at one cycle (a DRAM channel's
 * reads completing together). Off by default; set it while none is held. */
void des_port_hold_burst(des_port *p, bool burst);
/* The port writes a held message's send time (a des_time) at `offset` of
 * it when it sends it (a packet's birth time). */
void des_port_stamp(des_port *p, size_t offset);
/* The sender's promise, renewed each time before it blocks: from what it
 * holds, it sends nothing on p before `next` (DES_NEVER: nothing held);
 * from anything that reaches it later (a message, a credit, a wake-up of
 * its own), nothing before `delay` after the cycle it runs. The deep
 * bounds count it (des_input_bound_deep, des_stop_bound_deep,
 * des_port_credit_bound, des_port_arrival_bound, des_port_arrival_floor),
 * the plain ones do not (issue 20); a block sends only when it runs, so
 * it never lowers a bound below the sender's earliest run. None
 * (DES_NEVER, 0) by default. */
void des_port_promise(des_port *p, des_time next, des_time delay);

/* Receiver side. A send wakes the receiver at the delivery time; a message
 * the receiver leaves in the port after that (it was busy or full) does not
 * wake it again: the block asks for its own wake-up when it can take it.
 * The oldest message if it has been delivered by time t, else
 * NULL. Pop removes it (the slot is reusable by the sender from t + latency). */
void *des_port_peek(des_port *p, des_time t);
void des_port_pop(des_port *p, des_time t);
/* Delivery time of the oldest message, or DES_NEVER when empty. */
des_time des_port_next(const des_port *p);
/* A receiver that cannot take messages until something else wakes it (an
 * L2 slice whose MSHRs are full) mutes its input: deliveries then do not
 * wake it; unmuted, the messages still in flight wake it again. A wake-up
 * it would have spent finding the port's head untakeable is skipped; it
 * must not rely on such wake-ups for anything else. */
void des_port_mute(des_port *p, bool muted);
unsigned des_port_count(const des_port *p);   /* queued or in flight */
bool des_port_sender_waiting(const des_port *p);   /* a send failed; a pop wakes it */
unsigned des_port_capacity(const des_port *p);
/* The port's index among its receiver's inputs (creation order). */
unsigned des_port_input_index(const des_port *p);

#endif

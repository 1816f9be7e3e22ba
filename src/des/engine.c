/* The engine: boots SimGrid with a one-host platform written here, runs one
 * scheduler actor that owns the wake-up order, and one SimGrid actor per
 * block.
 *
 * Why a scheduler rather than each block sleeping on its own: a port send
 * must be able to move a sleeping receiver's wake-up earlier, which the C
 * API cannot do to a pending sleep. With one heap of wake times the send
 * just lowers a key, every block waits suspended between its turns, and
 * the blocks due at the same time run one after another in actor-id order.
 * The scheduler queues them together in SimGrid's run list in that order
 * (one simcall, des_sg_resume); SimGrid runs them in one scheduling
 * sub-round, each switching straight to the next as it suspends itself, and
 * the scheduler after the last. Time advances only once the last block of
 * the batch has stopped, so the heap is complete whenever the next time is
 * picked. (Until issue 20 the blocks of a batch were a relay of semaphores,
 * each releasing the next as it blocked: two simcalls and one sub-round of
 * SimGrid per block.) */
#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <stdio.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <xbt/config.h>
#include <xbt/log.h>

#include "des/des_internal.h"
#include "des/sg_pass.h"

static bool simgrid_booted;   /* SimGrid supports one engine per process */

static const char platform_xml[] =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <zone id=\"simtgrid\" routing=\"Full\">\n"
    "    <host id=\"chip\" speed=\"1f\"/>\n"
    "  </zone>\n"
    "</platform>\n";

static bool load_platform(char **errmsg)
{
    GError *err = NULL;
    char *path = NULL;
    int fd = g_file_open_tmp("simtgrid-platform-XXXXXX.xml", &path, &err);
    if (fd < 0) {
        *errmsg = g_strdup_printf("cannot create the SimGrid platform file: %s", err->message);
        g_error_free(err);
        return false;
    }
    close(fd);
    if (!g_file_set_contents(path, platform_xml, -1, &err)) {
        *errmsg = g_strdup_printf("cannot write %s: %s", path, err->message);
        g_error_free(err);
        g_unlink(path);
        g_free(path);
        return false;
    }
    simgrid_load_platform(path);
    g_unlink(path);
    g_free(path);
    return true;
}

uint64_t des_ticks_per_us(const uint64_t *khz, unsigned n)
{
    /* lcm of the frequencies in kHz is a number of ticks per millisecond. */
    uint64_t l = 1;
    for (unsigned i = 0; i < n; i++) {
        uint64_t a = l, b = khz[i];
        if (b == 0)
            return 0;
        while (b) {
            uint64_t r = a % b;
            a = b;
            b = r;
        }
        uint64_t g = a;
        if (khz[i] / g > UINT64_MAX / l)
            return 0;
        l = l / g * khz[i];
    }
    /* One simulated second must fit below 2^53 ticks: l ticks per ms. */
    if (l > (UINT64_C(1) << 53) / 1000)
        return 0;
    if (l % 1000 != 0) {
        /* A microsecond must be a whole number of ticks: scale up. */
        uint64_t g = l, b = 1000;
        while (b) {
            uint64_t r = g % b;
            g = b;
            b = r;
        }
        l = l / g * 1000;
        if (l > (UINT64_C(1) << 53) / 1000)
            return 0;
    }
    return l / 1000;
}

/* The probes due up to t (not after it), in time order. */
static void run_probes(des_engine *e, des_time t)
{
    for (;;) {
        struct des_probe *first = NULL;
        for (unsigned i = 0; i < e->nprobes; i++)
            if (!first || e->probes[i].next < first->next)
                first = &e->probes[i];
        if (!first || first->next > t)
            break;
        for (unsigned i = 0; i < e->journals->len; i++) {
            const struct des_journal *j = &g_array_index(e->journals, struct des_journal, i);
            j->fn(j->ctx, first->next - 1);
        }
        first->fn(first->ctx, first->next);
        first->next += first->period;
    }
    e->probe_next = DES_NEVER;
    for (unsigned i = 0; i < e->nprobes; i++)
        if (e->probes[i].next < e->probe_next)
            e->probe_next = e->probes[i].next;
}

void des_add_probe(des_engine *e, des_time period, des_probe_fn fn, void *ctx)
{
    g_assert(e->nprobes < DES_MAX_PROBES && period > 0);
    e->probes[e->nprobes++] = (struct des_probe){period, period, fn, ctx};
    if (period < e->probe_next)
        e->probe_next = period;
}

void des_add_journal(des_engine *e, des_journal_fn fn, void *ctx)
{
    struct des_journal j = {fn, ctx};
    g_array_append_val(e->journals, j);
}

/* Picks the next time and makes the blocks due then the batch (in actor-id
 * order: the wake-up queue's order at equal times). Returns false when the run is
 * over: nothing due, stopped, or the next time is past the limit (a run
 * cut by the limit ends at the limit, not at whichever block happened to
 * run last before it: blocks that sleep through idle cycles account them up
 * to the end). Called once every block of the current batch has stopped,
 * so the heap is complete. */
static bool next_batch(des_engine *e)
{
    for (;;) {
        des_actor *top = wakeheap_top(&e->heap);
        if (e->stopped || !top || top->wake_at > e->limit) {
            if (!e->stopped && top && e->now < e->limit)
                e->now = e->limit;
            return false;
        }
        des_time t = top->wake_at;
        if (t >= e->probe_next)
            run_probes(e, t);
        e->now = t;   /* our integral time is authoritative */
        e->counters.timestamps++;
        /* The order is a function of who is due, never of which block
         * stopped last, so sleeping through idle cycles instead of polling
         * them cannot reorder anything. */
        e->batch_len = e->batch_pos = 0;
        while (wakeheap_top_at(&e->heap) == t) {
            top = wakeheap_pop(&e->heap);
            top->wake_at = DES_NEVER;
            top->batch_at = t;
            if (top->finished)
                continue;   /* a port may still wake a block whose body returned */
            e->counters.wakeups++;
            top->wakeups++;
            if (e->batch_len == e->batch_cap) {
                e->batch_cap = e->batch_cap ? 2 * e->batch_cap : 64;
                e->batch = g_renew(sg_actor_t, e->batch, e->batch_cap);
            }
            e->batch[e->batch_len++] = top->sg;
        }
        if (e->batch_len)
            return true;   /* else only finished blocks were due */
    }
}

/* The scheduler runs last in every scheduling sub-round of SimGrid, after
 * the blocks of the batch it queued there: it advances time and queues the
 * next batch, in one simcall that resumes them in order (des_sg_resume),
 * until the run is over. It is the one non-daemon actor, so its return ends
 * simgrid_run and kills the blocks. */
static void scheduler_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    des_engine *e = sg_actor_self_get_data();
    /* Every block suspends itself before its first turn: SimGrid handles
     * the suspensions of the blocks that ran before the scheduler in a
     * sub-round before its resumptions. */
    while (e->parked < e->actors->len)
        sg_actor_yield();
    while (next_batch(e)) {
        /* SimGrid's clock need only be right when control passes between
         * actors (exact mode); in lazy mode it catches up only at the end of
         * the run: SimGrid then switches contexts and nothing else, which
         * removes its cost of a time advance (about 1 us, des_bench) per
         * timestamp. */
        if (!e->lazy_clock && simgrid_get_clock() < (double)e->now)
            sg_actor_sleep_until((double)e->now);
        des_sg_resume(e->batch, e->batch_len);
        g_assert(e->batch_pos == e->batch_len);   /* every block of it has stopped */
    }
    if (simgrid_get_clock() < (double)e->now)
        sg_actor_sleep_until((double)e->now);   /* the run ends in step */
}

/* The calling block ends its turn at the current time: it goes on running
 * (returns) when it is the last of its batch and due alone at the next
 * time, which then advances without any SimGrid call (one wake-up per event
 * when a single block is busy, as in a bare sleep loop); otherwise it
 * suspends itself, unless its body has returned: the next block of the
 * batch, already queued in SimGrid, runs next, or after the last one the
 * scheduler. */
static void turn_end(des_engine *e, des_actor *self)
{
    if (++e->batch_pos == e->batch_len && !self->finished) {
        const des_actor *top = wakeheap_top(&e->heap);
        if (!e->stopped && top == self && top->wake_at <= e->limit &&
            wakeheap_second_at(&e->heap) != top->wake_at) {
            e->counters.inline_runs++;
            next_batch(e);   /* self alone */
            return;
        }
    }
    if (!self->finished)
        sg_actor_suspend(self->sg);
}

static void actor_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    des_actor *a = sg_actor_self_get_data();
    sg_actor_daemonize(a->sg);
    a->engine->parked++;
    sg_actor_suspend(a->sg);
    a->fn(a, a->data);
    a->finished = true;
    turn_end(a->engine, a);
}

des_engine *des_engine_new(des_clock *clocks, unsigned n, bool verbose, char **errmsg)
{
    *errmsg = NULL;
    if (simgrid_booted) {
        *errmsg = g_strdup("SimGrid runs one simulation per process; fork for the next one");
        return NULL;
    }
    uint64_t khz[16];
    if (n == 0 || n > 16) {
        *errmsg = g_strdup("between 1 and 16 clock domains are needed");
        return NULL;
    }
    for (unsigned i = 0; i < n; i++)
        khz[i] = clocks[i].khz;
    uint64_t tpu = des_ticks_per_us(khz, n);
    if (!tpu) {
        GString *s = g_string_new("the clock frequencies");
        for (unsigned i = 0; i < n; i++)
            g_string_append_printf(s, " %s=%.3f MHz", clocks[i].name, clocks[i].khz / 1000.0);
        g_string_append(s, " have no common time base fine enough to keep one simulated "
                           "second exact in 2^53 ticks; round them (e.g. to whole MHz)");
        *errmsg = g_string_free(s, FALSE);
        return NULL;
    }
    for (unsigned i = 0; i < n; i++)
        clocks[i].period = tpu * 1000 / clocks[i].khz;

    int argc = 1;
    char *argv[] = {"simtgrid", NULL};
    simgrid_init(&argc, argv);
    simgrid_booted = true;
    if (!verbose)
        xbt_log_control_set("root.thresh:critical");
    sg_cfg_set_string("contexts/factory", "raw");
    sg_cfg_set_int("contexts/stack-size", 512);   /* KiB; blocks keep big state on the heap */
    if (!load_platform(errmsg))
        return NULL;

    des_engine *e = g_new0(des_engine, 1);
    e->clocks = clocks;
    e->nclocks = n;
    e->ticks_per_us = tpu;
    e->limit = DES_NEVER - 1;
    e->probe_next = DES_NEVER;
    wakeheap_init(&e->heap);
    e->actors = g_ptr_array_new();
    e->ports = g_ptr_array_new();
    e->enders = g_ptr_array_new();
    e->journals = g_array_new(FALSE, FALSE, sizeof(struct des_journal));
    return e;
}

/* SIMTGRID_DES_PROFILE=1: wake-ups per kind of block (digits of the name
 * folded: sm12.ldst counts as sm#.ldst) on stderr, to see who wakes most. */
static void print_profile(const des_engine *e)
{
    GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    for (unsigned i = 0; i < e->actors->len; i++) {
        const des_actor *a = g_ptr_array_index(e->actors, i);
        GString *k = g_string_new(NULL);
        for (const char *q = a->name; *q; q++)
            if (!g_ascii_isdigit(*q) || !k->len || k->str[k->len - 1] != '#')
                g_string_append_c(k, g_ascii_isdigit(*q) ? '#' : *q);
        uint64_t *n = g_hash_table_lookup(h, k->str);
        if (!n) {
            n = g_new0(uint64_t, 1);
            g_hash_table_insert(h, g_strdup(k->str), n);
        }
        *n += a->wakeups;
        g_string_free(k, TRUE);
    }
    GList *keys = g_list_sort(g_hash_table_get_keys(h), (GCompareFunc)g_strcmp0);
    fprintf(stderr, "des profile: %" G_GUINT64_FORMAT " wake-ups (%" G_GUINT64_FORMAT
            " inline), %" G_GUINT64_FORMAT " timestamps\n", e->counters.wakeups,
            e->counters.inline_runs, e->counters.timestamps);
    for (GList *l = keys; l; l = l->next)
        fprintf(stderr, "  %-20s %12" G_GUINT64_FORMAT "\n", (char *)l->data,
                *(uint64_t *)g_hash_table_lookup(h, l->data));
    g_list_free(keys);
    g_hash_table_destroy(h);
}

des_time des_run(des_engine *e)
{
    sg_actor_t s = sg_actor_init("scheduler", sg_host_by_name("chip"));
    sg_actor_set_data(s, e);
    sg_actor_start(s, scheduler_main, 0, NULL);
    e->started = true;
    simgrid_run();
    if (g_getenv("SIMTGRID_DES_PROFILE"))
        print_profile(e);
    return e->now;
}

void des_set_limit(des_engine *e, des_time t) { e->limit = t; }
void des_set_lazy_clock(des_engine *e, bool lazy) { e->lazy_clock = lazy; }
void des_stop(des_engine *e) { e->stopped = true; }
des_time des_now(const des_engine *e) { return e->now; }
uint64_t des_ticks_per_us_of(const des_engine *e) { return e->ticks_per_us; }
des_counters des_get_counters(const des_engine *e) { return e->counters; }
void des_count_events(des_engine *e, uint64_t n) { e->counters.events += n; }

void des_engine_free(des_engine *e)
{
    if (!e)
        return;
    for (unsigned i = 0; i < e->ports->len; i++)
        des_port_free(g_ptr_array_index(e->ports, i));
    for (unsigned i = 0; i < e->actors->len; i++) {
        des_actor *a = g_ptr_array_index(e->actors, i);
        g_ptr_array_free(a->inputs, TRUE);
        g_ptr_array_free(a->outputs, TRUE);
        g_free(a->in_busy);
        g_free(a->out_wait);
        g_free(a->name);
        g_free(a);
    }
    g_ptr_array_free(e->ports, TRUE);
    g_ptr_array_free(e->enders, TRUE);
    g_array_free(e->journals, TRUE);
    g_ptr_array_free(e->actors, TRUE);
    wakeheap_free(&e->heap);
    g_free(e->batch);
    g_free(e);
}

/* ---- actors ----------------------------------------------------------- */

des_actor *des_actor_new(des_engine *e, const char *name, des_actor_fn fn, void *data)
{
    /* The scheduler starts the first batch once every block has suspended
     * itself for its first turn (scheduler_main). */
    if (e->started)
        g_error("des: block %s made during the run; make every block before des_run", name);
    des_actor *a = g_new0(des_actor, 1);
    a->engine = e;
    a->name = g_strdup(name);
    a->id = e->actors->len;
    a->fn = fn;
    a->data = data;
    a->wake_at = DES_NEVER;
    a->lookahead = DES_NEVER;
    a->inputs = g_ptr_array_new();
    a->outputs = g_ptr_array_new();
    g_ptr_array_add(e->actors, a);
    a->sg = sg_actor_init(name, sg_host_by_name("chip"));
    sg_actor_set_data(a->sg, a);
    sg_actor_start(a->sg, actor_main, 0, NULL);
    a->batch_at = DES_NEVER;
    /* Every block runs once at the current time to set itself up. */
    wakeheap_request(&e->heap, a, e->now);
    return a;
}

des_engine *des_actor_engine(const des_actor *a) { return a->engine; }
const char *des_actor_name(const des_actor *a) { return a->name; }
unsigned des_actor_id(const des_actor *a) { return a->id; }
des_time des_lookahead(const des_actor *a) { return a->lookahead; }

const uint64_t *des_actor_busy_inputs(const des_actor *a, unsigned *words)
{
    *words = a->in_words;
    return a->in_busy;
}

void des_actor_note_lookahead(des_actor *a, des_time t)
{
    if (a && t < a->lookahead)
        a->lookahead = t;
}

void des_actor_wake_on_edges(des_actor *a, const des_clock *clk) { a->edges = clk; }

void des_actor_may_end_run(des_actor *a)
{
    if (!a->ends_run)
        g_ptr_array_add(a->engine->enders, a);
    a->ends_run = true;
}

void des_wake_at(des_actor *a, des_time t)
{
    des_engine *e = a->engine;
    if (t == DES_NEVER)
        return;
    if (a->edges)
        t = des_edge_at_or_after(a->edges, t);
    if (e->started && t <= e->now)
        g_error("des: actor %s asked to run at tick %" G_GUINT64_FORMAT
                ", not after the current tick %" G_GUINT64_FORMAT, a->name, t, e->now);
    wakeheap_request(&e->heap, a, t);
}

void des_wake_instead(des_actor *a, des_time t)
{
    wakeheap_remove(&a->engine->heap, a);
    des_wake_at(a, t);
}

des_time des_ports_due(const des_actor *self, des_time t)
{
    /* Only ports holding a message or with a waiting sender can answer
     * anything but DES_NEVER: visit those (a crossbar has 1,024 inputs). */
    des_time due = DES_NEVER;
    for (unsigned w = 0; w < self->in_words; w++)
        for (uint64_t v = self->in_busy[w]; v; v &= v - 1) {
            const des_port *p = g_ptr_array_index(self->inputs, w * 64 + (unsigned)__builtin_ctzll(v));
            des_time d = des_port_receiver_due(p, t);
            if (d < due)
                due = d;
        }
    for (unsigned w = 0; w < self->out_words; w++)
        for (uint64_t v = self->out_wait[w]; v; v &= v - 1) {
            const des_port *p = g_ptr_array_index(self->outputs, w * 64 + (unsigned)__builtin_ctzll(v));
            des_time d = des_port_sender_due(p, t);
            if (d < due)
                due = d;
        }
    return due;
}

uint64_t des_cycle_due(const des_actor *self, const des_clock *clk, des_time t, uint64_t own)
{
    des_time due = des_ports_due(self, t);
    if (due == DES_NEVER)
        return own;
    uint64_t n = des_edge_at_or_after(clk, due) / clk->period;
    return n < own ? n : own;
}

des_time des_block(des_actor *self)
{
    des_engine *e = self->engine;
    /* Wake requests merged into an earlier one are re-derived from the ports:
     * a message still in flight, or a slot a waiting sender will see. */
    des_time due = des_ports_due(self, e->now);
    if (due != DES_NEVER)
        wakeheap_request(&e->heap, self, self->edges ? des_edge_at_or_after(self->edges, due) : due);
    turn_end(e, self);
    return e->now;
}

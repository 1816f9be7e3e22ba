/* Lightweight actors (des_lite.h): a group runs its actors in (time, id)
 * order with the port rules of the engine (latency >= 1 tick, FIFO, a slot
 * popped at u seen by the sender at u + latency). Every expected time below
 * is worked out by hand from the latencies in the test. */
#include <criterion/criterion.h>
#include <glib.h>

#include "simtgrid/des_lite.h"

typedef struct entry {
    char who;
    des_time at;
    char got[4];
} entry;

static entry lg[32];
static unsigned nlg;

static void log_run(char who, des_time at, const char *got)
{
    cr_assert_lt(nlg, 32);
    lg[nlg] = (entry){who, at, {0}};
    g_strlcpy(lg[nlg].got, got, sizeof lg[nlg].got);
    nlg++;
}

static void expect_log(const entry *want, unsigned n)
{
    for (unsigned i = 0; i < nlg; i++)
        cr_log_info("%c %" G_GUINT64_FORMAT " %s", lg[i].who, lg[i].at, lg[i].got);
    cr_assert_eq(nlg, n, "%u runs logged, %u expected", nlg, n);
    for (unsigned i = 0; i < n; i++) {
        cr_expect_eq(lg[i].who, want[i].who, "run %u: %c ran, %c expected", i, lg[i].who, want[i].who);
        cr_expect_eq(lg[i].at, want[i].at, "run %u (%c): at %" G_GUINT64_FORMAT, i, lg[i].who, lg[i].at);
        cr_expect_str_eq(lg[i].got, want[i].got, "run %u (%c)", i, lg[i].who);
    }
}

/* ---- ping-pong --------------------------------------------------------- */

static des_lport *ab, *ba;

static void ping(des_lactor *self, void *data, des_time now)
{
    (void)self;
    (void)data;
    char got[4] = "";
    uint32_t *k = des_lport_peek(ba, now);
    if (k) {
        got[0] = (char)('0' + *k);
        uint32_t next = *k + 1;
        des_lport_pop(ba, now);
        if (next <= 3)
            cr_assert(des_lport_send(ab, &next, now));
    } else if (now == 0) {
        uint32_t first = 1;
        cr_assert(des_lport_send(ab, &first, now));
    }
    log_run('A', now, got);
}

static void pong(des_lactor *self, void *data, des_time now)
{
    (void)self;
    (void)data;
    char got[4] = "";
    uint32_t *k = des_lport_peek(ab, now);
    if (k) {
        got[0] = (char)('0' + *k);
        cr_assert(des_lport_send(ba, k, now));
        des_lport_pop(ab, now);
    }
    log_run('B', now, got);
}

/* A -> B takes 3 ticks, B -> A 2. Both run at 0 (set-up), A sending 1.
 * B gets k at 3, 8, 13 and returns it; A gets it at 5, 10, 15 and sends
 * k + 1 up to 3. A run up to 9 stops after B at 8, with A due at 10. */
Test(lite, ping_pong_times)
{
    nlg = 0;
    des_lgroup *g = des_lgroup_new("pp");
    des_lactor *a = des_lactor_new(g, "A", ping, NULL);
    des_lactor *b = des_lactor_new(g, "B", pong, NULL);
    ab = des_lport_new(g, "ab", a, b, sizeof(uint32_t), 4, 3);
    ba = des_lport_new(g, "ba", b, a, sizeof(uint32_t), 4, 2);
    cr_expect_eq(des_lgroup_run(g, 9), 10);
    cr_expect_eq(nlg, 5);
    cr_expect_eq(des_lgroup_run(g, DES_NEVER), DES_NEVER);
    const entry want[] = {{'A', 0, ""}, {'B', 0, ""}, {'B', 3, "1"}, {'A', 5, "1"},
                          {'B', 8, "2"}, {'A', 10, "2"}, {'B', 13, "3"}, {'A', 15, "3"}};
    expect_log(want, 8);
    cr_expect_eq(des_lgroup_runs(g), 8);
    des_lgroup_free(g);
}

/* ---- same-time order --------------------------------------------------- */

static des_lport *p1, *p2, *r1, *r2;

static void receiver(des_lactor *self, void *data, des_time now)
{
    (void)self;
    (void)data;
    char got[4] = "";
    unsigned n = 0;
    for (des_lport *p = p1;; p = p2) {
        char *c;
        while ((c = des_lport_peek(p, now))) {
            got[n++] = *c;
            des_lport_pop(p, now);
        }
        if (p == p2)
            break;
    }
    if (n) {
        char ack = 'k';
        cr_assert(des_lport_send(r1, &ack, now));
        cr_assert(des_lport_send(r2, &ack, now));
    }
    log_run('R', now, got);
}

static void sender(des_lactor *self, void *data, des_time now)
{
    const char *mine = data;
    bool first = des_lactor_id(self) == 1;
    des_lport *out = first ? p1 : p2, *in = first ? r1 : r2;
    char got[4] = "";
    char *c = des_lport_peek(in, now);
    if (c) {
        got[0] = *c;
        des_lport_pop(in, now);
    } else if (now == 0) {
        for (const char *m = mine; *m; m++)
            cr_assert(des_lport_send(out, m, now));
    }
    log_run(first ? 'S' : 'T', now, got);
}

/* R (id 0) receives from S (id 1, sends "ab") and T (id 2, sends "c"),
 * both at 0 with latency 2: R runs at 2 and drains its ports in its own
 * order, p1 then p2, whatever order the sends had: "abc". It acks both with
 * latency 1, so S and T are due together at 3 and run in id order. */
Test(lite, equal_times_run_in_id_order_and_ports_keep_fifo_order)
{
    nlg = 0;
    des_lgroup *g = des_lgroup_new("order");
    des_lactor *r = des_lactor_new(g, "R", receiver, NULL);
    des_lactor *s = des_lactor_new(g, "S", sender, "ab");
    des_lactor *t = des_lactor_new(g, "T", sender, "c");
    p1 = des_lport_new(g, "p1", s, r, 1, 4, 2);
    p2 = des_lport_new(g, "p2", t, r, 1, 4, 2);
    r1 = des_lport_new(g, "r1", r, s, 1, 4, 1);
    r2 = des_lport_new(g, "r2", r, t, 1, 4, 1);
    cr_expect_eq(des_lgroup_run(g, DES_NEVER), DES_NEVER);
    const entry want[] = {{'R', 0, ""}, {'S', 0, ""}, {'T', 0, ""}, {'R', 2, "abc"},
                          {'S', 3, "k"}, {'T', 3, "k"}};
    expect_log(want, 6);
    des_lgroup_free(g);
}

/* ---- credits ----------------------------------------------------------- */

static des_lport *cp;
static unsigned sent;

static void credit_sender(des_lactor *self, void *data, des_time now)
{
    (void)data;
    if (now == 0)
        des_lactor_wake_at(self, 3);
    while (sent < 2) {
        char c = (char)('1' + sent);
        if (!des_lport_send(cp, &c, now))
            break;
        sent++;
    }
    char got[4] = {(char)('0' + sent), 0};
    log_run('S', now, got);
}

static void credit_receiver(des_lactor *self, void *data, des_time now)
{
    (void)self;
    (void)data;
    char got[4] = "";
    char *c = des_lport_peek(cp, now);
    if (c) {
        got[0] = *c;
        des_lport_pop(cp, now);
    }
    log_run('R', now, got);
}

/* Capacity 1, latency 2. S sends '1' at 0; its second send fails (full).
 * R pops '1' at 2; the slot is S's again at 2 + 2 = 4: S, also woken at 3
 * by its own request, still fails then, is woken at 4 and sends '2', which
 * R gets at 6. */
Test(lite, a_popped_slot_returns_to_the_sender_after_the_latency)
{
    nlg = 0;
    sent = 0;
    des_lgroup *g = des_lgroup_new("credit");
    des_lactor *s = des_lactor_new(g, "S", credit_sender, NULL);
    des_lactor *r = des_lactor_new(g, "R", credit_receiver, NULL);
    cp = des_lport_new(g, "cp", s, r, 1, 1, 2);
    cr_expect_eq(des_lgroup_run(g, DES_NEVER), DES_NEVER);
    const entry want[] = {{'S', 0, "1"}, {'R', 0, ""}, {'R', 2, "1"}, {'S', 3, "1"},
                          {'S', 4, "2"}, {'R', 6, "2"}};
    expect_log(want, 6);
    des_lgroup_free(g);
}

/* ---- hosted in the engine ---------------------------------------------- */

static des_engine *eng;
static const des_time plan_at[] = {5, 9};

static void hosted(des_lactor *self, void *data, des_time now)
{
    unsigned *i = data;
    cr_expect_eq(des_now(eng), now, "the host runs the group at the engine's time");
    log_run('H', now, "");
    if (*i < 2)
        des_lactor_wake_at(self, plan_at[(*i)++]);
}

/* One 1000 MHz clock: 1 tick a cycle. The group's actor asks for 5 and 9:
 * the host, a des_actor, is woken by the engine at exactly those ticks, and
 * the run ends at 9 when nothing is left. */
Test(lite, a_hosted_group_runs_at_the_engine_times)
{
    nlg = 0;
    static des_clock clk[1] = {{"core", 1000000, 0}};
    char *err = NULL;
    eng = des_engine_new(clk, 1, false, &err);
    cr_assert_not_null(eng, "%s", err ? err : "");
    des_lgroup *g = des_lgroup_new("hosted");
    static unsigned i;
    des_lactor_new(g, "H", hosted, &i);
    des_actor_new(eng, "host", des_lgroup_host_main, g);
    cr_expect_eq(des_run(eng), 9);
    const entry want[] = {{'H', 0, ""}, {'H', 5, ""}, {'H', 9, ""}};
    expect_log(want, 3);
}

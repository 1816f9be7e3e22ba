/* Address translation (src/mem/tlb.c): hit/miss sequences, a TLB shared by
 * a group of SMs, the miss path's throughput, and the H100 group map. Every
 * expected cycle is worked out by hand in the comment above it. */
#include <criterion/criterion.h>
#include <string.h>

#include "simtgrid/config.h"

#include "mem/tlb.h"

#define MIB (1024ull * 1024)

/* 4-entry 2-way L1 TLB (2 sets: page % 2), 16-entry 4-way shared TLB,
 * 2 MiB pages; a shared hit adds 10 cycles, a walk 8 more; the shared TLB
 * takes one lookup per cycle and a miss costs the SM's port nothing unless
 * a test changes them. */
static tlb_params small(void)
{
    tlb_params p;
    tlb_params_default(&p);
    p.l1_entries = 4;
    p.l1_ways = 2;
    p.page_bytes = 2 * MIB;
    p.group_entries = 16;
    p.group_ways = 4;
    p.group_hit_cycles = 10;
    p.walk_cycles = 8;
    p.l1_miss_port_cycles = 0;
    p.group_lookups_per_cycle = 1.0;
    return p;
}

static uint64_t page(unsigned k) { return (uint64_t)k * 2 * MIB; }

Test(tlb, hit_miss_sequence)
{
    tlb_params p = small();
    tlb_group *g = tlb_group_new(&p);
    tlb *t = tlb_new(&p, g);
    /* page 0 at 100: misses both TLBs: 100 + 10 + 8 = 118 */
    cr_assert_eq(tlb_translate(t, page(0), 100), 118);
    /* 4 KiB further, same page, at 101: an L1 hit on the miss in flight: 118 */
    cr_assert_eq(tlb_translate(t, page(0) + 4096, 101), 118);
    /* page 0 at 200: translated long ago: 200 */
    cr_assert_eq(tlb_translate(t, page(0), 200), 200);
    /* page 2 (set 0, second way) at 200: walk, 218 */
    cr_assert_eq(tlb_translate(t, page(2), 200), 218);
    /* page 4 (set 0) at 300: walk, 318; evicts page 0, least recently used
     * (used at 200 before page 2 was put in) */
    cr_assert_eq(tlb_translate(t, page(4), 300), 318);
    /* page 2 at 301: still in the L1 TLB: 301 */
    cr_assert_eq(tlb_translate(t, page(2), 301), 301);
    /* page 0 at 400: L1 miss, but the shared TLB kept it: 400 + 10 = 410 */
    cr_assert_eq(tlb_translate(t, page(0), 400), 410);
    tlb_free(t);
    tlb_group_free(g);
}

Test(tlb, group_shares_translations)
{
    tlb_params p = small();
    tlb_group *g0 = tlb_group_new(&p), *g1 = tlb_group_new(&p);
    tlb *a = tlb_new(&p, g0), *b = tlb_new(&p, g0), *c = tlb_new(&p, g1);
    /* SM a walks page 7 at 100: 118 */
    cr_assert_eq(tlb_translate(a, page(7), 100), 118);
    /* SM b of the same group at 120: its L1 misses, the shared TLB hits: 130 */
    cr_assert_eq(tlb_translate(b, page(7), 120), 130);
    /* SM c of another group at 120: a walk of its own: 138 */
    cr_assert_eq(tlb_translate(c, page(7), 120), 138);
    /* SM b at 135 on a page SM a's walk has not finished (page 9: a at 130
     * -> 148): b's lookup finds it in flight and waits for it: max(145, 148) */
    cr_assert_eq(tlb_translate(a, page(9), 130), 148);
    cr_assert_eq(tlb_translate(b, page(9), 135), 148);
    tlb_free(a);
    tlb_free(b);
    tlb_free(c);
    tlb_group_free(g0);
    tlb_group_free(g1);
}

/* Each L1 TLB miss owes its SM's port 0.25 cycles: after misses 1..3 no
 * whole cycle (0.25, 0.5, 0.75), after the 4th one (1.0, leaving 0), a hit
 * owes nothing. The four misses at cycle 0 take the shared TLB one per
 * cycle (rate 1): ready at 0, 1, 2, 3 plus the walk's 10 + 8. */
Test(tlb, miss_port_cost)
{
    tlb_params p = small();
    p.l1_miss_port_cycles = 0.25;
    tlb_group *g = tlb_group_new(&p);
    tlb *t = tlb_new(&p, g);
    static const uint64_t ready[] = {18, 19, 20, 21};
    static const unsigned owed[] = {0, 0, 0, 1};
    for (unsigned k = 0; k < 4; k++) {
        cr_assert_eq(tlb_translate(t, page(10 + k), 0), ready[k], "miss %u", k);
        cr_assert_eq(tlb_take_port_cycles(t), owed[k], "miss %u", k);
    }
    cr_assert_eq(tlb_translate(t, page(13), 30), 30);
    cr_assert_eq(tlb_take_port_cycles(t), 0);
    tlb_free(t);
    tlb_group_free(g);
}

/* Two SMs of one group, the group 0.5 lookups per cycle (2 cycles apart),
 * no latency: a at 0 -> 0, b at 0 -> 2, a at 1 -> 4,
 * b at 1 -> 6: the group's ceiling, whoever asks. An SM of another group
 * at 1 is not slowed: 1. */
Test(tlb, group_lookup_rate)
{
    tlb_params p = small();
    p.group_hit_cycles = 0;
    p.walk_cycles = 0;
    p.group_lookups_per_cycle = 0.5;
    tlb_group *g0 = tlb_group_new(&p), *g1 = tlb_group_new(&p);
    tlb *a = tlb_new(&p, g0), *b = tlb_new(&p, g0), *c = tlb_new(&p, g1);
    cr_assert_eq(tlb_translate(a, page(20), 0), 0);
    cr_assert_eq(tlb_translate(b, page(21), 0), 2);
    cr_assert_eq(tlb_translate(a, page(22), 1), 4);
    cr_assert_eq(tlb_translate(b, page(23), 1), 6);
    cr_assert_eq(tlb_translate(c, page(24), 1), 1);
    tlb_free(a);
    tlb_free(b);
    tlb_free(c);
    tlb_group_free(g0);
    tlb_group_free(g1);
}

/* The H100 map: the groups ubench5 measured (cpc, tlbsm pair maps):
 * {0,1,48,49,128,129}, {2,3,50,51,92,93}, {20,21,66,67,108,109}; gsms's
 * 8-block point: 124, 125, 130, 131 in one group, 126-127 and 128-129 in
 * two others. 24 groups (8 GPCs x 3). The consecutive map of 6: SM 5 in
 * group 0, SM 6 in group 1, 22 groups for 132 SMs. */
Test(tlb, group_maps)
{
    tlb_params p;
    tlb_params_default(&p);
    p.group_map = TLB_GROUP_H100;
    cr_assert_eq(tlb_ngroups(&p, 132), 24);
    static const unsigned g0[] = {0, 1, 48, 49, 128, 129}, g2[] = {2, 3, 50, 51, 92, 93},
                          g20[] = {20, 21, 66, 67, 108, 109}, g124[] = {124, 125, 130, 131};
    for (unsigned i = 0; i < 6; i++) {
        cr_assert_eq(tlb_group_of(&p, g0[i]), tlb_group_of(&p, 0));
        cr_assert_eq(tlb_group_of(&p, g2[i]), tlb_group_of(&p, 2));
        cr_assert_eq(tlb_group_of(&p, g20[i]), tlb_group_of(&p, 20));
    }
    for (unsigned i = 0; i < 4; i++)
        cr_assert_eq(tlb_group_of(&p, g124[i]), tlb_group_of(&p, 124));
    cr_assert_neq(tlb_group_of(&p, 0), tlb_group_of(&p, 2));
    cr_assert_neq(tlb_group_of(&p, 0), tlb_group_of(&p, 16));   /* same GPC, next TPC */
    cr_assert_neq(tlb_group_of(&p, 126), tlb_group_of(&p, 124));
    cr_assert_neq(tlb_group_of(&p, 126), tlb_group_of(&p, 128));
    unsigned n[24] = {0};
    for (unsigned s = 0; s < 132; s++)
        n[tlb_group_of(&p, s)]++;
    for (unsigned k = 0; k < 24; k++)
        cr_assert(n[k] == 4 || n[k] == 6, "group %u has %u SMs", k, n[k]);
    p.group_map = TLB_GROUP_CONSECUTIVE;
    p.group_sms = 6;
    cr_assert_eq(tlb_group_of(&p, 5), 0);
    cr_assert_eq(tlb_group_of(&p, 6), 1);
    cr_assert_eq(tlb_ngroups(&p, 132), 22);
}

/* The measured map serves any chip of up to 132 SMs (the first SMs keep
 * their groups) and is refused, naming the key, beyond. */
static bool h100_map_with_sms(const char *sms, char **msg)
{
    config *c = config_new();
    GError *err = NULL;
    cr_assert(config_set(c, "tlb.l1_entries", "128", "test", &err));
    cr_assert(config_set(c, "tlb.group_map", "h100", "test", &err));
    cr_assert(config_set(c, "gpu.sms", sms, "test", &err));
    tlb_params p;
    bool ok = tlb_params_from_config(&p, c, &err);
    *msg = err ? g_strdup(err->message) : NULL;
    g_clear_error(&err);
    config_free(c);
    return ok;
}

Test(tlb, h100_map_up_to_132_sms)
{
    char *msg;
    cr_expect(h100_map_with_sms("2", &msg));
    cr_expect(h100_map_with_sms("132", &msg));
    cr_expect_not(h100_map_with_sms("133", &msg));
    cr_assert_not_null(msg);
    cr_expect(strstr(msg, "tlb.group_map") != NULL, "message: %s", msg);
    g_free(msg);
}

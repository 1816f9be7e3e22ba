/* The PDOM reconvergence stack against the worked examples of the papers.
 * Masks are written as in the papers, thread 0 first: "1110" = threads 0-2
 * = bits 0b0111. Entries are {pc, rpc, mask}; e[0] is the bottom. */
#include <criterion/criterion.h>

#include "core/pdom.h"

static uint32_t m(const char *s)
{
    uint32_t v = 0;
    for (unsigned i = 0; s[i]; i++)
        if (s[i] == '1')
            v |= 1u << i;
    return v;
}

static void expect_entry(const pdom_stack *s, unsigned i, uint32_t pc, uint32_t rpc, const char *mask)
{
    cr_assert(i < s->depth, "entry %u missing (depth %u)", i, s->depth);
    cr_expect_eq(s->e[i].pc, pc, "entry %u pc %u, expected %u", i, s->e[i].pc, pc);
    cr_expect_eq(s->e[i].rpc, rpc, "entry %u rpc %u, expected %u", i, s->e[i].rpc, rpc);
    cr_expect_eq(s->e[i].mask, m(mask), "entry %u mask %x, expected %s", i, s->e[i].mask, mask);
}

/* One instruction at the TOS sends lane l to next[l]. */
static void step(pdom_stack *s, const uint32_t *next, uint32_t fallthrough, uint32_t ipdom)
{
    pdom_update(s, next, fallthrough, ipdom, 0);
}

/* Fung's DWF thesis, section 3.2, Fig 3.1: A -> B (1110, taken) / F (0001); B
 * -> C (1000, taken) / D (0110); C, D meet at E; E, F meet at G. */
Test(pdom, dwf_fig_3_1)
{
    enum { A, B, C, D, E, F, G };
    pdom_stack s;
    pdom_init(&s, A, m("1111"));
    uint32_t at_a[4] = {B, B, B, F};
    step(&s, at_a, F, G);
    /* "Before the branch in B: [G,1111,-] [F,0001,G] [B,1110,G]" */
    cr_assert_eq(s.depth, 3);
    expect_entry(&s, 0, G, PDOM_NO_RPC, "1111");
    expect_entry(&s, 1, F, G, "0001");
    expect_entry(&s, 2, B, G, "1110");
    uint32_t at_b[4] = {C, D, D, 0};
    step(&s, at_b, D, E);
    /* (i) B entry becomes [E,1110,G]; (ii) push [D,0110,E]; (iii) push [C,1000,E] */
    cr_assert_eq(s.depth, 5);
    expect_entry(&s, 2, E, G, "1110");
    expect_entry(&s, 3, D, E, "0110");
    expect_entry(&s, 4, C, E, "1000");
    pdom_advance(&s, E);   /* C runs to E and pops */
    cr_assert_eq(s.depth, 4);
    expect_entry(&s, 3, D, E, "0110");
    pdom_advance(&s, E);   /* D runs to E and pops: TOS [E,1110,G] */
    cr_assert_eq(s.depth, 3);
    expect_entry(&s, 2, E, G, "1110");
    pdom_advance(&s, G);   /* E runs to G, pops; F runs */
    cr_assert_eq(s.depth, 2);
    expect_entry(&s, 1, F, G, "0001");
    pdom_advance(&s, G);   /* F runs to G, pops: [G,1111,-] continues */
    cr_assert_eq(s.depth, 1);
    expect_entry(&s, 0, G, PDOM_NO_RPC, "1111");
    uint32_t none[4] = {0};
    pdom_update(&s, none, G + 1, PDOM_NO_RPC, m("1111"));   /* exit */
    cr_expect(pdom_empty(&s));
}

/* Narasiman et al., MICRO 2011 [P], Fig 3, and Narasiman's dissertation
 * [D], Fig 2.2: A (1111) -> B (1011,
 * taken, run first) / C (0100), meeting at D. The papers hold the current
 * pc/mask outside the stack with a join entry {rec D, 1111, exec D}: their
 * stack is ours minus the TOS, and their {rec, mask, exec} is our {rpc,
 * mask, pc}; the join entry's rec is the pc where it would pop at once,
 * which is ours executing D. Layout: C is the fall-through of A. */
Test(pdom, lwm_fig_3)
{
    enum { A, C, B, D };
    pdom_stack s;
    pdom_init(&s, A, m("1111"));
    uint32_t at_a[4] = {B, C, B, B};
    step(&s, at_a, C, D);
    /* "After A: PC=B, mask=1011. Stack: [D,1111,D] and, on top, [D,0100,C]" */
    cr_assert_eq(s.depth, 3);
    cr_expect_eq(pdom_top(&s)->pc, B);
    cr_expect_eq(pdom_top(&s)->mask, m("1011"));
    expect_entry(&s, 1, C, D, "0100");   /* their [rec D, 0100, exec C] */
    expect_entry(&s, 0, D, PDOM_NO_RPC, "1111");   /* their join [D,1111,D] */
    pdom_advance(&s, D);
    /* "After B: PC=C, mask=0100. Stack holds [D,1111,D]" */
    cr_assert_eq(s.depth, 2);
    cr_expect_eq(pdom_top(&s)->pc, C);
    cr_expect_eq(pdom_top(&s)->mask, m("0100"));
    expect_entry(&s, 0, D, PDOM_NO_RPC, "1111");
    pdom_advance(&s, D);
    /* "After C: PC=D, mask=1111, stack empty" */
    cr_assert_eq(s.depth, 1);
    cr_expect_eq(pdom_top(&s)->pc, D);
    cr_expect_eq(pdom_top(&s)->mask, m("1111"));
}

/* Meng et al., DWS report, section 4, Fig 3 (SIMD width 8): A sends 11111001
 * to B (taken, top of stack) and 00000110 to C; both re-converge at D. */
Test(pdom, dws_fig_3)
{
    enum { A, C, B, D };
    pdom_stack s;
    pdom_init(&s, A, m("11111111"));
    uint32_t at_a[8] = {B, B, B, B, B, C, C, B};
    step(&s, at_a, C, D);
    cr_assert_eq(s.depth, 3);
    expect_entry(&s, 0, D, PDOM_NO_RPC, "11111111");
    expect_entry(&s, 1, C, D, "00000110");
    expect_entry(&s, 2, B, D, "11111001");
    pdom_advance(&s, D);
    expect_entry(&s, 1, C, D, "00000110");
    cr_expect_eq(s.depth, 2);
    pdom_advance(&s, D);
    cr_expect_eq(s.depth, 1);
    expect_entry(&s, 0, D, PDOM_NO_RPC, "11111111");
}

/* An if without else: the taken lanes jump straight to the IPDOM, so their
 * entry pops at once and the fall-through lanes run the body. */
Test(pdom, if_without_else_pops_taken_path_at_once)
{
    enum { A, BODY, JOIN };
    pdom_stack s;
    pdom_init(&s, A, m("1111"));
    uint32_t next[4] = {JOIN, BODY, JOIN, BODY};
    step(&s, next, BODY, JOIN);
    cr_assert_eq(s.depth, 2);
    expect_entry(&s, 1, BODY, JOIN, "0101");
    expect_entry(&s, 0, JOIN, PDOM_NO_RPC, "1111");
}

/* Threads that exit on a divergent path leave every entry; an entry left
 * empty is popped and the reconvergence entry runs with the survivors. */
Test(pdom, exit_on_one_path)
{
    enum { A, B, C, D };
    pdom_stack s;
    pdom_init(&s, A, m("1111"));
    uint32_t at_a[4] = {B, B, C, C};
    step(&s, at_a, C, D);   /* TOS: B/1100, then C/0011, then D/1111 */
    expect_entry(&s, 2, B, D, "1100");
    uint32_t none[4] = {0};
    pdom_update(&s, none, B + 1, PDOM_NO_RPC, m("1100"));   /* B: exit */
    cr_assert_eq(s.depth, 2);
    expect_entry(&s, 1, C, D, "0011");
    expect_entry(&s, 0, D, PDOM_NO_RPC, "0011");
    pdom_advance(&s, D);
    cr_assert_eq(s.depth, 1);
    expect_entry(&s, 0, D, PDOM_NO_RPC, "0011");
}

/* A loop: lanes leave one by one; the loop's exit block is the IPDOM.
 * Only the TOS is compared with its rpc, so a leaving lane's entry
 * (pc == rpc == exit block) waits under the loop entry until the loop's
 * last lane leaves; then everything pops down to the bottom entry. */
Test(pdom, loop_divergence)
{
    enum { HEAD, EXIT_BLK };
    pdom_stack s;
    pdom_init(&s, HEAD, m("111"));
    /* lane 0 leaves after the first trip, lanes 1, 2 loop (backward taken) */
    uint32_t n1[3] = {EXIT_BLK, HEAD, HEAD};
    step(&s, n1, EXIT_BLK, EXIT_BLK);
    cr_assert_eq(s.depth, 3);
    expect_entry(&s, 0, EXIT_BLK, PDOM_NO_RPC, "111");
    expect_entry(&s, 1, EXIT_BLK, EXIT_BLK, "100");
    expect_entry(&s, 2, HEAD, EXIT_BLK, "011");
    uint32_t n2[3] = {0, EXIT_BLK, HEAD};
    step(&s, n2, EXIT_BLK, EXIT_BLK);
    cr_assert_eq(s.depth, 5);
    expect_entry(&s, 2, EXIT_BLK, EXIT_BLK, "011");
    expect_entry(&s, 3, EXIT_BLK, EXIT_BLK, "010");
    expect_entry(&s, 4, HEAD, EXIT_BLK, "001");
    uint32_t n3[3] = {0, 0, EXIT_BLK};
    step(&s, n3, EXIT_BLK, EXIT_BLK);
    cr_assert_eq(s.depth, 1);
    expect_entry(&s, 0, EXIT_BLK, PDOM_NO_RPC, "111");
}

/* 32 lanes leaving a loop one per trip reach the deepest stack: 1 + 2 x 31
 * = 63 entries (within the DWF bound of 2N + 2), then reconverge. */
Test(pdom, deepest_loop_stack)
{
    enum { HEAD, EXIT_BLK };
    pdom_stack s;
    pdom_init(&s, HEAD, UINT32_MAX);
    for (unsigned trip = 0; trip < 32; trip++) {
        uint32_t next[32];
        for (unsigned l = 0; l < 32; l++)
            next[l] = l <= trip ? EXIT_BLK : HEAD;
        step(&s, next, EXIT_BLK, EXIT_BLK);
        if (trip < 31)
            cr_assert_eq(s.depth, 3 + 2 * trip, "trip %u: depth %u", trip, s.depth);
    }
    cr_assert_eq(s.depth, 1);
    expect_entry(&s, 0, EXIT_BLK, PDOM_NO_RPC, "11111111111111111111111111111111");
}

/* pdom_update_two, the branch's form (lanes in `sel` to one pc, the rest
 * to another), gives the stacks worked out above for pdom_update: Fung's
 * Fig 3.1 first branch (A: 1110 taken to B, 0001 to the fall-through F),
 * a loop trip with an exit (the exited lanes leave every entry), one pc
 * for all, and two targets neither of which falls through, pushed in the
 * order of their lowest lanes as pdom_update finds them. */
Test(pdom, two_targets)
{
    enum { A, B, C, D, E, F, G };
    pdom_stack s;
    pdom_init(&s, A, m("1111"));
    pdom_update_two(&s, m("1110"), B, F, F, G, 0);
    cr_assert_eq(s.depth, 3);
    expect_entry(&s, 0, G, PDOM_NO_RPC, "1111");
    expect_entry(&s, 1, F, G, "0001");
    expect_entry(&s, 2, B, G, "1110");

    pdom_init(&s, A, m("1111"));   /* lanes 0, 1 exit; 2 jumps to C, 3 falls to B */
    pdom_update_two(&s, m("1110"), C, B, B, D, m("1100"));
    cr_assert_eq(s.depth, 3);
    expect_entry(&s, 0, D, PDOM_NO_RPC, "0011");
    expect_entry(&s, 1, B, D, "0001");
    expect_entry(&s, 2, C, D, "0010");

    pdom_init(&s, A, m("1111"));   /* taken and fall-through are one pc */
    pdom_update_two(&s, m("0101"), B, B, B, C, 0);
    cr_assert_eq(s.depth, 1);
    expect_entry(&s, 0, B, PDOM_NO_RPC, "1111");

    pdom_init(&s, A, m("1111"));   /* X = E (lanes 0, 1), Y = F (2, 3); falls to G */
    pdom_update_two(&s, m("0011"), F, E, G, D, 0);
    cr_assert_eq(s.depth, 3);
    expect_entry(&s, 0, D, PDOM_NO_RPC, "1111");
    expect_entry(&s, 1, E, D, "1100");
    expect_entry(&s, 2, F, D, "0011");
}
